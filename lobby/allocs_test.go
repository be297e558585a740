package lobby

import (
	"context"
	"fmt"
	"testing"
)

// Allocation budgets of the lobby's hot paths. Allocations are counted,
// not timed: the count is the same on every machine, so a change that
// makes a hot path allocate more fails here, whatever the machine's load.
// Each budget is written beside the count measured when it was set; raise
// one only with a reason in the commit.

// TestPublishAllocsDoNotGrowWithWatchers: a table's change, published to
// its spectators, costs the same allocations for 1 of them as for 200:
// the spectators share one snapshot (and, on their screens, its frame);
// each one's mailbox takes it without a copy on the heap.
func TestPublishAllocsDoNotGrowWithWatchers(t *testing.T) {
	// Measured: 8 allocations a publication of a running game of three,
	// for 1 spectator and for 200, with -race and without (the
	// spectators' snapshot: its names, labels, events and what its
	// viewers share).
	const budget = 12
	e := newEnv(t)
	ctx := ctxT(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	tbl := seatPlayers(t, e, "watched", quickRules(), a, b, c)
	counts := map[int]float64{}
	for _, n := range []int{1, 200} {
		for len(tbl.Info().Players) == 0 || tbl.Info().Watching < n {
			mustSub(t, tbl, e.player(fmt.Sprintf("w%d-%d", n, tbl.Info().Watching)))
		}
		err := tbl.do(ctx, func(context.Context) error {
			counts[n] = testing.AllocsPerRun(50, tbl.publish)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for n, got := range counts {
		if got > budget {
			t.Errorf("publishing to %d spectators: %.0f allocations, budget %d", n, got, budget)
		}
	}
	if counts[200] > counts[1] {
		t.Errorf("publishing to 200 spectators: %.0f allocations, to 1: %.0f; want no more", counts[200], counts[1])
	}
	t.Logf("allocations a publication: %v (spectators: allocations)", counts)
}
