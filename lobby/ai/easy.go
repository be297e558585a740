package ai

import (
	"math/rand/v2"

	"github.com/mia-game/mia/engine"
)

// easyDoubt is the chance that a fresh roll beats a claim below which Easy
// believes it: claims harder to beat than this are challenged half the time.
const easyDoubt = 1.0 / 3

// easy plays the naive level: roll and look, the truth when it beats the
// claim and otherwise the lowest legal value, a coin flip against claims
// that are hard to beat (and against Mia), never a pass; its own Mia come
// back (mia-pass reroll) it rolls again.
func easy(v engine.View, r *rand.Rand) engine.Action {
	switch v.Phase {
	case engine.PhaseAnnounce:
		if d := v.Options.Ranking.Canonical(v.Dice); d != engine.NoValue && contains(v.Claims, d) {
			return engine.Action{Kind: engine.Claim, Value: d} // under pips, 54 is claimed as 9 pips (63)
		}
		return engine.Action{Kind: engine.Claim, Value: first(v.Claims)}
	case engine.PhaseRespond:
		if v.Claim == engine.Mia && v.MiaComesBack && v.Roller == v.Seat && v.Can(engine.Roll) {
			return engine.Action{Kind: engine.Roll, Look: true} // its own Mia came back: roll again
		}
		if v.Claim == engine.Mia {
			if r.IntN(2) == 0 {
				return engine.Action{Kind: engine.Challenge}
			}
			return engine.Action{Kind: engine.GiveUp}
		}
		if float64(v.Options.Ranking.ChanceToBeat(v.Claim))/36 < easyDoubt && r.IntN(2) == 0 {
			return engine.Action{Kind: engine.Challenge}
		}
	}
	return engine.Action{Kind: engine.Roll, Look: true}
}
