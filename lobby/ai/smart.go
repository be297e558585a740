package ai

import (
	"math/rand/v2"

	"github.com/mia-game/mia/engine"
)

// knobs are what tells Hard from Normal.
type knobs struct {
	// understate is the chance, when a roll beats the claim, of announcing
	// the lowest value above the claim instead of the truth (it is still
	// true, and leaves the next player an easy claim to beat).
	understate float64
	// openCap: an opener announces at most the value of this rank, 1 for
	// the lowest (12 is 63 under classic); a lower truth is announced as it
	// is. 0: the truth, whatever it is.
	openCap int
	// bluffStep is the chance of bluffing one value above the lowest legal
	// one (never up to Mia).
	bluffStep float64
	// raiseLow: when the cup comes back with dice above the claim, pass
	// at the lowest legal value instead of the dice's value.
	raiseLow bool
	// others weighs a life another player loses against one's own (divided
	// among the other living players); 0 counts only the bot's own lives.
	others float64
}

// levelKnobs gives the knobs of each level under a table's rules. Hard's
// were tuned by simulation (see TestWinRates): with the pass option on,
// low claims keep the cup from coming back with a burden that high truths
// passed around would leave, and they make the model's readers (Normal)
// take true claims for bluffs; with passing off only the bluffs vary.
var levelKnobs = map[Level]func(engine.Options) knobs{
	Normal: func(engine.Options) knobs { return knobs{others: 0.5} },
	Hard: func(o engine.Options) knobs {
		if !o.Pass {
			return knobs{bluffStep: 0.7}
		}
		return knobs{understate: 0.9, openCap: 12, raiseLow: true, bluffStep: 0.7}
	},
}

// smart plays Normal and Hard: see the package comment.
func smart(v engine.View, round []engine.Event, r *rand.Rand, kn knobs) engine.Action {
	t := oddsFor(v.Options)
	if t == nil {
		return engine.Action{Kind: engine.Roll, Look: true}
	}
	switch v.Phase {
	case engine.PhaseAnnounce:
		return announce(t, v, r, kn)
	case engine.PhaseRespond:
		return respond(t, v, readCup(t, v, round), kn)
	}
	return engine.Action{Kind: engine.Roll, Look: true}
}

// announce picks the value to claim after the seat rolled.
func announce(t *odds, v engine.View, r *rand.Rand, kn knobs) engine.Action {
	c0 := t.rank(v.Claim)
	lo := t.lowest(c0)
	d := t.rank(v.Dice)
	k := lo
	switch {
	case d == 0: // did not look: the lowest value is the likeliest true
	case c0 == 0 && kn.openCap > 0 && d > kn.openCap:
		k = kn.openCap
	case d >= lo:
		k = d
		if c0 > 0 && kn.understate > 0 && r.Float64() < kn.understate {
			k = c0 + 1 // strictly higher, or claims could stall under equal-claims
		}
	case lo+1 < top && kn.bluffStep > 0 && r.Float64() < kn.bluffStep:
		k = lo + 1
	}
	return engine.Action{Kind: engine.Claim, Value: t.value[min(k, top)]}
}

// respond answers a standing claim. With the dice unknown it weighs, in
// lives (its own, and others' times gamma):
//
//   - challenge: lose 1 if the claim is true (chance pt), else the
//     claimant loses 1;
//   - roll: with chance 1-pb the roll does not beat the claim and the seat
//     must bluff the lowest legal value, which the next player catches
//     with chance caught; a true announcement traps the next player if it
//     challenges (afterRoll);
//   - pass (when allowed at the same value): the seat answers for the
//     same dice; the next player challenges with the chance ramp gives it
//     from the same odds, and surely catches a false claim if it rolled
//     the dice itself.
//
// It takes the best, rolling on a tie.
func respond(t *odds, v engine.View, cp cup, kn knobs) engine.Action {
	c := t.rank(v.Claim)
	me := v.Seat
	alive := 0
	for _, l := range v.Lives {
		if l > 0 {
			alive++
		}
	}
	gamma := kn.others / float64(max(1, alive-1))
	pen := v.Options.MiaPenalty
	if c >= top {
		return answerMia(t, v, cp, gamma)
	}
	if cp.known > 0 { // the cup came back: the seat knows the dice
		switch {
		case cp.known < c:
			return engine.Action{Kind: engine.Challenge}
		case cp.known > c && v.Can(engine.Pass):
			k := cp.known
			if kn.raiseLow {
				k = c + 1
			}
			return engine.Action{Kind: engine.Pass, Value: t.value[k]}
		}
		return engine.Action{Kind: engine.Roll, Look: true}
	}
	next := nextSeat(v.Lives, me)
	pt := t.chanceAtLeast(cp, c)
	pb := t.beat(c)
	evChallenge := -pt + gamma*(1-pt)
	caught, trap := t.afterRoll(c, pen, v.Options.Pass)
	evRoll := -(1-pb)*caught + gamma*pb*trap
	best, act := evRoll, engine.Action{Kind: engine.Roll, Look: true}
	if evChallenge > best {
		best, act = evChallenge, engine.Action{Kind: engine.Challenge}
	}
	if v.Can(engine.Pass) && contains(v.Passes, v.Claim) {
		var evPass float64
		if next == cp.roller && cp.looked {
			// The roller knows its dice: it challenges a false claim and
			// must roll or raise on a true one.
			evPass = -(1 - pt) + gamma*pt*(1-t.beat(c))*0.5
		} else {
			after := nextSeat(v.Lives, next)
			alt := (1 - pb) * 0.5
			if after == cp.roller {
				alt = min(alt, 1-pt)
			} else {
				alt = min(alt, (1-pt)*0.5)
			}
			q := ramp(pt, alt)
			evPass = -(1-pt)*q + gamma*pt*q
		}
		if evPass > best {
			act = engine.Action{Kind: engine.Pass, Value: v.Claim}
		}
	}
	return act
}

// answerMia challenges a Mia claim or gives up, whichever costs fewer
// lives on average: challenging costs the Mia penalty if the dice are Mia
// (and the claimant the penalty or 1 life if not); giving up costs 1.
func answerMia(t *odds, v engine.View, cp cup, gamma float64) engine.Action {
	if cp.known > 0 {
		if cp.known >= top {
			return engine.Action{Kind: engine.GiveUp}
		}
		return engine.Action{Kind: engine.Challenge}
	}
	pm := t.chanceAtLeast(cp, top)
	pen := v.Options.MiaPenalty
	lose := min(pen, v.Lives[v.Seat])
	theirs := 1
	if v.Options.MiaPenaltyBoth {
		theirs = pen
	}
	if v.Claimant >= 0 && v.Claimant < len(v.Lives) {
		theirs = min(theirs, v.Lives[v.Claimant])
	}
	evChallenge := -pm*float64(lose) + gamma*(1-pm)*float64(theirs)
	if evChallenge > -1 {
		return engine.Action{Kind: engine.Challenge}
	}
	return engine.Action{Kind: engine.GiveUp}
}

// afterRoll estimates, for a seat that rolls against the claim c, the
// chance that the next player challenges its bluff (the lowest legal value)
// and the chance that it challenges its truth (and loses), averaged over
// the true rolls. The next player is taken to read the claim with the
// model and to challenge when that is cheaper than its own roll (which it
// would lose half the time it has to bluff) or pass.
func (t *odds) afterRoll(c, pen int, pass bool) (caught, trap float64) {
	lo := t.lowest(c)
	if lo > top {
		return 1, 0
	}
	q := func(k int) float64 {
		b := t.believe[c][k]
		if k >= top {
			return ramp(b*float64(pen), 1)
		}
		alt := (1 - t.beat(k)) * 0.5
		if pass {
			alt = min(alt, (1-b)*0.5)
		}
		return ramp(b, alt)
	}
	caught = q(lo)
	var w float64
	for d := lo; d <= top; d++ {
		trap += t.prior[d] * q(d)
		w += t.prior[d]
	}
	if w > 0 {
		trap /= w
	}
	return caught, trap
}

// rampWidth is how much cheaper (in lives) a challenge must be than the
// other moves for a player to challenge surely.
const rampWidth = 0.8

// ramp is the chance that a player challenges when the challenge costs it
// cost lives on average and its best other move alt: a half when equal,
// rising as the challenge gets cheaper (at least 5%, at most 95%).
func ramp(cost, alt float64) float64 {
	return max(0.05, min(0.95, 0.5+(alt-cost)/rampWidth))
}

// nextSeat is the next living seat clockwise after seat.
func nextSeat(lives []int, seat int) int {
	n := len(lives)
	for i := 1; i <= n; i++ {
		if s := (seat + i) % n; lives[s] > 0 {
			return s
		}
	}
	return seat
}
