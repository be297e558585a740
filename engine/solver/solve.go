package solver

import (
	"errors"
	"fmt"
)

// Target is the exploitability a solve reaches: below it, in lives per
// round (see Report.Exploitability).
const Target = 0.001

// ErrRules is the refusal of a rule set Of could not have written.
var ErrRules = errors.New("solver: not a rule set of a round")

// Report is what a solve did and what its strategy is worth.
type Report struct {
	Iterations int
	// Value is what the round is worth to its opener, in lives, when
	// both play the strategy: what the other loses minus what the
	// opener loses, on average.
	Value float64
	// Gain is what a best response gains over Value, in lives per round:
	// Gain[0] playing the opener against the strategy, Gain[1] the other
	// player.
	Gain [2]float64
	// Exploitability is the average of the two gains, the usual
	// measure: 0 for an equilibrium.
	Exploitability float64
	// States and InfoSets count the model's public states and the
	// players' information sets; Actions the pairs of an information set
	// and a move.
	States, InfoSets, Actions int
}

// chunk is how many iterations run between two measures of a solve.
const chunk = 50

// maxIterations stops a solve that does not reach its target.
const maxIterations = 20000

// Solve solves the round of r to an exploitability below Target (see
// Report), the same strategy for the same rules, bit for bit: predictive
// discounted CFR (doc.go), measured every chunk iterations.
func Solve(r Rules) (*Strategy, error) {
	if !r.valid() {
		return nil, fmt.Errorf("%w: %+v", ErrRules, r)
	}
	// With equal caps one strategy plays both seats (self-play): what a
	// state is worth to whoever moves does not depend on who opened the
	// round, and a Mia rolled again (mia-pass reroll) reaches the states
	// of an opener. A best response needs the seats apart.
	symmetric := r.Caps[0] == r.Caps[1]
	m, full := build(r, !symmetric), (*model)(nil)
	groups := 2
	if symmetric {
		full, groups = build(r, true), 1
	}
	c := newSolver(m.g, groups)
	var avg []float64
	var ms measure
	judge := full
	if !symmetric {
		judge = m
	}
	er := newRun(judge.g)
	for c.iters < maxIterations {
		for range chunk {
			c.step()
		}
		avg = c.average()
		if symmetric {
			ms = er.measure(expand(m, full, avg))
		} else {
			ms = er.measure(avg)
		}
		if ms.exploitability() < target {
			break
		}
	}
	if ms.exploitability() >= target {
		return nil, fmt.Errorf("solver: %s: exploitability %.6f after %d iterations", r, ms.exploitability(), c.iters)
	}
	s := newStrategy(m, avg)
	s.report = Report{Iterations: c.iters, Value: ms.value, Gain: ms.gain, Exploitability: ms.exploitability(),
		States: len(m.g.nodes)}
	for i := range m.g.nodes {
		n := &m.g.nodes[i]
		s.report.InfoSets += int(n.classes)
		s.report.Actions += int(n.classes) * len(n.edges)
	}
	return s, nil
}

// target is the exploitability a solve stops at, short of Target.
const target = 0.9 * Target

// newSolver is the CFR Solve runs on g: predictive, the regrets
// discounted as DCFR does, the average weighted by the iteration's
// number squared.
func newSolver(g *graph, groups int) *cfrPlus {
	c := newCFR(g, groups)
	c.predict, c.discount, c.power = true, true, 2
	return c
}
