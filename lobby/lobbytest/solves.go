package lobbytest

import (
	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// Unsolved is up to n of 16 rule sets (a table's options, one life) that
// the solver solves in a tenth of a second (seconds under -race) and
// has not solved yet (solver.Ready): the solver's budget counts new
// solves only, and the solver keeps what earlier tests, and earlier runs
// of the same test (-count), solved. Fewer than n when no more are.
func Unsolved(n int) []engine.Options {
	var out []engine.Options
	for i := range 16 { // more than the solver keeps (solver.Cached)
		o := engine.DefaultOptions()
		o.Pass, o.MiaPenalty, o.Lives = false, 1, 1
		o.Ranking = []engine.Ranking{engine.Classic, engine.Pips, engine.LittleMia, engine.AscendingDoubles}[i%4]
		o.LowClaim = []engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses}[i/4%2]
		o.MiaReveal = []engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce}[i/8]
		if r, err := solver.Of(o, 0, 0); err == nil && !solver.Ready(r) {
			out = append(out, o)
		}
		if len(out) == n {
			break
		}
	}
	return out
}
