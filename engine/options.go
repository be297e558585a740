package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// NextOpener says who opens the round after a life is lost (option
// `next-opener`).
type NextOpener string

// The values of option `next-opener`.
const (
	AfterLoser  NextOpener = "after-loser"  // the next living player after the loser
	Loser       NextOpener = "loser"        // the loser, if still in
	BeforeLoser NextOpener = "before-loser" // the living player before the loser, counter-clockwise
)

// End says when a game is over (option `end`).
type End string

// The values of option `end`.
const (
	LastStanding End = "last-standing"
	FirstOut     End = "first-out"
)

// MiaPass says whether a Mia claim may be passed on, and what happens when
// it comes back to the player who rolled it (option `mia-pass`).
type MiaPass string

// The values of option `mia-pass`. The empty MiaPass means MiaPassOff.
const (
	MiaPassOff    MiaPass = "off"    // a Mia claim may not be passed
	MiaPassReroll MiaPass = "reroll" // passed on blind; back at its roller, it is challenged or rolled again
	MiaPassWins   MiaPass = "wins"   // passed on blind; back at its roller, every other player loses a life
)

// MiaReveal says when a Mia claim is looked at (option `mia-reveal`).
type MiaReveal string

// The values of option `mia-reveal`. The empty MiaReveal means
// MiaRevealChallenge.
const (
	MiaRevealChallenge MiaReveal = "challenge" // when someone challenges it
	MiaRevealAtOnce    MiaReveal = "at-once"   // the moment it is announced
)

// LowClaim says what an announcement not higher than the claim does
// (option `low-claim`).
type LowClaim string

// The values of option `low-claim`. The empty LowClaim means
// LowClaimRefused.
const (
	LowClaimRefused LowClaim = "refused" // it is refused, and the player announces again
	LowClaimLoses   LowClaim = "loses"   // it stands and costs its announcer a life at once
)

// The presets of RULES.md "Presets": the names Preset knows.
const (
	PresetClassic  = "classic"
	PresetMaexchen = "maexchen"
)

// Limits of the table options.
const (
	MinSeats       = 2
	MaxSeats       = 12
	MinLives       = 1
	MaxLives       = 9
	MinTurnSeconds = 5
	MaxTurnSeconds = 3600
)

// Options is a table's rule set (RULES.md). The JSON names are those of
// PROTOCOL.md §3. The zero values of MiaPass, MiaReveal and LowClaim mean
// their defaults, so rule sets stored before those options existed still
// validate and play as they did; New and UnmarshalJSON fill them in.
type Options struct {
	Ranking     Ranking `json:"ranking"`      // option `ranking`
	Lives       int     `json:"lives"`        // lives per player, MinLives to MaxLives
	Pass        bool    `json:"pass"`         // option `pass`: a claim may be passed on without rolling
	EqualClaims bool    `json:"equal_claims"` // option `equal-claims`: a claim may equal the last (needs Pass off)
	// MiaPenalty is option `mia-penalty`: the lives (1 or 2) a player loses
	// for challenging a Mia that is there.
	MiaPenalty int `json:"mia_penalty"`
	// MiaPenaltyBoth is option `mia-penalty-both`: every life lost in a
	// round whose claim is Mia costs MiaPenalty lives (a wrong challenge,
	// a caught Mia bluff, giving up, running out of time while facing
	// Mia, the losses of MiaRevealAtOnce and of MiaPassWins).
	MiaPenaltyBoth bool       `json:"mia_penalty_both"`
	MiaPass        MiaPass    `json:"mia_pass"`     // option `mia-pass` (needs Pass)
	MiaReveal      MiaReveal  `json:"mia_reveal"`   // option `mia-reveal`
	LowClaim       LowClaim   `json:"low_claim"`    // option `low-claim`
	NextOpener     NextOpener `json:"next_opener"`  // option `next-opener`
	End            End        `json:"end"`          // option `end`
	TurnSeconds    int        `json:"turn_seconds"` // option `turn-seconds`: the turn clock (kept by the caller)
	// Preset names the preset the rule set was made from ("" if none); it
	// is a label and changes no rule.
	Preset string `json:"preset,omitempty"`
}

// DefaultOptions is the `classic` rule set of RULES.md.
func DefaultOptions() Options {
	return Options{
		Ranking:     Classic,
		Lives:       6,
		Pass:        true,
		MiaPenalty:  2,
		MiaPass:     MiaPassOff,
		MiaReveal:   MiaRevealChallenge,
		LowClaim:    LowClaimRefused,
		NextOpener:  AfterLoser,
		End:         LastStanding,
		TurnSeconds: 60,
	}
}

// PresetNames lists the names Preset knows, the default first.
func PresetNames() []string { return []string{PresetClassic, PresetMaexchen} }

// Preset returns the rule set of a preset of RULES.md "Presets", with
// Preset set to its name: `classic` is DefaultOptions; `maexchen` is the
// Mäxchen bot server's rules (1 life, pass off, mia-reveal at-once,
// low-claim loses, end first-out). An unknown name is an *OptionError.
func Preset(name string) (Options, error) {
	o := DefaultOptions()
	switch name {
	case PresetClassic:
	case PresetMaexchen:
		o.Lives, o.Pass, o.MiaReveal, o.LowClaim, o.End = 1, false, MiaRevealAtOnce, LowClaimLoses, FirstOut
	default:
		return Options{}, optErr("preset", "%q is not one of %s", name, strings.Join(PresetNames(), ", "))
	}
	o.Preset = name
	return o, nil
}

// withDefaults fills the options left empty by rule sets older than them.
func (o Options) withDefaults() Options {
	if o.MiaPass == "" {
		o.MiaPass = MiaPassOff
	}
	if o.MiaReveal == "" {
		o.MiaReveal = MiaRevealChallenge
	}
	if o.LowClaim == "" {
		o.LowClaim = LowClaimRefused
	}
	return o
}

// UnmarshalJSON reads the rules object of PROTOCOL.md §3. Keys that rule
// sets stored before them lack (mia_pass, mia_reveal, low_claim) take
// their defaults.
func (o *Options) UnmarshalJSON(b []byte) error {
	type plain Options // without this method
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*o = Options(p).withDefaults()
	return nil
}

// Validate reports the first impossible option, or impossible
// combination, as an *OptionError.
func (o Options) Validate() error {
	d := o.withDefaults()
	switch {
	case !o.Ranking.Valid():
		return optErr("ranking", "%q is not one of %s", o.Ranking, rankingNames())
	case o.Lives < MinLives || o.Lives > MaxLives:
		return optErr("lives", "%d is not between %d and %d", o.Lives, MinLives, MaxLives)
	case o.EqualClaims && o.Pass:
		return optErr("equal-claims", "passing is not allowed when equal claims are (turn pass off)")
	case o.MiaPenalty != 1 && o.MiaPenalty != 2:
		return optErr("mia-penalty", "%d is not 1 or 2", o.MiaPenalty)
	case d.MiaPass != MiaPassOff && d.MiaPass != MiaPassReroll && d.MiaPass != MiaPassWins:
		return optErr("mia-pass", "%q is not off, reroll or wins", o.MiaPass)
	case d.MiaReveal != MiaRevealChallenge && d.MiaReveal != MiaRevealAtOnce:
		return optErr("mia-reveal", "%q is not challenge or at-once", o.MiaReveal)
	case d.LowClaim != LowClaimRefused && d.LowClaim != LowClaimLoses:
		return optErr("low-claim", "%q is not refused or loses", o.LowClaim)
	case d.MiaPass != MiaPassOff && !o.Pass:
		return optErr("mia-pass", "%s needs passing on (turn pass on, or mia-pass off)", o.MiaPass)
	case d.MiaPass != MiaPassOff && d.MiaReveal == MiaRevealAtOnce:
		return optErr("mia-pass", "a Mia revealed at once is never passed (mia-pass %s needs mia-reveal challenge)", o.MiaPass)
	case o.NextOpener != AfterLoser && o.NextOpener != Loser && o.NextOpener != BeforeLoser:
		return optErr("next-opener", "%q is not after-loser, loser or before-loser", o.NextOpener)
	case o.End != LastStanding && o.End != FirstOut:
		return optErr("end", "%q is not last-standing or first-out", o.End)
	case o.TurnSeconds < MinTurnSeconds || o.TurnSeconds > MaxTurnSeconds:
		return optErr("turn-seconds", "%d is not between %d and %d", o.TurnSeconds, MinTurnSeconds, MaxTurnSeconds)
	case o.Preset != "" && o.Preset != PresetClassic && o.Preset != PresetMaexchen:
		return optErr("preset", "%q is not one of %s", o.Preset, strings.Join(PresetNames(), ", "))
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
