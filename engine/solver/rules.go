package solver

import (
	"fmt"
	"strings"

	"github.com/mia-game/mia/engine"
)

// Rules is what changes a heads-up round of Mia: the options of RULES.md
// that play a part within a round, and how many lives each of the two
// players can lose in it (a Mia penalty of 2 costs a player with 1 life
// left only 1). Two rule sets that play the same round are equal: Of
// writes each in one way. The zero Rules is not valid; see Of.
type Rules struct {
	Ranking        engine.Ranking
	Pass           bool // a claim may be passed on (and raised blind)
	EqualClaims    bool // a claim may equal the last
	LowClaimLoses  bool // a claim not above the last, or a challenge of nothing, costs a life
	MiaPenalty     int  // the lives a wrong challenge of a Mia costs (1 or 2)
	MiaPenaltyBoth bool // every loss in a round whose claim is Mia costs MiaPenalty
	MiaAtOnce      bool // a Mia is revealed the moment it is claimed
	MiaPass        engine.MiaPass
	// Caps holds the most lives the round's opener (0) and the other
	// player (1) can lose in it: their lives, at most MiaPenalty. With a
	// Mia penalty of 1 both are 1.
	Caps [2]int
}

// Of is the round a table's options play, between an opener with lives
// opener and an answerer with lives other (lives below 1 count as the
// options' lives). Options that play no part in a round (lives,
// next-opener, end, the clock) are left out, and equivalent rule sets
// are written alike (mia-penalty-both with a penalty of 1 is no change).
func Of(o engine.Options, opener, other int) (Rules, error) {
	if err := o.Validate(); err != nil {
		return Rules{}, err
	}
	if opener < 1 {
		opener = o.Lives
	}
	if other < 1 {
		other = o.Lives
	}
	r := Rules{
		Ranking: o.Ranking, Pass: o.Pass, EqualClaims: o.EqualClaims,
		LowClaimLoses: o.LowClaim == engine.LowClaimLoses,
		MiaPenalty:    o.MiaPenalty, MiaPenaltyBoth: o.MiaPenaltyBoth && o.MiaPenalty > 1,
		MiaAtOnce: o.MiaReveal == engine.MiaRevealAtOnce,
		MiaPass:   o.MiaPass,
	}
	if r.MiaPass == "" {
		r.MiaPass = engine.MiaPassOff
	}
	r.Caps = [2]int{min(opener, r.MiaPenalty), min(other, r.MiaPenalty)}
	return r, nil
}

// Options is a table's rule set that plays r (the caps aside), the other
// options at their defaults.
func (r Rules) Options() engine.Options {
	o := engine.DefaultOptions()
	o.Ranking, o.Pass, o.EqualClaims, o.MiaPenalty, o.MiaPenaltyBoth, o.MiaPass = r.Ranking, r.Pass, r.EqualClaims, r.MiaPenalty, r.MiaPenaltyBoth, r.MiaPass
	if r.LowClaimLoses {
		o.LowClaim = engine.LowClaimLoses
	}
	if r.MiaAtOnce {
		o.MiaReveal = engine.MiaRevealAtOnce
	}
	return o
}

// String names the rule set by the flags of `table create` that differ
// from the defaults ("classic" for none), then the caps when a player
// can lose less than the penalty.
func (r Rules) String() string {
	d, _ := Of(engine.DefaultOptions(), 0, 0)
	var parts []string
	if r.Ranking != d.Ranking {
		parts = append(parts, "--ranking "+string(r.Ranking))
	}
	switch {
	case r.EqualClaims:
		parts = append(parts, "--equal-claims")
	case !r.Pass:
		parts = append(parts, "--no-pass")
	}
	if r.LowClaimLoses {
		parts = append(parts, "--low-claim loses")
	}
	if r.MiaPenalty != d.MiaPenalty {
		parts = append(parts, fmt.Sprintf("--mia-penalty %d", r.MiaPenalty))
	}
	if r.MiaPenaltyBoth {
		parts = append(parts, "--mia-penalty-both")
	}
	if r.MiaAtOnce {
		parts = append(parts, "--mia-reveal at-once")
	}
	if r.MiaPass != engine.MiaPassOff {
		parts = append(parts, "--mia-pass "+string(r.MiaPass))
	}
	s := strings.Join(parts, " ")
	if s == "" {
		s = "classic"
	}
	if r.Caps != [2]int{r.MiaPenalty, r.MiaPenalty} {
		s += fmt.Sprintf(" (lives to lose: %d and %d)", r.Caps[0], r.Caps[1])
	}
	return s
}

// All lists every rule set that plays a different round, the caps at the
// penalty (players with lives to spare), the default first: 5 rankings ×
// 8 ways to pass and show a Mia × 2 low-claim rules × 3 Mia penalties.
func All() []Rules {
	var out []Rules
	for _, rk := range engine.Rankings {
		for _, pm := range []struct{ pass, equal bool }{{true, false}, {false, false}, {false, true}} {
			for _, reveal := range []engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce} {
				for _, mp := range []engine.MiaPass{engine.MiaPassOff, engine.MiaPassReroll, engine.MiaPassWins} {
					if mp != engine.MiaPassOff && (!pm.pass || reveal == engine.MiaRevealAtOnce) {
						continue
					}
					for _, low := range []engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses} {
						for _, pen := range []struct {
							n    int
							both bool
						}{{2, false}, {1, false}, {2, true}} {
							o := engine.DefaultOptions()
							o.Ranking, o.Pass, o.EqualClaims, o.MiaReveal, o.MiaPass, o.LowClaim = rk, pm.pass, pm.equal, reveal, mp, low
							o.MiaPenalty, o.MiaPenaltyBoth = pen.n, pen.both
							r, err := Of(o, 0, 0)
							if err != nil {
								panic(err) // every combination above is valid
							}
							out = append(out, r)
						}
					}
				}
			}
		}
	}
	return out
}

// valid reports whether r is a rule set Of could write.
func (r Rules) valid() bool {
	o := r.Options()
	if o.Validate() != nil {
		return false
	}
	for _, c := range r.Caps {
		if c < 1 || c > r.MiaPenalty {
			return false
		}
	}
	return !(r.MiaPenaltyBoth && r.MiaPenalty == 1)
}
