package sshapp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"

	"github.com/mia-game/mia/sshapp/command"
)

func TestCommands(t *testing.T) {
	t.Parallel()
	var lob *lobby.Lobby
	ts := startServer(t, withLobby(t, &lob))
	alice, bob, carol, carl := newKey(t), newKey(t), newKey(t), newKey(t)
	afp, cfp := Fingerprint(alice.PublicKey()), Fingerprint(carol.PublicKey())
	// carl's name, taken before the rule reserved it (the store keeps
	// any name; the rule is the doors').
	if _, err := ts.players.SetName(context.Background(), Fingerprint(carl.PublicKey()), "admin"); err != nil {
		t.Fatal(err)
	}

	// carol hosts a public and a private table; alice sees only the first.
	cp, err := ts.players.SetName(context.Background(), cfp, "carol")
	if err != nil {
		t.Fatal(err)
	}
	rules := engine.DefaultOptions()
	odd := rules
	odd.Pass, odd.Lives, odd.End = false, 3, engine.FirstOut
	host := lobby.Player{ID: cp.ID, Key: cfp}
	for _, tc := range []lobby.TableConfig{
		{Name: "zeta", Rules: odd, Seats: 6},
		{Name: "alpha", Rules: rules, Seats: 4},
		{Name: "hidden", Rules: rules, Seats: 4, Private: true},
		{Name: "gone", Rules: rules, Seats: 4},
	} {
		if _, err := lob.CreateTable(context.Background(), host, tc); err != nil {
			t.Fatal(err)
		}
	}
	if gone, err := lob.Table("gone"); err != nil || gone.Close(context.Background(), host) != nil {
		t.Fatalf("close gone: %v", err)
	}

	steps := []struct {
		name    string
		key     string // "alice" or "bob"
		cmd     string
		code    int
		stdout  []string // substrings
		stderr  []string
		nothing bool // stdout must be empty
	}{
		{"whoami before a name", "alice", "whoami", 0, []string{"(none yet", "name NEW", afp, "0 played"}, nil, false},
		{"tables needs a name", "alice", "tables", 1, nil, []string{"choose a name first", "name NEW"}, true},
		{"not yet needs a name", "alice", "stats", 1, nil, []string{"choose a name first"}, true},
		{"name without argument", "alice", "name", 2, nil, []string{"usage:", "name NEW"}, true},
		{"name with two arguments", "alice", "name a b", 2, nil, []string{"usage:"}, true},
		{"name breaking the rule", "alice", "name b@d", 1, nil, []string{"1 to 16"}, true},
		{"name too long", "alice", "name abcdefghijklmnopq", 1, nil, []string{"abcdefghijklmnopq is 17 characters long: a name has at most 16"}, true},
		{"name beginning with a dash", "alice", "name -bob", 1, nil, []string{"may not begin with -"}, true},
		{"the gateway's name", "alice", "name Maexchen", 1, nil, []string{"Maexchen is the name of the server's Mäxchen gateway"}, true},
		{"name escape codes", "alice", "name '\x1b[31mred'", 1, nil, []string{"1 to 16"}, true},
		{"name", "alice", "name alice", 0, []string{"You are alice"}, nil, false},
		{"rename", "alice", "name Alice2", 0, []string{"You were alice; you are Alice2 now, at every table and in every game you played."}, nil, false},
		{"name back", "alice", "name alice", 0, nil, nil, false},
		{"name taken, other case", "bob", "name ALICE", 1, nil, []string{"taken"}, true},
		{"name taken, capital i", "bob", "name aIice", 1, nil, []string{"looks too much like one"}, true},
		{"name taken, a one", "bob", "name a1ice", 1, nil, []string{"taken"}, true},
		{"a built-in bot's look", "bob", "name lnes", 1, nil, []string{"lnes looks like ines, the name of a built-in bot; choose another"}, true},
		{"a built-in bot's name", "bob", "name Ada", 1, nil, []string{"Ada is the name of a built-in bot; choose another"}, true},
		{"a built-in bot's name with a number", "bob", "name ines2", 1, nil, []string{"built-in bot"}, true},
		// carl took "admin" before it was reserved: he keeps it, and may
		// say it again, but not take it in another spelling.
		{"a reserved name", "bob", "name admin", 1, nil, []string{"admin is a name the server keeps for itself"}, true},
		{"a reserved name kept", "carl", "name admin", 0, []string{"You are admin"}, nil, false},
		{"a reserved name kept, not respelled", "carl", "name Admin", 1, nil, []string{"keeps for itself"}, true},
		{"a name that looks like a reserved one kept", "bob", "name adm1n_", 1, nil, []string{"keeps for itself"}, true},
		{"help", "bob", "help", 0, []string{"whoami", "name NEW", "tables", "play [TABLE | --event NAME]", "bot [TABLE | --event NAME]", "Exit status"}, nil, false},
		{"help of a command", "bob", "help tables", 0, []string{"tables [--json]"}, nil, false},
		{"help of nothing is a usage error", "bob", "help nosuch", 2, nil, []string{`mia: unknown command "nosuch"; the list of commands:  ssh -p `}, true},
		{"unknown command", "alice", "nosuch", 2, nil, []string{`mia: unknown command "nosuch"; the list of commands:  ssh -p `}, true},
		{"whoami with an argument", "alice", "whoami x", 2, nil, []string{"usage:", "whoami [--json]"}, true},
		{"tables", "alice", "tables", 0, []string{"NAME", "alpha  carol", "0/4", "waiting", "classic, 6 lives, 60s a turn", "zeta", "0/6", "3 lives, no pass, first out"}, nil, false},
		{"help takes no --json", "alice", "help --json", 2, nil, []string{"usage:"}, true},
		{"no terminal, no command", "alice", "", 1, nil, []string{"needs a terminal", "ssh -t -p"}, true},
		{"play without a terminal", "alice", "play x", 1, nil, []string{"needs a terminal", "ssh -t -p", "play x"}, true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			key := alice
			switch st.key {
			case "bob":
				key = bob
			case "carl":
				key = carl
			}
			r := ts.run(t, key, st.cmd)
			if r.code != st.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, st.code, r.stdout, r.stderr)
			}
			for _, want := range st.stdout {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
			for _, want := range st.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if st.nothing && r.stdout != "" {
				t.Errorf("stdout should be empty, is:\n%s", r.stdout)
			}
			if strings.ContainsRune(r.stdout+r.stderr, '\x1b') {
				t.Errorf("escape codes in plain output: %q %q", r.stdout, r.stderr)
			}
		})
	}
	r := ts.run(t, alice, "tables")
	for _, hidden := range []string{"hidden", "gone"} {
		if strings.Contains(r.stdout, hidden) {
			t.Errorf("tables shows %q to a stranger:\n%s", hidden, r.stdout)
		}
	}
	if strings.Index(r.stdout, "alpha") > strings.Index(r.stdout, "zeta") {
		t.Errorf("tables not sorted by name:\n%s", r.stdout)
	}
	if r := ts.run(t, carol, "tables"); !strings.Contains(r.stdout, "waiting, private") {
		t.Errorf("the host does not see their private table:\n%s", r.stdout)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	var lob *lobby.Lobby
	withTables := withLobby(t, &lob)
	ts := startServer(t, func(c *Config) { c.Admins = KeySet{}; withTables(c) })
	key := newKey(t)
	fp := Fingerprint(key.PublicKey())
	ts.cfg.Admins[fp] = struct{}{}

	var nm command.NameJSON
	r := ts.run(t, key, "name --json dorothea")
	if r.code != 0 {
		t.Fatalf("name --json: exit %d: %s", r.code, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), &nm); err != nil {
		t.Fatalf("name --json is not JSON: %v\n%s", err, r.stdout)
	}
	if nm != (command.NameJSON{Name: "dorothea", Previous: "", Person: ts.players.id(fp), Fingerprint: fp}) || nm.Person == "" {
		t.Errorf("name --json = %+v", nm)
	}
	ts.players.tally[nm.Person] = store.Tally{Games: 7, Wins: 2}

	var who command.WhoamiJSON
	r = ts.run(t, key, "whoami --json")
	if err := json.Unmarshal([]byte(r.stdout), &who); err != nil || r.code != 0 {
		t.Fatalf("whoami --json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if who.Name != "dorothea" || who.Person != nm.Person || who.Fingerprint != fp || who.Keys != 1 || who.Games != 7 || who.Wins != 2 ||
		!who.Admin || who.Seats == nil {
		t.Errorf("whoami --json = %+v", who)
	}

	dora := lobby.Player{ID: nm.Person, Key: fp}
	t1, err := lob.CreateTable(context.Background(), dora, lobby.TableConfig{Name: "t1", Rules: engine.DefaultOptions(), Seats: 5})
	if err != nil {
		t.Fatal(err)
	}
	var tabs command.TablesJSON
	r = ts.run(t, key, "tables --json")
	if err := json.Unmarshal([]byte(r.stdout), &tabs); err != nil || r.code != 0 {
		t.Fatalf("tables --json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	want := command.TableJSON{Name: "t1", Host: "dorothea", Seats: 5, Taken: 0, State: "waiting", Rules: engine.DefaultOptions()}
	if len(tabs.Tables) != 1 || tabs.Tables[0] != want {
		t.Errorf("tables --json = %+v, want [%+v]", tabs.Tables, want)
	}

	// An empty list is an empty array, not null.
	if err := t1.Close(context.Background(), dora); err != nil {
		t.Fatal(err)
	}
	r = ts.run(t, key, "tables --json")
	if !strings.Contains(r.stdout, `"tables": []`) {
		t.Errorf("empty tables --json = %s", r.stdout)
	}
}

func TestPanicInCommandIsContained(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	ts.Handle(command.Command{Name: "boom", Anonymous: true, Run: func(context.Context, *command.Call) int { panic("kaboom") }})
	key := newKey(t)
	r := ts.run(t, key, "boom")
	if r.code != command.ExitRefused || r.stderr != "mia: "+lobby.Shown(errors.New("a fault"))+"\n" {
		t.Errorf("boom: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := ts.run(t, key, "whoami"); r.code != 0 {
		t.Errorf("server broken after a panic: %+v", r)
	}
}
