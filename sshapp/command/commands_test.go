package command

import (
	"fmt"

	"encoding/json"
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// step is one command line of a test and what it must do.
type step struct {
	name   string
	as     who
	words  []string
	code   int
	stdout []string // texts stdout holds
	stderr []string // texts stderr holds
}

func runSteps(t *testing.T, h *harness, steps []step) {
	t.Helper()
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			h.run(s.as, s.words...).expect(t, s.code, s.stdout, s.stderr)
		})
	}
}

// TestRouter: help, unknown commands and flags, and the name asked for
// before any command but the anonymous ones.
func TestRouter(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, nameless := h.person("ann"), h.key("nameless")
	runSteps(t, h, []step{
		{"help lists every command", ann, []string{"help"}, ExitOK,
			[]string{"table create|invite|kick|rules|close|link|hook|watch NAME", "replay GAME", "Exit status: 0 done, 1 refused", "ssh -t -p 23234 mia.test"}, nil},
		{"help of one command", ann, []string{"help", "table"}, ExitOK, []string{"table create", "--turn-seconds"}, nil},
		{"help of no command", ann, []string{"help", "dance"}, ExitUsage, nil, []string{`mia: unknown command "dance"; the list of commands:  ssh -p 23234 mia.test help` + "\n"}},
		{"help with a flag", ann, []string{"help", "--all"}, ExitUsage, nil, []string{"usage"}},
		{"an unknown command", ann, []string{"dance"}, ExitUsage, nil, []string{`mia: unknown command "dance"; the list of commands:  ssh -p 23234 mia.test help` + "\n"}},
		{"a command before a name", nameless, []string{"tables"}, ExitRefused, nil,
			[]string{"choose a name first:  ssh -p 23234 mia.test name NEW"}},
		{"whoami before a name", nameless, []string{"whoami"}, ExitOK, []string{"(none yet; choose one:", "SHA256:nameless-key"}, nil},
		{"whoami", ann, []string{"whoami"}, ExitOK, []string{"ann", "no game right now", "0 played, 0 won"}, nil},
		{"whoami takes no words", ann, []string{"whoami", "now"}, ExitUsage, nil, []string{"usage"}},
	})
	var who WhoamiJSON
	r := h.run(ann, "whoami", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &who); err != nil || r.code != ExitOK {
		t.Fatalf("whoami --json: exit %d, %v: %s", r.code, err, r.stdout)
	}
	if who.Name != "ann" || who.Fingerprint != ann.Key || who.Admin || who.Seats == nil {
		t.Errorf("whoami --json: %+v", who)
	}
}

// TestNameCommand: a first name, a new one, and the names refused.
func TestNameCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.person("bob")
	s := &callerSession{player: h.key("new"), h: h}
	h.runOn(s, "name", "ann").expect(t, ExitOK, []string{"You are ann. Play with:  ssh -t -p 23234 mia.test"}, nil)
	if s.player.Name != "ann" {
		t.Fatalf("the session's player after name: %+v", s.player)
	}
	ann := s.player
	runSteps(t, h, []step{
		{"another name", ann, []string{"name", "anna"}, ExitOK, []string{"You were ann; you are anna now,"}, nil},
		{"a name taken", ann, []string{"name", "BOB"}, ExitRefused, nil, []string{"mia: that name is taken"}},
		{"a bot's name", ann, []string{"name", "ada"}, ExitRefused, nil, []string{"built-in bot"}},
		{"a name with a space", ann, []string{"name", "a b"}, ExitRefused, nil, []string{"mia: "}},
		{"no name", ann, []string{"name"}, ExitUsage, nil, []string{"usage"}},
	})
	var doc NameJSON
	r := h.run(h.key("other"), "name", "dave", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Name != "dave" || doc.Previous != "" {
		t.Errorf("name --json: exit %d, %v: %s", r.code, err, r.stdout)
	}
}

// TestTableCommands: a public and a private table through their life:
// create, list, invite, join, kick, rules, close, each refused to those
// who may not.
func TestTableCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, bob, cat := h.person("ann"), h.person("bob"), h.person("cat")
	runSteps(t, h, []step{
		{"create", ann, []string{"table", "create", "pub", "--lives", "3", "--seats", "4"}, ExitOK,
			[]string{"Table pub is open: public, 4 seats; classic, 3 lives", "ssh -t -p 23234 mia.test play pub"}, nil},
		{"create a private one", ann, []string{"table", "create", "club", "--private"}, ExitOK,
			[]string{"Table club is open: private", "table invite club"}, nil},
		{"create a name taken", bob, []string{"table", "create", "PUB"}, ExitRefused, nil, []string{"mia: a table with that name is open already"}},
		{"create, impossible rules", ann, []string{"table", "create", "x", "--lives", "12"}, ExitRefused, nil,
			[]string{"mia: option lives: 12 is not between 1 and 9"}},
		{"create, a flag unknown", ann, []string{"table", "create", "x", "--bogus"}, ExitUsage, nil, []string{"mia: unknown flag --bogus"}},
		{"create, two names", ann, []string{"table", "create", "x", "y"}, ExitUsage, nil, []string{"table create takes one NAME"}},
		{"create, a bot level unknown", ann, []string{"table", "create", "x", "--bot-level", "genius"}, ExitUsage, nil,
			[]string{`invalid value "genius" for --bot-level: one of easy, normal, hard, expert`, "--bot-level easy|normal|hard|expert"}},
		{"create with bots", ann, []string{"table", "create", "robots", "--seats", "3", "--bots", "1", "--bot-level", "easy"}, ExitOK,
			[]string{"Seated: ", "(an easy bot)"}, nil},
		{"the host lists both", ann, []string{"tables"}, ExitOK, []string{"pub", "club", "waiting, private"}, nil},
		{"others do not see the private one", bob, []string{"tables"}, ExitOK, []string{"pub"}, nil},
		{"invite, not the host", bob, []string{"table", "invite", "club"}, ExitRefused, nil, []string{"mia: no such table: club"}},
		{"invite to a public table", ann, []string{"table", "invite", "pub"}, ExitRefused, nil, []string{"public"}},
		{"join, a wrong code", bob, []string{"join", "club", "aaaaaaaaaa"}, ExitRefused, nil,
			[]string{"no private table club takes that invite code"}},
		{"join, no such table: the same answer", bob, []string{"join", "nope", "aaaaaaaaaa"}, ExitRefused, nil,
			[]string{"no private table nope takes that invite code"}},
		{"join, no code", bob, []string{"join", "club"}, ExitUsage, nil, []string{"usage"}},
		{"rules, not the host", bob, []string{"table", "rules", "pub", "--lives", "2"}, ExitRefused, nil, []string{"only the table's host"}},
		{"rules", ann, []string{"table", "rules", "pub", "--lives", "2", "--seats", "5"}, ExitOK,
			[]string{"Rules of pub from the next game: 5 seats; classic, 2 lives"}, nil},
		{"rules, no table first", ann, []string{"table", "rules", "--lives", "2"}, ExitUsage, nil, []string{"table rules takes a table NAME first"}},
		{"kick a bot", ann, []string{"table", "kick", "robots", "ada"}, ExitOK, []string{"Removed ada from robots."}, nil},
		{"kick nobody", ann, []string{"table", "kick", "pub", "zed"}, ExitRefused, nil, []string{"mia: "}},
		{"close, not the host", bob, []string{"table", "close", "pub"}, ExitRefused, nil, []string{"only the table's host"}},
		{"close", ann, []string{"table", "close", "pub"}, ExitOK, []string{"Table pub is closed."}, nil},
		{"closed: not listed", bob, []string{"tables"}, ExitOK, nil, nil},
		{"a table word unknown", ann, []string{"table", "paint", "pub"}, ExitUsage, nil, nil},
	})
	if r := h.run(bob, "tables"); strings.Contains(r.stdout, "club") || strings.Contains(r.stdout, "pub ") {
		t.Errorf("bob's tables at the end:\n%s", r.stdout)
	}

	// An invite code works once, for one key.
	var inv TableDoc
	r := h.run(ann, "table", "invite", "club", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil || len(inv.Code) != InviteCodeLen {
		t.Fatalf("table invite --json: exit %d, %v: %s", r.code, err, r.stdout)
	}
	runSteps(t, h, []step{
		{"join with the code", bob, []string{"join", "club", strings.ToUpper(inv.Code)}, ExitOK,
			[]string{"You are a member of club now.", "play club"}, nil},
		{"a member sees it", bob, []string{"tables"}, ExitOK, []string{"club"}, nil},
		{"the code is spent", cat, []string{"join", "club", inv.Code}, ExitRefused, nil, []string{"takes that invite code"}},
		{"kick the member", ann, []string{"table", "kick", "club", "bob"}, ExitOK, []string{"Removed bob from club."}, nil},
	})
	if r := h.run(bob, "tables"); strings.Contains(r.stdout, "club") {
		t.Errorf("a kicked member still sees the private table:\n%s", r.stdout)
	}
}

// TestRecordsCommands: a finished game through history, replay, verify,
// stats and leaderboard; a private table's game hidden from others.
func TestRecordsCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, bob, cat := h.person("ann"), h.person("bob"), h.person("cat")
	id := h.finishedGame("duel", ann, bob)
	runSteps(t, h, []step{
		{"history", cat, []string{"history"}, ExitOK, []string{"GAME", id, "duel", "Replay a game:"}, nil},
		{"history of a player", cat, []string{"history", "--player", "bob"}, ExitOK, []string{id}, nil},
		{"history of no table", cat, []string{"history", "--table", "nope"}, ExitRefused, nil, []string{"mia: no such table: nope"}},
		{"replay", cat, []string{"replay", id}, ExitOK, []string{"Game " + id + " at duel", "Standings:", "Lives after each round:"}, nil},
		{"replay of no game", cat, []string{"replay", "9999"}, ExitRefused, nil, []string{"mia: no game 9999"}},
		{"replay takes one game", cat, []string{"replay"}, ExitUsage, nil, []string{"usage"}},
		{"verify", cat, []string{"verify", id}, ExitOK, []string{"the seating, the first opener and all"}, nil},
		{"stats", cat, []string{"stats", "ann"}, ExitOK, []string{"ann", "1 played", "rating"}, nil},
		{"stats of nobody", cat, []string{"stats", "zed"}, ExitRefused, nil, []string{"mia: "}},
		{"leaderboard", cat, []string{"leaderboard"}, ExitOK, []string{"Leaderboard", "ann", "bob"}, nil},
		{"leaderboard of a table", cat, []string{"leaderboard", "--table", "duel"}, ExitOK, []string{"ann"}, nil},
	})
	var doc map[string]any
	r := h.run(cat, "replay", id, "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc["id"] != id || doc["fair"] == nil {
		t.Errorf("replay --json: exit %d, %v: %.200s", r.code, err, r.stdout)
	}
}

// TestSeedCommand: the table's commitment, a seed given and taken back.
func TestSeedCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	h.run(ann, "table", "create", "dice").expect(t, ExitOK, nil, nil)
	runSteps(t, h, []step{
		{"the commitment", ann, []string{"seed", "dice"}, ExitOK, []string{"commitment", "none given (allowed)"}, nil},
		{"a seed, not seated", ann, []string{"seed", "dice", "lucky", "7"}, ExitOK, []string{`yours        "lucky 7": ` + words.SeedSays(true, false)}, nil},
		{"taken back", ann, []string{"seed", "dice", "--none"}, ExitOK, []string{"none given"}, nil},
		{"--none and words", ann, []string{"seed", "dice", "x", "--none"}, ExitUsage, nil, []string{"usage"}},
		{"no table", ann, []string{"seed", "nope"}, ExitRefused, nil, []string{"mia: no such table: nope"}},
	})
}

// TestAdminCommands: ban, unban and backup, for admins only.
func TestAdminCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	root, bob := h.admin("root"), h.person("bob")
	runSteps(t, h, []step{
		{"ban, not an admin", bob, []string{"ban", "root"}, ExitRefused, nil, []string{"only server admins may ban"}},
		{"no bans", root, []string{"ban"}, ExitOK, []string{"Nobody is banned."}, nil},
		{"ban", root, []string{"ban", "bob"}, ExitOK, []string{"Banned bob (" + bob.ID + "): every key of theirs", "1 open session(s)", "unban " + bob.ID}, nil},
		{"the bans", root, []string{"ban"}, ExitOK, []string{"every key of " + bob.ID + " (bob)"}, nil},
		{"ban oneself", root, []string{"ban", "root"}, ExitRefused, nil, []string{"you cannot ban yourself"}},
		{"unban, not an admin", bob, []string{"unban", "bob"}, ExitRefused, nil, []string{"only server admins may lift bans"}},
		{"unban", root, []string{"unban", "bob"}, ExitOK, []string{"bob (" + bob.ID + ") may connect again, with every key of theirs."}, nil},
		{"unban, not banned", root, []string{"unban", "bob"}, ExitRefused, nil, []string{"bob is not banned"}},
		{"backup, not an admin", bob, []string{"backup"}, ExitRefused, nil, []string{"only server admins may take a backup"}},
	})
	if reason := h.ended[bob.ID]; !strings.Contains(reason, "banned") {
		t.Errorf("bob's sessions were not ended: %q", reason)
	}
	h.runPty(root, "backup").expect(t, ExitRefused, nil, []string{"the backup is a binary file"})
	r := h.run(root, "backup")
	if r.code != ExitOK || len(r.stdout) < 4096 {
		t.Fatalf("backup: exit %d, %d bytes: %s", r.code, len(r.stdout), r.stderr)
	}
}

// TestPlayCommand: the game screen needs a terminal.
func TestPlayCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	h.run(ann, "play", "t1").expect(t, ExitRefused, nil, []string{"the game screen needs a terminal:  ssh -t -p 23234 mia.test play t1"})
	r := h.runPty(ann, "play", "t1")
	if r.code != ExitOK || r.session.played == nil || *r.session.played != "t1" {
		t.Fatalf("play with a terminal: exit %d, played %v", r.code, r.session.played)
	}
	h.runPty(ann, "play", "a", "b").expect(t, ExitUsage, nil, []string{"usage"})
}

// TestBudgetByAddress: fresh keys from one address share one budget of
// tables and of tables of bots only, whatever the keys; the refusals say
// so; another address has its own.
func TestBudgetByAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	from := func(p who, source string) *callerSession { return &callerSession{player: p, h: h, source: source} }
	for i := range lobby.DefaultMaxTablesPerSource {
		p := h.person(fmt.Sprintf("fresh%d", i))
		h.runOn(from(p, "203.0.113.7"), "table", "create", fmt.Sprintf("t%d", i)).expect(t, ExitOK, []string{"is open"}, nil)
	}
	h.runOn(from(h.person("fresh99"), "203.0.113.7"), "table", "create", "t99").expect(t, ExitRefused, nil,
		[]string{"10 open tables were opened from your address, the most one address may, whatever its keys"})
	h.runOn(from(h.person("elsewhere"), "198.51.100.1"), "table", "create", "t99").expect(t, ExitOK, []string{"is open"}, nil)

	for i := range lobby.DefaultMaxBotTablesPerSource {
		p := h.person(fmt.Sprintf("botter%d", i))
		h.runOn(from(p, "192.0.2.9"), "table", "create", fmt.Sprintf("b%d", i), "--seats", "2", "--bots", "2").
			expect(t, ExitOK, []string{"the bots are playing"}, nil)
	}
	h.runOn(from(h.person("botter9"), "192.0.2.9"), "table", "create", "b9", "--seats", "2", "--bots", "2").expect(t, ExitOK,
		[]string{"You are not seated yet"},
		[]string{"only 1 of 2 bots could be seated: 2 tables are filled with bots only from your address, the most one address may: sit down yourself, or close one"})
}
