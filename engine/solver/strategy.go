package solver

import "sync"

// Strategy is a solved round: the strategy both players play, what every
// state is worth under it, and what each player believes of the dice at
// each of their decisions. It is read-only once made, so many goroutines
// may read it at once.
type Strategy struct {
	m      *model
	avg    []float32 // by slot
	val    []float32 // by node·nh + h: the value to the node's mover
	fv     []float32 // by node: the value to its mover with fresh dice
	belief []float32 // by node·nh + h: how likely the mover's opponent and chance make h
	report Report
	// How the round ends from each state (endings.go), on first use.
	endOnce sync.Once
	ends    *endTables
}

// Rules are the rules the strategy plays.
func (s *Strategy) Rules() Rules { return s.m.rules }

// Report is what the solve did.
func (s *Strategy) Report() Report { return s.report }

// tremble is how likely, in the beliefs, a player makes a move their
// strategy never makes: a claim the strategy never makes is then read as
// a random move, not as an impossible one.
const tremble = 1e-9

func newStrategy(m *model, avg []float64) *Strategy {
	s := &Strategy{m: m, avg: narrow(avg)}
	r := newRun(m.g)
	r.value(avg)
	s.val, s.fv = narrow(r.val), narrow(r.fv)
	shaky := make([]float64, len(avg))
	for i := range m.g.nodes {
		n := &m.g.nodes[i]
		ne := int32(len(n.edges))
		for j := n.off; j < n.off+n.classes*ne; j++ {
			shaky[j] = float64((1-tremble)*avg[j]) + tremble/float64(ne)
		}
	}
	r.reach(shaky)
	s.belief = narrow(r.opp)
	return s
}

func narrow(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// option is one move at a decision: how often the strategy makes it and
// what it is worth to the mover.
type option struct {
	move  Move
	edge  int
	prob  float64
	value float64
}

// options lists the moves at node i for the mover's information set k,
// the aliases after the edges, each with its probability and its value
// to the mover given what they believe of the dice.
func (s *Strategy) options(i int, k int32) []option {
	g, nh := s.m.g, s.m.g.nh
	n := &g.nodes[i]
	w, tot := s.weights(i, k)
	out := make([]option, 0, len(n.edges)+len(s.m.alias[i]))
	for a, e := range n.edges {
		v := 0.0
		for h := range nh {
			if w[h] == 0 {
				continue
			}
			var x float64
			switch {
			case e.to < 0:
				x = g.pays[e.pay][h]
			case e.redraw:
				x = float64(s.fv[e.to])
			default:
				x = float64(s.val[int(e.to)*nh+h])
			}
			if e.flip && e.to >= 0 {
				x = -x
			}
			v += w[h] * x
		}
		out = append(out, option{move: s.m.moves[i][a], edge: a, prob: float64(s.avg[int(n.off)+a*int(n.classes)+int(k)]), value: v / tot})
	}
	for _, al := range s.m.alias[i] {
		o := out[al.edge]
		o.move, o.prob = al.move, 0
		out = append(out, o)
	}
	return out
}

// weights is what the mover at node i with information set k believes
// of the dice, by h, and its sum.
func (s *Strategy) weights(i int, k int32) ([]float64, float64) {
	g, nh := s.m.g, s.m.g.nh
	n := &g.nodes[i]
	bel := s.belief[i*nh : i*nh+nh]
	w := make([]float64, nh)
	tot := 0.0
	for h := range nh {
		if classOf(n, h) == k {
			w[h] = float64(bel[h])
			tot += w[h]
		}
	}
	if tot == 0 { // out of the strategy's reach: the dice as a fresh roll
		for h := range nh {
			if classOf(n, h) == k {
				w[h] = g.fresh[h]
				tot += w[h]
			}
		}
	}
	return w, tot
}

// Measure recomputes what the strategy is worth, as it is kept: the
// round's value to its opener and what a best response gains in each
// seat (see Report), from the stored strategy alone.
func (s *Strategy) Measure() (value float64, gain [2]float64) {
	full := s.m
	avg := make([]float64, len(s.avg))
	for i, x := range s.avg {
		avg[i] = float64(x)
	}
	if !s.m.seats {
		full = build(s.m.rules, true)
		avg = expand(s.m, full, avg)
	}
	ms := evaluate(full.g, avg)
	return ms.value, ms.gain
}
