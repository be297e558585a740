package solver

import "math"

// cfrPlus runs CFR+ on a graph, or, with discount and predict set, the
// variant Solve uses: predictive discounted CFR (see doc.go).
type cfrPlus struct {
	r      *run
	regret []float64
	cur    []float64 // the current strategy
	sum    []float64 // the weighted sum of the current strategies
	iters  int
	// groups is 2 when the seats are told apart (the groups take turns,
	// one updated an iteration), 1 in self-play (updated every iteration).
	groups int
	v      []float64
	// pred is the last iteration's instantaneous regrets, the prediction
	// of predictive CFR+ (the next regrets are taken to be like them).
	pred    []float64
	predict bool
	// discount discounts the regrets after each iteration t as DCFR does
	// (Brown & Sandholm, 2019): positive ones by t^1.5/(t^1.5+1), negative
	// ones by 1/2; without it, negative regrets are cut to 0 (CFR+).
	discount bool
	power    int // the average weighs iteration t by t^power
}

func newCFR(g *graph, groups int) *cfrPlus {
	c := &cfrPlus{r: newRun(g), regret: make([]float64, g.slots), cur: make([]float64, g.slots),
		sum: make([]float64, g.slots), groups: groups, v: make([]float64, g.nh), pred: make([]float64, g.slots), power: 1}
	for i := range g.nodes {
		c.match(&g.nodes[i])
	}
	return c
}

// match sets the current strategy of every information set of n from its
// regrets (regret matching+; predictive: the regrets plus the last
// instantaneous ones, the positive ones in proportion, or uniform).
func (c *cfrPlus) match(n *node) {
	ne, nk := int32(len(n.edges)), n.classes
	for k := range nk {
		t := 0.0
		for a := range ne {
			j := n.off + a*nk + k
			x := c.regret[j]
			if c.predict {
				x += c.pred[j]
			}
			x = max(x, 0)
			c.cur[j] = x
			t += x
		}
		for a := range ne {
			j := n.off + a*nk + k
			if t > 0 {
				c.cur[j] /= t
			} else {
				c.cur[j] = 1 / float64(ne)
			}
		}
	}
}

// step runs one iteration: it updates one group's regrets and average
// (both in self-play), weighting the average by the iteration's number
// to the power c.power.
func (c *cfrPlus) step() {
	r, g := c.r, c.r.g
	up := uint8(c.iters % 2)
	c.iters++
	t := float64((c.iters + c.groups - 1) / c.groups)
	w := 1.0
	for range c.power {
		w *= t
	}
	keep := math.Pow(t, 1.5)
	keep /= keep + 1
	r.reach(c.cur)
	v := c.v
	for i := len(g.nodes) - 1; i >= 0; i-- {
		n := &g.nodes[i]
		ev := r.edgeValues(i)
		r.mix(v, n, c.cur, ev)
		if c.groups == 1 || n.group == up {
			c.update(i, n, ev, v, w)
		}
		r.setVal(i, v)
	}
	for i := range g.nodes {
		n := &g.nodes[i]
		if c.groups == 2 && n.group != up {
			continue
		}
		end := n.off + n.classes*int32(len(n.edges))
		for j := n.off; j < end; j++ {
			switch x := c.regret[j]; {
			case !c.discount:
				c.regret[j] = max(x, 0)
			case x > 0:
				c.regret[j] = x * keep
			default:
				c.regret[j] = x / 2
			}
		}
		c.match(n)
	}
}

// update adds node i's instantaneous regrets (kept in pred) and its
// weighted current strategy to the sums.
func (c *cfrPlus) update(i int, n *node, ev, v []float64, w float64) {
	nh := c.r.g.nh
	opp, self := c.r.opp[i*nh:i*nh+nh], c.r.self[i*nh:i*nh+nh]
	nk := int(n.classes)
	if n.class == nil {
		var sw, base float64
		for h := range nh {
			sw += self[h]
			base += float64(opp[h] * v[h])
		}
		sw = float64(w * sw)
		for a := range n.edges {
			ea := ev[a*nh : a*nh+nh]
			x := 0.0
			for h := range nh {
				x += float64(opp[h] * ea[h])
			}
			j := int(n.off) + a
			c.regret[j] += x - base
			c.pred[j] = x - base
			c.sum[j] += float64(sw * c.cur[j])
		}
		return
	}
	for a := range n.edges {
		o := int(n.off) + a*nk
		ea := ev[a*nh : a*nh+nh]
		if n.ident {
			reg, pred, sum, cur := c.regret[o:o+nh], c.pred[o:o+nh], c.sum[o:o+nh], c.cur[o:o+nh]
			for h := range nh {
				d := float64(opp[h] * (ea[h] - v[h]))
				reg[h] += d
				pred[h] = d
				sum[h] += float64(float64(w*self[h]) * cur[h])
			}
			continue
		}
		clear(c.pred[o : o+nk])
		for h, k := range n.class {
			j := o + int(k)
			d := float64(opp[h] * (ea[h] - v[h]))
			c.regret[j] += d
			c.pred[j] += d
			c.sum[j] += float64(float64(w*self[h]) * c.cur[j])
		}
	}
}

// average is the normalised average strategy; an information set never
// weighed takes the current strategy.
func (c *cfrPlus) average() []float64 {
	g := c.r.g
	out := make([]float64, g.slots)
	for i := range g.nodes {
		n := &g.nodes[i]
		ne, nk := int32(len(n.edges)), n.classes
		for k := range nk {
			t := 0.0
			for a := range ne {
				t += c.sum[n.off+a*nk+k]
			}
			for a := range ne {
				j := n.off + a*nk + k
				if t > 0 {
					out[j] = c.sum[j] / t
				} else {
					out[j] = c.cur[j]
				}
			}
		}
	}
	return out
}

// measure is what a strategy is worth in a graph that tells its seats
// apart: the value to the first mover when both play it, and what a best
// response gains over that value in each seat.
type measure struct {
	value float64
	gain  [2]float64
}

// exploitability is the average of the two gains.
func (m measure) exploitability() float64 { return (m.gain[0] + m.gain[1]) / 2 }

func evaluate(g *graph, st []float64) measure { return newRun(g).measure(st) }

// measure is evaluate on r's graph, r's working arrays reused: the same
// figures as from a new run.
func (r *run) measure(st []float64) measure {
	clear(r.val)
	clear(r.fv)
	v := r.value(st)
	b0 := r.bestResponse(st, 0)
	b1 := r.bestResponse(st, 1)
	return measure{value: v, gain: [2]float64{b0 - v, v - b1}}
}
