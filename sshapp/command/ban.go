package command

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// banCommand is for server admins.
var banCommand = Command{
	Name:    "ban",
	Args:    "[PLAYER|FINGERPRINT]",
	Summary: "server admins: keeps a player (every key of theirs) or one key off the server (closes their sessions); alone, lists the bans",
	JSON:    true,
	Run:     runBan,
}

// BanJSON is the document of `ban --json` and `unban --json`, and one ban
// of the list: a ban of a person (every key of theirs) or of one key.
type BanJSON struct {
	Person   string    `json:"person,omitempty"` // a banned person's id
	Key      string    `json:"key,omitempty"`    // a banned key
	Name     string    `json:"name"`             // the person's name now ("" for a key that is nobody's)
	At       time.Time `json:"at,omitzero"`
	Sessions int       `json:"sessions_closed,omitempty"`
	Banned   bool      `json:"banned"`
}

func runBan(ctx context.Context, c *Call) int {
	if len(c.Args) > 1 || (len(c.Args) == 1 && strings.HasPrefix(c.Args[0], "-")) {
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may ban")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	if len(c.Args) == 0 {
		return listBans(ctx, c, recs)
	}
	w, ok := c.player(ctx, c.Args[0])
	if !ok {
		return ExitRefused
	}
	b := store.Ban{By: c.Key, At: c.cfg.Now()}
	if w.Key != "" {
		// A fingerprint bans that key alone, whoever it belongs to.
		switch {
		case w.Key == c.Key:
			return c.Refuse("you cannot ban yourself")
		case c.cfg.IsAdmin(w.Key):
			return c.Refuse("%s is a server admin's key; take it out of the admin keys first", shortFP(w.Key))
		}
		b.Key = w.Key
	} else {
		switch {
		case w.ID == c.Person.ID:
			return c.Refuse("you cannot ban yourself")
		case slices.ContainsFunc(w.Keys, func(k store.Key) bool { return c.cfg.IsAdmin(k.Fingerprint) }):
			return c.Refuse("%s holds a server admin's key; take it out of the admin keys first", w.shown())
		}
		b.Person = w.ID
	}
	if err := recs.Ban(ctx, b); err != nil {
		return c.serverError("save the ban", err)
	}
	why := "you are banned from this server"
	if b.Key != "" {
		why = "this key is banned from this server"
	}
	closed := c.cfg.EndSessions(b.Target(), why, nil)
	c.cfg.Log.Warn("banned", "person", b.Person, "key", b.Key, "name", w.Name, "by", c.Key, "sessions", closed)
	if c.JSON {
		return c.WriteJSON(BanJSON{Person: b.Person, Key: b.Key, Name: w.Name, At: b.At.UTC(), Sessions: closed, Banned: true})
	}
	if b.Key != "" {
		whose := ""
		if w.ID != "" {
			whose = " (" + w.shown() + "'s; their other keys are not banned)"
		}
		fmt.Fprintf(c.Stdout, "Banned the key %s%s: it is refused from now on", lobby.Clean(b.Key, 80), whose)
	} else {
		fmt.Fprintf(c.Stdout, "Banned %s (%s): every key of theirs is refused from now on", w.shown(), lobby.Clean(b.Person, 40))
	}
	if closed > 0 {
		fmt.Fprintf(c.Stdout, "; %d open session(s) closed", closed)
	}
	fmt.Fprintf(c.Stdout, ".\nLift it with:  %s\n", c.Hint("unban "+lobby.Clean(b.Target(), 80)))
	return ExitOK
}

func listBans(ctx context.Context, c *Call, recs Records) int {
	bans, err := recs.Bans(ctx)
	if err != nil {
		return c.serverError("read the bans", err)
	}
	out := struct {
		Bans []BanJSON `json:"bans"`
	}{Bans: []BanJSON{}}
	for _, b := range bans {
		name := ""
		if w, err := c.cfg.findPlayer(ctx, b.Target()); err == nil {
			name = w.Name
		}
		out.Bans = append(out.Bans, BanJSON{Person: b.Person, Key: b.Key, Name: name, At: b.At, Banned: true})
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	if len(bans) == 0 {
		fmt.Fprintln(c.Stdout, "Nobody is banned.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BANNED\tNAME\tSINCE")
	for _, b := range out.Bans {
		what := "every key of " + lobby.Clean(b.Person, 40)
		if b.Key != "" {
			what = "the key " + lobby.Clean(b.Key, 80)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", what, lobby.Clean(b.Name, lobby.MaxNameLen), b.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	_ = tw.Flush()
	return ExitOK
}
