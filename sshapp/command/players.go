package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// Players is what the commands need of the player and table storage.
// *store.Store implements it.
type Players interface {
	Player(ctx context.Context, fingerprint string) (store.Player, error)
	PlayerByName(ctx context.Context, name string) (store.Player, error)
	SetName(ctx context.Context, fingerprint, name string, bot bool) (store.Player, error)
	Tally(ctx context.Context, fingerprint string) (store.Tally, error)
}

// Records is what the history, replay, stats, leaderboard and ban
// commands need from storage. *store.Store implements it.
type Records interface {
	TableRecords(ctx context.Context, name string) ([]store.Table, error)
	History(ctx context.Context, q store.Query, keep store.GameFilter) ([]store.Game, error)
	Rounds(ctx context.Context, ids []string) ([]int, error)
	Game(ctx context.Context, id string) (store.Game, []engine.Event, error)
	GameShown(ctx context.Context, g store.Game, keep store.GameFilter) (bool, error)
	Rating(ctx context.Context, fingerprint, table string) (store.Rating, error)
	Leaderboard(ctx context.Context, table string, limit int) ([]store.Rating, error)
	Ban(ctx context.Context, b store.Ban) error
	Unban(ctx context.Context, fingerprint string) error
	Banned(ctx context.Context, fingerprint string) (store.Ban, error)
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
	return lobby.Player{Fingerprint: c.Player.Fingerprint, Name: c.Player.Name, Bot: c.Player.Bot, Admin: c.Admin}
}

// serverError logs err and refuses with a message that does not show it.
func (c *Call) serverError(what string, err error) int {
	c.cfg.Log.Error(what, "command", c.cmd.Name, "fingerprint", c.Player.Fingerprint, "err", err)
	return c.Refuse("the server could not %s; please try again later", what)
}

// errNoPlayer: a PLAYER argument names nobody.
var errNoPlayer = errors.New("no such player")

// findPlayer reads a PLAYER argument: a display name (any case), a key
// fingerprint ("SHA256:…"), which needs no profile, or a built-in bot's
// name ("ada") or fingerprint ("bot:hard:ada", as --json output shows
// them). A built-in bot's name is the bot's, even where a person took it
// before bots' names were reserved.
func (cfg *Config) findPlayer(ctx context.Context, arg string) (store.Player, error) {
	if lobby.IsBotName(arg) {
		return cfg.findBot(ctx, arg)
	}
	if rest, ok := strings.CutPrefix(arg, lobby.BotFingerprintPrefix); ok {
		name := rest[strings.LastIndexByte(rest, ':')+1:]
		return store.Player{Fingerprint: arg, Name: name, Bot: true}, nil
	}
	if strings.HasPrefix(arg, "SHA256:") {
		p, err := cfg.Players.Player(ctx, arg)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return store.Player{Fingerprint: arg}, nil
		case err != nil:
			return store.Player{}, fmt.Errorf("player %s: %w", arg, err)
		}
		return p, nil
	}
	p, err := cfg.Players.PlayerByName(ctx, arg)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return cfg.findBot(ctx, arg)
	case err != nil:
		return store.Player{}, fmt.Errorf("player %q: %w", arg, err)
	}
	return p, nil
}

// findBot finds a rated built-in bot by its name, when exactly one bot of
// that name has played (bots of different levels share names).
func (cfg *Config) findBot(ctx context.Context, name string) (store.Player, error) {
	none := fmt.Errorf("%w: %q", errNoPlayer, lobby.Clean(name, lobby.MaxNameLen))
	recs := cfg.Records
	if recs == nil || !lobby.IsBotName(name) {
		return store.Player{}, none
	}
	all, err := recs.Leaderboard(ctx, "", 0)
	if err != nil {
		return store.Player{}, fmt.Errorf("find bot %q: %w", name, err)
	}
	var found []store.Rating
	for _, r := range all {
		if r.Bot && lobby.IsBuiltinBot(r.Fingerprint) && strings.EqualFold(r.Name, name) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return store.Player{}, none
	case 1:
		return store.Player{Fingerprint: found[0].Fingerprint, Name: found[0].Name, Bot: true}, nil
	}
	fps := make([]string, len(found))
	for i, r := range found {
		fps[i] = r.Fingerprint
	}
	return store.Player{}, fmt.Errorf("%w: %d bots are called %s; name one: %s", errAmbiguous, len(found),
		lobby.Clean(name, lobby.MaxNameLen), strings.Join(fps, ", "))
}

// errAmbiguous: a PLAYER argument names more than one bot.
var errAmbiguous = errors.New("ambiguous")

// player resolves a PLAYER argument for c; ok is false after a refusal.
func (c *Call) player(ctx context.Context, arg string) (store.Player, bool) {
	p, err := c.cfg.findPlayer(ctx, arg)
	switch {
	case errors.Is(err, errNoPlayer):
		c.Refuse("no player is called %s", lobby.Clean(arg, lobby.MaxNameLen))
		return store.Player{}, false
	case errors.Is(err, errAmbiguous):
		c.Refuse("%s", strings.TrimPrefix(err.Error(), errAmbiguous.Error()+": "))
		return store.Player{}, false
	case err != nil:
		c.serverError("read the players", err)
		return store.Player{}, false
	}
	return p, true
}

// displayName is a player's name for plain output, or a short fingerprint.
func displayName(p store.Player) string {
	if p.Name != "" {
		return lobby.Clean(p.Name, lobby.MaxNameLen)
	}
	return shortFP(p.Fingerprint)
}

// shortFP shortens a fingerprint for tables of text.
func shortFP(fp string) string {
	fp = lobby.Clean(fp, 80)
	if len(fp) > 19 {
		return fp[:19] + "…"
	}
	return fp
}

// botLabel is a bot's name with what it is: "ada (hard bot)" for a
// built-in bot, "name (bot)" for a bot on the line protocol; other
// players' names as they are.
func botLabel(name, fp string, bot bool) string {
	name = lobby.Clean(name, lobby.MaxNameLen)
	if !bot {
		return name
	}
	if rest, ok := strings.CutPrefix(fp, lobby.BotFingerprintPrefix); ok {
		if level, _, ok := strings.Cut(rest, ":"); ok {
			return name + " (" + lobby.Clean(level, 16) + " bot)"
		}
	}
	return name + " (bot)"
}
