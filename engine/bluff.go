package engine

// Verdict is what the dice say of a claim, a pass or a challenge once the
// cup is lifted. It is the one bluff rule: the statistics count by it
// (Announces says which moves are their claims) and the replays, the
// lifted cup and the web's game page mark by it.
type Verdict uint8

// The verdicts.
const (
	// Unjudged: nothing to judge (no roll before it in the round, or its
	// dice are hidden from the viewer).
	Unjudged Verdict = iota
	// Truthful: a claim of the dice its player saw, or a pass of no more
	// than the cup holds.
	Truthful
	// Unseen: a claim after a roll its player did not look at. It is no
	// bluff: the player did not know.
	Unseen
	// Bluffed: a claim above the dice its player rolled and looked at (a
	// raise by the roller the cup came back to included): a lie a
	// challenge catches.
	Bluffed
	// Caught: a challenge its claimant lost — the claimant was caught
	// bluffing. A passer answers for the claim they passed (RULES.md
	// "pass"), so a passer can be caught though their pass is no claim.
	Caught
	// Stood: a challenge of a claim that stood; the challenger lost.
	Stood
	// Understated: a claim below the dice its player rolled and looked
	// at. It is a lie, but no bluff: no challenge can catch it (the dice
	// beat the claim), so it only costs its player the better dice.
	Understated
	// Short: a pass, or a blind raise, of a value above the dice in the
	// cup by a player who never saw them. It is no bluff (they did not
	// know), but the dice were below the claim they now answer for, and a
	// challenge catches it.
	Short
)

// LastRoll is the round's last roll in evs (walking back from the end to
// the round's start), and whether there is one.
func LastRoll(evs []Event) (Event, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		switch evs[i].Type {
		case EvRoll:
			return evs[i], true
		case EvRound:
			return Event{}, false
		}
	}
	return Event{}, false
}

// ClaimVerdict judges a claim event (or a low claim, which is judged the
// same way), under ranking r, given the round's last roll before it (ok
// false: none): a claim of a rank above the dice is a bluff, one below
// them understated (under pips, 54 claimed as 9 pips, written 63, is the
// truth). Dice hidden from the viewer are Unjudged; the store sees every
// die.
func ClaimVerdict(r Ranking, roll Event, ok bool, claim Event) Verdict {
	switch {
	case !ok || roll.Seat != claim.Seat || roll.Dice == NoValue:
		return Unjudged
	case !roll.Looked:
		return Unseen
	case r.Compare(roll.Dice, claim.Value) < 0:
		return Bluffed
	case r.Compare(roll.Dice, claim.Value) > 0:
		return Understated
	}
	return Truthful
}

// PassVerdict judges a pass event (a blind raise too), under ranking r,
// given the round's last roll before it (ok false: none). A pass by the
// roller of the dice in the cup (the raise RULES.md "pass" leaves them
// when the cup comes back) is their claim of dice they threw, judged as
// ClaimVerdict judges one. Anyone else never saw the dice: a value above
// them is Short, never a bluff.
func PassVerdict(r Ranking, roll Event, ok bool, pass Event) Verdict {
	switch {
	case !ok || roll.Dice == NoValue:
		return Unjudged
	case roll.Seat == pass.Seat:
		return ClaimVerdict(r, roll, ok, pass)
	case r.Compare(roll.Dice, pass.Value) < 0:
		return Short
	}
	return Truthful
}

// Announces reports whether e is an announcement of dice its player
// threw, which the statistics count as a claim (and judge as
// ClaimVerdict does): a claim, a low claim, or a pass by the roller of the
// dice in the cup. roll is the round's last roll before e (ok false:
// none).
func Announces(roll Event, ok bool, e Event) bool {
	switch e.Type {
	case EvClaim, EvLowClaim:
		return true
	case EvPass:
		return ok && roll.Seat == e.Seat
	}
	return false
}

// ChallengeVerdict judges a challenge event: Caught when the claimant lost,
// Stood otherwise; Unjudged for a challenge of nothing (low-claim loses).
func ChallengeVerdict(c Event) Verdict {
	switch {
	case c.Claimant < 0:
		return Unjudged
	case c.Loser == c.Claimant && c.Claimant != c.Seat:
		return Caught
	}
	return Stood
}

// RevealVerdict judges a reveal event (mia-reveal at-once) as a challenge
// is judged: Caught when the Mia was not there, Stood when it was.
func RevealVerdict(e Event) Verdict {
	if e.Dice != Mia {
		return Caught
	}
	return Stood
}

// Judge is the verdict on evs[i] under ranking r, from the events before
// it; Unjudged for anything but a claim (or low claim), a pass, a
// challenge or a reveal.
func Judge(r Ranking, evs []Event, i int) Verdict {
	switch evs[i].Type {
	case EvClaim, EvLowClaim, EvPass:
		roll, ok := LastRoll(evs[:i])
		return JudgeAfter(r, roll, ok, evs[i])
	}
	return JudgeAfter(r, Event{}, false, evs[i])
}

// JudgeAfter is the verdict on e under ranking r given the round's last
// roll before it (ok false: none), as Judge gives it: for those who keep
// the last roll as they go (the store's tallies).
func JudgeAfter(r Ranking, roll Event, ok bool, e Event) Verdict {
	switch e.Type {
	case EvClaim, EvLowClaim:
		return ClaimVerdict(r, roll, ok, e)
	case EvReveal:
		return RevealVerdict(e)
	case EvPass:
		return PassVerdict(r, roll, ok, e)
	case EvChallenge:
		return ChallengeVerdict(e)
	}
	return Unjudged
}
