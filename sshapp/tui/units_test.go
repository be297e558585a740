package tui

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// queue is a dice source that returns the numbers it was given, in order.
type queue []int

func (q *queue) Intn(n int) int {
	if len(*q) == 0 {
		return 0
	}
	v := (*q)[0]
	*q = (*q)[1:]
	return v % n
}

// dice queues the draws that roll the value v.
func dice(v engine.Value) []int { hi, lo := v.Dice(); return []int{hi - 1, lo - 1} }

// newGame starts a two-player game opened by seat 0, after the given
// actions (seats as in each action); the draws give the dice of each roll.
func newGame(t *testing.T, opts engine.Options, draws []int, acts ...engine.Action) *engine.Game {
	t.Helper()
	src := queue(append([]int{0}, draws...))
	g, _, err := engine.New(opts, 2, &src)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if _, err := g.Apply(a); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	return g
}

func values(p picker) []engine.Value {
	var out []engine.Value
	for _, it := range p.Items {
		out = append(out, it.Value)
	}
	return out
}

func sameValues(a, b []engine.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPickerOffersOnlyLegalValues(t *testing.T) {
	classic := engine.DefaultOptions()
	equal := engine.DefaultOptions()
	equal.Pass, equal.EqualClaims = false, true
	noPass := engine.DefaultOptions()
	noPass.Pass = false
	roll := func(seat int, look bool) engine.Action {
		return engine.Action{Kind: engine.Roll, Seat: seat, Look: look}
	}
	claim := func(seat int, v engine.Value) engine.Action {
		return engine.Action{Kind: engine.Claim, Seat: seat, Value: v}
	}
	pass := func(seat int, v engine.Value) engine.Action {
		return engine.Action{Kind: engine.Pass, Seat: seat, Value: v}
	}

	tests := []struct {
		name  string
		opts  engine.Options
		draws []int
		acts  []engine.Action
		seat  int
		ok    bool
		kind  engine.ActionKind
		want  []engine.Value // nil: not checked
		truth engine.Value   // the value marked ★, NoValue for none
		same  bool           // the first item passes the claim on
	}{
		{name: "opener after a roll: all 21", opts: classic, draws: dice(64), acts: []engine.Action{roll(0, true)},
			seat: 0, ok: true, kind: engine.Claim, want: engine.Classic.Above(engine.NoValue), truth: 64},
		{name: "blind roll: nothing marked", opts: classic, draws: dice(64), acts: []engine.Action{roll(0, false)},
			seat: 0, ok: true, kind: engine.Claim, want: engine.Classic.Above(engine.NoValue)},
		{name: "re-roll must beat the claim", opts: classic, draws: append(dice(31), dice(52)...),
			acts: []engine.Action{roll(0, true), claim(0, 54), roll(1, true)},
			seat: 1, ok: true, kind: engine.Claim, want: engine.Classic.Above(54)},
		{name: "equal claims allow the same value", opts: equal, draws: append(dice(31), dice(52)...),
			acts: []engine.Action{roll(0, true), claim(0, 54), roll(1, true)},
			seat: 1, ok: true, kind: engine.Claim, want: engine.Classic.AtLeast(54)},
		{name: "respond: pass the same value first, then raises", opts: classic, draws: dice(31),
			acts: []engine.Action{roll(0, true), claim(0, 65)},
			seat: 1, ok: true, kind: engine.Pass, want: append([]engine.Value{65}, engine.Classic.Above(65)...), same: true},
		{name: "own dice back: raises only, truth marked", opts: classic, draws: dice(64),
			acts: []engine.Action{roll(0, true), claim(0, 43), pass(1, 43)},
			seat: 0, ok: true, kind: engine.Pass, want: engine.Classic.Above(43), truth: 64},
		{name: "Mia: nothing to announce", opts: classic, draws: dice(31),
			acts: []engine.Action{roll(0, true), claim(0, engine.Mia)}, seat: 1},
		{name: "pass off: nothing to announce before rolling", opts: noPass, draws: dice(31),
			acts: []engine.Action{roll(0, true), claim(0, 54)}, seat: 1},
		{name: "not your turn", opts: classic, draws: dice(31), acts: []engine.Action{roll(0, true)}, seat: 1},
		{name: "before the roll", opts: classic, seat: 0},
		{name: "spectator", opts: classic, draws: dice(31), acts: []engine.Action{roll(0, true)}, seat: engine.Spectator},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.opts, tc.draws, tc.acts...)
			v := g.View(tc.seat)
			p, ok := newPicker(NewStyles(asciiRenderer()), &v)
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if !ok {
				if p.Open() {
					t.Error("a picker that may not open is open")
				}
				return
			}
			if p.Kind != tc.kind {
				t.Errorf("kind %v, want %v", p.Kind, tc.kind)
			}
			if tc.want != nil && !sameValues(values(p), tc.want) {
				t.Errorf("values %v, want %v", values(p), tc.want)
			}
			// Every value offered is accepted by the engine.
			for _, it := range p.Items {
				c := g.Clone()
				if _, err := c.Apply(engine.Action{Kind: p.Kind, Seat: tc.seat, Value: it.Value}); err != nil {
					t.Errorf("offered %v, refused: %v", it.Value, err)
				}
				if it.Truth != (it.Value == tc.truth) {
					t.Errorf("%v marked truth %v", it.Value, it.Truth)
				}
				if want := "21 Mia"; it.Value == engine.Mia && it.Label != want {
					t.Errorf("Mia labelled %q", it.Label)
				}
				if want := (engine.Classic.ChanceToBeat(it.Value)*100 + 18) / 36; it.Beat != want {
					t.Errorf("%v: beat %d%%, want %d%%", it.Value, it.Beat, want)
				}
			}
			if p.Items[0].Same != tc.same {
				t.Errorf("first item same %v, want %v", p.Items[0].Same, tc.same)
			}
			if p.Cursor != 0 || p.Selected() != p.Items[0].Value {
				t.Errorf("the lowest value is not preselected: cursor %d", p.Cursor)
			}
		})
	}
}

func TestPickerKeysAndView(t *testing.T) {
	g := newGame(t, engine.DefaultOptions(), dice(64), engine.Action{Kind: engine.Roll, Seat: 0, Look: true})
	v := g.View(0)
	p, _ := newPicker(NewStyles(asciiRenderer()), &v)
	p.SetSize(40, 8)

	down := tea.KeyMsg{Type: tea.KeyDown}
	p = p.Update(down)
	p = p.Update(down)
	if p.Selected() != 41 {
		t.Errorf("two down from 31: %v", p.Selected())
	}
	p = p.Update(keyRunes("d"))
	if p.Selected() != 64 {
		t.Errorf("d jumps to %v, want the dice 64", p.Selected())
	}
	view := p.View()
	assertContains(t, view, "Announce (lowest first):", "› 64", "★ your dice", "to beat")
	if n := strings.Count(view, "\n") + 1; n > 8 {
		t.Errorf("%d lines in 8", n)
	}
	for _, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line wider than 40: %q", l)
		}
	}
	for range 30 {
		p = p.Update(down)
	}
	if p.Selected() != engine.Mia || !strings.Contains(p.View(), "› 21 Mia") {
		t.Errorf("the top is %v:\n%s", p.Selected(), p.View())
	}

	// A newer view keeps the selection; a view with nothing to announce
	// closes the picker.
	if r := p.Refresh(&v); r.Selected() != engine.Mia {
		t.Errorf("refresh lost the selection: %v", r.Selected())
	}
	g.Apply(engine.Action{Kind: engine.Claim, Seat: 0, Value: 64})
	v2 := g.View(0)
	if r := p.Refresh(&v2); r.Open() {
		t.Error("the picker stays open after the claim")
	}

	if a := p.Action(); a != (engine.Action{Kind: engine.Claim, Value: engine.Mia}) {
		t.Errorf("the picker would play %+v", a)
	}
	if r := p.Update(keyEsc); r.Open() {
		t.Error("esc does not cancel")
	}
}

func TestDrawDice(t *testing.T) {
	for n := 1; n <= 6; n++ {
		face := dieFace(n)
		if len(face) != dieHeight {
			t.Fatalf("die %d: %d lines", n, len(face))
		}
		pips := 0
		for _, l := range face {
			if w := ansi.StringWidth(l); w != dieWidth {
				t.Errorf("die %d: line %q is %d wide", n, l, w)
			}
			pips += strings.Count(l, "●")
		}
		if pips != n {
			t.Errorf("die %d has %d pips", n, pips)
		}
	}
	if dieFace(0) != nil || dieFace(7) != nil {
		t.Error("faces outside 1-6")
	}
	tests := []struct {
		v          engine.Value
		left, righ int
	}{{64, 6, 4}, {21, 2, 1}, {11, 1, 1}, {66, 6, 6}}
	for _, tc := range tests {
		lines := strings.Split(drawDice(tc.v), "\n")
		if len(lines) != dieHeight {
			t.Fatalf("%v: %d lines", tc.v, len(lines))
		}
		var l, r int
		for _, line := range lines {
			runes := []rune(line)
			l += strings.Count(string(runes[:dieWidth]), "●")
			r += strings.Count(string(runes[dieWidth:]), "●")
		}
		if l != tc.left || r != tc.righ {
			t.Errorf("%v drawn as %d and %d pips:\n%s", tc.v, l, r, drawDice(tc.v))
		}
	}
	if drawDice(engine.NoValue) != "" || drawDice(70) != "" {
		t.Error("drew a value that is not a roll")
	}
	if !strings.Contains(drawCup(), "? ?") {
		t.Error("the cup shows no hidden dice")
	}
	left, lost := hearts(4, 6)
	if left != "♥♥♥♥" || lost != "♡♡" {
		t.Errorf("hearts(4, 6) = %q %q", left, lost)
	}
	if left, lost := hearts(-1, 100); left != "" || lost != strings.Repeat("♡", engine.MaxLives) {
		t.Errorf("hearts(-1, 100) = %q %q", left, lost)
	}
}

func TestFormOptions(t *testing.T) {
	s := NewStyles(asciiRenderer())
	f := newCreateForm(&common{cfg: Config{Player: lobby.Player{ID: "p:1"}, Name: "alice"}, s: s})
	if tc := f.config(); tc.Name != "alice-table" || tc.Seats != 6 || tc.Rules != engine.DefaultOptions() || tc.Private {
		t.Fatalf("defaults %+v", tc)
	}
	at := func(fl formField, dir int) {
		f.setFocus(fl)
		f.change(dir)
	}
	at(fieldEqual, +1)
	if o := f.config().Rules; !o.EqualClaims || o.Pass || o.Validate() != nil {
		t.Errorf("equal claims on: %+v (%v)", o, o.Validate())
	}
	at(fieldPass, +1)
	if o := f.config().Rules; o.EqualClaims || !o.Pass || o.Validate() != nil {
		t.Errorf("pass on again: %+v", o)
	}
	for range 20 {
		at(fieldSeats, +1)
		at(fieldLives, -1)
		at(fieldTurn, +1)
	}
	if tc := f.config(); tc.Seats != engine.MaxSeats || tc.Rules.Lives != engine.MinLives || tc.Rules.TurnSeconds != engine.MaxTurnSeconds {
		t.Errorf("clamped to %d seats, %d lives, %ds", tc.Seats, tc.Rules.Lives, tc.Rules.TurnSeconds)
	}
	for range 20 {
		at(fieldTurn, -1)
	}
	if got := f.config().Rules.TurnSeconds; got != engine.MinTurnSeconds {
		t.Errorf("turn time down to %d", got)
	}
	seen := map[engine.Ranking]bool{}
	for range len(engine.Rankings) {
		at(fieldRanking, +1)
		seen[f.config().Rules.Ranking] = true
	}
	if len(seen) != len(engine.Rankings) {
		t.Errorf("ranking cycles through %v", seen)
	}
	at(fieldMiaPenalty, +1)
	at(fieldMiaBoth, +1)
	at(fieldNextOpener, +1)
	at(fieldEnd, +1)
	at(fieldPrivate, +1)
	tc := f.config()
	o := tc.Rules
	if o.MiaPenalty != 1 || !o.MiaPenaltyBoth || o.NextOpener != engine.Loser || o.End != engine.FirstOut || !tc.Private {
		t.Errorf("changed options %+v private %v", o, tc.Private)
	}
	if got := f.value(fieldMiaPenalty); got != "1 life" {
		t.Errorf("a Mia penalty of 1 reads %q", got)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("the form made impossible options: %v", err)
	}
}

// TestFormShowsLobbyError drives the root model without a program: a bad
// name comes back as the lobby's own error, shown in the form.
func TestFormShowsLobbyError(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	m := New(e.config(a, 80, 24)).(*Model)
	defer m.Close()
	m.Init()
	m.goTo(goTo{to: screenForm})
	f, ok := m.cur.(*createForm)
	if !ok {
		t.Fatal("no form")
	}
	f.name.SetValue("no spaces please")
	_, cmd := m.Update(keyEnter) // the form creates the table
	m.Update(cmd())              // its answer
	if f.err != lobby.CheckTableName("no spaces please").Error() {
		t.Errorf("form error %q", f.err)
	}
	assertContains(t, m.View(), lobby.CheckTableName("no spaces please").Error())
	if _, err := e.lobby.Table("no spaces please"); err == nil {
		t.Error("the table was created")
	}
}

// TestColoursFollowTheRenderer: an Ascii renderer (NO_COLOR) draws no
// escape codes at all; a colour renderer does, with the same layout.
func TestColoursFollowTheRenderer(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("colours", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	frame := func(cfg Config) string {
		m := New(cfg).(*Model)
		showTable(m, tbl, snap)
		return m.View()
	}
	plain := frame(e.config(a, 80, 24))
	if strings.Contains(plain, "\x1b") {
		t.Errorf("escape codes with the Ascii profile:\n%q", plain)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	cfg := e.config(a, 80, 24)
	cfg.Renderer = r
	coloured := frame(cfg)
	if !strings.Contains(coloured, "\x1b[") {
		t.Error("no colour with an ANSI256 renderer")
	}
	if got := ansi.Strip(coloured); got != plain {
		t.Errorf("the layout differs with colours:\n%s\n---\n%s", got, plain)
	}
}

// TestGoodbye closes the subscriptions and quits with the reason shown.
func TestGoodbye(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("bye", engine.DefaultOptions(), a, b)
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "round 1")
	tm.Send(GoodbyeMsg{Reason: "the server is restarting"})
	m := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	assertContains(t, m.View(), "the server is restarting")
	e.infoUntil(tbl, "nobody watching", func(i lobby.TableInfo) bool { return i.Watching == 0 })
}

func BenchmarkTableView(b *testing.B) {
	e := newEnv(b)
	p := []lobby.Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := e.game("bench", engine.DefaultOptions(), p...)
	m := New(e.config(p[0], 80, 24)).(*Model)
	showTable(m, tbl, e.snapshot(tbl, p[0]))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// TestKeysWaitForTheMoveInFlight: keys pressed while a move is on its way
// are read after it has landed, in order, against the table they were
// meant for. "r r enter" rolls once (the second r meets the open claim
// picker) and announces, as the player meant; the root splits a burst of
// runes ("jj") into single key presses.
func TestKeysWaitForTheMoveInFlight(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("burst", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	p := a
	if snap.Game.Turn != snap.Game.Seat {
		p = b
	}
	m := New(e.config(p, 80, 24)).(*Model)
	defer m.Close()
	ts := showTable(m, tbl, e.snapshot(tbl, p))
	n := len(ts.snap.Events())

	rollCmd := m.key(keyRunes("r"))
	if rollCmd == nil || !ts.busy {
		t.Fatal("r sends no roll")
	}
	m.key(keyRunes("rj")) // a burst: r, then j
	m.key(keyEnter)
	if len(ts.held) != 3 {
		t.Fatalf("%d keys held while the roll is on its way, want 3", len(ts.held))
	}
	if cmd := ts.done(answer(rollCmd).(doneMsg)); cmd != nil || !ts.busy {
		t.Fatal("the held keys ran before the roll's snapshot arrived")
	}
	rolled := e.until(tbl, p, "the roll", func(s lobby.Snapshot) bool { return len(s.Events()) > n })
	want := rolled.Game.Claims[min(1, len(rolled.Game.Claims)-1)] // j moved the cursor one higher
	cmd := ts.setSnapshot(rolled)
	if cmd == nil || len(ts.held) != 0 {
		t.Fatalf("the held keys did not run (%d held)", len(ts.held))
	}
	ts.done(answer(cmd).(doneMsg))
	claimed := e.until(tbl, p, "the claim", func(s lobby.Snapshot) bool { return s.Game.Claim != engine.NoValue })
	if claimed.Game.Claim != want {
		t.Errorf("announced %v, want %v (the second value: one j)", claimed.Game.Claim, want)
	}
	if got := len(claimed.Events()); got != n+2 {
		t.Errorf("%d events after r r j enter, want a roll and a claim", got-n)
	}
}

// BenchmarkTableSnapshot is a snapshot taken and drawn: what a session
// spends on each change of its table. The snapshots alternate between
// two moves of a game, so the log changes each time and the chat not.
func BenchmarkTableSnapshot(b *testing.B) {
	e := newEnv(b)
	p := []lobby.Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := e.game("bench", engine.DefaultOptions(), p...)
	m := New(e.config(p[0], 80, 24)).(*Model)
	first := e.snapshot(tbl, p[0])
	turn, _ := whoseTurn(b, first, p...)
	if err := tbl.Act(ctxT(b), turn, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		b.Fatal(err)
	}
	snaps := []lobby.Snapshot{first, e.until(tbl, p[0], "the roll", func(s lobby.Snapshot) bool { return len(s.Events()) > len(first.Events()) })}
	ts := showTable(m, tbl, first)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		ts.setSnapshot(snaps[i%2])
		_ = m.View()
	}
}

// TestPausedTableShows: a table paused because the server's storage does
// not answer says so where the turn is shown, and offers no move.
func TestPausedTableShows(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("paused", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	p := a
	if snap.Game.Turn != snap.Game.Seat {
		p = b
	}
	m := New(e.config(p, 80, 24)).(*Model)
	defer m.Close()
	live := e.snapshot(tbl, p)
	ts := showTable(m, tbl, live)
	if !ts.keys.Roll.Enabled() || !strings.Contains(m.View(), "Your turn") {
		t.Fatalf("the player's turn before the pause:\n%s", m.View())
	}
	paused := live // as the lobby sends it: paused, the turn clock stopped
	paused.Table.Paused, paused.Deadline = true, time.Time{}
	ts.setSnapshot(paused)
	view := m.View()
	if !strings.Contains(view, "Table paused") || !strings.Contains(view, "answering: moves wait") || strings.Contains(view, "Your turn") {
		t.Fatalf("a paused table:\n%s", view)
	}
	if ts.keys.Roll.Enabled() || ts.keys.Challenge.Enabled() || ts.keys.Announce.Enabled() {
		t.Fatal("moves are offered while the table is paused")
	}
	if cmd := m.key(keyRunes("r")); cmd != nil || ts.busy {
		t.Fatal("r sent a roll to a paused table")
	}
	// The move whose write paused the table was answered so; the answer
	// is shown while the table is paused, and ends when it resumes.
	ts.done(doneMsg{what: "roll", move: true, err: fmt.Errorf("the move could not be saved: %w", lobby.ErrUnsaved)})
	if !strings.Contains(m.View(), "storage not answering") {
		t.Fatalf("the move's answer during the pause:\n%s", m.View())
	}
	ts.setSnapshot(live)
	if !ts.keys.Roll.Enabled() || !strings.Contains(m.View(), "Your turn") || strings.Contains(m.View(), "storage not answering") {
		t.Fatalf("the table resumed:\n%s", m.View())
	}
}
