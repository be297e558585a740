package web

import (
	"testing"

	"github.com/mia-game/mia/lobby/lobbytest"
)

// Allocation budgets of the web window's hot paths. Allocations are
// counted, not timed: the count is the same on every machine. Each
// budget is written beside the count measured when it was set (with -race
// and without); raise one only with a reason in the commit.

// TestFragmentAllocs: a table's fragment is made once a snapshot for all
// its web watchers within a bounded number of allocations, and a watcher
// sent the newest frame allocates nothing for it.
func TestFragmentAllocs(t *testing.T) {
	const (
		makeBudget = 400 // measured: 269, 307 with -race (a game of three, running)
		sendBudget = 0   // measured: 0 (the event made with the frame)
	)
	e := newEnv(t, lobbytest.NewDice(5), nil)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	g := e.newGame("alpha", quickRules(), false, a, b, c)
	g.step()
	sub, err := g.tbl.Watch(ctxT(t), e.player("dave"))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	<-sub.Ready()
	snap, _ := sub.Take()
	var fr *frame
	made := testing.AllocsPerRun(20, func() {
		if fr, err = e.web.makeFrame(snap); err != nil {
			t.Fatal(err)
		}
	})
	now := e.clock.Now()
	sent := testing.AllocsPerRun(20, func() { _ = fr.eventAt(now) })
	if made > makeBudget {
		t.Errorf("a fragment made: %.0f allocations, budget %d", made, makeBudget)
	}
	if sent > sendBudget {
		t.Errorf("a fresh frame sent to a watcher: %.0f allocations, budget %d", sent, sendBudget)
	}
	t.Logf("a fragment made: %.0f allocations; sent: %.0f", made, sent)
}
