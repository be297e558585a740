package engine

import "testing"

// TestJudge judges every kind of claim, pass and challenge by the one bluff
// rule, from rounds written out as events.
func TestJudge(t *testing.T) {
	round := Event{Type: EvRound, Round: 1, Opener: 0}
	rolled := func(seat int, dice Value, looked bool) Event {
		return Event{Type: EvRoll, Seat: seat, Dice: dice, Looked: looked}
	}
	claimed := func(seat int, v Value) Event { return Event{Type: EvClaim, Seat: seat, Value: v} }
	passed := func(seat int, v Value) Event { return Event{Type: EvPass, Seat: seat, Value: v} }
	lowClaimed := func(seat int, v, c Value) Event {
		return Event{Type: EvLowClaim, Seat: seat, Value: v, Claim: c, Loser: seat, LivesLost: 1}
	}
	challenged := func(seat, claimant, loser int) Event {
		return Event{Type: EvChallenge, Seat: seat, Claimant: claimant, Loser: loser, Claim: 52, Dice: 43, LivesLost: 1}
	}
	cases := []struct {
		name string
		evs  []Event // the last one is judged
		want Verdict
	}{
		{"the truth", []Event{round, rolled(0, 43, true), claimed(0, 43)}, Truthful},
		{"a bluff upwards", []Event{round, rolled(0, 43, true), claimed(0, 52)}, Bluffed},
		{"a claim below the dice", []Event{round, rolled(0, 21, true), claimed(0, 65)}, Understated},
		{"a claim unseen", []Event{round, rolled(0, 21, false), claimed(0, 65)}, Unseen},
		{"a claim on hidden dice", []Event{round, rolled(0, NoValue, true), claimed(0, 65)}, Unjudged},
		{"a claim unseen on hidden dice", []Event{round, rolled(0, NoValue, false), claimed(0, 65)}, Unjudged},
		{"a roll of the round before", []Event{rolled(0, 43, true), round, claimed(0, 52)}, Unjudged},
		{"a pass at the cup's value", []Event{round, rolled(0, 52, true), claimed(0, 52), passed(1, 52)}, Truthful},
		{"a pass under the cup", []Event{round, rolled(0, 66, true), claimed(0, 52), passed(1, 52)}, Truthful},
		{"a pass over the cup: no bluff, the passer never saw it", []Event{round, rolled(0, 43, true), claimed(0, 52), passed(1, 52)}, Short},
		{"a blind raise over the cup", []Event{round, rolled(0, 52, true), claimed(0, 52), passed(1, 61)}, Short},
		{"a blind raise under the cup", []Event{round, rolled(0, 66, true), claimed(0, 52), passed(1, 61)}, Truthful},
		{"the roller raises over the dice they saw", []Event{round, rolled(0, 43, true), claimed(0, 43), passed(1, 43), passed(0, 52)}, Bluffed},
		{"the roller raises to the dice they saw", []Event{round, rolled(0, 52, true), claimed(0, 43), passed(1, 43), passed(0, 52)}, Truthful},
		{"the roller raises under the dice they saw", []Event{round, rolled(0, 65, true), claimed(0, 43), passed(1, 43), passed(0, 52)}, Understated},
		{"the roller raises over dice they never saw", []Event{round, rolled(0, 43, false), claimed(0, 43), passed(1, 43), passed(0, 52)}, Unseen},
		{"a pass on hidden dice", []Event{round, rolled(0, NoValue, false), claimed(0, 52), passed(1, 52)}, Unjudged},
		{"a claimant caught", []Event{round, rolled(0, 43, true), claimed(0, 52), challenged(1, 0, 0)}, Caught},
		{"a passer caught", []Event{round, rolled(0, 43, true), claimed(0, 52), passed(1, 52), challenged(2, 1, 1)}, Caught},
		{"a claim that stood", []Event{round, rolled(0, 52, true), claimed(0, 52), challenged(1, 0, 1)}, Stood},
		{"a roll", []Event{round, rolled(0, 52, true)}, Unjudged},
		{"a low claim of the dice", []Event{round, rolled(0, 43, true), claimed(0, 52), rolled(1, 43, true), lowClaimed(1, 43, 52)}, Truthful},
		{"a low claim below the dice", []Event{round, rolled(0, 43, true), claimed(0, 52), rolled(1, 21, true), lowClaimed(1, 43, 52)}, Understated},
		{"a low claim bluffed", []Event{round, rolled(0, 43, true), claimed(0, 52), rolled(1, 32, true), lowClaimed(1, 43, 52)}, Bluffed},
		{"a low claim unseen", []Event{round, rolled(0, 43, true), claimed(0, 52), rolled(1, 21, false), lowClaimed(1, 43, 52)}, Unseen},
		{"a challenge of nothing", []Event{round, {Type: EvChallenge, Seat: 0, Claimant: -1, Loser: 0, LivesLost: 1}}, Unjudged},
		{"a false Mia revealed", []Event{round, rolled(0, 43, true), claimed(0, Mia), {Type: EvReveal, Seat: 0, Claim: Mia, Dice: 43}}, Caught},
		{"a true Mia revealed", []Event{round, rolled(0, Mia, true), claimed(0, Mia), {Type: EvReveal, Seat: 0, Claim: Mia, Dice: Mia}}, Stood},
		{"a Mia come back", []Event{round, rolled(0, Mia, true), claimed(0, Mia), passed(1, Mia), {Type: EvMiaBack, Seat: 0}}, Unjudged},
		{"a roll again after a Mia came back", []Event{round, rolled(0, 43, true), claimed(0, Mia), passed(1, Mia), rolled(0, 52, true), claimed(0, 52)}, Truthful},
		{"a round", []Event{round}, Unjudged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Judge(Classic, c.evs, len(c.evs)-1); got != c.want {
				t.Errorf("Judge = %d, want %d", got, c.want)
			}
		})
	}
}

// TestVerdictsFollowTheRanking: whether a pass is over the cup depends on the table's ranking (11 beats 65 in classic, not in numeric),
// and so does a claim: under pips it names a rank, so dice of the same sum
// are the truth (54 claimed as 9 pips, written 63).
func TestVerdictsFollowTheRanking(t *testing.T) {
	rolled := func(d Value) Event { return Event{Type: EvRoll, Seat: 0, Dice: d, Looked: true} }
	pass := Event{Type: EvPass, Seat: 1, Value: 11}
	claim := Event{Type: EvClaim, Seat: 0, Value: 63}
	cases := []struct {
		name string
		got  Verdict
		want Verdict
	}{
		{"classic: 11 passed over 65", PassVerdict(Classic, rolled(65), true, pass), Short},
		{"numeric: 11 passed over 65", PassVerdict(Numeric, rolled(65), true, pass), Truthful},
		{"pips: 54 claimed as 63", ClaimVerdict(Pips, rolled(54), true, claim), Truthful},
		{"classic: 54 claimed as 63", ClaimVerdict(Classic, rolled(54), true, claim), Bluffed},
		{"pips: 53 (8 pips) claimed as 9 pips", ClaimVerdict(Pips, rolled(53), true, claim), Bluffed},
		{"pips: 65 (11 pips) claimed as 7 pips", ClaimVerdict(Pips, rolled(65), true, Event{Type: EvClaim, Seat: 0, Value: 61}), Understated},
		{"classic: 65 claimed as 63", ClaimVerdict(Classic, rolled(65), true, claim), Understated},
		{"numeric: 11 claimed as 63", ClaimVerdict(Numeric, rolled(11), true, claim), Bluffed},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestAnnounces: the moves the statistics count as claims are the
// announcements of dice their player threw: claims, low claims, and the
// roller's own raise when the cup comes back; never another's pass.
func TestAnnounces(t *testing.T) {
	roll := Event{Type: EvRoll, Seat: 0, Dice: 43, Looked: true}
	cases := []struct {
		name string
		e    Event
		ok   bool
		want bool
	}{
		{"a claim", Event{Type: EvClaim, Seat: 0, Value: 52}, true, true},
		{"a low claim", Event{Type: EvLowClaim, Seat: 0, Value: 31}, true, true},
		{"the roller's raise", Event{Type: EvPass, Seat: 0, Value: 52}, true, true},
		{"another's pass", Event{Type: EvPass, Seat: 1, Value: 52}, true, false},
		{"a pass with no roll", Event{Type: EvPass, Seat: 0, Value: 52}, false, false},
		{"a challenge", Event{Type: EvChallenge, Seat: 0}, true, false},
	}
	for _, c := range cases {
		if got := Announces(roll, c.ok, c.e); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
