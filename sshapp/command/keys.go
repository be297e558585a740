package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// KeyCodeTTL is how long a code of `keys add` is valid.
const KeyCodeTTL = 10 * time.Minute

// Usage lines of the keys subcommands.
const (
	usageKeys       = "keys [--json]"
	usageKeysAdd    = "keys add [--json]"
	usageKeysJoin   = "keys join CODE [--json]"
	usageKeysRemove = "keys remove FINGERPRINT [--json]"
)

var keysUsages = []string{usageKeys, usageKeysAdd, usageKeysJoin, usageKeysRemove}

// keysCommand is `keys [add|join CODE|remove FINGERPRINT]`: one person,
// any number of SSH keys. It runs for a key that is nobody's yet, which
// may only join.
var keysCommand = Command{
	Name:      "keys",
	Args:      "[add | join CODE | remove FINGERPRINT]",
	Summary:   "your SSH keys: lists them; add gives a code that a new key joins you with; remove detaches one",
	JSON:      true,
	Anonymous: true,
	More:      keysHelp,
	Run:       runKeys,
}

func keysHelp(c *Call) {
	for _, u := range keysUsages {
		writeUsage(c.Stdout, c.Session.Hint(""), u)
	}
	fmt.Fprintln(c.Stdout)
	writeWrapped(c.Stdout, "", "", "A person is known by any of their keys: the same name, games and rating from each.")
	writeHint(c.Stdout, "From a machine you play from:", c.Hint("keys add"))
	writeHint(c.Stdout, fmt.Sprintf("then from the new machine, within %s:", words.Plural(int(KeyCodeTTL/time.Minute), "1 minute", "minutes")),
		c.Hint("keys join CODE"))
}

// KeyJSON is one key of the keys documents.
type KeyJSON struct {
	Fingerprint string    `json:"fingerprint"`
	Added       time.Time `json:"added"`
	LastSeen    time.Time `json:"last_seen"`
	InUse       bool      `json:"in_use"` // the key of this session
}

// KeysJSON is the document of `keys --json` and `keys remove --json`.
type KeysJSON struct {
	Person  string    `json:"person"`
	Name    string    `json:"name"`
	Keys    []KeyJSON `json:"keys"`
	Removed string    `json:"removed,omitempty"` // keys remove: the key detached
}

// KeyCodeJSON is the document of `keys add --json`.
type KeyCodeJSON struct {
	Code    string    `json:"code"`
	Expires time.Time `json:"expires"`
	Join    string    `json:"join"` // the command to run from the new machine
}

// KeyJoinJSON is the document of `keys join --json`.
type KeyJoinJSON struct {
	Person string `json:"person"`
	Name   string `json:"name"`
	Keys   int    `json:"keys"`
	// Merged is the id of the person the key belonged to, who had no
	// games and no other key, and is merged into Person; "" if none.
	Merged string `json:"merged,omitempty"`
	// Left is the name that person had (free now), or that the key's
	// former person keeps; "" if the key was nobody's.
	Left string `json:"left,omitempty"`
}

func runKeys(ctx context.Context, c *Call) int {
	sub, args := "", c.Args
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	usage := func(u string) int {
		spec := strings.TrimSuffix(strings.TrimPrefix(u, "keys "+sub), " [--json]")
		return c.usageSaying(u, wrongWords("keys "+sub, spec, args))
	}
	switch sub {
	case "":
		return listKeys(c)
	case "add":
		if len(args) != 0 {
			return usage(usageKeysAdd)
		}
		return addKey(ctx, c)
	case "join":
		if len(args) != 1 || strings.HasPrefix(args[0], "-") {
			return usage(usageKeysJoin)
		}
		return joinKey(ctx, c, args[0])
	case "remove":
		if len(args) != 1 || !ident.IsKey(args[0]) {
			return usage(usageKeysRemove)
		}
		return removeKey(ctx, c, args[0])
	}
	if strings.HasPrefix(sub, "-") {
		fmt.Fprintf(c.Stderr, "mia: unknown flag %s\n", words.Echo(sub))
	} else {
		fmt.Fprintf(c.Stderr, "mia: no keys command %q\n", words.Echo(sub))
	}
	for _, u := range keysUsages {
		writeUsage(c.Stderr, c.Session.Hint(""), u)
	}
	return ExitUsage
}

// needPerson refuses a key that is nobody's yet.
func (c *Call) needPerson() bool {
	if c.Person.ID != "" {
		return true
	}
	c.Refuse("this key is nobody's yet: choose a name (%s), or join it to you from a machine you play from (%s there, then %s here)",
		c.Hint("name NEW"), c.Hint("keys add"), c.Hint("keys join CODE"))
	return false
}

func keysDoc(c *Call, p store.Person) KeysJSON {
	doc := KeysJSON{Person: p.ID, Name: p.Name, Keys: []KeyJSON{}}
	for _, k := range p.Keys {
		doc.Keys = append(doc.Keys, KeyJSON{Fingerprint: k.Fingerprint, Added: k.Added.UTC(), LastSeen: k.LastSeen.UTC(), InUse: k.Fingerprint == c.Key})
	}
	return doc
}

// writeKeys lists a person's keys, the one in use marked, with the days
// (UTC) each was added and last seen: a fingerprint is 51 columns, so the
// hours are left to --json.
func writeKeys(c *Call, doc KeysJSON) {
	rows := make([][]string, len(doc.Keys))
	for i, k := range doc.Keys {
		mark := "  "
		if k.InUse {
			mark = "* "
		}
		rows[i] = []string{mark + words.Clean(k.Fingerprint, 80), k.Added.Format("2006-01-02"), k.LastSeen.Format("2006-01-02")}
	}
	writeTable(c.Stdout, []string{"  FINGERPRINT", "ADDED", "LAST SEEN"}, rows, "    ")
}

func listKeys(c *Call) int {
	if !c.needPerson() {
		return ExitRefused
	}
	doc := keysDoc(c, c.Person)
	if c.JSON {
		return c.WriteJSON(doc)
	}
	fmt.Fprintf(c.Stdout, "The keys of %s (%s); * is the one in use:\n", words.Clean(doc.Name, lobby.MaxNameLen), doc.Person)
	writeKeys(c, doc)
	fmt.Fprintf(c.Stdout, "Add another:  %s\n", c.Hint("keys add"))
	return ExitOK
}

func addKey(ctx context.Context, c *Call) int {
	if !c.needPerson() {
		return ExitRefused
	}
	code, err := newInviteCode()
	if err != nil {
		return c.fail("make a code", err)
	}
	expires := c.cfg.Now().Add(KeyCodeTTL).UTC().Truncate(time.Second)
	if err := c.cfg.Players.AddKeyCode(ctx, c.Person.ID, code, expires); err != nil {
		return c.fail("save the code", err)
	}
	c.cfg.Log.Info("key code made", "person", c.Person.ID, "key", c.Key)
	join := c.Hint("keys join " + code)
	if c.JSON {
		return c.WriteJSON(KeyCodeJSON{Code: code, Expires: expires, Join: join})
	}
	fmt.Fprintf(c.Stdout, "Code: %s (works once, until %s)\n", code, expires.Format("15:04 UTC"))
	fmt.Fprintf(c.Stdout, "From the new machine, with the key it should log in with, run:\n  %s\n", join)
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("That key is then %s's too: the same name, games and rating.", words.Clean(c.Person.Name, lobby.MaxNameLen)))
	return ExitOK
}

func joinKey(ctx context.Context, c *Call, code string) int {
	code = strings.ToLower(strings.TrimSpace(code))
	j, err := c.cfg.Players.JoinKey(ctx, code, c.Key, c.cfg.Now())
	var ge *store.GamesError
	switch {
	case errors.Is(err, store.ErrBadCode):
		c.cfg.Log.Info("key code refused", "key", c.Key)
		return c.Refuse("that code is not valid (unknown, used or expired); make a new one with  %s  from a key you play with", c.Hint("keys add"))
	case errors.As(err, &ge):
		return c.Refuse("this key is %s's, who has %s of their own: a key that has played stays with its person (nothing of theirs is moved); "+
			"play on with it, or join a key that has not played", words.Clean(ge.Name, lobby.MaxNameLen),
			words.Plural(ge.Games+ge.Running, "1 game", "games"))
	case errors.Is(err, store.ErrOwnKey):
		return c.Refuse("this key is yours already (%s)", words.Clean(c.Person.Name, lobby.MaxNameLen))
	case err != nil:
		return c.fail("join the key", err)
	}
	c.Session.SetPerson(j.Person)
	if j.Merged != "" && c.cfg.Lobby != nil {
		c.cfg.Lobby.Merged(ctx, j.Merged, j.Person.ID)
	}
	// Other sessions of this key knew it as someone else's, or nobody's.
	c.cfg.EndSessions(c.Key, "this key is "+j.Person.Name+"'s now; connect again", c.Session)
	c.cfg.Log.Info("key joined", "person", j.Person.ID, "key", c.Key, "merged", j.Merged)
	if c.JSON {
		return c.WriteJSON(KeyJoinJSON{Person: j.Person.ID, Name: j.Person.Name, Keys: len(j.Person.Keys), Merged: j.Merged, Left: j.Left})
	}
	name := words.Clean(j.Person.Name, lobby.MaxNameLen)
	writeWrapped(c.Stdout, "", "", fmt.Sprintf("This key is %s's now (%s): the same name, games and rating from each of their %d keys.",
		name, j.Person.ID, len(j.Person.Keys)))
	switch {
	case j.Merged != "":
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("It was %s's, who had no games: what was theirs (tables, memberships, chat lines, seeds given) is %s's, and the name %s is free.",
			words.Clean(j.Left, lobby.MaxNameLen), name, words.Clean(j.Left, lobby.MaxNameLen)))
	case j.Left != "":
		writeWrapped(c.Stdout, "", "", fmt.Sprintf("It was one of %s's keys, who keeps the others.", words.Clean(j.Left, lobby.MaxNameLen)))
	}
	writeHint(c.Stdout, "Play with:", c.Session.Hint("-t"))
	return ExitOK
}

func removeKey(ctx context.Context, c *Call, fp string) int {
	if !c.needPerson() {
		return ExitRefused
	}
	p, err := c.cfg.Players.RemoveKey(ctx, c.Person.ID, fp)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return c.Refuse("%s is not one of your keys; list them with  %s", shortFP(fp), c.Hint("keys"))
	case errors.Is(err, store.ErrLastKey):
		return c.Refuse("%s is your only key: add another first (%s), or nobody could log in as you", shortFP(fp), c.Hint("keys add"))
	case err != nil:
		return c.fail("remove the key", err)
	}
	c.Session.SetPerson(p)
	closed := c.cfg.EndSessions(fp, "this key was removed from "+p.Name+"'s keys", c.Session)
	c.cfg.Log.Info("key removed", "person", p.ID, "key", fp, "by", c.Key, "sessions", closed)
	doc := keysDoc(c, p)
	doc.Removed = fp
	if c.JSON {
		return c.WriteJSON(doc)
	}
	said := fmt.Sprintf("Removed %s: it is nobody's now", words.Clean(fp, 80))
	if closed > 0 {
		said += fmt.Sprintf(" (%d open session(s) closed)", closed)
	}
	if fp == c.Key {
		said += "; this session used it"
	}
	writeWrapped(c.Stdout, "", "", said+".")
	fmt.Fprintln(c.Stdout, "Your keys now:")
	writeKeys(c, doc)
	return ExitOK
}
