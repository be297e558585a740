package engine

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every refused action returns a *RuleError that wraps one
// of the rule errors, so callers can test with errors.Is.
var (
	ErrBadValue   = errors.New("not a roll value")
	ErrBadOptions = errors.New("impossible options")
	ErrBadSeats   = fmt.Errorf("a game needs %d to %d players", MinSeats, MaxSeats)

	ErrGameOver       = errors.New("the game is over")
	ErrNotYourTurn    = errors.New("not your turn")
	ErrNoSuchSeat     = errors.New("no such seat")
	ErrSeatOut        = errors.New("that player is out")
	ErrMustRoll       = errors.New("the opener must roll first")
	ErrMustAnnounce   = errors.New("you rolled: announce a value")
	ErrNothingToClaim = errors.New("roll before you announce")
	ErrNotHigher      = errors.New("claim is not higher than the current claim")
	ErrNoClaim        = errors.New("there is no claim to answer")
	ErrPassDisabled   = errors.New("passing is off at this table")
	ErrOwnDice        = errors.New("you rolled these dice: raise, roll or challenge")
	ErrMustAnswerMia  = errors.New("the claim is Mia: challenge or give up")
	ErrNotMia         = errors.New("you may give up only when Mia is announced")
	ErrMiaCameBack    = errors.New("your Mia came back: challenge the last passer or roll again")
	ErrUnknownAction  = errors.New("unknown action")
	ErrBadEvent       = errors.New("event does not follow from the game")
)

// RuleError is a refused action: the rule it breaks, and the action.
type RuleError struct {
	Rule   error
	Action Action
}

// Error names the action and the rule it breaks.
func (e *RuleError) Error() string { return e.Action.Kind.String() + ": " + e.Rule.Error() }

// Unwrap returns the rule broken.
func (e *RuleError) Unwrap() error { return e.Rule }
