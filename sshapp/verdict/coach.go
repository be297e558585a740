package verdict

import (
	"fmt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// ErrNotCoached refuses a verdict on a move of a game still played at a
// table without a coach: a game's verdicts wait until it ends (Of).
var ErrNotCoached error = &Error{refused, "a move is judged during a game at a coached table only"}

// ErrNoVerdict is a move the coach has no verdict on: no decision of the
// model (a timeout, a leave), or one it cannot place.
var ErrNoVerdict error = &Error{notFound, "the coach has no verdict on that move"}

// Decision is the verdict on one move (engine/solver).
type Decision = solver.Decision

// Coach is the verdict on the move of seat whose event is seq, during a
// game at a coached table (coached: lobby.TableInfo.Coach), from the
// game's events as seat saw them (lobby.Snapshot.Events): the one
// verdict a door shows before a game ends, and to that player alone. It
// reads only what seat saw: the dice of others' rolls the events hide
// stay unknown (a stand-in fills them where the rules need dice, and
// the verdict, as every verdict, reads the game as its player saw it).
func Coach(coached bool, rules engine.Options, players int, seen []engine.Event, seat, seq int) (Decision, error) {
	if !coached {
		return Decision{}, ErrNotCoached
	}
	end := -1
	for i, e := range seen {
		if e.Seq == seq {
			end = i + 1
			break
		}
	}
	if end < 0 || seen[end-1].Seat != seat {
		return Decision{}, fmt.Errorf("%w: no move %d of seat %d", ErrNoVerdict, seq, seat)
	}
	for end < len(seen) && !startsAction(seen[end]) { // the rest of the move's action
		end++
	}
	evs := make([]engine.Event, end)
	copy(evs, seen[:end])
	for i := range evs {
		if evs[i].Type == engine.EvRoll && !evs[i].Dice.Valid() {
			evs[i].Dice = standIn(evs, i)
		}
	}
	a, err := solver.Analyse(rules, players, evs)
	if err != nil {
		return Decision{}, fmt.Errorf("%w: %w", ErrNoVerdict, err)
	}
	d, ok := a.Of(seq)
	if !ok || d.Seat != seat {
		return Decision{}, ErrNoVerdict
	}
	return d, nil
}

// Coach is the package's Coach with its solve budgeted: when the rule
// set is not solved, the work that solves it must be admitted by the
// Judge's budget asked from source, the table's (lobby.TableInfo.
// SolveSource: whoever opened the table chose its rules, and pays for
// their solve, whoever moves there), else the error matches ErrUnsolved
// and the budget's refusal (lobby.UnsolvedSaid words it for the coach).
// A nil Judge, or one without a budget, coaches unbudgeted.
func (jd *Judge) Coach(source string, coached bool, rules engine.Options, players int, seen []engine.Event, seat, seq int) (Decision, error) {
	if !coached {
		return Decision{}, ErrNotCoached
	}
	if jd != nil {
		done, err := jd.admit(source, rules)
		if err != nil {
			return Decision{}, fmt.Errorf("coach: %w: %w", ErrUnsolved, err)
		}
		defer done()
	}
	return Coach(coached, rules, players, seen, seat, seq)
}

// standIn is dice for the hidden roll evs[i]: those a later event of its
// cup showed (a challenge, a Mia revealed), else any that is not a Mia.
func standIn(evs []engine.Event, i int) engine.Value {
	for _, e := range evs[i+1:] {
		switch e.Type {
		case engine.EvRoll, engine.EvRound:
			return 31
		case engine.EvChallenge, engine.EvReveal:
			if e.Dice.Valid() {
				return e.Dice
			}
		case engine.EvMiaBack:
			return engine.Mia
		}
	}
	return 31
}

// startsAction reports whether e is the first event of an action.
func startsAction(e engine.Event) bool {
	switch e.Type {
	case engine.EvRoll, engine.EvClaim, engine.EvLowClaim, engine.EvPass, engine.EvChallenge,
		engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
		return true
	}
	return false
}

// IsMove reports whether an event of type t is a move a player chose
// (the coach judges those): a roll, a claim, a pass, a challenge, giving
// up; not a timeout or a leave.
func IsMove(t engine.EventType) bool {
	return t != engine.EvTimeout && t != engine.EvLeave && startsAction(engine.Event{Type: t})
}
