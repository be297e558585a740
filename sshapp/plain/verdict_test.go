package plain

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// judgedCommands is commands' replay --json with the verdicts, as the
// server's router writes it with a Judge.
func judgedCommands(st *store.Store, jd *verdict.Judge) func(ctx context.Context, out, errOut io.Writer, args []string) int {
	return func(ctx context.Context, out, errOut io.Writer, args []string) int {
		g, evs, err := st.Game(ctx, args[1])
		if err != nil {
			fmt.Fprintf(errOut, "mia: no game %s\n", args[1])
			return 1
		}
		a, err := jd.Of(ctx, "", g, evs)
		if err != nil {
			fmt.Fprintf(errOut, "mia: %v\n", err)
			return 1
		}
		if err := verdict.Doc(g, evs, a).Encode(out); err != nil {
			return 1
		}
		return 0
	}
}

// TestReplayVerdictsSaid: a replay read move by move says each judged
// move's verdict after it, and at the last move each player's accuracy.
func TestReplayVerdictsSaid(t *testing.T) {
	t.Parallel()
	dice := &lobbytest.Script{}
	e := newEnv(t, dice)
	ann, bob := e.player("ann"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.Lives, rules.Pass, rules.MiaPenalty = 1, false, 1
	tbl := e.table(ann, "t", 2, rules)
	dice.Push(1, 0)
	dice.Roll(4, 2)
	for _, p := range []lobby.Player{ann, bob} {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []struct {
		p lobby.Player
		a engine.Action
	}{
		{ann, engine.Action{Kind: engine.Roll, Look: true}},
		{ann, engine.Action{Kind: engine.Claim, Value: 31}},
		{bob, engine.Action{Kind: engine.Challenge}}, // the lowest claim: a blunder
	} {
		if err := tbl.Act(ctxT(t), m.p, m.a); err != nil {
			t.Fatal(err)
		}
	}
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	d := e.open(ann, true, func(c *Config) { c.Command = judgedCommands(e.st, jd) })
	d.next("Lobby.")
	d.send("replay 1")
	d.next("3 moves: say next, back, or stop.")
	d.next("The start.")
	d.send("next")
	d.next("Move 1 of 3. ann rolled 42. ann's move: ")
	d.send("next")
	d.next("Move 2 of 3. ann announced 31 to bob")
	d.send("next")
	for _, w := range []string{"Move 3 of 3. bob called ann a liar: 42, bob loses a life",
		"bob's move: ?? a blunder: gave away ", "best: roll (played 100%).",
		"ann: accuracy ", "bob: accuracy 0% ", "That was the last move: say back, or stop."} {
		d.next(w)
	}
	if bad := plaintest.Forbidden(d.out.Bytes()); bad != "" {
		t.Fatalf("the door wrote %s", bad)
	}
}

// TestCoachSaysYourMove: at a coached table the door says, after each of
// the viewer's own moves, its verdict and the better move; after the
// other player's moves it says none, and at a table without a coach
// none at all.
func TestCoachSaysYourMove(t *testing.T) {
	t.Parallel()
	for _, coached := range []bool{true, false} {
		dice := &lobbytest.Script{}
		e := newEnv(t, dice)
		alice, bob := e.player("alice"), e.player("bob")
		rules := engine.DefaultOptions()
		rules.Pass, rules.MiaPenalty, rules.Lives = false, 1, 2
		if _, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "drill", Rules: rules, Seats: 2, Coach: coached}); err != nil {
			t.Fatal(err)
		}
		tbl, err := e.lobby.Table("drill")
		if err != nil {
			t.Fatal(err)
		}
		d := e.open(alice, true, func(c *Config) { c.Table = "drill" })
		d.next("At table drill")
		d.send("sit")
		d.next("You are seated for the next game.")
		dice.Push(1, 0) // seat 0, alice, opens
		if err := tbl.Sit(ctxT(t), bob); err != nil {
			t.Fatal(err)
		}
		dice.Roll(5, 3)
		d.send("roll")
		d.next("Your turn: you rolled 53")
		d.send("announce mia") // a bluff of the highest claim
		d.next("You announced Mia to bob.")
		if err := tbl.Act(ctxT(t), bob, engine.Action{Kind: engine.Challenge}); err != nil {
			t.Fatal(err)
		}
		d.next("bob called you a liar")
		d.next("Round 2: bob opens.")
		if coached {
			d.until("the coach's two verdicts", func(text string) bool { return strings.Count(text, "Your move: ") >= 2 })
			if n := strings.Count(d.text(), "Your move: "); n != 2 {
				t.Errorf("the coach said %d verdicts, want one for each of alice's two moves:\n%s", n, d.text())
			}
			t.Logf("the coached door:\n%s", d.text())
			if !strings.Contains(d.text(), "best: ") {
				t.Errorf("no better move said:\n%s", d.text())
			}
		} else if strings.Contains(d.text(), "Your move") || strings.Contains(d.text(), "best: ") {
			t.Errorf("a table without a coach judged a move:\n%s", d.text())
		}
		if bad := plaintest.Forbidden(d.out.Bytes()); bad != "" {
			t.Fatalf("the door wrote %s", bad)
		}
	}
}

// TestCoachHoldsNothing: while the coach works out a verdict (a rule
// set's first solve takes seconds to minutes) the door reads what is
// typed and acts on it, and the table goes on; the verdicts are said
// when they come, each once.
func TestCoachHoldsNothing(t *testing.T) {
	t.Parallel()
	dice := &lobbytest.Script{}
	e := newEnv(t, dice)
	alice, bob := e.player("alice"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.Pass, rules.MiaPenalty, rules.Lives = false, 1, 2
	if _, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "drill", Rules: rules, Seats: 2, Coach: true}); err != nil {
		t.Fatal(err)
	}
	tbl, err := e.lobby.Table("drill")
	if err != nil {
		t.Fatal(err)
	}
	solved := make(chan struct{})
	asked := make(chan int, 8)
	d := e.open(alice, true, func(c *Config) {
		c.Table = "drill"
		c.coach = func(_ string, coached bool, rules engine.Options, players int, seen []engine.Event, seat, seq int) (verdict.Decision, error) {
			asked <- seq
			<-solved // a solve that takes as long as the test wants
			return verdict.Coach(coached, rules, players, seen, seat, seq)
		}
	})
	d.next("At table drill")
	d.send("sit")
	d.next("You are seated for the next game.")
	dice.Push(1, 0) // seat 0, alice, opens
	if err := tbl.Sit(ctxT(t), bob); err != nil {
		t.Fatal(err)
	}
	dice.Roll(5, 3)
	d.send("roll")
	d.next("Your turn: you rolled 53")
	<-asked // the coach is on the roll, and holds
	d.send("announce mia")
	d.next("You announced Mia to bob.")
	<-asked
	if err := tbl.Act(ctxT(t), bob, engine.Action{Kind: engine.Challenge}); err != nil {
		t.Fatal(err)
	}
	d.next("bob called you a liar")
	d.send("status")
	d.next("Round 2")
	if strings.Contains(d.text(), "Your move: ") {
		t.Fatalf("a verdict said before it was worked out:\n%s", d.text())
	}
	close(solved)
	d.until("the coach's two verdicts", func(text string) bool { return strings.Count(text, "Your move: ") >= 2 })
	if n := strings.Count(d.text(), "Your move: "); n != 2 {
		t.Errorf("%d verdicts said, want 2:\n%s", n, d.text())
	}
}

// TestCoachSaysWhyNot: at a coached table whose rules are not solved,
// opened from an address whose solver's budget is spent, the coach says
// after the viewer's move why it does not judge it, solves nothing, and
// the game goes on.
func TestCoachSaysWhyNot(t *testing.T) {
	t.Parallel()
	rules := lobbytest.Unsolved(1)
	if len(rules) == 0 {
		t.Fatal("no cheap rule set unsolved")
	}
	o := rules[0]
	o.Lives = 2
	const here = "203.0.113.7"
	solves := lobby.NewSolves(1, 0, nil)
	spent, err := solves.Solve(here) // the address's one new solve this hour, a replay's
	if err != nil {
		t.Fatal(err)
	}
	spent()
	jd := verdict.NewBudgeted(solves)
	t.Cleanup(jd.Drain)
	dice := &lobbytest.Script{}
	e := newEnv(t, dice)
	alice, bob := e.player("alice"), e.player("bob")
	alice.Source = here
	if _, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "drill", Rules: o, Seats: 2, Coach: true}); err != nil {
		t.Fatal(err)
	}
	tbl, err := e.lobby.Table("drill")
	if err != nil {
		t.Fatal(err)
	}
	d := e.open(alice, true, func(c *Config) { c.Table, c.Judge = "drill", jd })
	d.next("At table drill")
	d.send("sit")
	d.next("You are seated for the next game.")
	dice.Push(1, 0) // seat 0, alice, opens
	if err := tbl.Sit(ctxT(t), bob); err != nil {
		t.Fatal(err)
	}
	dice.Roll(5, 3)
	d.send("roll")
	d.next("Your turn: you rolled 53")
	d.next("Your move: not judged, these rules are not solved yet and the address this table was opened from had 1 new rule set solved in the last hour, the most one address may; the game goes on.")
	d.send("announce 53")
	d.next("You announced ") // 53 in the ranking's words: "8 pips" under pips
	d.next(" to bob.")
	if verdict.Solved(o) {
		t.Fatal("rules solved for a coach past its table's address's budget")
	}
	if strings.Contains(d.text(), "best: ") {
		t.Errorf("a verdict said past the budget:\n%s", d.text())
	}
}
