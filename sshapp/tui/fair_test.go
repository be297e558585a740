package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestTableScreenDiceSeed: under the title the table shows the next
// game's commitment and the seeds; f gives a seed and takes it back (none
// given is said); once the game runs the same commitment is shown and f is
// gone from the help bar.
func TestTableScreenDiceSeed(t *testing.T) {
	e := newFairEnv(t)
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "dice", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, a); err != nil {
		t.Fatal(err)
	}
	commit := tbl.Info().Fair.Commitment
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "next game's dice: sha256 "+commit[:16]+"…", "no seeds yet", "yours: none (f)", "f dice seed")

	tm.Send(keyRunes("f"))
	waitOutput(t, tm, "your seed:")
	tm.Type("lucky 7")
	tm.Send(keyEnter)
	waitOutput(t, tm, "your seed goes into the next game's dice", `seeds: alice · yours "lucky 7" (f)`)
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
