package solver

import (
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

func expRun(t *testing.T, o engine.Options, seats bool, n int, predict bool, power int) {
	r, _ := Of(o, 0, 0)
	m := build(r, seats)
	full := build(r, true)
	t.Logf("nodes %d slots %d pays %d loops %v", len(m.g.nodes), m.g.slots, len(m.g.pays), m.g.loops)
	groups := 1
	if seats {
		groups = 2
	}
	c := newCFR(m.g, groups)
	c.predict, c.power = predict, power
	start := time.Now()
	for c.iters < n {
		for range 100 {
			c.step()
		}
		avg := c.average()
		if !seats {
			avg = expand(m, full, avg)
		}
		ms := evaluate(full.g, avg)
		t.Logf("%d %.1fs value %.5f gains %.5f %.5f expl %.5f", c.iters, time.Since(start).Seconds(), ms.value, ms.gain[0], ms.gain[1], ms.exploitability())
	}
}

func TestExpBothReroll(t *testing.T) {
	o := engine.DefaultOptions()
	o.MiaPass = engine.MiaPassReroll
	o.MiaPenaltyBoth = true
	expRun(t, o, false, 1500, true, 2)
	expRun(t, o, false, 1500, true, 1)
}
