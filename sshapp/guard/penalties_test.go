package guard

import (
	"testing"
	"time"
)

func TestPenalties(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type charge struct {
		after time.Duration // since t0
		cost  time.Duration
	}
	// every charges n charges of cost, spaced by gap.
	every := func(n int, gap, cost time.Duration) []charge {
		cs := make([]charge, n)
		for i := range cs {
			cs[i] = charge{time.Duration(i) * gap, cost}
		}
		return cs
	}
	tests := []struct {
		name    string
		charges []charge
		at      time.Duration // when to ask
		refused bool
	}{
		{"one timeout", []charge{{0, penaltyTimedOut}}, time.Second, false},
		{"two timeouts at once", []charge{{0, penaltyTimedOut}, {0, penaltyTimedOut}}, 19 * time.Second, true},
		{"...until they leak away", []charge{{0, penaltyTimedOut}, {0, penaltyTimedOut}}, 20 * time.Second, false},
		{"timeouts far apart leak away", []charge{{0, penaltyTimedOut}, {10 * time.Second, penaltyTimedOut}}, 11 * time.Second, false},
		{"a person failing now and then", every(3, time.Second, penaltyNoAuth), 2 * time.Second, false},
		{"a person failing once a minute", every(30, time.Minute, penaltyNoAuth), 29 * time.Minute, false},
		{"a check that connects and hangs up once a minute", every(60, time.Minute, penaltyNoAuth), 59 * time.Minute, false},
		{"sixteen quick failures", every(16, 0, penaltyNoAuth), 15 * time.Second, true},
		{"capped at the max", every(100, 0, penaltyTimedOut), 10 * time.Minute, false},
		// A source that sends its version line and closes before a second
		// is up, again and again: each close costs twice the one before
		// once its free strikes are spent, so it is refused after a
		// handful however its bucket drains between them (the cost of a
		// close alone, one second, drains as fast as it churns).
		{"churning every 900 ms", every(6, 900*time.Millisecond, penaltyNoAuth), 5 * time.Second, true},
		{"churning every 1.1 s", every(7, 1100*time.Millisecond, penaltyNoAuth), 7 * time.Second, true},
		{"churning every 2 s", every(7, 2*time.Second, penaltyNoAuth), 13 * time.Second, true},
		{"...refused for a while", every(7, 2*time.Second, penaltyNoAuth), 20 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPenalties(15*time.Second, 10*time.Minute)
			for _, c := range tt.charges {
				p.add("192.0.2.1", c.cost, t0.Add(c.after))
			}
			if got := p.refused("192.0.2.1", t0.Add(tt.at)); got != tt.refused {
				t.Errorf("refused = %v, want %v", got, tt.refused)
			}
			if p.refused("192.0.2.2", t0.Add(tt.at)) {
				t.Error("another source is refused")
			}
		})
	}
	off := newPenalties(-1, time.Minute)
	for range 10 {
		off.add("x", penaltyTimedOut, t0)
	}
	if off.refused("x", t0) {
		t.Error("penalties turned off refuse")
	}
}

// TestPenaltiesOfAChurnerThatGoesOn: a source that comes back the moment
// its refusal ends and leaves its connection unfinished again is refused
// for longer each time, to about a minute, and never gets more than a
// handful of connections a few minutes; one that stops is forgiven a
// strike a minute and forgotten.
func TestPenaltiesOfAChurnerThatGoesOn(t *testing.T) {
	t.Parallel()
	p := newPenalties(15*time.Second, 10*time.Minute)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const src = "192.0.2.1"
	conns, end := 0, now.Add(30*time.Minute)
	var refusals []time.Duration
	for now.Before(end) {
		if d, _ := p.state(src, now); d > 0 {
			now = now.Add(d) // it comes back the moment it may
			continue
		}
		conns++
		if d := p.add(src, penaltyNoAuth, now); d > 0 {
			refusals = append(refusals, d)
		}
		now = now.Add(500 * time.Millisecond)
	}
	t.Logf("%d connections in 30 minutes; refusals %v", conns, refusals)
	if conns > 60 {
		t.Errorf("%d connections in 30 minutes, want at most about one a minute", conns)
	}
	if len(refusals) < 5 || refusals[len(refusals)-1] < 30*time.Second {
		t.Errorf("refusals %v, want them growing to about a minute", refusals)
	}
	_, strikes := p.state(src, now)
	if _, later := p.state(src, now.Add(time.Duration(strikes)*strikeForgiven)); later != 0 {
		t.Errorf("%d strikes left after %s of quiet, want none", later, time.Duration(strikes)*strikeForgiven)
	}
	p.mu.Lock()
	p.sweepLocked(now.Add(time.Duration(strikes)*strikeForgiven + p.max))
	left := len(p.bySrc)
	p.mu.Unlock()
	if left != 0 {
		t.Errorf("a source forgiven is still kept (%d)", left)
	}
}
