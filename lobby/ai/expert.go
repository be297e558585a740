package ai

import (
	"math/rand/v2"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// expert plays the solved strategy of the heads-up round (engine/solver)
// at the decision as the seat knows it, drawing its mixed moves from r,
// once two players are left. With more, the heads-up model misjudges the
// round (README.md: it loses to hard at six seats) and expert plays as
// Hard plays; so does a decision the model has not got (README.md of
// engine/solver), or a strategy not solved yet when wait is false.
func expert(v engine.View, round []engine.Event, r *rand.Rand, wait bool) engine.Action {
	if living(v.Lives) > 2 {
		return smart(v, round, r, levelKnobs[Hard](v.Options))
	}
	sit, err := solver.Read(v.Options, v.Lives, roundOf(round), v.Seat)
	if err != nil || (!wait && !solver.Ready(sit.Rules)) {
		return smart(v, round, r, levelKnobs[Hard](v.Options))
	}
	s, err := solver.For(sit.Rules)
	if err != nil {
		return smart(v, round, r, levelKnobs[Hard](v.Options))
	}
	mv, err := s.Pick(sit, r.Float64())
	if err != nil {
		return smart(v, round, r, levelKnobs[Hard](v.Options))
	}
	a := mv.Action(v.Seat)
	if mv.Kind == solver.MoveLowClaim {
		a.Value = first(v.LowClaims)
	}
	return a
}

// Rules is the round a seat's decision in v plays, to solve ahead
// (engine/solver.For) so that an expert decides at once; ok is false
// when v is no decision of the seat.
func Rules(v engine.View, round []engine.Event) (solver.Rules, bool) {
	sit, err := solver.Read(v.Options, v.Lives, roundOf(round), v.Seat)
	return sit.Rules, err == nil
}

// roundOf is the round's events from its EvRound on.
func roundOf(evs []engine.Event) []engine.Event {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == engine.EvRound {
			return evs[i:]
		}
	}
	return evs
}

// Pending is, for an expert whose strategy at v is not solved yet, the
// work that solves it (seconds of a core), to run off the table's
// goroutine, and the rule set it solves (equal rule sets, the same
// work); nil work when Decide answers at once. Meanwhile DecideAtOnce
// plays as Hard.
func Pending(level Level, v engine.View, round []engine.Event) (r solver.Rules, work func()) {
	if level != Expert || living(v.Lives) > 2 {
		return solver.Rules{}, nil
	}
	r, ok := Rules(v, round)
	if !ok || solver.Ready(r) {
		return solver.Rules{}, nil
	}
	return r, func() { _, _ = solver.For(r) } // an error is Decide's to meet: it plays as Hard
}

// DecideAtOnce is Decide, but an expert whose strategy is not solved yet
// (Pending) plays this move as Hard instead of waiting for the solve.
func DecideAtOnce(level Level, v engine.View, round []engine.Event, r *rand.Rand) engine.Action {
	if level == Expert && v.MyTurn() && len(v.Legal) > 0 {
		if r == nil {
			r = seeded(v)
		}
		return legalize(v, expert(v, round, r, false))
	}
	return Decide(level, v, round, r)
}
