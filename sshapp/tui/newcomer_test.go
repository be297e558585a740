package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// What a newcomer hit at the table (issue 11), one test per item.

// TestEveryKeyCounts types a burst of runes (one message, as a fast typist
// or a slow link delivers them) into every screen, most of them before the
// screen has loaded what the keys act on: each key counts, in order.
func TestEveryKeyCounts(t *testing.T) {
	e := newEnv(t)
	r := newRecords(t, e, 4, 0, 0) // alpha: 4 games of alice and bob
	for _, n := range []string{"t2", "t3"} {
		if _, err := e.lobby.CreateTable(ctxT(t), r.bob, lobby.TableConfig{Name: n, Rules: engine.DefaultOptions()}); err != nil {
			t.Fatal(err)
		}
	}
	newModel := func() *Model {
		cfg := e.config(r.alice, 80, 24)
		cfg.Records = e.st
		m := New(cfg).(*Model)
		t.Cleanup(m.Close)
		return m
	}
	cases := []struct {
		name string
		run  func(t *testing.T, m *Model) string // returns what the keys did
		want string
	}{
		{"lobby list, before the tables arrive", func(t *testing.T, m *Model) string {
			l := newLobbyScreen(m.c, "", false)
			m.show(l)
			m.key(keyRunes("jj"))
			l.Update(lobbyMsg{tables: e.lobby.Tables(r.alice.Viewer())})
			return l.tables[l.cursor].Name
		}, "t3"},
		{"lobby chat line", func(t *testing.T, m *Model) string {
			l := newLobbyScreen(m.c, "", false)
			m.show(l)
			l.Update(lobbyMsg{tables: e.lobby.Tables(r.alice.Viewer())})
			m.key(keyRunes("chello"))
			return l.say.Value()
		}, "hello"},
		{"create form", func(t *testing.T, m *Model) string {
			f := newCreateForm(m.c)
			m.show(f)
			m.key(tea.KeyMsg{Type: tea.KeyTab}) // to the preset
			m.key(tea.KeyMsg{Type: tea.KeyTab}) // to the seats
			m.key(keyRunes("hhl"))
			return fmt.Sprint(f.seats)
		}, "5"},
		{"history, keys pressed while it loads", func(t *testing.T, m *Model) string {
			h := newHistoryScreen(m.c, "", 0)
			m.show(h)
			load := h.Init()
			m.key(keyRunes("jjj"))
			run(m, load)
			return h.games[h.cursor].ID
		}, r.alpha[0]}, // newest first: the fourth row is the oldest game
		{"replay, keys pressed while it loads", func(t *testing.T, m *Model) string {
			p := newReplayScreen(m.c, r.alpha[0], nil)
			m.show(p)
			load := p.Init()
			m.key(keyRunes("lll"))
			run(m, load)
			return string(rune('0' + p.step))
		}, "3"},
		{"stats, keys pressed while it loads", func(t *testing.T, m *Model) string {
			s := newStatsScreen(m.c, "alpha")
			m.show(s)
			load := s.Init()
			m.key(keyRunes("f"))
			run(m, load)
			if s.held != nil {
				t.Errorf("%d keys still held", len(s.held))
			}
			return s.boardTable()
		}, "alpha"},
		{"name prompt, keys typed while a refused name is stored", func(t *testing.T, m *Model) string {
			p := newPrompt(m.c)
			p.phase = asking
			m.show(p)
			m.key(keyRunes("ab"))
			m.key(keyEnter) // saving
			m.key(keyRunes("cd"))
			p.Update(nameSetMsg{err: errors.New("taken")})
			return p.input.Value()
		}, "abcd"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.run(t, newModel()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestTableKeysWaitForTheTable: keys typed before the table is open run
// once it is (t opens the chat line, the rest is typed into it).
func TestTableKeysWaitForTheTable(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("early", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := newTableScreen(m.c, tbl.Name(), false)
	ts.table = tbl
	m.show(ts)
	m.key(keyRunes("thi"))
	if typing(ts.say) || len(ts.held) != 3 {
		t.Fatalf("before the table opened: typing %v, %d held", typing(ts.say), len(ts.held))
	}
	ts.setSnapshot(e.snapshot(tbl, a))
	if !ts.say.typing || ts.say.Value() != "hi" {
		t.Errorf("after: typing %v, line %q; want the chat line holding \"hi\"", ts.say.typing, ts.say.Value())
	}
}

// TestHelpOffersOnlyLegalMoves: enter is offered only to who may start
// (the host alone may not; a seated player may not while the host is
// here; someone who left and has no seat may not play again), and a
// refused move's status ends with the round.
func TestHelpOffersOnlyLegalMoves(t *testing.T) {
	e := newEnv(t)
	host, ann, bob := e.player("host"), e.player("ann"), e.player("bob")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, lobby.TableConfig{Name: "legal", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	hostSub, err := tbl.Watch(ctx, host) // the host is at the table
	if err != nil {
		t.Fatal(err)
	}
	draw := func(p lobby.Player) (*tableScreen, string) {
		m := New(e.config(p, 80, 24)).(*Model)
		ts := showTable(m, tbl, e.snapshot(tbl, p))
		return ts, m.View()
	}
	seated := func(n int) func(lobby.TableInfo) bool {
		return func(i lobby.TableInfo) bool { return i.Taken == n }
	}
	if err := tbl.Sit(ctx, host); err != nil {
		t.Fatal(err)
	}
	e.infoUntil(tbl, "the host seated", seated(1))
	_, v := draw(host)
	assertContains(t, v, "waiting for a second player")
	assertLacks(t, v, "enter start", "enter: start")

	if err := tbl.Sit(ctx, ann); err != nil {
		t.Fatal(err)
	}
	e.infoUntil(tbl, "ann seated", seated(2))
	_, v = draw(host)
	// The help bar keeps ? (every key) when the rest does not fit.
	assertContains(t, v, "enter start", "enter: start the game", "+ add normal bot", "? help")
	annTS, v := draw(ann)
	assertContains(t, v, "waiting for host, the host, to start")
	assertLacks(t, v, "enter start", "enter: start")

	// enter from ann says who starts, not nothing.
	annTS.key(keyEnter)
	if want := "host, the host, starts the game (anyone seated may while the host is away)"; annTS.status != want {
		t.Errorf("enter from a player who may not start: status %q, want %q", annTS.status, want)
	}
	// A refused start: the status goes when the game starts.
	annTS.done(doneMsg{what: "start", err: lobby.ErrNotHost})
	if annTS.status == "" {
		t.Fatal("the refusal is not shown")
	}
	if err := tbl.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	annTS.setSnapshot(e.until(tbl, ann, "the game", func(s lobby.Snapshot) bool { return s.Playing }))
	if annTS.status != "" {
		t.Errorf("the refusal lingers into the game: %q", annTS.status)
	}

	// The host leaves the running game; once it is over, the host may play
	// again (hosts may), bob, who never sat, may not.
	if err := tbl.Stand(ctx, host); err != nil {
		t.Fatal(err)
	}
	e.until(tbl, ann, "the game over", func(s lobby.Snapshot) bool { return !s.Playing })
	_, v = draw(bob)
	assertContains(t, v, "s: sit for the next game")
	assertLacks(t, v, "play again")

	// With the host gone, the seated player may start.
	hostSub.Close()
	e.infoUntil(tbl, "the host gone", func(i lobby.TableInfo) bool { return !i.HostHere })
	if err := tbl.Sit(ctx, bob); err != nil {
		t.Fatal(err)
	}
	e.infoUntil(tbl, "bob seated", func(i lobby.TableInfo) bool {
		return slices.ContainsFunc(i.Players, func(s lobby.SeatInfo) bool { return s.Name == "bob" })
	})
	_, v = draw(ann)
	assertContains(t, v, "enter: play again", "enter play again", "? help")
}

// TestTooSmallTakesNoMoves: at 60×20 the table is not drawn, so its keys
// do nothing (c does not challenge), while the notice still says it is
// the viewer's turn; q quits.
func TestTooSmallTakesNoMoves(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("small", engine.DefaultOptions(), a, b)
	opener, rest := whoseTurn(t, e.snapshot(tbl, a), a, b)
	ctx := ctxT(t)
	for _, x := range []engine.Action{{Kind: engine.Roll, Look: true}, {Kind: engine.Claim, Value: 43}} {
		if err := tbl.Act(ctx, opener, x); err != nil {
			t.Fatal(err)
		}
	}
	me := rest[0]
	m := New(e.config(me, 60, 20)).(*Model)
	ts := showTable(m, tbl, e.until(tbl, me, "the claim", func(s lobby.Snapshot) bool { return s.Game.Claim == 43 }))
	v := m.View()
	assertContains(t, v, "Your turn at small · 60s left", "make the window at least 80×24", "(now 60×20)")
	for _, k := range []string{"c", "r", "a"} {
		if cmd := m.key(keyRunes(k)); cmd != nil || ts.busy || ts.picker.Open() {
			t.Errorf("%s at 60×20 acted", k)
		}
	}
	if got := e.snapshot(tbl, me); got.Game.Round != 1 || got.Game.Claim != 43 {
		t.Errorf("the game moved: round %d, claim %v", got.Game.Round, got.Game.Claim)
	}
	// Back to 80×24: c challenges.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if cmd := m.key(keyRunes("c")); cmd == nil || !ts.busy {
		t.Error("c at 80×24 does not challenge")
	}
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if cmd := m.key(keyRunes("q")); cmd == nil {
		t.Error("q does not quit a window too small")
	}
}

// TestStatusFollowsLeaving: s, n ("you stay in the game"), then s, y: the
// status no longer says that the viewer stays.
func TestStatusFollowsLeaving(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	tbl := e.game("stay", engine.DefaultOptions(), a, b, c)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("sn"))
	assertContains(t, m.View(), "you stay in the game")
	m.key(keyRunes("s"))
	cmd := m.key(keyRunes("y"))
	if cmd == nil {
		t.Fatal("y sends nothing")
	}
	ts.done(answer(cmd).(doneMsg))
	ts.setSnapshot(e.until(tbl, a, "alice out", func(s lobby.Snapshot) bool { return s.Game.Lives[s.You] == 0 }))
	v := m.View()
	assertLacks(t, v, "you stay in the game")
	assertContains(t, v, "you left the game")
}

// TestEveryLineFits80: at 80×24, the README's least size, no hint and no
// help bar is cut ("…"), in the states with the most to say.
func TestEveryLineFits80(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	tbl := e.game("sixteen-letters1", engine.DefaultOptions(), a, b, c) // the longest name

	opener, rest := whoseTurn(t, e.snapshot(tbl, a), a, b, c)
	ctx := ctxT(t)
	for _, x := range []engine.Action{{Kind: engine.Roll, Look: true}, {Kind: engine.Claim, Value: 43}} {
		if err := tbl.Act(ctx, opener, x); err != nil {
			t.Fatal(err)
		}
	}
	me := rest[0]
	answering := e.until(tbl, me, "the claim", func(s lobby.Snapshot) bool { return s.Game.Claim == 43 })
	frames := map[string]string{}
	m := New(e.config(me, 80, 24)).(*Model)
	showTable(m, tbl, answering)
	frames["answering a claim"] = m.View()
	m.key(keyRunes("?"))
	frames["the full help"] = m.View()
	m.key(keyRunes("?"))
	m.key(keyRunes("a"))
	frames["the pass picker"] = m.View()
	w := New(e.config(e.player("dave"), 80, 24)).(*Model)
	showTable(w, tbl, e.snapshot(tbl, e.player("dave")))
	frames["watching"] = w.View()
	waiting, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "sixteen-letters2", Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	showTable(w, waiting, e.snapshot(waiting, e.player("dave")))
	frames["watching a waiting table"] = w.View()
	l := newLobbyScreen(m.c, "", false)
	l.setTables(e.lobby.Tables(a.Viewer()))
	m.show(l)
	frames["lobby"] = m.View()
	m.show(newCreateForm(m.c))
	frames["form"] = m.View()

	assertContains(t, frames["answering a claim"], "c: liar · r: roll · b: roll blind", "p: pass · a: raise",
		"r roll", "b blind", "c liar!", "p pass 43", "a raise", "? help")
	for what, f := range frames {
		assertFits(t, f, 80, 24)
		lines := strings.Split(f, "\n")
		if last := lines[len(lines)-1]; strings.Contains(last, "…") {
			t.Errorf("%s: the help bar is cut: %q", what, last)
		}
		if strings.Contains(lines[0], "…") {
			t.Errorf("%s: the title is cut: %q", what, lines[0])
		}
		for _, l := range lines {
			if strings.Contains(l, ":") && strings.Contains(l, "…") && !strings.Contains(l, "sha256") {
				t.Errorf("%s: a line is cut: %q", what, strings.TrimSpace(ansi.Strip(l)))
			}
		}
	}
}

// TestCupLifted: after a challenge every screen at the table (both
// players and a spectator) shows the lifted cup (the dice, the claim, who
// lost) in place of the log, while the next round runs; it goes when its
// time is over, and an older cup's end does not end a newer one.
func TestCupLifted(t *testing.T) {
	e := newEnv(t)
	tbl, opener, other, dice, claim := e.bluffing("cup", e.player("alice"), e.player("bob"))
	dave, ctx := e.player("dave"), ctxT(t)
	type viewer struct {
		p  lobby.Player
		m  *Model
		ts *tableScreen
	}
	var vs []viewer
	for _, p := range []lobby.Player{opener, other, dave} {
		m := New(e.config(p, 80, 24)).(*Model)
		vs = append(vs, viewer{p, m, showTable(m, tbl, e.snapshot(tbl, p))})
	}
	if err := tbl.Act(ctx, other, engine.Action{Kind: engine.Challenge}); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		snap := e.until(tbl, v.p, "round 2", func(s lobby.Snapshot) bool { return s.Game.Round == 2 })
		if cmd := v.ts.setSnapshot(snap); cmd == nil {
			t.Errorf("%s: no end of the cup is set", nameOf(v.p))
		}
		f := v.m.View()
		assertFits(t, f, 80, 24)
		hi, lo := dice.Dice()
		assertContains(t, f, "The cup is lifted", "the claim: "+claim.Name()+" by", "a liar: "+dice.Name(),
			"lose", "round 2", faces[hi][2], faces[lo][2])
		assertLacks(t, f, "Round log")
		v.ts.Update(revealEndMsg{n: v.ts.cup.n - 1}) // an older cup's end
		assertContains(t, v.m.View(), "The cup is lifted")
		v.ts.Update(revealEndMsg{n: v.ts.cup.n})
		f = v.m.View()
		assertContains(t, f, "Round log")
		assertLacks(t, f, "The cup is lifted")
	}
}

// TestPickerHidesYourDice: d (your dice) is offered only when the dice
// are among the values to announce.
func TestPickerHidesYourDice(t *testing.T) {
	s := NewStyles(asciiRenderer())
	cases := []struct {
		name  string
		draws []int
		acts  []engine.Action
		want  bool
	}{
		{"dice seen, above the claim", append(dice(31), dice(54)...), []engine.Action{
			{Kind: engine.Roll, Seat: 0, Look: true}, {Kind: engine.Claim, Seat: 0, Value: 32},
			{Kind: engine.Roll, Seat: 1, Look: true}}, true},
		{"dice seen, below the claim", append(dice(31), dice(41)...), []engine.Action{
			{Kind: engine.Roll, Seat: 0, Look: true}, {Kind: engine.Claim, Seat: 0, Value: 62},
			{Kind: engine.Roll, Seat: 1, Look: true}}, false},
		{"rolled blind", append(dice(31), dice(54)...), []engine.Action{
			{Kind: engine.Roll, Seat: 0, Look: true}, {Kind: engine.Claim, Seat: 0, Value: 32},
			{Kind: engine.Roll, Seat: 1, Look: false}}, false},
	}
	for _, c := range cases {
		g := newGame(t, engine.DefaultOptions(), c.draws, c.acts...)
		v := g.View(1)
		p, ok := newPicker(s, &v)
		if !ok {
			t.Fatalf("%s: no picker", c.name)
		}
		if got := p.keys.Truth.Enabled(); got != c.want {
			t.Errorf("%s: d offered %v, want %v", c.name, got, c.want)
		}
		if got := strings.Contains(ansi.Strip(s.newHelp().View(p.keys)), "your dice"); got != c.want {
			t.Errorf("%s: the help shows d %v, want %v", c.name, got, c.want)
		}
	}
}

// TestChatLineFullAndKept: the chat line says when it holds
// lobby.MaxChatRunes, and a line the rate limit refuses stays in the
// input, in the lobby and at a table.
func TestChatLineFullAndKept(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("talk", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	l := newLobbyScreen(m.c, "", false)
	m.show(l)
	l.Update(lobbyMsg{tables: e.lobby.Tables(a.Viewer())})
	m.key(keyRunes("c"))
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x", lobby.MaxChatRunes+50)), Paste: true})
	if n := len([]rune(l.say.Value())); n != lobby.MaxChatRunes {
		t.Errorf("the line holds %d runes, want %d", n, lobby.MaxChatRunes)
	}
	assertContains(t, m.View(), "200/200 the line is full")
	m.key(tea.KeyMsg{Type: tea.KeyBackspace})
	assertLacks(t, m.View(), "the line is full")
	m.key(keyEsc)
	l.say.Reset()

	// The lobby's rate limit (the clock stands still: no refill).
	floodLobby := func() error { return e.lobby.Say(a, "hi") }
	for i := 0; i < 10 && floodLobby() == nil; i++ {
		continue
	}
	m.key(keyRunes("c"))
	m.key(keyRunes("one more"))
	cmd := m.key(keyEnter)
	l.Update(answer(cmd))
	if l.say.Value() != "one more" || !strings.Contains(l.status, "slow down") {
		t.Errorf("lobby: line %q, status %q; want the line kept and the refusal", l.say.Value(), l.status)
	}
	assertContains(t, m.View(), "your line is kept: c to send it again")

	// At a table.
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	floodTable := func() error { return tbl.Say(ctxT(t), a, "hi") }
	for i := 0; i < 10 && floodTable() == nil; i++ {
		continue
	}
	m.key(keyRunes("t"))
	m.key(keyRunes("again"))
	cmd = m.key(keyEnter)
	ts.done(answer(cmd).(doneMsg))
	if ts.say.Value() != "again" || !strings.Contains(ts.status, "slow down") {
		t.Errorf("table: line %q, status %q; want the line kept and the refusal", ts.say.Value(), ts.status)
	}
	m.key(keyRunes("t"))
	if !ts.say.typing || ts.say.Value() != "again" {
		t.Errorf("t does not bring the kept line back: %q", ts.say.Value())
	}
	if ts.status != "" {
		t.Errorf("the refusal stays once the line is taken up again: %q", ts.status)
	}
}

// TestChatBurstLosesNoLine: lines sent in one burst past the chat's rate
// limit ("t one enter … t six enter t seven enter", the answers arriving
// after the last key) go to the chat one at a time, in order, and those
// refused are each kept, in order, to be sent again; a line refused while
// the next is being typed waits behind it.
func TestChatBurstLosesNoLine(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("burst", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	words := []string{"one", "two", "three", "four", "five", "six", "seven"}
	var first tea.Cmd
	for i, w := range words {
		m.key(keyRunes("t"))
		m.key(keyRunes(w))
		if cmd := m.key(keyEnter); i == 0 {
			first = cmd
		} else if cmd != nil {
			t.Fatalf("%q was sent while %q was on its way: lines could arrive out of order", w, words[0])
		}
	}
	// The answers, after the whole burst: each sends the next line.
	for cmd := first; cmd != nil; {
		cmd = ts.done(answer(cmd).(doneMsg))
	}
	if ts.say.Value() != "six" || !slices.Equal(ts.say.kept, []string{"seven"}) {
		t.Fatalf("after the burst the line holds %q, kept %q; want six, then seven", ts.say.Value(), ts.say.kept)
	}
	assertContains(t, m.View(), "slow down", "2 lines kept: t to send each again")
	var said []string
	for _, l := range e.snapshot(tbl, a).Chat {
		said = append(said, l.Text)
	}
	if !slices.Equal(said, words[:5]) {
		t.Errorf("the chat took %q, want the first five", said)
	}
	// Sent again once the chat takes lines again: six, then seven.
	for _, w := range []string{"six", "seven"} {
		e.clock.Advance(2 * time.Second)
		m.key(keyRunes("t"))
		if ts.say.Value() != w {
			t.Fatalf("t brings back %q, want %q", ts.say.Value(), w)
		}
		ts.done(answer(m.key(keyEnter)).(doneMsg))
	}
	said = said[:0]
	for _, l := range e.snapshot(tbl, a).Chat {
		said = append(said, l.Text)
	}
	if !slices.Equal(said, words) || ts.say.waiting() != 0 {
		t.Errorf("the chat took %q (%d kept), want all seven in order", said, ts.say.waiting())
	}
	// A refusal that arrives while the next line is typed: it waits behind it.
	m.key(keyRunes("t"))
	m.key(keyRunes("eight"))
	cmd := m.key(keyEnter)
	m.key(keyRunes("t"))
	m.key(keyRunes("nin"))
	ts.done(answer(cmd).(doneMsg)) // refused: no token
	if ts.say.Value() != "nin" || !slices.Equal(ts.say.kept, []string{"eight"}) {
		t.Errorf("typing %q, kept %q; want nin typed and eight kept", ts.say.Value(), ts.say.kept)
	}
}

// wideKeys is a key map wider than the window.
type wideKeys []key.Binding

func (k wideKeys) ShortHelp() []key.Binding  { return k }
func (k wideKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k} }

// TestShortHelpKeepsHelp: a help bar too wide loses its last keys whole,
// never ? (the full help), and is never cut with "…".
func TestShortHelpKeepsHelp(t *testing.T) {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	keys := wideKeys{b("enter", "play again"), b("s", "stand"), b("+", "add normal bot"), b("-", "remove bot"),
		b("f", "dice seed"), b("?", "help"), b("t", "chat"), b("esc", "lobby"), b("q", "quit")}
	s := NewStyles(asciiRenderer())
	c := &common{s: s}
	c.help.Width = 80
	got := c.helpView(keys, 1)
	want := "enter play again • s stand • + add normal bot • - remove bot • ? help"
	if got != want {
		t.Errorf("help bar %q, want %q", got, want)
	}
}

// TestKeysTypedWhileNamed: n typed right after the name, while it is
// stored, reaches the lobby shown next (and opens the create form).
func TestKeysTypedWhileNamed(t *testing.T) {
	e := newEnv(t)
	cfg := e.config(lobby.Player{Key: "SHA256:newcomer-key"}, 80, 24)
	stored := make(chan struct{})
	cfg.SetName = func(n string) (string, string, error) {
		<-stored // the keys below are typed while the name is being stored
		p, err := e.st.SetName(ctxT(t), "SHA256:newcomer-key", n)
		if err != nil {
			return "", "", err
		}
		return p.ID, p.Name, nil
	}
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	tm.Send(keyRunes("zoe"))
	tm.Send(keyEnter)
	waitOutput(t, tm, "saving…")
	tm.Send(keyRunes("n"))
	close(stored)
	waitOutput(t, tm, "Mia penalty both", "enter create")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // q would be typed into the table's name
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestAltKeys: alt+key (esc and a key typed fast) is the two keys where
// the screen has no alt binding, in order; a line being typed keeps its
// own (alt+backspace deletes a word).
func TestAltKeys(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("alt", engine.DefaultOptions(), a, b)
	cfg := e.config(a, 80, 24)
	cfg.Records = e.st
	m := New(cfg).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("t"))
	m.key(keyRunes("hello world"))
	m.key(tea.KeyMsg{Type: tea.KeyBackspace, Alt: true})
	if !ts.say.typing || ts.say.Value() != "hello " {
		t.Errorf("alt+backspace while typing: typing %v, %q", ts.say.typing, ts.say.Value())
	}
	// esc, then t: the line put away, then taken up again
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t"), Alt: true})
	if !ts.say.typing || ts.say.Value() != "hello " {
		t.Errorf("esc t: typing %v, %q", ts.say.typing, ts.say.Value())
	}
	m.key(keyEsc)
	// esc h at the table: back to the lobby, then the history
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("h"), Alt: true})
	l, ok := m.cur.(*lobbyScreen)
	if !ok {
		t.Fatalf("esc at the table shows %T", m.cur)
	}
	l.Update(lobbyMsg{box: l.box, tables: e.lobby.Tables(a.Viewer())}) // the lobby's list in: the h held meanwhile
	if _, ok := m.cur.(*historyScreen); !ok {
		t.Errorf("esc h at the table shows %T", m.cur)
	}
}

// TestSaysTheNextGameStartsByItself: after a game at a table whose seats
// are all taken by people there, the panel says the next game starts by
// itself and when, instead of naming the host as the one who starts it.
func TestSaysTheNextGameStartsByItself(t *testing.T) {
	e := newEnv(t)
	host, ann := e.player("host"), e.player("ann")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, lobby.TableConfig{Name: "again", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{host, ann} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Stand(ctx, host); err != nil {
		t.Fatal(err)
	}
	over := e.until(tbl, ann, "the game over", func(s lobby.Snapshot) bool { return !s.Playing && s.Game != nil })
	said, _, _ := strings.Cut(words.NextGameByItself(lobby.RestBetweenGames), ":") // as wrapped: its start
	for _, full := range []bool{false, true} {
		for _, shown := range []string{"the last game", "no game (a restart)"} {
			snap := over
			snap.Table.StartsByItself = full
			if shown != "the last game" {
				snap.Game, snap.Result = nil, nil
			}
			m := New(e.config(ann, 80, 24)).(*Model)
			showTable(m, tbl, snap)
			if got := strings.Contains(ansi.Strip(m.View()), said); got != full {
				t.Errorf("StartsByItself %v, %s: the panel says %q: %v\n%s", full, shown, said, got, m.View())
			}
		}
	}
}
