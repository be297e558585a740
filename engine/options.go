package engine

import "fmt"

// NextOpener says who opens the round after a life is lost (option
// `next-opener`).
type NextOpener string

// The values of option `next-opener`.
const (
	AfterLoser NextOpener = "after-loser"
	Loser      NextOpener = "loser"
)

// End says when a game is over (option `end`).
type End string

// The values of option `end`.
const (
	LastStanding End = "last-standing"
	FirstOut     End = "first-out"
)

// Limits of the table options.
const (
	MinSeats       = 2
	MaxSeats       = 10
	MinLives       = 1
	MaxLives       = 9
	MinTurnSeconds = 5
	MaxTurnSeconds = 3600
)

// Options is a table's rule set (RULES.md). The JSON names are those of
// PROTOCOL.md §3.
type Options struct {
	Ranking     Ranking `json:"ranking"`      // option `ranking`
	Lives       int     `json:"lives"`        // lives per player, MinLives to MaxLives
	Pass        bool    `json:"pass"`         // option `pass`: a claim may be passed on without rolling
	EqualClaims bool    `json:"equal_claims"` // option `equal-claims`: a claim may equal the last (needs Pass off)
	// MiaPenalty is option `mia-penalty`: the lives (1 or 2) a player loses
	// for challenging a Mia that is there.
	MiaPenalty int `json:"mia_penalty"`
	// MiaPenaltyBoth is option `mia-penalty-both`: the claimant of a Mia
	// that is not there also loses MiaPenalty lives (instead of 1), so that
	// whoever loses a challenge of a Mia claim loses the Mia penalty.
	MiaPenaltyBoth bool       `json:"mia_penalty_both"`
	NextOpener     NextOpener `json:"next_opener"`  // option `next-opener`
	End            End        `json:"end"`          // option `end`
	TurnSeconds    int        `json:"turn_seconds"` // option `turn-seconds`: the turn clock (kept by the caller)
}

// DefaultOptions is the `classic` rule set of RULES.md.
func DefaultOptions() Options {
	return Options{
		Ranking:     Classic,
		Lives:       6,
		Pass:        true,
		MiaPenalty:  2,
		NextOpener:  AfterLoser,
		End:         LastStanding,
		TurnSeconds: 60,
	}
}

// Validate reports the first impossible option as an *OptionError.
func (o Options) Validate() error {
	switch {
	case !o.Ranking.Valid():
		return optErr("ranking", "%q is not one of classic, ascending-doubles, numeric, little-mia", o.Ranking)
	case o.Lives < MinLives || o.Lives > MaxLives:
		return optErr("lives", "%d is not between %d and %d", o.Lives, MinLives, MaxLives)
	case o.EqualClaims && o.Pass:
		return optErr("equal-claims", "passing is not allowed when equal claims are (turn pass off)")
	case o.MiaPenalty != 1 && o.MiaPenalty != 2:
		return optErr("mia-penalty", "%d is not 1 or 2", o.MiaPenalty)
	case o.NextOpener != AfterLoser && o.NextOpener != Loser:
		return optErr("next-opener", "%q is not after-loser or loser", o.NextOpener)
	case o.End != LastStanding && o.End != FirstOut:
		return optErr("end", "%q is not last-standing or first-out", o.End)
	case o.TurnSeconds < MinTurnSeconds || o.TurnSeconds > MaxTurnSeconds:
		return optErr("turn-seconds", "%d is not between %d and %d", o.TurnSeconds, MinTurnSeconds, MaxTurnSeconds)
	}
	return nil
}

func optErr(name, format string, args ...any) error {
	return &OptionError{Option: name, Reason: fmt.Sprintf(format, args...)}
}

// OptionError names a table option whose value is impossible.
type OptionError struct {
	Option string // the option's name as in RULES.md, e.g. "lives"
	Reason string
}

// Error names the option and why its value is impossible.
func (e *OptionError) Error() string { return "option " + e.Option + ": " + e.Reason }

// Unwrap lets errors.Is(err, ErrBadOptions) match.
func (e *OptionError) Unwrap() error { return ErrBadOptions }
