package tui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

func keyRunes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
)

// waitOutput waits until the program's output has shown every one of want
// (each may come in a different frame).
func waitOutput(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	seen := make([]bool, len(want))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		all := true
		for i, w := range want {
			seen[i] = seen[i] || bytes.Contains(b, []byte(w))
			all = all && seen[i]
		}
		return all
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// finalView quits the program and returns its last frame: with ctrl+c,
// which quits at once also from a game (where q asks first).
func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	return m.View()
}

func assertContains(t *testing.T, frame string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(frame, w) {
			t.Errorf("the screen lacks %q:\n%s", w, frame)
		}
	}
}

func assertLacks(t *testing.T, frame string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(frame, w) {
			t.Errorf("the screen shows %q:\n%s", w, frame)
		}
	}
}

// assertFits checks that a frame is at most w×h cells.
func assertFits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) > h {
		t.Errorf("%d lines, more than %d:\n%s", len(lines), h, frame)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, n, w, l)
		}
	}
}

// whoseTurn finds the player whose turn it is.
func whoseTurn(t testing.TB, snap lobby.Snapshot, ps ...lobby.Player) (lobby.Player, []lobby.Player) {
	t.Helper()
	var turn lobby.Player
	var others []lobby.Player
	for _, p := range ps {
		if nameOf(p) == snap.Name(snap.Game.Turn) {
			turn = p
		} else {
			others = append(others, p)
		}
	}
	if nameOf(turn) == "" {
		t.Fatalf("nobody has turn %d", snap.Game.Turn)
	}
	return turn, others
}

// TestTableScreenPlaysATurn runs the table screen of the player whose turn
// it is at 80×24: it rolls with r, announces with a + enter, and the claim
// reaches the table.
func TestTableScreenPlaysATurn(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	tbl := e.game("fun", engine.DefaultOptions(), a, b, c)
	snap := e.snapshot(tbl, a)
	me, others := whoseTurn(t, snap, a, b, c)
	seat := snap.Game.Turn

	// No table in the config: the player is seated, so the screen goes
	// straight back to the game (a reconnect).
	tm := teatest.NewTestModel(t, New(e.config(me, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "fun", "Your turn · 60s left", "r: roll · b: roll blind", "r roll", "b blind", nameOf(me), nameOf(others[0]), nameOf(others[1]), "♥♥♥♥♥♥")

	tm.Send(keyRunes("r"))
	waitOutput(t, tm, "your dice:", "┌───────┐", "●", "Announce (lowest first):", "to beat")
	rolled := e.snapshot(tbl, me)
	if rolled.Game.Dice == engine.NoValue || rolled.Game.Phase != engine.PhaseAnnounce {
		t.Fatalf("after r: dice %v phase %v", rolled.Game.Dice, rolled.Game.Phase)
	}

	// Close the picker that opened by itself, open it again with a, and
	// announce the preselected value: the lowest legal one.
	tm.Send(keyEsc)
	tm.Send(keyRunes("a"))
	tm.Send(keyEnter)
	want := rolled.Game.Claims[0]
	after := e.until(tbl, me, "the claim", func(s lobby.Snapshot) bool { return s.Game.Claim != engine.NoValue })
	if after.Game.Claim != want || after.Game.Claimant != seat {
		t.Fatalf("claim %v by seat %d, want %v by %d", after.Game.Claim, after.Game.Claimant, want, seat)
	}
	waitOutput(t, tm, "Claim: "+want.Name()+" by you", "you announced "+want.Name())

	// The others see the claim too, and never the dice.
	o := e.snapshot(tbl, others[0])
	if o.Game.Claim != want || o.Game.Dice != engine.NoValue {
		t.Errorf("%s sees claim %v dice %v", nameOf(others[0]), o.Game.Claim, o.Game.Dice)
	}

	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	assertContains(t, frame, nameOf(a), nameOf(b), nameOf(c), "♥♥♥♥♥♥", "(you)", "▶", "Claim: "+want.Name()+" by you",
		"Round log", "Table chat", "s leave", "? help", "your dice: "+rolled.Game.Dice.Name())
	assertLacks(t, frame, "r roll", "c liar") // not legal once the claim is made
	t.Logf("the table at 80×24:\n%s", frame)
}

// TestTableScreenSpectator shows a watcher the same table without actions
// and without dice.
func TestTableScreenSpectator(t *testing.T) {
	e := newEnv(t)
	a, b, d := e.player("alice"), e.player("bob"), e.player("dave")
	tbl := e.game("duel", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	me, _ := whoseTurn(t, snap, a, b)
	if err := tbl.Act(ctxT(t), me, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		t.Fatal(err)
	}

	cfg := e.config(d, 80, 24)
	cfg.Table = "duel"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "watching", "under the cup: "+nameOf(me)+"'s roll", "t chat")
	frame := finalView(t, tm)
	assertContains(t, frame, "alice", "bob", "You are watching this game.", "? ?")
	assertLacks(t, frame, "your dice", "●", "r roll", "c liar", "a announce", "(you)", "s sit", "s leave")
}

// TestTableScreenGameOver ends a one-life game, shows the winner and
// standings, and starts the next game on enter.
func TestTableScreenGameOver(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl := e.game("quick", rules, a, b)
	snap := e.snapshot(tbl, a)
	opener, rest := whoseTurn(t, snap, a, b)
	ctx := ctxT(t)
	// The opener claims Mia blindly; giving up against it costs the only life.
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Roll}); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Claim, Value: engine.Mia}); err != nil {
		t.Fatal(err)
	}

	tm := teatest.NewTestModel(t, New(e.config(rest[0], 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Mia! c: liar · g: give up", "g give up", "c liar")
	tm.Send(keyRunes("g"))
	waitOutput(t, tm, "Game over", nameOf(opener)+" wins!", "1. "+nameOf(opener), "2. "+nameOf(rest[0]), "enter: play again")
	e.infoUntil(tbl, "game over", func(i lobby.TableInfo) bool { return i.State == "waiting" })

	// Play again: the host is at the table only if the screen is the
	// host's; either way this player may start.
	tm.Send(keyEnter)
	e.infoUntil(tbl, "the next game", func(i lobby.TableInfo) bool { return i.State == "playing" })
	waitOutput(t, tm, "round 1")
	frame := finalView(t, tm)
	assertContains(t, frame, "♥", nameOf(opener), nameOf(rest[0]))
}

// TestTooSmall shows only the size message, not a garbled table.
func TestTooSmall(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	e.game("tiny", engine.DefaultOptions(), a, b)

	tm := teatest.NewTestModel(t, New(e.config(a, 60, 20)), teatest.WithInitialTermSize(60, 20))
	waitOutput(t, tm, "make the window at least 80×24", "(now 60×20)")
	frame := finalView(t, tm)
	assertContains(t, frame, "make the window at least 80×24", "(now 60×20)")
	assertLacks(t, frame, "tiny", "alice", "♥", "Round log", "help")
	assertFits(t, frame, 60, 20)
}

// TestSizes draws every screen at odd sizes: below the minimum only the
// message, huge sizes clamped, never more lines than the window.
func TestSizes(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("sizes", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	big, err := e.lobby.CreateTable(ctxT(t), a, lobby.TableConfig{Name: "ten-seats-a-long", Rules: engine.DefaultOptions(), Seats: 10})
	if err != nil {
		t.Fatal(err)
	}
	bigSnap := e.snapshot(big, a)
	tests := []struct {
		w, h       int
		small      bool
		maxW, maxH int
	}{
		{80, 24, false, 80, 24},
		{79, 24, true, 79, 24},
		{80, 23, true, 80, 23},
		{1, 1, true, MaxWidth, MaxHeight},
		{120, 40, false, 120, 40},
		{100000, 100000, false, MaxWidth, MaxHeight},
		{100000, 10, true, MaxWidth, 10},
	}
	for _, tc := range tests {
		m := New(e.config(a, tc.w, tc.h)).(*Model)
		screens := map[string]func(){
			"lobby": func() {
				l := newLobbyScreen(m.c, "", false)
				l.setTables(e.lobby.Tables(a.Viewer()))
				m.show(l)
			},
			"form":          func() { m.show(newCreateForm(m.c)) },
			"table":         func() { showTable(m, tbl, snap) },
			"waiting table": func() { showTable(m, big, bigSnap) },
		}
		for name, show := range screens {
			show()
			frame := m.View()
			if got := strings.Contains(frame, fmt.Sprintf("at least %d×%d", MinWidth, MinHeight)); got != tc.small {
				t.Errorf("%s at %d×%d: size message %v, want %v:\n%s", name, tc.w, tc.h, got, tc.small, frame)
			}
			if len(frame) > 64*1024 {
				t.Errorf("%s at %d×%d: %d bytes drawn", name, tc.w, tc.h, len(frame))
			}
			if tc.w > 1 {
				assertFits(t, frame, tc.maxW, tc.maxH)
			}
		}
	}
}

// TestLobbyScreen lists the tables live, chats, and opens a table to watch
// and sit.
func TestLobbyScreen(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	rules := engine.DefaultOptions()
	rules.Pass, rules.EqualClaims, rules.Lives, rules.TurnSeconds = false, true, 3, 300
	if _, err := e.lobby.CreateTable(ctx, b, lobby.TableConfig{Name: "bobs", Rules: rules, Seats: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "secret", Rules: engine.DefaultOptions(), Private: true}); err != nil {
		t.Fatal(err)
	}

	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "bobs", "0/4", "waiting", "classic · 3♥ · equal · 5m", "🔒", "secret", "0/6", "Lobby chat")

	// A table created while the lobby shows appears.
	if _, err := e.lobby.CreateTable(ctx, b, lobby.TableConfig{Name: "later", Rules: engine.DefaultOptions(), Seats: 2}); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, tm, "later", "0/2")

	// Chat.
	tm.Send(keyRunes("c"))
	tm.Type("hello all")
	tm.Send(keyEnter)
	waitOutput(t, tm, "alice: hello all")
	if chat := e.lobby.Chat(); len(chat) != 1 || chat[0].Text != "hello all" {
		t.Errorf("lobby chat %+v", chat)
	}
	if err := e.lobby.Say(b, "hi \x1b[31malice\u202e"); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, tm, "bob: hi alice")

	// The first table (bobs) is selected: open it, then sit.
	tm.Send(keyEnter)
	waitOutput(t, tm, "Waiting for players", "s: take a seat")
	tm.Send(keyRunes("s"))
	e.infoUntil(mustTable(t, e, "bobs"), "alice seated", func(i lobby.TableInfo) bool { return i.Taken == 1 })
	waitOutput(t, tm, "(you)")
	// Back in the lobby the seat shows in the list.
	tm.Send(keyEsc)
	waitOutput(t, tm, "1/4")
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	assertContains(t, frame, "bobs", "secret", "later", "alice: hello all")
}

func mustTable(t *testing.T, e *env, name string) *lobby.Table {
	t.Helper()
	tbl, err := e.lobby.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestCreateForm shows the lobby's refusal of a bad name inline, then
// creates a table with changed options and seats its host.
func TestCreateForm(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "No tables yet")
	tm.Send(keyRunes("n"))
	waitOutput(t, tm, "new table", "alice-table", "create table")

	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // clear the suggested name
	tm.Type("bad name!")
	tm.Send(keyEnter)
	waitOutput(t, tm, lobby.CheckTableName("bad name!").Error())

	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("night")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})  // preset
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})  // seats
	tm.Send(tea.KeyMsg{Type: tea.KeyLeft})  // 5
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})  // lives
	tm.Send(tea.KeyMsg{Type: tea.KeyRight}) // 7
	for range 3 {
		tm.Send(tea.KeyMsg{Type: tea.KeyDown}) // ranking, pass, equal claims
	}
	tm.Send(keyRunes(" ")) // equal claims on: pass off
	tm.Send(keyEnter)
	waitOutput(t, tm, "night", "Waiting for players", "(you)")

	tbl := mustTable(t, e, "night")
	info := tbl.Info()
	if info.Seats != 5 || info.Rules.Lives != 7 || !info.Rules.EqualClaims || info.Rules.Pass || info.Taken != 1 {
		t.Errorf("created %+v", info)
	}
	if info.Host != "alice" || len(info.Players) != 1 || info.Players[0].Name != "alice" {
		t.Errorf("host not seated: %+v", info)
	}
	frame := finalView(t, tm)
	// The host alone: no game to start yet, so enter is not offered.
	assertContains(t, frame, "night", "classic · 7 lives · no pass · equal claims", "waiting for a second player", "s stand")
	assertLacks(t, frame, "enter start", "enter: start")
}

// TestQuitClosesSubscriptions: after q the table no longer counts the
// session as watching.
func TestQuitClosesSubscriptions(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("bye", engine.DefaultOptions(), a, b)
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "bye", "round 1")
	if w := tbl.Info().Watching; w != 1 {
		t.Fatalf("watching %d, want 1", w)
	}
	finalView(t, tm)
	deadline := time.Now().Add(5 * time.Second)
	for tbl.Info().Watching != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still watching after quit: %d", tbl.Info().Watching)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDoneClosesSubscriptions: when the session ends without a quit, the
// subscription closes by itself.
func TestDoneClosesSubscriptions(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("gone", engine.DefaultOptions(), a, b)
	done := make(chan struct{})
	cfg := e.config(a, 80, 24)
	cfg.Done = done
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "gone", "round 1")
	close(done)
	deadline := time.Now().Add(5 * time.Second)
	for tbl.Info().Watching != 0 {
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("still watching after the session ended: %d", tbl.Info().Watching)
		}
		time.Sleep(10 * time.Millisecond)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestTableScreenClockChatLeave: the turn clock counts down, chat reaches
// the table, and leaving a running game asks first.
func TestTableScreenClockChatLeave(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("leave", engine.DefaultOptions(), a, b)
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "round 1", "60s left")
	e.clock.Skip(17 * time.Second)
	waitOutput(t, tm, "43s left")

	tm.Send(keyRunes("t"))
	tm.Type("gg all")
	tm.Send(keyEnter)
	waitOutput(t, tm, "alice: gg all")

	tm.Send(keyRunes("s"))
	waitOutput(t, tm, "Leave the running game?", "y yes, leave")
	tm.Send(keyRunes("n"))
	waitOutput(t, tm, "you stay in the game")
	if s := e.snapshot(tbl, a); !s.Playing {
		t.Fatal("the game ended on n")
	}
	tm.Send(keyRunes("s"))
	tm.Send(keyRunes("y"))
	e.infoUntil(tbl, "alice left", func(i lobby.TableInfo) bool { return i.State == "waiting" })
	waitOutput(t, tm, "bob wins!", "s: sit for the next game")
	frame := finalView(t, tm)
	assertContains(t, frame, "Game over", "1. bob", "2. alice", "you left the game")
}

// TestOpenMissingTable falls back to the lobby with the reason.
func TestOpenMissingTable(t *testing.T) {
	e := newEnv(t)
	cfg := e.config(e.player("alice"), 80, 24)
	cfg.Table = "nope"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "could not open nope: "+lobby.ErrNoTable.Error(), "Lobby chat")
	finalView(t, tm)
}

// TestHelpToggle: ? swaps the help bar for the full help and back.
func TestHelpToggle(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("help", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	me, _ := whoseTurn(t, snap, a, b)
	m := New(e.config(me, 80, 24)).(*Model)
	showTable(m, tbl, e.snapshot(tbl, me))
	short := m.View()
	assertContains(t, short, "Round log", "r roll • b blind")
	m.Update(keyRunes("?"))
	full := m.View()
	assertLacks(t, full, "Round log", "r roll • b blind")
	assertContains(t, full, "roll", "blind", "announce", "liar!", "give up", "chat", "lobby", "quit")
	assertFits(t, full, 80, 24)
	m.Update(keyRunes("?"))
	if m.View() != short {
		t.Error("? twice does not give the help bar back")
	}
}

// TestTableScreenPassRaiseChallenge answers claims from the keyboard: a
// blind raise through the picker, a pass with p, a challenge with c.
func TestTableScreenPassRaiseChallenge(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("answers", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, a)
	opener, rest := whoseTurn(t, snap, a, b)
	me := rest[0]
	ctx := ctxT(t)
	play := func(acts ...engine.Action) {
		t.Helper()
		for _, x := range acts {
			if err := tbl.Act(ctx, opener, x); err != nil {
				t.Fatalf("%s %v: %v", nameOf(opener), x.Kind, err)
			}
		}
	}
	claimBy := func(v engine.Value, who lobby.Player) func(lobby.Snapshot) bool {
		return func(s lobby.Snapshot) bool {
			return s.Game.Claim == v && s.Name(s.Game.Claimant) == nameOf(who)
		}
	}
	play(engine.Action{Kind: engine.Roll, Look: true}, engine.Action{Kind: engine.Claim, Value: 43})

	tm := teatest.NewTestModel(t, New(e.config(me, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Claim: 43 by "+nameOf(opener), "c liar", "p pass 43", "a raise")

	// a: the picker of passes; the first passes 43 on, the next raises.
	tm.Send(keyRunes("a"))
	waitOutput(t, tm, "Pass on or raise blind:", "43       72% to beat  = pass on", "enter pass/raise")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(keyEnter)
	raised := engine.Classic.Above(43)[0]
	e.until(tbl, opener, "the blind raise", claimBy(raised, me))
	waitOutput(t, tm, "Claim: "+raised.Name()+" by you", "you raised blind to "+raised.Name()+" and passed")

	// The cup is back with its roller, who must roll again.
	play(engine.Action{Kind: engine.Roll, Look: true}, engine.Action{Kind: engine.Claim, Value: 54})
	waitOutput(t, tm, "p pass 54")
	tm.Send(keyRunes("p"))
	e.until(tbl, opener, "the pass", claimBy(54, me))

	play(engine.Action{Kind: engine.Roll, Look: true}, engine.Action{Kind: engine.Claim, Value: 61})
	waitOutput(t, tm, "Claim: 61 by "+nameOf(opener))
	tm.Send(keyRunes("c"))
	after := e.until(tbl, opener, "the challenge", func(s lobby.Snapshot) bool { return s.Game.Round == 2 })
	lost := 0
	for _, l := range after.Game.Lives {
		lost += 6 - l
	}
	if lost != 1 {
		t.Errorf("lives after the challenge %v", after.Game.Lives)
	}
	waitOutput(t, tm, "you called "+nameOf(opener)+" a liar", "round 2")
	finalView(t, tm)
}
