package tui

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestEscAfterChatStaysAtTable: t, a line, enter closes the chat line; the
// esc a newcomer presses next "to close the chat" keeps them at the table
// (saying so), and only a second esc leaves. An esc after any other key
// leaves at once, as before.
func TestEscAfterChatStaysAtTable(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("talk", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("t"))
	m.key(keyRunes("hello"))
	if cmd := m.key(keyEnter); cmd != nil {
		ts.done(answer(cmd).(doneMsg))
	}
	if ts.say.typing {
		t.Fatal("enter did not send the line")
	}
	m.key(keyEsc)
	if m.cur != ts {
		t.Fatalf("the esc right after a chat line left the table for %T", m.cur)
	}
	assertContains(t, m.View(), "esc again to leave the table")
	m.key(keyEsc)
	if m.cur == ts {
		t.Fatal("a second esc does not leave the table")
	}

	// Another key between the chat line and esc: esc leaves at once.
	ts = showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("t"))
	m.key(keyRunes("again"))
	if cmd := m.key(keyEnter); cmd != nil {
		ts.done(answer(cmd).(doneMsg))
	}
	m.key(keyRunes("z")) // no key of the table's
	m.key(keyEsc)
	if m.cur == ts {
		t.Fatal("esc after another key does not leave the table")
	}
}

// unwrapped is a frame's lines, each trimmed, joined by spaces: a sentence
// wrapped over lines reads whole in it.
func unwrapped(frame string) string {
	lines := strings.Split(frame, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " ")
}

// TestQuitInGameAsksFirst: q from a player in a running game asks first,
// saying their turns time out while they are away; any other key stays,
// q again quits. A spectator's q quits at once.
func TestQuitInGameAsksFirst(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	tbl := e.game("duel", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	if cmd := m.key(keyRunes("q")); cmd != nil {
		t.Fatal("q in a game quits at once")
	}
	frame := m.View()
	assertFits(t, frame, 80, 24)
	assertContains(t, unwrapped(frame), "You are seated in a game at duel: your turns time out while you are away. q again to quit, any other key to stay.")
	if cmd := m.key(keyRunes("z")); cmd != nil || m.cur != ts {
		t.Fatal("another key after q does not stay")
	}
	assertContains(t, m.View(), "you stay at the table")
	assertLacks(t, unwrapped(m.View()), "q again to quit")
	m.key(keyRunes("q"))
	if !quits(m.key(keyRunes("q"))) {
		t.Error("q, q in a game does not quit")
	}

	w := New(e.config(c, 80, 24)).(*Model)
	showTable(w, tbl, e.snapshot(tbl, c))
	if !quits(w.key(keyRunes("q"))) {
		t.Error("a spectator's q does not quit")
	}
}

// quits reports whether cmd, run, quits the program (after leaving the
// screen: tea.Sequence).
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg := cmd()
	if _, ok := msg.(tea.QuitMsg); ok {
		return true
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice {
		return false
	}
	for i := range v.Len() {
		if c, ok := v.Index(i).Interface().(tea.Cmd); ok && c != nil {
			if _, ok := c().(tea.QuitMsg); ok {
				return true
			}
		}
	}
	return false
}

// TestSpectatorOfferedOnlyWhatWorks: after a game at a full table a
// spectator is offered no seat (s says why), nor to play again; at an
// event's table, neither.
func TestSpectatorOfferedOnlyWhatWorks(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "duel", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{a, b} { // the last seat taken starts the game
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	opener, other := whoseTurn(t, e.until(tbl, a, "the game", func(s lobby.Snapshot) bool { return s.Playing }), a, b)
	for _, m := range []struct {
		p lobby.Player
		a engine.Action
	}{{opener, engine.Action{Kind: engine.Roll, Look: true}}, {opener, engine.Action{Kind: engine.Claim, Value: engine.Mia}}, {other[0], engine.Action{Kind: engine.Challenge}}} {
		if err := tbl.Act(ctx, m.p, m.a); err != nil {
			t.Fatal(err)
		}
	}
	m := New(e.config(c, 80, 24)).(*Model)
	showTable(m, tbl, e.until(tbl, c, "the game over", func(s lobby.Snapshot) bool { return !s.Playing && s.Game != nil }))
	frame := m.View()
	assertContains(t, frame, "Game over")
	assertLacks(t, frame, "sit for the next game", "s sit", "play again")
	m.key(keyRunes("s"))
	assertContains(t, m.View(), lobby.ErrTableFull.Error())

	ev, err := e.lobby.CreateEventTable(ctx, lobby.EventTable{Event: "cup", Name: "cup-1", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := showTable(m, ev, e.snapshot(ev, c))
	assertLacks(t, m.View(), "sit for the next game", "s sit", "play again", "enter start")
	if m.key(keyRunes("s")) != nil || ts.busy {
		t.Error("s at an event's table asks to sit")
	}
}

// TestLobbyMarksYourSeat: the lobby's row of a table where the viewer has
// a seat says so, within its columns at 80; others' rows do not.
func TestLobbyMarksYourSeat(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	e.game("duel", engine.DefaultOptions(), a, b)
	for _, tc := range []struct {
		p    lobby.Player
		mark bool
	}{{a, true}, {b, true}, {c, false}} {
		m := New(e.config(tc.p, 80, 24)).(*Model)
		l := newLobbyScreen(m.c, "", false)
		m.show(l)
		l.Update(lobbyMsg{tables: e.lobby.Tables(tc.p.Viewer())})
		frame := m.View()
		assertFits(t, frame, 80, 24)
		var row string
		for _, line := range strings.Split(frame, "\n") {
			if strings.Contains(line, "duel") {
				row = line
			}
		}
		if got := strings.Contains(row, "your seat · classic"); got != tc.mark {
			t.Errorf("%s's row %q: marked %v, want %v", nameOf(tc.p), row, got, tc.mark)
		}
		if !strings.Contains(row, "playing") {
			t.Errorf("%s's row %q lost its state column", nameOf(tc.p), row)
		}
	}
}

// TestFormNameRuleWhole: at 80×24 the form's name row cuts no hint, and
// the name rule is told whole below while the name has the focus.
func TestFormNameRuleWhole(t *testing.T) {
	e := newEnv(t)
	m := New(e.config(e.player("alice"), 80, 24)).(*Model)
	f := newCreateForm(m.c)
	m.show(f)
	f.setFocus(fieldName)
	frame := m.View()
	assertFits(t, frame, 80, 24)
	assertContains(t, unwrapped(frame), "Name: "+lobby.NameHint()+".")
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "Name") && strings.Contains(l, "…") {
			t.Errorf("the name row is cut: %q", l)
		}
	}
}

// TestTooSmallSaysItWhole: in a window of 20×5 the request for a bigger
// window is wrapped, not cut mid-word.
func TestTooSmallSaysItWhole(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("small", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 20, 5)).(*Model)
	showTable(m, tbl, e.snapshot(tbl, a))
	frame := m.View()
	assertFits(t, frame, 20, 5)
	assertContains(t, unwrapped(frame), "make the window at least 80×24 (now 20×5)")
}
