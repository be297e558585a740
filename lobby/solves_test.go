package lobby

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
)

// unsolved are n rule sets the solver has not solved, cheap to solve
// (lobbytest.Unsolved).
func unsolved(t *testing.T, n int) []solver.Rules {
	t.Helper()
	os := lobbytest.Unsolved(n)
	if len(os) < n {
		t.Fatalf("%d cheap rule sets unsolved, want %d", len(os), n)
	}
	out := make([]solver.Rules, n)
	for i, o := range os {
		r, err := solver.Of(o, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = r
	}
	return out
}

// TestSolvesAdmit: the work that solves a rule set is a new solve,
// counted by the asker's source, only when the rule set is neither
// solved nor being solved: asking for one being solved is free, even
// past the budget; one done and still not solved is new again; one
// solved is free; a nil Solves admits everything.
func TestSolvesAdmit(t *testing.T) {
	rs := unsolved(t, 3)
	b := NewSolves(1, 0, nil)
	const here, there = "203.0.113.7", "198.51.100.1"
	done, err := b.Admit(here, rs[0])
	if err != nil {
		t.Fatalf("the first solve from %s: %v", here, err)
	}
	again, err := b.Admit(here, rs[0])
	if err != nil {
		t.Fatalf("the same rule set while it is being solved: %v", err)
	}
	again()
	if _, err := b.Admit(here, rs[1]); !errors.Is(err, ErrTooManySolvesHere) {
		t.Fatalf("a second new rule set from %s: %v", here, err)
	}
	done()
	if _, err := b.Admit(here, rs[0]); !errors.Is(err, ErrTooManySolvesHere) {
		t.Fatalf("a rule set whose work ended unsolved is new again: %v", err)
	}
	if len(b.solving) != 0 {
		t.Errorf("%d rule sets held as being solved after their work ended", len(b.solving))
	}
	if _, err := solver.For(rs[2]); err != nil {
		t.Fatal(err)
	}
	free, err := b.Admit(here, rs[2])
	if err != nil {
		t.Fatalf("a solved rule set: %v", err)
	}
	free()
	other, err := b.Admit(there, rs[1])
	if err != nil {
		t.Fatalf("another address: %v", err)
	}
	other()
	var none *Solves
	d, err := none.Admit(here, rs[1])
	if err != nil {
		t.Fatalf("no budget: %v", err)
	}
	d()
}

// TestExpertSolvesBudgeted: an expert bot's strategy not solved yet is
// solved only within the solver's budget of the address its table was
// opened from: past it the experts play as hard, the table's chat says
// why once, and nothing is solved; a table opened from another address
// has its experts' rule set solved; a table whose rules are solved
// costs nobody anything.
func TestExpertSolvesBudgeted(t *testing.T) {
	solves := NewSolves(1, 0, nil)
	e := newEnv(t)
	e.tweak = func(c *Config) { c.Solves = solves }
	e.restart()
	ctx := ctxT(t)
	r := unsolved(t, 1)[0]
	rules := r.Options()
	rules.Lives = 1
	const here, there = "203.0.113.7", "198.51.100.1"
	spent, err := solves.Solve(here) // the address's one new solve this hour, a replay's
	if err != nil {
		t.Fatal(err)
	}
	spent()
	open := func(name string, host Player) *Table {
		t.Helper()
		tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: name, Rules: rules, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := tbl.AddBot(ctx, host, ai.Expert); err != nil {
				t.Fatal(err)
			}
		}
		return tbl
	}
	asked := func() bool { // an expert's solve of r is under way or done
		e.lobby.mu.Lock()
		defer e.lobby.mu.Unlock()
		return e.lobby.solving[r] || solver.Ready(r)
	}
	said := words.ExpertUnsolved(1, false)
	a := open("a", from(e.player("ann"), here))
	s := mustWatch(t, a, e.player("viewer"))
	for range 3 { // three games of experts playing as hard
		games := gamesOf(e, "a")
		for i := 0; gamesOf(e, "a") == games; i++ {
			if i == 200 {
				t.Fatalf("the experts at a play no game: %+v", a.Info())
			}
			advance(e, a, time.Second)
		}
	}
	chat := latest(t, s, a).Chat
	n := 0
	for _, c := range chat {
		if c.From == "" && c.Text == said {
			n++
		}
	}
	if n != 1 || !strings.Contains(said, "the address this table was opened from had 1 new rule set solved in the last hour") {
		t.Fatalf("the chat says %d times why the experts play as hard (%q), want once:\n%v", n, said, chat)
	}
	if asked() {
		t.Fatal("an expert's rule set solved past its table's address's budget")
	}
	b := open("b", from(e.player("bob"), there))
	for i := 0; !asked(); i++ {
		if i == 200 {
			t.Fatal("the experts of a table from another address never had their rule set solved")
		}
		advance(e, b, time.Second)
	}
	e.restart() // the lobby's end waits for the solves under way
	if !solver.Ready(r) {
		t.Fatal("the solve admitted for another address's table did not solve the rule set")
	}
	if _, err := solves.Admit(here, r); err != nil {
		t.Fatalf("a solved rule set costs %s something: %v", here, err)
	}
}
