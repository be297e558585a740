package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/store/lobbystore"
)

// Allocation budgets of the screens' hot paths: what every spectator and
// every lobby screen pays at each change. Allocations are counted, not
// timed, so the count is the same on every machine; each budget is
// written beside the count measured when it was set (with -race and
// without). Raise one only with a reason in the commit.

// TestSpectatorFrameAllocs: a spectator's frame is drawn once per
// snapshot (the first spectator to draw it) and the others take it: a
// frame drawn costs a bounded number of allocations, and a frame taken
// almost none.
func TestSpectatorFrameAllocs(t *testing.T) {
	const (
		drawBudget = 250 // measured: 200, 204 with -race (a game of two, 80×24)
		takeBudget = 4   // measured: 2, with -race too (the clock put in)
	)
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("watched", engine.DefaultOptions(), a, b)
	c, d := e.player("carol"), e.player("dave")
	snap := e.snapshot(tbl, c)
	s := NewStyles(asciiRenderer())
	open := func(p lobby.Player) (*Model, *tableScreen) {
		cfg := e.config(p, 80, 24)
		cfg.Styles = s
		m := New(cfg).(*Model)
		return m, showTable(m, tbl, snap)
	}
	_, tc := open(c)
	md, _ := open(d)
	md.View() // the shared frame is drawn
	drawn := testing.AllocsPerRun(20, func() { _ = tc.draw() })
	taken := testing.AllocsPerRun(20, func() { _ = md.View() })
	if drawn > drawBudget {
		t.Errorf("a spectator's frame drawn: %.0f allocations, budget %d", drawn, drawBudget)
	}
	if taken > takeBudget {
		t.Errorf("a spectator's frame taken from the snapshot: %.0f allocations, budget %d", taken, takeBudget)
	}
	t.Logf("a frame drawn: %.0f allocations; taken: %.0f", drawn, taken)
}

// TestLobbyListAllocs: every lobby screen takes the list of tables and
// draws itself again at each change the lobby lists; with 200 tables that
// costs a bounded number of allocations.
func TestLobbyListAllocs(t *testing.T) {
	// Measured: 313 (342 with -race) for 200 tables, 80×24 (4,396 when every row was
	// drawn, the 11 in sight and the 189 out of it).
	const budget = 450
	e := newEnv(t)
	a := e.player("alice")
	for i := range 200 {
		h := e.player(fmt.Sprintf("host%d", i))
		if _, err := e.lobby.CreateTable(ctxT(t), h, lobby.TableConfig{Name: fmt.Sprintf("t%03d", i), Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
			t.Fatal(err)
		}
	}
	m := New(e.config(a, 80, 24)).(*Model)
	l := newLobbyScreen(m.c, "", false)
	m.show(l)
	tables := e.lobby.Tables(a.Viewer())
	got := testing.AllocsPerRun(20, func() {
		l.Update(lobbyMsg{tables: tables})
		_ = m.View()
	})
	if got > budget {
		t.Errorf("the lobby's list of 200 tables taken and drawn: %.0f allocations, budget %d", got, budget)
	}
	t.Logf("the lobby's list of 200 tables taken and drawn: %.0f allocations", got)
}

// TestLobbyListScrolls: the lobby draws only the rows in sight, and they
// are the rows a list of every table shows, scrolled as little as keeps
// the cursor's row in sight, as the cursor moves down and up through
// them and as the list shrinks under it.
func TestLobbyListScrolls(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	const n = 40
	for i := range n {
		h := e.player(fmt.Sprintf("host%d", i))
		if _, err := e.lobby.CreateTable(ctxT(t), h, lobby.TableConfig{Name: fmt.Sprintf("t%02d", i), Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
			t.Fatal(err)
		}
	}
	m := New(e.config(a, 80, 24)).(*Model)
	l := newLobbyScreen(m.c, "", false)
	m.show(l)
	l.Update(lobbyMsg{tables: e.lobby.Tables(a.Viewer())})
	// The reference: a viewport holding a row for every table.
	ref := l.c.s.newView()
	shown := func() []string {
		var names []string
		for _, line := range l.list {
			if f := strings.Fields(strings.TrimPrefix(line, "›")); len(f) > 0 {
				names = append(names, f[0])
			}
		}
		return names
	}
	check := func(step string) {
		t.Helper()
		rows := make([]string, len(l.tables))
		for i, tb := range l.tables {
			rows[i] = tb.Name
		}
		sizeView(&ref, l.w, l.listH)
		setRows(&ref, rows, l.cursor)
		want := strings.Fields(viewText(ref))
		if got := shown(); !slices.Equal(got, want) {
			t.Fatalf("%s (cursor %d): rows %v, want %v", step, l.cursor, got, want)
		}
		if !slices.Contains(want, l.tables[l.cursor].Name) {
			t.Fatalf("%s: the cursor's row is not in sight", step)
		}
	}
	check("first list")
	if l.listH >= n {
		t.Fatalf("the list shows %d rows: the test needs fewer than %d", l.listH, n)
	}
	for i := 1; i < n; i++ {
		m.key(keyRunes("j"))
		check(fmt.Sprintf("down %d", i))
	}
	for i := 1; i < n; i++ {
		m.key(keyRunes("k"))
		check(fmt.Sprintf("up %d", i))
	}
	for range n - 3 {
		m.key(keyRunes("j"))
	}
	l.Update(lobbyMsg{tables: l.tables[:n-2]})
	check("the list shrunk under the cursor")
	l.Update(lobbyMsg{tables: l.tables[:5]})
	check("the list shrunk below the view")

	// The selected table stays selected as the tables before it close
	// and new ones open after it: its row comes into sight.
	synthetic := func(from, to int) []lobby.TableInfo {
		var ts []lobby.TableInfo
		for i := from; i < to; i++ {
			ts = append(ts, lobby.TableInfo{Name: fmt.Sprintf("t%02d", i), Host: "h", Seats: 4, State: "waiting"})
		}
		return ts
	}
	l.Update(lobbyMsg{tables: synthetic(0, n)})
	for range n {
		m.key(keyRunes("j"))
	}
	check("at the bottom")
	l.Update(lobbyMsg{tables: synthetic(n-1, n+30)})
	if l.tables[l.cursor].Name != fmt.Sprintf("t%02d", n-1) {
		t.Fatalf("the selection moved to %s", l.tables[l.cursor].Name)
	}
	check("the tables before the selected one closed, others opened after it")
}

// TestLobbyWaitsOnce: a lobby screen follows the lobby and the events on
// one wait (one goroutine), re-armed after each of its messages: a change
// of either comes through it.
func TestLobbyWaitsOnce(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	reg, err := events.Open(ctx, events.Config{Lobby: e.lobby, Store: lobbystore.NewEvents(e.st)})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	a := e.player("alice")
	cfg := e.config(a, 80, 24)
	cfg.Events = reg
	m := New(cfg).(*Model)
	l := newLobbyScreen(m.c, "", false)
	m.show(l)
	wait := l.Init() // the one wait, not a batch of two
	next := func() tea.Msg {
		t.Helper()
		msg := answer(wait)
		_, wait = l.Update(msg)
		if wait == nil {
			t.Fatalf("after %T the lobby waits for nothing", msg)
		}
		return msg
	}
	// Both are there to read at first: the events first, whose rows
	// come first in the list.
	if got := []string{fmt.Sprintf("%T", next()), fmt.Sprintf("%T", next())}; !slices.Equal(got, []string{"tui.eventsMsg", "tui.lobbyMsg"}) {
		t.Fatalf("the first answers are %v, want the events, then the lobby's list", got)
	}
	if _, err := reg.Create(ctx, a, events.Settings{Name: "club", Seats: 2, Lasts: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if msg, ok := next().(eventsMsg); !ok || len(l.events) != 1 {
		t.Fatalf("after an event was created the wait brought %T, and the lobby lists %d events", msg, len(l.events))
	}
	if err := e.lobby.Say(a, "hello"); err != nil {
		t.Fatal(err)
	}
	if msg, ok := next().(lobbyMsg); !ok || len(l.chat) == 0 {
		t.Fatalf("after a chat line the wait brought %T", msg)
	}
}
