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
		{"a bluff downwards", []Event{round, rolled(0, 21, true), claimed(0, 65)}, Bluffed},
		{"a claim unseen", []Event{round, rolled(0, 21, false), claimed(0, 65)}, Unseen},
		{"a claim on hidden dice", []Event{round, rolled(0, NoValue, true), claimed(0, 65)}, Unjudged},
		{"a claim unseen on hidden dice", []Event{round, rolled(0, NoValue, false), claimed(0, 65)}, Unjudged},
		{"a roll of the round before", []Event{rolled(0, 43, true), round, claimed(0, 52)}, Unjudged},
		{"a pass at the cup's value", []Event{round, rolled(0, 52, true), claimed(0, 52), passed(1, 52)}, Truthful},
		{"a pass under the cup", []Event{round, rolled(0, 66, true), claimed(0, 52), passed(1, 52)}, Truthful},
		{"a pass over the cup", []Event{round, rolled(0, 43, true), claimed(0, 52), passed(1, 52)}, Bluffed},
		{"a blind raise over the cup", []Event{round, rolled(0, 52, true), claimed(0, 52), passed(1, 61)}, Bluffed},
		{"a pass on hidden dice", []Event{round, rolled(0, NoValue, false), claimed(0, 52), passed(1, 52)}, Unjudged},
		{"a claimant caught", []Event{round, rolled(0, 43, true), claimed(0, 52), challenged(1, 0, 0)}, Caught},
		{"a passer caught", []Event{round, rolled(0, 43, true), claimed(0, 52), passed(1, 52), challenged(2, 1, 1)}, Caught},
		{"a claim that stood", []Event{round, rolled(0, 52, true), claimed(0, 52), challenged(1, 0, 1)}, Stood},
		{"a roll", []Event{round, rolled(0, 52, true)}, Unjudged},
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

// TestPassVerdictFollowsTheRanking: whether a pass over the cup is a bluff
// depends on the table's ranking (11 beats 65 in classic, not in numeric).
func TestPassVerdictFollowsTheRanking(t *testing.T) {
	roll := Event{Type: EvRoll, Seat: 0, Dice: 65, Looked: true}
	pass := Event{Type: EvPass, Seat: 1, Value: 11}
	if got := PassVerdict(Classic, roll, true, pass); got != Bluffed {
		t.Errorf("classic: 11 passed over 65 is %d, want Bluffed", got)
	}
	if got := PassVerdict(Numeric, roll, true, pass); got != Truthful {
		t.Errorf("numeric: 11 passed over 65 is %d, want Truthful", got)
	}
}
