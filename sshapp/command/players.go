package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// Players is what the commands need of the people and their keys.
// *store.Store implements it.
type Players interface {
	PersonByKey(ctx context.Context, fingerprint string) (store.Person, error)
	Person(ctx context.Context, id string) (store.Person, error)
	PersonByName(ctx context.Context, name string) (store.Person, error)
	Tally(ctx context.Context, person string) (store.Tally, error)
	PublicTally(ctx context.Context, person string) (store.Tally, error)
	AddKeyCode(ctx context.Context, person, code string, expires time.Time) error
	JoinKey(ctx context.Context, code, fingerprint string, now time.Time) (store.Joined, error)
	RemoveKey(ctx context.Context, person, fingerprint string) (store.Person, error)
	// ChangeSettings changes a person's settings in one transaction
	// (settings).
	ChangeSettings(ctx context.Context, person string, change func(*store.Settings)) (store.Person, error)
}

// Records is what the history, replay, stats, leaderboard and ban
// commands need from storage. *store.Store implements it.
type Records interface {
	TableRecords(ctx context.Context, name string) ([]store.TableRecord, error)
	History(ctx context.Context, q store.Query, keep store.GameFilter) ([]store.Game, error)
	Rounds(ctx context.Context, ids []string) ([]int, error)
	// ShownGame reads a game the caller may see; one they may not is not
	// found, by the same steps as one that does not exist.
	ShownGame(ctx context.Context, id string, keep store.GameFilter) (store.Game, []engine.Event, error)
	Rating(ctx context.Context, person string, b store.Board) (store.Rating, error)
	Leaderboard(ctx context.Context, q store.BoardQuery) ([]store.Rating, error)
	Seasons(ctx context.Context, table *store.TableRecord, p rating.Period) ([]rating.Season, error)
	Champion(ctx context.Context, b store.Board) (store.Rating, bool, error)
	Trend(ctx context.Context, person string, table *store.TableRecord, n int) ([]store.Point, error)
	RebuildRatings(ctx context.Context) (store.Rebuilt, error)
	Ban(ctx context.Context, b store.Ban) error
	Unban(ctx context.Context, target string) error
	Banned(ctx context.Context, fingerprint string) (store.Ban, error)
	BanOf(ctx context.Context, target string) (store.Ban, error)
	Bans(ctx context.Context) ([]store.Ban, error)
}

// records is the server's Records; nil after a refusal written for c.
func (c *Call) records() Records {
	r := c.cfg.Records
	if r == nil {
		c.Refuse("%s is not available on this server", c.cmd.Name)
	}
	return r
}

// viewer is the caller as the lobby's access rule sees them.
func (c *Call) viewer() lobby.Viewer { return c.lobbyPlayer().Viewer() }

// shows is the filter of the stored games the caller may see.
func (c *Call) shows() store.GameFilter { return lobbystore.Shows(c.viewer()) }

// lobbyPlayer is the caller as the lobby knows them.
func (c *Call) lobbyPlayer() lobby.Player {
	return lobby.Player{ID: c.Person.ID, Key: c.Key, Admin: c.Admin, Source: c.Session.Source()}
}

// errNoPlayer: a PLAYER argument names nobody (reworded with the name:
// noPlayer).
var errNoPlayer = lobby.NewError(lobby.NotFound, "no such player")

// noPlayer is errNoPlayer for the argument arg.
func noPlayer(arg string) error {
	return lobby.Reword(errNoPlayer, "no player is called %s", words.Echo(arg))
}

// target is a PLAYER argument found: a person (of any kind), or a key.
type target struct {
	ID   string // the person's id; "" for a key that is nobody's
	Name string // their name now ("" for a key that is nobody's)
	Key  string // the key, when the argument was a fingerprint
	Keys []store.Key
}

// shown is the target's name for plain output, or its key shortened.
func (w target) shown() string {
	if w.Name != "" {
		return words.Clean(w.Name, lobby.MaxUDPNameLen) // the longest name of any door
	}
	return shortFP(w.Key)
}

// findPlayer reads a PLAYER argument: a name (any case, or any name that
// looks like it: lobby.Alike), a person's id ("p:7", "bot:hard:ada",
// "maexchen:NAME", as --json output shows them), a key's fingerprint
// ("SHA256:…", which needs no person), or the name of a key-less player
// who played (a built-in bot, a bot of the Mäxchen gateway). A built-in
// bot's name is the bot's, even where a person took it before bots' names
// were reserved.
func (cfg *Config) findPlayer(ctx context.Context, arg string) (target, error) {
	switch {
	case ident.IsKey(arg):
		p, err := cfg.Players.PersonByKey(ctx, arg)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return target{Key: arg}, nil
		case err != nil:
			return target{}, fmt.Errorf("player %s: %w", arg, err)
		}
		return target{ID: p.ID, Name: p.Name, Key: arg, Keys: p.Keys}, nil
	case ident.HasKeys(arg):
		p, err := cfg.Players.Person(ctx, arg)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return target{}, noPlayer(arg)
		case err != nil:
			return target{}, fmt.Errorf("player %s: %w", arg, err)
		}
		return target{ID: p.ID, Name: p.Name, Keys: p.Keys}, nil
	}
	if name, ok := ident.KeylessName(arg); ok {
		return target{ID: arg, Name: name}, nil
	}
	if lobby.IsBotName(arg) {
		w, err := cfg.findKeyless(ctx, arg, true)
		if !errors.Is(err, errNoPlayer) {
			return w, err
		}
	}
	p, err := cfg.Players.PersonByName(ctx, arg)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return cfg.findKeyless(ctx, arg, false)
	case err != nil:
		return target{}, fmt.Errorf("player %q: %w", arg, err)
	}
	return target{ID: p.ID, Name: p.Name, Keys: p.Keys}, nil
}

// findKeyless finds a rated key-less player (a built-in bot only, when
// builtin) by name, when exactly one of that name has played (bots of
// different levels share names).
func (cfg *Config) findKeyless(ctx context.Context, name string, builtin bool) (target, error) {
	none := noPlayer(name)
	recs := cfg.Records
	if recs == nil {
		return target{}, none
	}
	all, err := recs.Leaderboard(ctx, store.BoardQuery{})
	if err != nil {
		return target{}, fmt.Errorf("find %q: %w", name, err)
	}
	var found []store.Rating
	for _, r := range all {
		_, keyless := ident.KeylessName(r.Person)
		if keyless && (!builtin || lobby.IsBuiltinBot(r.Person)) && strings.EqualFold(r.Name, name) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return target{}, none
	case 1:
		return target{ID: found[0].Person, Name: found[0].Name}, nil
	}
	ids := make([]string, len(found))
	for i, r := range found {
		ids[i] = r.Person
	}
	return target{}, lobby.Reword(errAmbiguous, "%d players are called %s; name one: %s", len(found),
		words.Clean(name, lobby.MaxNameLen), strings.Join(ids, ", "))
}

// errAmbiguous: a PLAYER argument names more than one bot (reworded with
// the name and the ids to choose from).
var errAmbiguous = lobby.NewError(lobby.Refused, "more than one player has that name")

// player resolves a PLAYER argument for c; ok is false after a refusal.
func (c *Call) player(ctx context.Context, arg string) (target, bool) {
	w, err := c.cfg.findPlayer(ctx, arg)
	return c.found(w, err)
}

// found is what findPlayer found, or its refusal (errNoPlayer,
// errAmbiguous: their sentences); ok is false after a refusal.
func (c *Call) found(w target, err error) (target, bool) {
	if err != nil {
		c.fail("read the players", err)
		return target{}, false
	}
	return w, true
}

// person resolves a PLAYER argument that must be a person (not a key
// nobody has); ok is false after a refusal.
func (c *Call) person(ctx context.Context, arg string) (target, bool) {
	w, ok := c.player(ctx, arg)
	if ok && w.ID == "" {
		c.Refuse("the key %s is nobody's: no player", shortFP(w.Key))
		return target{}, false
	}
	return w, ok
}

// shortFP shortens a fingerprint for tables of text.
func shortFP(fp string) string {
	fp = words.Clean(fp, 80)
	if len(fp) > 19 {
		return fp[:19] + "…"
	}
	return fp
}

// botLabel is a player's name with what they are: "ada (hard bot)" for a
// built-in bot, "name (bot)" for a player who played as a bot (every
// game, when counted: see store.Rating.Bot); other names as they are.
func botLabel(name, id string, bot bool) string {
	name = words.Clean(name, lobby.MaxNameLen)
	if !bot {
		return name
	}
	if rest, ok := strings.CutPrefix(id, lobby.BotIDPrefix); ok {
		if level, _, ok := strings.Cut(rest, ":"); ok {
			return name + " (" + words.Clean(level, 16) + " bot)"
		}
	}
	return name + " (bot)"
}
