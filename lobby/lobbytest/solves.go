package lobbytest

import (
	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// Unsolved is up to n of 40 rule sets (a table's options, one life, no
// passing, a Mia penalty of 1) that the solver solves in a tenth of a
// second (seconds under -race) and has not solved yet (solver.Ready):
// the solver's budget counts new solves only, and the solver keeps what
// earlier tests, and earlier runs of the same test (-count), solved.
// Fewer than n when no more are.
func Unsolved(n int) []engine.Options {
	var out []engine.Options
	for _, rk := range engine.Rankings { // more than the solver keeps (solver.Cached)
		for i := range 8 {
			o := engine.DefaultOptions()
			o.Pass, o.MiaPenalty, o.Lives, o.Ranking = false, 1, 1, rk
			o.LowClaim = []engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses}[i%2]
			o.MiaReveal = []engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce}[i/2%2]
			o.EqualClaims = i/4 == 1
			if r, err := solver.Of(o, 0, 0); err == nil && !solver.Ready(r) {
				out = append(out, o)
			}
			if len(out) == n {
				return out
			}
		}
	}
	return out
}
