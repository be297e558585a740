package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// TestTableScreenDiceSeed: under the title the table shows the next
// game's commitment and the seeds; f gives a seed and takes it back (none
// given is said); once the game runs the same commitment is shown and f is
// gone from the help bar.
func TestTableScreenDiceSeed(t *testing.T) {
	e := newFairEnv(t)
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	tbl := e.hostSeated("dice", a)
	commit := tbl.Info().Fair.Commitment
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "next game's dice: sha256 "+commit[:16]+"…", "no seeds yet", "yours: none (f)", "f dice seed")

	tm.Send(keyRunes("f"))
	waitOutput(t, tm, "your seed:")
	tm.Type("lucky 7")
	tm.Send(keyEnter)
	waitOutput(t, tm, "your seed: "+words.SeedSays(true, true), `seeds: alice · yours "lucky 7" (f)`)
	e.infoUntil(tbl, "alice's seed", func(i lobby.TableInfo) bool { s, ok := i.Fair.Seed(a.ID); return ok && s == "lucky 7" })

	tm.Send(keyRunes("f"))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // the field opens with the seed given
	tm.Send(keyEnter)
	waitOutput(t, tm, "no seed of yours for the next game (none given is fine)")
	e.infoUntil(tbl, "no seed", func(i lobby.TableInfo) bool { _, ok := i.Fair.Seed(a.ID); return !ok })

	if err := tbl.Sit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.SetSeed(ctx, b, "bob's"); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, tm, "enter: start the game") // two seated: the host may start
	tm.Send(keyEnter)
	waitOutput(t, tm, "dice: sha256 "+commit[:16]+"… · seeds: bob", "round 1")
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	if strings.Contains(frame, "f dice seed") {
		t.Errorf("f is offered during the game:\n%s", frame)
	}
}

// TestSeedNeverCut: a seed that does not fit is refused whole, saying so,
// never cut to 64 characters; the line under the title drops the quote of
// a long seed rather than cut it in the middle, and names only the seeds
// that count (the seated players'), not a spectator's.
func TestSeedNeverCut(t *testing.T) {
	e := newFairEnv(t)
	a, watcher := e.player("alice"), e.player("watcher")
	ctx := ctxT(t)
	tbl := e.hostSeated("dice", a)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("f"))
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x", 100*1024)), Paste: true})
	if ts.seed.Value() != "" {
		t.Errorf("a 100 KB paste left %d characters in the seed", len(ts.seed.Value()))
	}
	assertContains(t, m.View(), "not taken: a seed is at most 64 characters")
	long := strings.Repeat("s", 60)
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(long), Paste: true})
	assertLacks(t, m.View(), "not taken")
	ts.done(answer(m.key(keyEnter)).(doneMsg))
	ts.setSnapshot(e.snapshot(tbl, a))
	f := m.View()
	line := strings.Split(f, "\n")[1]
	if strings.Contains(line, `"`) || !strings.Contains(line, "yours: given (f)") {
		t.Errorf("the dice line with a long seed: %q", line)
	}
	assertFits(t, f, 80, 24)

	if _, err := tbl.SetSeed(ctx, watcher, "watching"); err != nil {
		t.Fatal(err)
	}
	w := New(e.config(watcher, 80, 24)).(*Model)
	showTable(w, tbl, e.snapshot(tbl, watcher))
	line = strings.Split(w.View(), "\n")[1]
	if !strings.Contains(line, "seeds: alice ·") || !strings.Contains(line, "yours "+words.SeedIfSeated+" (f)") {
		t.Errorf("the spectator's dice line: %q", line)
	}
}

// TestSpectatorsSeedIsSaidToWait: a spectator who gives a seed with f is
// told it counts only if they play the next game, in the words of the
// seed command (words.SeedSays), and the line under the title says it
// waits; once they sit down it counts, and the line says so. A seed never
// is said to go into the dice while it does not.
func TestSpectatorsSeedIsSaidToWait(t *testing.T) {
	e := newFairEnv(t)
	a, carol := e.player("alice"), e.player("carol")
	ctx := ctxT(t)
	tbl := e.hostSeated("dice", a)
	m := New(e.config(carol, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, carol))
	m.key(keyRunes("f"))
	m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lucky"), Paste: true})
	ts.done(answer(m.key(keyEnter)).(doneMsg))
	ts.setSnapshot(e.snapshot(tbl, carol))
	f := m.View()
	assertContains(t, f, "your seed: "+words.SeedSays(true, false), "yours "+words.SeedIfSeated+" (f)")
	assertLacks(t, f, words.SeedSays(true, true), "yours: given (f)", "seeds: carol")

	if err := tbl.Sit(ctx, carol); err != nil {
		t.Fatal(err)
	}
	ts.setSnapshot(e.snapshot(tbl, carol))
	assertContains(t, strings.Split(m.View(), "\n")[1], `seeds: carol`, `yours "lucky" (f)`)
}

// hostSeated is a table of three seats named name, with its host seated.
func (e *env) hostSeated(name string, host lobby.Player) *lobby.Table {
	e.t.Helper()
	ctx := ctxT(e.t)
	tbl, err := e.lobby.CreateTable(ctx, host, lobby.TableConfig{Name: name, Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := tbl.Sit(ctx, host); err != nil {
		e.t.Fatal(err)
	}
	return tbl
}
