package solver

import (
	"math"
)

// Ending is how likely the round is to end each way, seen from the
// player at a decision: Mine[n-1] that they lose n lives, Theirs[n-1]
// that the other player does (n is 1 or 2: a Mia penalty). Every round
// ends with one loser, so the four sum to 1.
type Ending struct {
	Mine, Theirs [2]float64
}

// endTables hold, for every state and dice, the round's Ending when
// both play the strategy: the chance that the mover (mine) or the other
// (theirs) loses n lives, by node·nh + h, and with the dice drawn afresh
// by node. They are computed once, on the first use (endings).
type endTables struct {
	val [2][2][]float32 // [0 mine, 1 theirs][n-1]
	fv  [2][2][]float32
}

// endings are the strategy's endTables, computed on first use: four
// passes over the graph under the same strategy, each under payoffs
// that count one way of ending (no new solve).
func (s *Strategy) endings() *endTables {
	s.endOnce.Do(func() { s.ends = endingsOf(s.m.g, s.avg) })
	return s.ends
}

func endingsOf(g *graph, avg32 []float32) *endTables {
	avg := make([]float64, len(avg32))
	for i, x := range avg32 {
		avg[i] = float64(x)
	}
	t := &endTables{}
	for n := 1; n <= 2; n++ {
		// diff: P(the other loses n) − P(the mover loses n), a zero-sum
		// payoff; sum: their sum, the same to both players.
		var diff, sum, diffF, sumF []float64
		for _, keep := range []bool{false, true} {
			r := newRun(g)
			r.keep = keep
			r.pays = make([][]float64, len(g.pays))
			for i, p := range g.pays {
				q := make([]float64, len(p))
				for h, x := range p {
					switch lost := int(math.Round(x)); {
					case lost == n:
						q[h] = 1
					case lost == -n && keep:
						q[h] = 1
					case lost == -n:
						q[h] = -1
					}
				}
				r.pays[i] = q
			}
			r.value(avg)
			if keep {
				sum, sumF = r.val, r.fv
			} else {
				diff, diffF = r.val, r.fv
			}
		}
		t.val[0][n-1], t.val[1][n-1] = halves(sum, diff)
		t.fv[0][n-1], t.fv[1][n-1] = halves(sumF, diffF)
	}
	return t
}

// halves is (sum−diff)/2 and (sum+diff)/2.
func halves(sum, diff []float64) (mine, theirs []float32) {
	mine, theirs = make([]float32, len(sum)), make([]float32, len(sum))
	for i := range sum {
		mine[i] = float32(max(0, (sum[i]-diff[i])/2))
		theirs[i] = float32(max(0, (sum[i]+diff[i])/2))
	}
	return mine, theirs
}

// endingOf is the Ending of each option at node i for the mover's
// information set k, given what they believe of the dice.
func (s *Strategy) endingOf(i int, k int32, opts []option) []Ending {
	t := s.endings()
	g, nh := s.m.g, s.m.g.nh
	n := &g.nodes[i]
	w, tot := s.weights(i, k)
	out := make([]Ending, len(opts))
	for j, o := range opts {
		e := n.edges[o.edge]
		var d Ending
		for h := range nh {
			if w[h] == 0 {
				continue
			}
			if e.to < 0 {
				lost := int(math.Round(g.pays[e.pay][h]))
				switch {
				case lost < 0:
					d.Mine[min(-lost, 2)-1] += w[h]
				case lost > 0:
					d.Theirs[min(lost, 2)-1] += w[h]
				}
				continue
			}
			mine, theirs := 0, 1
			if e.flip {
				mine, theirs = 1, 0
			}
			for l := range 2 {
				if e.redraw {
					d.Mine[l] += w[h] * float64(t.fv[mine][l][e.to])
					d.Theirs[l] += w[h] * float64(t.fv[theirs][l][e.to])
				} else {
					d.Mine[l] += w[h] * float64(t.val[mine][l][int(e.to)*nh+h])
					d.Theirs[l] += w[h] * float64(t.val[theirs][l][int(e.to)*nh+h])
				}
			}
		}
		for l := range 2 {
			d.Mine[l] /= tot
			d.Theirs[l] /= tot
		}
		out[j] = d
	}
	return out
}

// Endings lists, for each move at the decision (in the order Choices
// gives them), how likely the round is to end each way when both play
// the strategy after it.
func (s *Strategy) Endings(sit Situation) ([]Ending, error) {
	i, k, err := s.locate(sit)
	if err != nil {
		return nil, err
	}
	return s.endingOf(i, k, s.options(i, k)), nil
}
