package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// cheapRules are rules the solver solves in a tenth of a second (seconds
// under -race): the verdicts' tests play under them.
func cheapRules() engine.Options {
	o := engine.DefaultOptions()
	o.Pass, o.MiaPenalty, o.Lives = false, 1, 1
	return o
}

// TestReplayScreenVerdicts: the replay screen marks a judged move in the
// round's log, says on the move's step what it gave away and the best
// move with its odds, and at the end each player's accuracy, at 80×24;
// without a Judge it shows none of it.
func TestReplayScreenVerdicts(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	// Challenging the lowest claim there is always loses: a blunder.
	g := recordGame(t, e.st, "alpha", seatsOf(a, b), cheapRules(), 0, e.clock.Now().Add(time.Minute),
		roll(0, true, 43), claim(0, 31), challenge(1))
	e.clock.Skip(time.Hour)

	jd := verdict.New()
	t.Cleanup(jd.Drain)
	cfg := e.config(a, 80, 24)
	cfg.Records, cfg.Judge = e.st, jd
	m := New(cfg).(*Model)
	run(m, m.goTo(goTo{to: screenReplay, game: g.ID}))
	for range 3 {
		m.Update(keyRunes("l"))
	}
	frame := m.View()
	assertFits(t, frame, 80, 24)
	assertContains(t, frame, "step 3 of 3", "bob called alice a liar", " ??",
		"bob's move: ?? a blunder: gave away 1.", "lives; best: ", "the strategy here: ",
		"accuracy: alice ", "lives given away a move), bob 0% (")
	t.Logf("the blunder at 80×24:\n%s", frame)
	m.Update(keyRunes("h"))
	frame = m.View()
	assertContains(t, frame, "step 2 of 3", "alice's move: ")
	assertLacks(t, frame, "accuracy: alice", "bob's move")
	m.key(keyRunes("?")) // the full help says what the marks mean, as the web page does
	frame = m.View()
	assertFits(t, frame, 80, 24)
	assertContains(t, unwrapped(frame), words.AnalysisNote(true))
	m.key(keyRunes("?"))

	cfg.Judge = nil
	m = New(cfg).(*Model)
	run(m, m.goTo(goTo{to: screenReplay, game: g.ID}))
	for range 3 {
		m.Update(keyRunes("l"))
	}
	frame = m.View()
	assertContains(t, frame, "step 3 of 3", "bob called alice a liar")
	assertLacks(t, frame, "??", "'s move:", "accuracy", "strategy", "verdicts")
	m.key(keyRunes("?"))
	assertLacks(t, m.View(), "Marks by")
	if strings.Contains(frame, "being worked out") {
		t.Error("a server without verdicts says they are being worked out")
	}
}

// TestCoachAfterYourMove: at a coached table the screen says, after the
// viewer's own move, its verdict and the better move, and the title says
// the table is coached and not rated; the other player's screen says
// nothing of it, nor does a screen at a table without a coach.
func TestCoachAfterYourMove(t *testing.T) {
	for _, coached := range []bool{true, false} {
		e := newEnv(t)
		a, b := e.player("alice"), e.player("bob")
		ctx := ctxT(t)
		tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "practice", Rules: cheapRules(), Seats: 2, Coach: coached})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []lobby.Player{a, b} {
			if err := tbl.Sit(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		opener, rest := whoseTurn(t, e.until(tbl, a, "the game", func(s lobby.Snapshot) bool { return s.Playing }), a, b)
		other := rest[0]
		screens := map[string]*Model{}
		tables := map[string]*tableScreen{}
		for _, p := range []lobby.Player{opener, other} {
			m := New(e.config(p, 80, 24)).(*Model)
			screens[p.ID], tables[p.ID] = m, showTable(m, tbl, e.snapshot(tbl, p))
		}
		update := func(p lobby.Player) string {
			t.Helper()
			run(screens[p.ID], tables[p.ID].setSnapshot(e.snapshot(tbl, p)))
			frame := screens[p.ID].View()
			assertFits(t, frame, 80, 24)
			return frame
		}
		if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
			t.Fatal(err)
		}
		if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Claim, Value: engine.Mia}); err != nil {
			t.Fatal(err)
		}
		mine, theirs := update(opener), update(other)
		if coached {
			assertContains(t, mine, "coached, not rated", "your move: ")
			assertContains(t, theirs, "coached, not rated")
			t.Logf("the opener's coached screen at 80×24:\n%s", mine)
		} else {
			assertLacks(t, mine, "coach", "coached")
		}
		assertLacks(t, theirs, "your move", "best: ", "gave away")
	}
}

// TestCreateFormCoach: the form's Coach row opens a coached table,
// private too when asked, and says what a coach is where it is chosen.
func TestCreateFormCoach(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "No tables yet")
	tm.Send(keyRunes("n"))
	waitOutput(t, tm, "new table", "Coach", "practice: your moves judged, not rated")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("drill")
	for range 15 { // private
		tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	tm.Send(tea.KeyMsg{Type: tea.KeyDown}) // coach
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	waitOutput(t, tm, "Coach: after each of your moves you are told its mark and the better")
	tm.Send(keyEnter)
	waitOutput(t, tm, "coached, not rated")
	info := mustTable(t, e, "drill").Info()
	if !info.Coach || !info.Private {
		t.Errorf("created coach %v private %v, want both", info.Coach, info.Private)
	}
	assertFits(t, finalView(t, tm), 80, 24)
}

// TestStatsScreenAccuracy: the stats screen shows the viewer's accuracy
// over their last games as the stats command sums it up (verdict.Judge
// .Over, words.AccuracyFigure and AccuracyDetail), at 80×24; without a
// Judge it shows none.
func TestStatsScreenAccuracy(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	// Challenging the lowest claim there is always loses: a blunder.
	for range 2 {
		recordGame(t, e.st, "alpha", seatsOf(a, b), cheapRules(), 0, e.clock.Now().Add(time.Minute),
			roll(0, true, 43), claim(0, 31), challenge(1))
		e.clock.Skip(time.Hour)
	}
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	for _, p := range []lobby.Player{a, b} {
		games, err := e.st.History(ctxT(t), store.Query{Player: p.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		read := func(ctx context.Context, id string) ([]engine.Event, error) {
			_, evs, err := e.st.ShownGame(ctx, id, nil)
			return evs, err
		}
		c, err := jd.Over(ctxT(t), "", p.ID, games, read)
		if err != nil || c.Games != 2 || c.Decisions == 0 {
			t.Fatalf("%s's career: %+v, %v", p.ID, c, err)
		}
		cfg := e.config(p, 80, 24)
		cfg.Records, cfg.Judge = e.st, jd
		m := New(cfg).(*Model)
		run(m, m.goTo(goTo{to: screenStats}))
		frame := m.View()
		assertFits(t, frame, 80, 24)
		detail := strings.Split(words.AccuracyDetail(c.Summary), " · ")
		assertContains(t, frame, "Your games", "challenges", "accuracy        "+words.AccuracyFigure(c.Summary, 2), detail[0], detail[1])
		if p.ID == b.ID {
			assertContains(t, frame, "2 ??")
			t.Logf("bob's stats at 80×24:\n%s", frame)
		}
	}
	cfg := e.config(a, 80, 24)
	cfg.Records = e.st
	m := New(cfg).(*Model)
	run(m, m.goTo(goTo{to: screenStats}))
	assertLacks(t, m.View(), "accuracy", "being computed")
}

// TestStatsScreenDrawnWhileJudging: while the verdicts are being worked
// out the stats screen is drawn, and says so.
func TestStatsScreenDrawnWhileJudging(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	recordGame(t, e.st, "alpha", seatsOf(a, b), cheapRules(), 0, e.clock.Now().Add(time.Minute),
		roll(0, true, 43), claim(0, 31), challenge(1))
	e.clock.Skip(time.Hour)
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	cfg := e.config(a, 80, 24)
	cfg.Records, cfg.Judge = e.st, jd
	m := New(cfg).(*Model)
	m.goTo(goTo{to: screenStats}) // the loads not run: the career still on its way
	st, ok := m.cur.(*statsScreen)
	if !ok {
		t.Fatalf("the screen shown is %T", m.cur)
	}
	st.loaded(statsLoaded{req: st.req})
	frame := m.View()
	assertContains(t, frame, "accuracy", "being computed…", "challenges")
}

// TestStatsScreenAccuracyFits: at 80×24 the accuracy's detail gives way
// where the column has no room, the games not judged first to stay:
// fully, or as a few words on the accuracy's row.
func TestStatsScreenAccuracyFits(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	recordGame(t, e.st, "alpha", seatsOf(a, b), cheapRules(), 0, e.clock.Now().Add(time.Minute),
		roll(0, true, 43), claim(0, 31), challenge(1))
	e.clock.Skip(time.Hour)
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	refused := &lobby.LimitError{Rule: lobby.ErrTooManySolvesHere, Limit: 4}
	for _, c := range []struct {
		h       int
		pending int
		recent  int // games in the win rate's sparkline, 0 for the one played
		want    []string
		lacks   []string
	}{
		{24, 0, 5, []string{"accuracy        89% over 1 game", "Win rate, your last 5 games"}, []string{"not judged", words.AccuracyNotAll, "games judged", "%, 1 of"}},
		{40, 0, 0, []string{"lives given away a move", " ?!, "}, []string{"not judged", words.AccuracyNotAll}},
		{40, 2, 0, []string{"lives given away a move", " ?!, ", "2 games not judged: verdicts for", "rules are not computed yet"}, []string{words.AccuracyNotAll}},
		{24, 2, 0, []string{"accuracy        89% over 1 game", "  " + words.AccuracyNotAll, "won at alpha"}, []string{"not judged: "}},
		{24, 2, 5, []string{"accuracy        89%, 1 of 3 games", "Win rate, your last 5 games"}, []string{"not judged", words.AccuracyNotAll}},
	} {
		cfg := e.config(a, 80, c.h)
		cfg.Records, cfg.Judge = e.st, jd
		m := New(cfg).(*Model)
		run(m, m.goTo(goTo{to: screenStats}))
		st := m.cur.(*statsScreen)
		if !st.judged || st.career.Games != 1 {
			t.Fatalf("the career: %+v", st.career)
		}
		if c.pending > 0 {
			st.career.Pending, st.career.Refused = c.pending, fmt.Errorf("verdict of game 9: %w: %w", verdict.ErrUnsolved, refused)
		}
		// Ten rated games' worth of rows, as a regular has.
		st.data.rating = store.Rating{Rating: rating.Rating{Mu: 25, Sigma: 3, Games: 10}, Wins: 4}
		st.data.trend = make([]store.Point, 10)
		for len(st.data.recent) < c.recent {
			st.data.recent = append(st.data.recent, st.data.recent[0])
		}
		frame := m.View()
		assertFits(t, frame, 80, c.h)
		assertContains(t, frame, append([]string{"accuracy"}, c.want...)...)
		assertLacks(t, frame, c.lacks...)
		if c.h == 24 {
			t.Logf("at 80×24, %d games not judged, %d in the sparkline:\n%s", c.pending, max(1, c.recent), frame)
		}
	}
}

// TestCoachSaysWhyNot: at a coached table whose rules are not solved,
// opened from an address whose solver's budget is spent, the status line
// says after the viewer's move that it is not judged and why, at 80×24;
// nothing is solved, and the game goes on.
func TestCoachSaysWhyNot(t *testing.T) {
	unsolved := lobbytest.Unsolved(1)
	if len(unsolved) == 0 {
		t.Fatal("no cheap rule set unsolved")
	}
	rules := unsolved[0]
	rules.Lives = 2
	const here = "203.0.113.7"
	solves := lobby.NewSolves(1, 0, nil)
	spent, err := solves.Solve(here) // the address's one new solve this hour, a replay's
	if err != nil {
		t.Fatal(err)
	}
	spent()
	jd := verdict.NewBudgeted(solves)
	t.Cleanup(jd.Drain)
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	a.Source = here
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "practice", Rules: rules, Seats: 2, Coach: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{a, b} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	opener, _ := whoseTurn(t, e.until(tbl, a, "the game", func(s lobby.Snapshot) bool { return s.Playing }), a, b)
	cfg := e.config(opener, 80, 24)
	cfg.Judge = jd
	m := New(cfg).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, opener))
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		t.Fatal(err)
	}
	run(m, ts.setSnapshot(e.snapshot(tbl, opener)))
	frame := m.View()
	assertFits(t, frame, 80, 24)
	assertContains(t, frame, "your move: not judged, these rules are not solved yet")
	assertContains(t, unwrapped(frame), words.CoachUnsolved(1, false)) // whole, not cut
	assertLacks(t, frame, "best: ", "gave away")
	t.Logf("the opener's screen past the budget at 80×24:\n%s", frame)
	if verdict.Solved(rules) {
		t.Fatal("rules solved for a coach past its table's address's budget")
	}
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Claim, Value: engine.Mia}); err != nil {
		t.Fatalf("the game after the coach's refusal: %v", err)
	}
}

// TestReplayScreenWaitsForVerdicts: when the verdicts are not ready by
// the end of a wait, the replay screen goes on saying they are being
// worked out, asks again and shows them when they come; once it is left
// it asks no more.
func TestReplayScreenWaitsForVerdicts(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	g := recordGame(t, e.st, "alpha", seatsOf(a, b), cheapRules(), 0, e.clock.Now().Add(time.Minute),
		roll(0, true, 43), claim(0, 31), challenge(1))
	e.clock.Skip(time.Hour)
	jd := verdict.New()
	t.Cleanup(jd.Drain)
	cfg := e.config(a, 80, 24)
	cfg.Records, cfg.Judge = e.st, jd
	m := New(cfg).(*Model)
	m.goTo(goTo{to: screenReplay, game: g.ID}) // the loads not run
	rs, ok := m.cur.(*replayScreen)
	if !ok {
		t.Fatalf("the screen shown is %T", m.cur)
	}
	m.Update(reply{to: rs, msg: loadReplay(cfg.Records, cfg.Player, g.ID, rs.req)()}) // its ask for the verdicts dropped
	notReady := reply{to: rs, msg: verdictsLoaded{req: rs.req, err: verdict.ErrNotReady}}
	_, again := m.Update(notReady)
	frame := m.View()
	assertContains(t, frame, words.VerdictsPending)
	assertLacks(t, frame, "ask again", "verdicts:")
	if again == nil {
		t.Fatal("the replay screen does not ask again for verdicts not ready yet")
	}
	run(m, again)
	for range 3 {
		m.Update(keyRunes("l"))
	}
	frame = m.View()
	assertContains(t, frame, "step 3 of 3", " ??", "accuracy: alice ")
	assertLacks(t, frame, "being worked out")

	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if _, again := m.Update(notReady); again != nil {
		t.Error("the replay screen, left, still asks for verdicts")
	}
}
