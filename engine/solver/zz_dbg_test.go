package solver

import (
	"testing"

	"github.com/mia-game/mia/engine"
)

func TestDbg(t *testing.T) {
	o := engine.DefaultOptions()
	o.Pass, o.EqualClaims = false, true
	r, _ := Of(o, 0, 0)
	m := build(r, true)
	c := newCFR(m.g, 2)
	c.predict, c.power = true, 2
	for range 200 {
		c.step()
	}
	avg := c.average()
	r1 := newRun(m.g)
	v := r1.value(avg)
	b0 := r1.bestResponse(avg, 0)
	r2 := newRun(m.g)
	b0z := r2.bestResponse(avg, 0)
	b1 := r1.bestResponse(avg, 1)
	b1z := newRun(m.g).bestResponse(avg, 1)
	r3 := newRun(m.g)
	r3.value(avg)
	b1v := r3.bestResponse(avg, 1)
	t.Logf("v %.5f b0 %.5f b0 from zero %.5f b1 %.5f b1z %.5f b1v %.5f", v, b0, b0z, b1, b1z, b1v)
}
