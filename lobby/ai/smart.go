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
	// is. 0: the truth, whatever it is. Under a ranking with fewer ranks
	// (pips) the cap is the rank a fresh roll reaches as seldom as this one
	// under classic (capRank).
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

// capRank is the rank openCap stands for under t's ranking: itself when
// every value is a rank, else the lowest rank a fresh roll reaches at most
// as often as rank openCap of classic.
func (t *odds) capRank(openCap int) int {
	if openCap <= 0 || t.top == maxRanks {
		return openCap
	}
	c := oddsFor(engine.DefaultOptions())
	for k := 1; k <= t.top; k++ {
		if t.atLeast[k] <= c.atLeast[openCap]+1e-9 {
			return k
		}
	}
	return t.top
}

// miaWins reports whether announcing a true Mia costs the others at once
// or when it comes back (mia-reveal at-once, mia-pass wins): then a Mia
// is always announced as it is.
func miaWins(o engine.Options) bool {
	return o.MiaReveal == engine.MiaRevealAtOnce || o.MiaPass == engine.MiaPassWins
}

// announce picks the value to claim after the seat rolled.
func announce(t *odds, v engine.View, r *rand.Rand, kn knobs) engine.Action {
	c0 := t.rank(v.Claim)
	lo := t.lowest(c0)
	d := t.rank(v.Dice)
	k := lo
	switch {
	case d == 0: // did not look: the lowest value is the likeliest true
	case d == t.top && miaWins(v.Options):
		k = d
	case c0 == 0 && kn.openCap > 0 && d > t.capRank(kn.openCap):
		k = t.capRank(kn.openCap)
	case d >= lo:
		k = d
		if c0 > 0 && kn.understate > 0 && r.Float64() < kn.understate {
			k = c0 + 1 // strictly higher, or claims could stall under equal-claims
		}
	case lo+1 < t.top && kn.bluffStep > 0 && r.Float64() < kn.bluffStep:
		k = lo + 1
	}
	return engine.Action{Kind: engine.Claim, Value: t.value[min(k, t.top)]}
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
	gamma := kn.others / float64(max(1, living(v.Lives)-1))
	pen := v.Options.MiaPenalty
	if c >= t.top {
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
	caught, trap := t.afterRoll(c, pen, v.Options)
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

// living counts the seats with lives.
func living(lives []int) int {
	n := 0
	for _, l := range lives {
		if l > 0 {
			n++
		}
	}
	return n
}

// answerMia answers a Mia claim with the move that costs fewest lives on
// average: challenging costs the Mia penalty if the dice are Mia (and the
// claimant the penalty or 1 life if not); giving up costs 1 (the penalty
// under mia-penalty-both); passing it on (mia-pass) makes the seat answer
// for it (passMia). A Mia that came back to the seat that rolled it
// (mia-pass reroll) is rolled again, unless the seat knows it bluffed:
// then the last passer answers for the bluff.
func answerMia(t *odds, v engine.View, cp cup, gamma float64) engine.Action {
	if v.Roller == v.Seat && v.MiaComesBack && v.Can(engine.Roll) {
		if cp.known > 0 && cp.known < t.top {
			return engine.Action{Kind: engine.Challenge}
		}
		return engine.Action{Kind: engine.Roll, Look: true}
	}
	if cp.known > 0 {
		if cp.known >= t.top {
			return engine.Action{Kind: engine.GiveUp}
		}
		return engine.Action{Kind: engine.Challenge}
	}
	o := v.Options
	pm := t.chanceAtLeast(cp, t.top)
	mine := v.Lives[v.Seat]
	lose := min(o.MiaPenalty, mine)
	cost := 1 // what a life lost facing Mia costs: giving up, being caught
	if o.MiaPenaltyBoth {
		cost = o.MiaPenalty
	}
	theirs := cost
	if v.Claimant >= 0 && v.Claimant < len(v.Lives) {
		theirs = min(theirs, v.Lives[v.Claimant])
	}
	evChallenge := -pm*float64(lose) + gamma*(1-pm)*float64(theirs)
	best, act := -float64(min(cost, mine)), engine.Action{Kind: engine.GiveUp}
	if evChallenge > best {
		best, act = evChallenge, engine.Action{Kind: engine.Challenge}
	}
	if v.Can(engine.Pass) && contains(v.Passes, engine.Mia) && passMia(v, cp, pm, cost, gamma) > best {
		act = engine.Action{Kind: engine.Pass, Value: engine.Mia}
	}
	return act
}

// passMia is what passing a Mia on costs the seat on average (negative
// lives, others' losses times gamma). The seat answers for the Mia: caught
// if it is no Mia, it loses cost. The next player, knowing no more, is
// taken to challenge as often as the Mia is false; the roller of the dice
// knows them and challenges a false Mia surely. A Mia that can come back
// to its roller (mia-pass wins) costs the seat a life if everyone passes
// it on, which is certain when the next player is the roller.
func passMia(v engine.View, cp cup, pm float64, cost int, gamma float64) float64 {
	o := v.Options
	me := v.Seat
	caught := float64(min(cost, v.Lives[me]))
	next := nextSeat(v.Lives, me)
	back := v.MiaComesBack && o.MiaPass == engine.MiaPassWins
	switch {
	case next == v.Roller && back:
		return -caught + gamma*float64(living(v.Lives)-2)
	case next == v.Roller && v.MiaComesBack: // reroll: it rolls again unless it bluffed
		if !cp.looked {
			return 0
		}
		return -(1 - pm) * caught
	case next == v.Roller: // a Mia raised blind: the roller knows, and gives up on a true one
		return -(1-pm)*caught + gamma*pm
	}
	q := max(0.05, min(0.95, 1-pm))
	ev := -(1-pm)*q*caught + gamma*pm*q*float64(o.MiaPenalty)
	if back {
		k := 0 // the players after next who may pass it on before the roller
		for s := nextSeat(v.Lives, next); s != v.Roller && s != me && k < len(v.Lives); s = nextSeat(v.Lives, s) {
			k++
		}
		ev -= pow(1-q, k+1) * caught
	}
	return ev
}

// afterRoll estimates, for a seat that rolls against the claim c, the
// chance that the next player challenges its bluff (the lowest legal value)
// and the chance that it challenges its truth (and loses), averaged over
// the true rolls. The next player is taken to read the claim with the
// model and to challenge when that is cheaper than its own roll (which it
// would lose half the time it has to bluff) or pass. A Mia revealed at
// once is caught surely, or costs the others surely.
func (t *odds) afterRoll(c, pen int, o engine.Options) (caught, trap float64) {
	lo := t.lowest(c)
	if lo > t.top {
		return 1, 0
	}
	atOnce := o.MiaReveal == engine.MiaRevealAtOnce
	q := func(k int) float64 {
		b := t.believe[c][k]
		if k >= t.top {
			if atOnce {
				return 1
			}
			return ramp(b*float64(pen), 1)
		}
		alt := (1 - t.beat(k)) * 0.5
		if o.Pass {
			alt = min(alt, (1-b)*0.5)
		}
		return ramp(b, alt)
	}
	caught = q(lo)
	var w float64
	for d := lo; d <= t.top; d++ {
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
