package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// banCommand is for server admins.
var banCommand = Command{
	Name:    "ban",
	Args:    "[PLAYER|FINGERPRINT|udp:ADDRESS]",
	Summary: "server admins: keeps a player (every key of theirs; a Mäxchen bot is the player maexchen:NAME) or one key off the server (closes their sessions), or UDP addresses off the Mäxchen gateway; alone, lists the bans",
	JSON:    true,
	Run:     runBan,
}

// BanJSON is the document of `ban --json` and `unban --json`, and one ban
// of the list: a ban of a person (every key of theirs; a Mäxchen bot),
// of one key, or of UDP addresses.
type BanJSON struct {
	Person   string    `json:"person,omitempty"` // a banned person's id
	Key      string    `json:"key,omitempty"`    // a banned key
	UDP      string    `json:"udp,omitempty"`    // banned UDP addresses: an address or a network (CIDR)
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
	if ub, udp, err := lobby.ParseUDPBan(c.Args[0]); udp {
		switch {
		case err != nil:
			return c.fail("read the ban", err)
		case ub.Name == "":
			return banUDP(ctx, c, recs, ub)
		}
		// A Mäxchen bot is a person: banned as one, below.
	}
	arg := c.Args[0]
	if ident.IsKey(arg) && !ident.WellFormedKey(arg) {
		return c.Refuse("%s is not a key's fingerprint: that is SHA256: and 43 characters, as ssh-keygen -lf KEYFILE prints it",
			words.Echo(arg))
	}
	w, err := c.cfg.findPlayer(ctx, arg)
	if errors.Is(err, errNoPlayer) && lobby.IsBotName(arg) {
		// Never seated yet, the bot is found by no name: its name says it.
		return c.Refuse("%s is the name of a built-in bot, one of the server's own players: built-in bots cannot be banned",
			words.Echo(arg))
	}
	w, ok := c.found(w, err)
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
		case lobby.IsBuiltinBot(w.ID):
			return c.Refuse("%s (%s) is a built-in bot, one of the server's own players: built-in bots cannot be banned",
				w.shown(), words.Clean(w.ID, 40))
		case !ident.HasKeys(w.ID) && !isUDPBot(w.ID):
			return c.Refuse("%s (%s) is one of the server's own players, not a person: it cannot be banned", w.shown(), words.Clean(w.ID, 40))
		}
		b.Person = w.ID
	}
	if err := recs.Ban(ctx, b); err != nil {
		return c.fail("save the ban", err)
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
	if isUDPBot(b.Person) {
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("Banned the Mäxchen bot %s (%s): %s, and so are names that look like it.",
			w.shown(), words.Clean(b.Person, 40), gatewayTold))
		writeHint(c.Stdout, "Lift it with:", c.Hint("unban "+words.Clean(b.Target(), 80)))
		return ExitOK
	}
	var said string
	switch {
	case b.Key != "" && w.ID == "" && closed == 0:
		said = fmt.Sprintf("Banned the key %s: no one has used this key yet; it is refused from now on", words.Clean(b.Key, 80))
	case b.Key != "" && w.ID == "":
		said = fmt.Sprintf("Banned the key %s: it is nobody's yet (no name was chosen with it); it is refused from now on",
			words.Clean(b.Key, 80))
	case b.Key != "":
		said = fmt.Sprintf("Banned the key %s (%s's; their other keys are not banned): it is refused from now on",
			words.Clean(b.Key, 80), w.shown())
	default:
		said = fmt.Sprintf("Banned %s (%s): every key of theirs is refused from now on", w.shown(), words.Clean(b.Person, 40))
	}
	if closed > 0 {
		said += fmt.Sprintf("; %d open session(s) closed", closed)
	}
	writeWrapped(c.Stdout, "", "", said+".")
	writeHint(c.Stdout, "Lift it with:", c.Hint("unban "+words.Clean(b.Target(), 80)))
	return ExitOK
}

func listBans(ctx context.Context, c *Call, recs Records) int {
	bans, err := recs.Bans(ctx)
	if err != nil {
		return c.fail("read the bans", err)
	}
	out := struct {
		Bans []BanJSON `json:"bans"`
	}{Bans: []BanJSON{}}
	what := make([]string, len(bans))
	for i, b := range bans {
		name := ""
		if b.UDP == "" {
			if w, err := c.cfg.findPlayer(ctx, b.Target()); err == nil {
				name = w.Name
			}
		}
		out.Bans = append(out.Bans, BanJSON{Person: b.Person, Key: b.Key, UDP: b.UDP, Name: name, At: b.At, Banned: true})
		switch {
		case b.Key != "":
			what[i] = "the key " + words.Clean(b.Key, 80)
		case b.UDP != "":
			what[i] = "every bot from " + words.Clean(b.Target(), 60)
		case isUDPBot(b.Person):
			what[i] = "the Mäxchen bot " + words.Clean(b.Person, 40)
		default:
			what[i] = "every key of " + words.Clean(b.Person, 40)
		}
	}
	if c.JSON {
		return c.WriteJSON(out)
	}
	if len(bans) == 0 {
		fmt.Fprintln(c.Stdout, "Nobody is banned.")
		return ExitOK
	}
	rows := make([][]string, len(out.Bans))
	for i, b := range out.Bans {
		rows[i] = []string{b.At.UTC().Format("2006-01-02 15:04"), what[i]}
		if b.Name != "" && !isUDPBot(b.Person) {
			rows[i][1] += " (" + words.Clean(b.Name, lobby.MaxUDPNameLen) + ")"
		}
	}
	writeTable(c.Stdout, []string{"SINCE (UTC)", "BANNED"}, rows, "  ")
	return ExitOK
}
