package solver

import (
	"math"
	"testing"
)

// kuhn is Kuhn poker (Kuhn, 1950) as a graph of the solver's core: three
// cards, one each, an ante of 1; player 0 checks or bets 1, and so on.
// Its value to player 0 is −1/18.
func kuhn() *graph {
	// h: the deal, as (card of 0, card of 1), cards 0 < 1 < 2.
	type deal struct{ c0, c1 int }
	var deals []deal
	for a := range 3 {
		for b := range 3 {
			if a != b {
				deals = append(deals, deal{a, b})
			}
		}
	}
	g := &graph{nh: len(deals), fresh: make([]float64, len(deals))}
	cls := [2][]uint8{make([]uint8, len(deals)), make([]uint8, len(deals))}
	for h, d := range deals {
		g.fresh[h] = 1 / float64(len(deals))
		cls[0][h], cls[1][h] = uint8(d.c0), uint8(d.c1)
	}
	// pay is a payoff to the mover, who is player p: a showdown for
	// stake, or a fold (the mover wins stake when sign is +1).
	show := func(p, stake int) int32 {
		v := make([]float64, len(deals))
		for h, d := range deals {
			win := d.c0 > d.c1
			if p == 1 {
				win = !win
			}
			v[h] = float64(stake)
			if !win {
				v[h] = -v[h]
			}
		}
		g.pays = append(g.pays, v)
		return int32(len(g.pays) - 1)
	}
	flat := func(x float64) int32 {
		v := make([]float64, len(deals))
		for h := range v {
			v[h] = x
		}
		g.pays = append(g.pays, v)
		return int32(len(g.pays) - 1)
	}
	// Nodes, in order: 0 p0 first; 1 p1 after a check; 2 p1 after a bet;
	// 3 p0 after check, bet.
	g.addNode(node{group: 0, class: cls[0], classes: 3, edges: []edge{{to: 1, flip: true}, {to: 2, flip: true}}})
	g.addNode(node{group: 1, class: cls[1], classes: 3, edges: []edge{{to: -1, pay: show(1, 1)}, {to: 3, flip: true}}})
	g.addNode(node{group: 1, class: cls[1], classes: 3, edges: []edge{{to: -1, pay: flat(-1)}, {to: -1, pay: show(1, 2)}}})
	g.addNode(node{group: 0, class: cls[0], classes: 3, edges: []edge{{to: -1, pay: flat(-1)}, {to: -1, pay: show(0, 2)}}})
	return g
}

// TestKuhnValue solves Kuhn poker with the solver Solve runs: its value
// and an exploitability far below Target.
func TestKuhnValue(t *testing.T) {
	g := kuhn()
	c := newSolver(g, 2)
	for range 2000 {
		c.step()
	}
	m := evaluate(g, c.average())
	if math.Abs(m.value+1.0/18) > 1e-4 {
		t.Errorf("Kuhn poker is worth %.5f to its first player, want −1/18 = %.5f", m.value, -1.0/18)
	}
	if m.exploitability() > 1e-4 {
		t.Errorf("exploitability %.6f after %d iterations", m.exploitability(), c.iters)
	}
	t.Logf("value %.6f gains %.2g %.2g", m.value, m.gain[0], m.gain[1])
}
