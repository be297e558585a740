package solver

import (
	"fmt"

	"github.com/mia-game/mia/engine"
)

// Mark is how a move fares against the best one at its decision.
type Mark uint8

// The marks, by the lives a move gives away against the best move at its
// decision (see README.md for how the thresholds were set).
const (
	Good       Mark = iota // less than Inaccurate
	Inaccuracy             // "?!": at least Inaccurate
	Mistake                // "?": at least Mistaken
	Blunder                // "??": at least Blundered
)

// The thresholds of the marks, in lives given away by a move.
const (
	Inaccurate = 0.03
	Mistaken   = 0.10
	Blundered  = 0.30
)

// MarkOf is the mark of a move that gives away loss lives.
func MarkOf(loss float64) Mark {
	switch {
	case loss >= Blundered:
		return Blunder
	case loss >= Mistaken:
		return Mistake
	case loss >= Inaccurate:
		return Inaccuracy
	}
	return Good
}

// String is the mark as chess writes it: "", "?!", "?" or "??".
func (m Mark) String() string {
	return [...]string{"", "?!", "?", "??"}[min(int(m), 3)]
}

// Choice is one move at a decision: how often the strategy makes it and
// what it is worth, in lives (what the other player loses minus what
// the player loses, on average, in the round); in a situation
// ByWinChance, the change it makes to the player's chance of winning the
// game, in lives of their own (table.go).
type Choice struct {
	Move  Move
	Prob  float64
	Value float64
}

// Judgement is the verdict on a move.
type Judgement struct {
	Situation
	Choices []Choice // every move the model has at the decision
	Best    int      // the choice worth the most (the most played among equals)
	Chosen  int      // the move made; -1 if the model has no such move
	Loss    float64  // the lives the move gave away against the best
	Mark    Mark
}

// Judged reports whether the move made has a verdict.
func (j Judgement) Judged() bool { return j.Chosen >= 0 }

// Choices lists the moves at the decision, with the strategy's
// probabilities and their worth to the player.
func (s *Strategy) Choices(sit Situation) ([]Choice, error) {
	i, k, err := s.locate(sit)
	if err != nil {
		return nil, err
	}
	opts := s.options(i, k)
	out := make([]Choice, len(opts))
	for j, o := range opts {
		out[j] = Choice{Move: o.move, Prob: o.prob, Value: o.value}
	}
	if sit.byWin {
		atTable(sit, s.endingOf(i, k, opts), out)
	}
	return out, nil
}

// locate is the node and information set of sit.
func (s *Strategy) locate(sit Situation) (int, int32, error) {
	if sit.Rules != s.m.rules {
		return 0, 0, fmt.Errorf("%w: the strategy plays %s, the decision %s", ErrNoDecision, s.m.rules, sit.Rules)
	}
	st := sit.st
	if !s.m.seats {
		st.mover = 0
	}
	i, ok := s.m.index[st]
	if !ok {
		return 0, 0, fmt.Errorf("%w: the model has no such state", ErrNoDecision)
	}
	k := int32(0)
	if s.m.g.nodes[i].class != nil {
		if sit.dice < 1 || sit.dice > s.m.k {
			return 0, 0, fmt.Errorf("%w: the dice the player saw are missing", ErrNoDecision)
		}
		k = int32(sit.dice - 1)
	}
	return int(i), k, nil
}

// Judge gives the verdict on the move a made at sit.
func (s *Strategy) Judge(sit Situation, a engine.Action) (Judgement, error) {
	cs, err := s.Choices(sit)
	if err != nil {
		return Judgement{}, err
	}
	j := Judgement{Situation: sit, Choices: cs, Chosen: -1}
	for n, c := range cs {
		b := cs[j.Best]
		if c.Value > b.Value+1e-9 || (c.Value > b.Value-1e-9 && c.Prob > b.Prob) {
			j.Best = n
		}
	}
	mv := s.MoveOf(sit, a)
	for n, c := range cs {
		if c.Move == mv {
			j.Chosen = n
			j.Loss = max(cs[j.Best].Value-c.Value, 0)
			j.Mark = MarkOf(j.Loss)
			break
		}
	}
	return j, nil
}

// MoveOf is the engine's action a, made at sit, as a move of the model.
func (s *Strategy) MoveOf(sit Situation, a engine.Action) Move {
	rk := s.m.rules.Ranking
	switch a.Kind {
	case engine.Roll:
		return Move{Kind: MoveRoll, Look: a.Look}
	case engine.Claim:
		r := rk.Rank(a.Value)
		if sit.st.b > 0 && (r < int(sit.st.b) || (r == int(sit.st.b) && !s.m.rules.EqualClaims)) {
			return Move{Kind: MoveLowClaim}
		}
		return Move{Kind: MoveClaim, Value: rk.Canonical(a.Value)}
	case engine.Pass:
		v := a.Value
		if v == engine.NoValue {
			v = s.m.claims[sit.st.c]
		}
		return Move{Kind: MovePass, Value: rk.Canonical(v)}
	case engine.Challenge:
		return Move{Kind: MoveChallenge}
	case engine.GiveUp:
		return Move{Kind: MoveGiveUp}
	}
	return Move{}
}

// Pick draws a move from the strategy at sit: u, uniform in [0, 1),
// chooses among the moves by their probabilities. Moves the strategy
// makes less often than Rare are left out (the others in proportion):
// they are what is left of a solve's first iterations, and some throw a
// life away.
func (s *Strategy) Pick(sit Situation, u float64) (Move, error) {
	i, k, err := s.locate(sit)
	if err != nil {
		return Move{}, err
	}
	n := &s.m.g.nodes[i]
	prob := func(a int) float64 {
		p := float64(s.avg[int(n.off)+a*int(n.classes)+int(k)])
		if p < Rare {
			return 0
		}
		return p
	}
	total, best := 0.0, 0
	for a := range n.edges {
		total += prob(a)
		if prob(a) > prob(best) {
			best = a
		}
	}
	if total <= 0 {
		return s.m.moves[i][best], nil
	}
	u *= total
	last := best
	for a := range n.edges {
		p := prob(a)
		if p == 0 {
			continue
		}
		last = a
		if u < p {
			return s.m.moves[i][a], nil
		}
		u -= p
	}
	return s.m.moves[i][last], nil
}

// Rare is the probability below which Pick leaves a move out.
const Rare = 0.001

// Action is the move mv as the engine's action of seat.
func (mv Move) Action(seat int) engine.Action {
	a := engine.Action{Seat: seat, Value: mv.Value, Look: mv.Look}
	switch mv.Kind {
	case MoveRoll:
		a.Kind = engine.Roll
	case MoveClaim:
		a.Kind = engine.Claim
	case MovePass:
		a.Kind = engine.Pass
	case MoveChallenge:
		a.Kind = engine.Challenge
	case MoveGiveUp:
		a.Kind = engine.GiveUp
	case MoveLowClaim:
		a.Kind = engine.Claim // the value is chosen by the caller (any not above the claim)
	}
	return a
}
