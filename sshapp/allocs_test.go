package sshapp

import (
	"io"
	"testing"
)

// Allocation budgets of the server's hot paths. Allocations are counted,
// not timed: the count is the same on every machine. Each budget is
// written beside the count measured when it was set (with -race and
// without); raise one only with a reason in the commit.

// TestFrameTakenAllocs: a spectator's screen going to a frame another
// spectator of the table went to first (same frames, same window) writes
// the bytes put together for the first, allocating nothing of its own.
func TestFrameTakenAllocs(t *testing.T) {
	const budget = 0 // measured: 0
	share := newFrameShare()
	views := []string{"table t1\nclock 30s\nlog", "table t1\nclock 29s\nlog\nbob rolled"}
	watcher := func() *frames {
		f := newFrames(io.Discard, 20, share)
		f.interval = 0
		f.resize(80, 24)
		return f
	}
	first := watcher()
	for _, v := range append(views, views...) { // every change from one to the other, both ways
		first.show(v)
	}
	other := watcher()
	other.show(views[0])
	i := 0
	got := testing.AllocsPerRun(50, func() {
		i++
		other.show(views[i%2])
	})
	if got > budget {
		t.Errorf("a frame taken from the share: %.0f allocations, budget %d", got, budget)
	}
	t.Logf("a frame taken from the share: %.0f allocations", got)
}
