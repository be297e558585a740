package words

import (
	"slices"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestNarratorOptions tells the events of the rule options (a Mia shown at
// once, a low claim, a challenge of nothing, a Mia come back, several
// players losing at once) and names pips claims by their rank, in a replay,
// from a seat and watched with the dice hidden.
func TestNarratorOptions(t *testing.T) {
	names := []string{"alice", "bob", "carol"}
	type line struct{ replay, bob, verdict string }
	cases := []struct {
		name    string
		ranking engine.Ranking
		evs     []engine.Event
		want    map[int]line
	}{
		{"a true Mia shown at once", engine.Classic, []engine.Event{
			{Type: engine.EvRound, Round: 1, Opener: 0},
			{Type: engine.EvRoll, Seat: 0, Dice: engine.Mia, Looked: true},
			{Type: engine.EvClaim, Seat: 0, Value: engine.Mia},
			{Type: engine.EvReveal, Seat: 0, Claim: engine.Mia, Dice: engine.Mia,
				Losses: []engine.Loss{{Seat: 1, LivesLost: 1}, {Seat: 2, LivesLost: 1}}},
		}, map[int]line{
			2: {"alice announced Mia", "alice announced Mia", "true: Mia claimed, Mia in the cup"},
			3: {"alice's Mia is shown at once: Mia, bob and carol lose a life",
				"alice's Mia is shown at once: Mia, you and carol lose a life",
				"the Mia stood: Mia in the cup, bob and carol lose a life"},
		}},
		{"a false Mia shown at once", engine.Classic, []engine.Event{
			{Type: engine.EvRound, Round: 1, Opener: 1},
			{Type: engine.EvRoll, Seat: 1, Dice: 54, Looked: true},
			{Type: engine.EvClaim, Seat: 1, Value: engine.Mia},
			{Type: engine.EvReveal, Seat: 1, Claim: engine.Mia, Dice: 54, Losses: []engine.Loss{{Seat: 1, LivesLost: 2}}},
		}, map[int]line{
			3: {"bob's Mia is shown at once: 54, bob loses 2 lives", "your Mia is shown at once: 54, you lose 2 lives",
				"caught: 54 under bob's Mia, bob loses 2 lives"},
		}},
		{"a low claim and a challenge of nothing", engine.Classic, []engine.Event{
			{Type: engine.EvRound, Round: 1, Opener: 0},
			{Type: engine.EvRoll, Seat: 0, Dice: 54, Looked: true},
			{Type: engine.EvClaim, Seat: 0, Value: 54},
			{Type: engine.EvRoll, Seat: 1, Dice: 31, Looked: true},
			{Type: engine.EvLowClaim, Seat: 1, Value: 43, Claim: 54, Loser: 1, LivesLost: 1},
			{Type: engine.EvRound, Round: 2, Opener: 2},
			{Type: engine.EvChallenge, Seat: 2, Claimant: -1, Claim: engine.NoValue, Dice: engine.NoValue, Loser: 2, LivesLost: 1},
		}, map[int]line{
			2: {"alice announced 54 to bob", "alice announced 54 to you", "true: 54 claimed, 54 in the cup"},
			4: {"bob announced 43, not above 54, and loses a life", "you announced 43, not above 54, and lose a life",
				"bluff: 43 claimed, 31 in the cup"},
			6: {"carol challenged before anything was claimed and loses a life",
				"carol challenged before anything was claimed and loses a life", ""},
		}},
		{"pips, and a Mia come back (mia-pass wins)", engine.Pips, []engine.Event{
			{Type: engine.EvRound, Round: 1, Opener: 0},
			{Type: engine.EvRoll, Seat: 0, Dice: engine.Mia, Looked: true},
			{Type: engine.EvClaim, Seat: 0, Value: engine.Mia},
			{Type: engine.EvPass, Seat: 1, Value: engine.Mia},
			{Type: engine.EvPass, Seat: 2, Value: engine.Mia},
			{Type: engine.EvMiaBack, Seat: 0, Losses: []engine.Loss{{Seat: 1, LivesLost: 1}, {Seat: 2, LivesLost: 2}}},
			{Type: engine.EvRound, Round: 2, Opener: 0},
			{Type: engine.EvRoll, Seat: 0, Dice: 54, Looked: true},
			{Type: engine.EvClaim, Seat: 0, Value: 63},
			{Type: engine.EvRoll, Seat: 1, Dice: 62, Looked: true},
			{Type: engine.EvClaim, Seat: 1, Value: 64},
			{Type: engine.EvChallenge, Seat: 2, Claimant: 1, Claim: 64, Dice: 62, Loser: 1, LivesLost: 1},
		}, map[int]line{
			4: {"carol passed Mia to alice", "carol passed Mia to alice", "true: Mia passed on, Mia in the cup"},
			5: {"alice's Mia came back round: bob loses a life and carol loses 2 lives",
				"alice's Mia came back round: you lose a life and carol loses 2 lives", ""},
			7: {"alice rolled 54 (9 pips)", "alice rolled 54 (9 pips)", ""},
			8: {"alice announced 9 pips to bob", "alice announced 9 pips to you", "true: 9 pips claimed, 54 (9 pips) in the cup"},
			10: {"bob announced 10 pips to carol", "you announced 10 pips to carol",
				"bluff: 10 pips claimed, 62 (8 pips) in the cup"},
			11: {"carol called bob a liar: 62 (8 pips), bob loses a life", "carol called you a liar: 62 (8 pips), you lose a life",
				"caught: 62 (8 pips) under bob's 10 pips, bob loses a life"},
		}},
		{"a Mia come back and rolled again (mia-pass reroll)", engine.Classic, []engine.Event{
			{Type: engine.EvRound, Round: 1, Opener: 1},
			{Type: engine.EvRoll, Seat: 1, Dice: 32, Looked: true},
			{Type: engine.EvClaim, Seat: 1, Value: engine.Mia},
			{Type: engine.EvPass, Seat: 2, Value: engine.Mia},
			{Type: engine.EvPass, Seat: 0, Value: engine.Mia},
			{Type: engine.EvRoll, Seat: 1, Dice: 65, Looked: true},
		}, map[int]line{
			4: {"alice passed Mia to bob", "alice passed Mia to you", "the dice were below the claim: Mia passed on, 32 in the cup"},
			5: {"bob's Mia came back round: bob rolled again 65", "your Mia came back round: you rolled again 65", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			replay := Narrator{Names: names, You: -1, Ranking: c.ranking, Turn: -1}
			bob := Narrator{Names: names, You: 1, Ranking: c.ranking, Turn: -1}
			for i, w := range c.want {
				if got := replay.Line(c.evs, i); got != w.replay {
					t.Errorf("event %d in a replay: %q, want %q", i, got, w.replay)
				}
				if got := bob.Line(c.evs, i); got != w.bob {
					t.Errorf("event %d from bob's seat: %q, want %q", i, got, w.bob)
				}
				if _, got := replay.Verdict(c.evs, i); got != w.verdict {
					t.Errorf("event %d verdict: %q, want %q", i, got, w.verdict)
				}
			}
			for i := range c.evs {
				if replay.Line(c.evs, i) == "" {
					t.Errorf("event %d (%s) is not told", i, c.evs[i].Type)
				}
			}
		})
	}
}

// TestLiftedNamesTheClaimAsTheLogDoes: the lifted cup names the claim it
// judges by the table's ranking, as the log does ("7 pips", not "61"),
// and tells the end of the round in the replay's words, the verdict's
// mark included.
func TestLiftedNamesTheClaimAsTheLogDoes(t *testing.T) {
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Dice: 65, Looked: true},
		{Type: engine.EvClaim, Seat: 0, Value: 61},
		{Type: engine.EvPass, Seat: 1, Value: 61},
		{Type: engine.EvChallenge, Seat: 2, Claimant: 1, Claim: 61, Dice: 65, Loser: 2, LivesLost: 1},
	}
	cases := []struct {
		ranking engine.Ranking
		you     int
		claim   string
		words   []string
	}{
		{engine.Pips, -1, "alice announced 7 pips", []string{"the claim: 7 pips by bert [bot]",
			"carol called bert [bot] a liar: 65 (11 pips), carol loses a life — the claim stood"}},
		{engine.Pips, 2, "alice announced 7 pips", []string{"the claim: 7 pips by bert [bot]",
			"you called bert [bot] a liar: 65 (11 pips), you lose a life — the claim stood"}},
		{engine.Classic, -1, "alice announced 61", []string{"the claim: 61 by bert [bot]",
			"carol called bert [bot] a liar: 65, carol loses a life — the claim stood"}},
	}
	for _, c := range cases {
		n := Narrator{Names: []string{"alice", Label("bert", true), "carol"}, You: c.you, Ranking: c.ranking, Turn: -1}
		if got := n.Told(evs, 2); !strings.HasPrefix(got, c.claim) || !strings.HasSuffix(got, " — understated") {
			t.Errorf("%s: the claim told %q, want %q… — understated", c.ranking, got, c.claim)
		}
		heading, dice, words, ok := n.Lifted(evs, 4)
		if !ok || heading != "The cup is lifted" || dice != 65 || !slices.Equal(words, c.words) {
			t.Errorf("%s from seat %d: lifted %q %v %q, want %q", c.ranking, c.you, heading, dice, words, c.words)
		}
		if words[len(words)-1] != n.Told(evs, 4) {
			t.Errorf("the cup's verdict %q differs from the replay's %q", words[len(words)-1], n.Told(evs, 4))
		}
	}
	if _, v := (Narrator{Names: []string{"a", "b", "c"}, You: -1, Ranking: engine.Pips}).Verdict(evs, 2); v != "understated: 7 pips claimed, 65 (11 pips) in the cup" {
		t.Errorf("verdict %q", v)
	}
}

// TestClaimWords names the claim on the table as every door shows it:
// nothing claimed, a claim under each ranking as it names it, a double
// under pips in words, Mia, a bot's claim marked and the viewer's told as
// "you"; and the winner a replay ends with.
func TestClaimWords(t *testing.T) {
	n := Narrator{Names: []string{"alice", Label("bob", true), "carol"}, You: 2, Turn: -1}
	pips := n
	pips.Ranking = engine.Pips
	cases := []struct {
		name     string
		nar      Narrator
		claim    engine.Value
		claimant int
		want     ClaimWords
		line     string
	}{
		{"nothing claimed", n, engine.NoValue, -1, ClaimWords{Lead: "No claim yet"}, "No claim yet"},
		{"no claimant", n, 65, -1, ClaimWords{Lead: "No claim yet"}, "No claim yet"},
		{"classic", n, 65, 0, ClaimWords{"Claim: ", "65", " by alice"}, "Claim: 65 by alice"},
		{"unset ranking is classic", Narrator{Names: []string{"alice"}, You: -1}, 31, 0,
			ClaimWords{"Claim: ", "31", " by alice"}, "Claim: 31 by alice"},
		{"a double, classic", n, 11, 0, ClaimWords{"Claim: ", "11", " by alice"}, "Claim: 11 by alice"},
		{"pips", pips, 63, 0, ClaimWords{"Claim: ", "9 pips", " by alice"}, "Claim: 9 pips by alice"},
		{"a double, pips", pips, 11, 0, ClaimWords{"Claim: ", "double 1s", " by alice"}, "Claim: double 1s by alice"},
		{"Mia", n, engine.Mia, 0, ClaimWords{"", "Mia!", " by alice"}, "Mia! by alice"},
		{"Mia under pips", pips, engine.Mia, 0, ClaimWords{"", "Mia!", " by alice"}, "Mia! by alice"},
		{"a bot's claim", n, 54, 1, ClaimWords{"Claim: ", "54", " by bob [bot]"}, "Claim: 54 by bob [bot]"},
		{"the viewer's claim", n, 54, 2, ClaimWords{"Claim: ", "54", " by you"}, "Claim: 54 by you"},
		{"the viewer's Mia", n, engine.Mia, 2, ClaimWords{"", "Mia!", " by you"}, "Mia! by you"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.nar.ClaimWords(c.claim, c.claimant)
			if got != c.want {
				t.Errorf("ClaimWords(%v, %d) = %#v, want %#v", c.claim, c.claimant, got, c.want)
			}
			if got.String() != c.line {
				t.Errorf("ClaimWords(%v, %d).String() = %q, want %q", c.claim, c.claimant, got.String(), c.line)
			}
		})
	}
	replay := ReplayNarrator([]ReplaySeat{{Name: "alice"}, {Name: "bob", Bot: true}}, engine.Classic)
	for seat, want := range []string{"alice won the game", "bob [bot] won the game"} {
		if got := replay.Won(seat); got != want {
			t.Errorf("Won(%d) = %q, want %q", seat, got, want)
		}
	}
}

func TestCupWords(t *testing.T) {
	n := Narrator{Names: []string{"alice", Label("bob", true)}, You: 0, Turn: -1}
	pips := n
	pips.Ranking = engine.Pips
	for _, c := range []struct {
		name   string
		nar    Narrator
		cup    engine.Value
		roller int
		looked bool
		want   string
	}{
		{"no roll yet", n, engine.NoValue, -1, false, "The cup is empty"},
		{"classic, seen", n, 63, 1, true, "In the cup: 63 (bob [bot]'s roll, seen)"},
		{"pips, unseen", pips, 63, 1, false, "In the cup: 63 (9 pips) (bob [bot]'s roll, unseen)"},
		{"a double under pips", pips, 11, 1, true, "In the cup: 11 (double 1s) (bob [bot]'s roll, seen)"},
		{"the viewer's roll", n, engine.Mia, 0, true, "In the cup: Mia (your roll, seen)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.nar.CupWords(c.cup, c.roller, c.looked).String(); got != c.want {
				t.Errorf("CupWords(%v, %d, %t) = %q, want %q", c.cup, c.roller, c.looked, got, c.want)
			}
		})
	}
}

// TestNarrator tells one round of events from a seat, from a spectator
// (dice hidden as a redacted log hides them) and in a replay (every die).
func TestNarrator(t *testing.T) {
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Dice: 43, Looked: true},
		{Type: engine.EvClaim, Seat: 0, Value: 52},
		{Type: engine.EvPass, Seat: 1, Value: 52},
		{Type: engine.EvChallenge, Seat: 2, Claimant: 1, Claim: 52, Dice: 43, Loser: 1, LivesLost: 1},
		{Type: engine.EvRound, Round: 2, Opener: 1},
		{Type: engine.EvRoll, Seat: 1, Dice: 65, Looked: false},
		{Type: engine.EvClaim, Seat: 1, Value: 21},
		{Type: engine.EvGiveUp, Seat: 2, LivesLost: 2},
		{Type: engine.EvOut, Seat: 2},
		{Type: engine.EvTimeout, Seat: 0, LivesLost: 1},
		{Type: engine.EvLeave, Seat: 1, LivesLost: 3},
		{Type: engine.EvEnd, Winner: 0},
	}
	hidden := make([]engine.Event, len(evs))
	for i, e := range evs {
		hidden[i] = e.Redacted(-1)
	}
	names := []string{"alice", "bob", "carol"}
	replay := Narrator{Names: names, You: -1, Ranking: engine.Classic, Turn: -1}
	bob := Narrator{Names: names, You: 1, Ranking: engine.Classic, Turn: -1}
	cases := []struct {
		i                     int
		replay, bob, watching string
		verdict               string
	}{
		{0, "— round 1: alice opens —", "— round 1: alice opens —", "— round 1: alice opens —", ""},
		{1, "alice rolled 43", "alice rolled 43", "alice rolled", ""},
		{2, "alice announced 52 to bob", "alice announced 52 to you", "alice announced 52 to bob", "bluff: 52 claimed, 43 in the cup"},
		{3, "bob passed 52 to carol", "you passed 52 to carol", "bob passed 52 to carol", "the dice were below the claim: 52 passed on, 43 in the cup"},
		{4, "carol called bob a liar: 43, bob loses a life", "carol called you a liar: 43, you lose a life",
			"carol called bob a liar: 43, bob loses a life", "caught: 43 under bob's 52, bob loses a life"},
		{5, "— round 2: bob opens —", "— round 2: you open —", "— round 2: bob opens —", ""},
		{6, "bob rolled 65 without looking", "you rolled 65 without looking", "bob rolled without looking", ""},
		{7, "bob announced Mia to carol", "you announced Mia to carol", "bob announced Mia to carol", "blind: Mia claimed unseen, 65 in the cup"},
		{8, "carol gave up against Mia and loses 2 lives", "carol gave up against Mia and loses 2 lives", "carol gave up against Mia and loses 2 lives", ""},
		{9, "carol is out", "carol is out", "carol is out", ""},
		{10, "alice ran out of time and loses a life", "alice ran out of time and loses a life", "alice ran out of time and loses a life", ""},
		{11, "bob left the game and loses 3 lives", "you left the game and lose 3 lives", "bob left the game and loses 3 lives", ""},
		{12, "alice wins the game", "alice wins the game", "alice wins the game", ""},
	}
	for _, c := range cases {
		if got := replay.Line(evs, c.i); got != c.replay {
			t.Errorf("event %d in a replay: %q, want %q", c.i, got, c.replay)
		}
		if got := bob.Line(evs, c.i); got != c.bob {
			t.Errorf("event %d from bob's seat: %q, want %q", c.i, got, c.bob)
		}
		if got := replay.Line(hidden, c.i); got != c.watching {
			t.Errorf("event %d watched: %q, want %q", c.i, got, c.watching)
		}
		if _, got := replay.Verdict(evs, c.i); got != c.verdict {
			t.Errorf("event %d verdict: %q, want %q", c.i, got, c.verdict)
		}
		if v, got := replay.Verdict(hidden, c.i); c.i != 4 && got != "" {
			t.Errorf("event %d judged on hidden dice: %d %q", c.i, v, got)
		}
	}
	if got := replay.Heading(evs[5]); got != "Round 2: bob opens" {
		t.Errorf("heading %q", got)
	}
	// While a game runs, the last claim goes to whoever has the turn.
	live := Narrator{Names: names, You: 0, Turn: 1}
	if got := live.Line(evs[:3], 2); got != "you announced 52 to bob" {
		t.Errorf("the last claim, live: %q", got)
	}
	if got := live.Line(evs, 12); got != "you win the game!" {
		t.Errorf("the end, for the winner: %q", got)
	}
	for v, want := range map[engine.Verdict]string{engine.Bluffed: "bluff!", engine.Caught: "caught bluffing!",
		engine.Unseen: "blind", engine.Stood: "the claim stood", engine.Short: "the dice were below the claim", engine.Truthful: "", engine.Unjudged: ""} {
		if got := Mark(v); got != want {
			t.Errorf("Mark(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestNarratorRoundEnds tells a blind raise as a raise, and the round
// ends the log used to leave out (a low claim, a revealed Mia, a Mia come
// back), and what the lifted cup shows of each end of a round.
func TestNarratorRoundEnds(t *testing.T) {
	names := []string{"alice", Label("ada", true), "carol"}
	n := Narrator{Names: names, You: 0, Ranking: engine.Classic, Turn: -1}
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 1},
		{Type: engine.EvRoll, Seat: 1, Dice: 31, Looked: true},
		{Type: engine.EvClaim, Seat: 1, Value: 32},
		{Type: engine.EvPass, Seat: 2, Value: 32},
		{Type: engine.EvPass, Seat: 0, Value: 41},
		{Type: engine.EvChallenge, Seat: 1, Claimant: 0, Claim: 41, Dice: 31, Loser: 0, LivesLost: 1},
		{Type: engine.EvRound, Round: 2, Opener: 0},
		{Type: engine.EvLowClaim, Seat: 0, Value: 31, Claim: 42, Loser: 0, LivesLost: 1},
		{Type: engine.EvReveal, Seat: 2, Claim: engine.Mia, Dice: 43, Losses: []engine.Loss{{Seat: 2, LivesLost: 2}}},
		{Type: engine.EvMiaBack, Seat: 1, Losses: []engine.Loss{{Seat: 0, LivesLost: 1}, {Seat: 2, LivesLost: 1}}},
		{Type: engine.EvGiveUp, Seat: 2, LivesLost: 1},
	}
	cases := []struct {
		i       int
		line    string
		heading string // Lifted; "" for an event that ends no round
		dice    engine.Value
		words   []string
	}{
		{3, "carol passed 32 to you", "", engine.NoValue, nil},
		{4, "you raised blind to 41 and passed to ada [bot]", "", engine.NoValue, nil},
		{5, "ada [bot] called you a liar: 31, you lose a life", "The cup is lifted", 31,
			[]string{"the claim: 41 by you", "ada [bot] called you a liar: 31, you lose a life — caught bluffing!"}},
		{7, "you announced 31, not above 42, and lose a life", "Round over", engine.NoValue,
			[]string{"you announced 31, not above 42, and lose a life"}},
		{8, "carol's Mia is shown at once: 43, carol loses 2 lives", "The cup is lifted", 43,
			[]string{"carol's Mia is shown at once: 43, carol loses 2 lives — caught bluffing!"}},
		{9, "ada [bot]'s Mia came back round: you and carol lose a life", "Round over", engine.NoValue,
			[]string{"ada [bot]'s Mia came back round: you and carol lose a life"}},
		{10, "carol gave up against Mia and loses a life", "Round over", engine.NoValue,
			[]string{"carol gave up against Mia and loses a life"}},
	}
	for _, c := range cases {
		if got := n.Line(evs, c.i); got != c.line {
			t.Errorf("event %d: %q, want %q", c.i, got, c.line)
		}
		heading, dice, words, ok := n.Lifted(evs, c.i)
		if ok != (c.heading != "") || heading != c.heading || dice != c.dice || !slices.Equal(words, c.words) {
			t.Errorf("event %d lifts %v %q %v %q, want %q %v %q", c.i, ok, heading, dice, words, c.heading, c.dice, c.words)
		}
	}
	if Label("ada", true) != "ada [bot]" || Label("alice", false) != "alice" {
		t.Errorf("labels %q %q", Label("ada", true), Label("alice", false))
	}
}

// TestNarratorNamesAReceiverWhoLeft: a claim or a pass is told "to NAME"
// when its receiver left the game before acting (the round then ends at
// once), and when its claimant left; a seat out before is skipped. The
// events are the engine's own.
func TestNarratorNamesAReceiverWhoLeft(t *testing.T) {
	seats := []ReplaySeat{{Name: "alice"}, {Name: "bob"}, {Name: "carol"}, {Name: "ada", Bot: true}}
	cases := []struct {
		name   string
		script []engine.Action
		line   int // the event told
		want   string
	}{
		{"the receiver leaves", []engine.Action{
			{Kind: engine.Roll, Seat: 3, Look: true}, {Kind: engine.Claim, Seat: 3, Value: 41},
			{Kind: engine.Leave, Seat: 0}}, 2, "ada [bot] announced 41 to alice"},
		{"the claimant leaves", []engine.Action{
			{Kind: engine.Roll, Seat: 3, Look: true}, {Kind: engine.Claim, Seat: 3, Value: 41},
			{Kind: engine.Leave, Seat: 3}}, 2, "ada [bot] announced 41 to alice"},
		{"a passer's receiver leaves, a seat out before skipped", []engine.Action{
			{Kind: engine.Leave, Seat: 1},
			{Kind: engine.Roll, Seat: 3, Look: true}, {Kind: engine.Claim, Seat: 3, Value: 41},
			{Kind: engine.Pass, Seat: 0}, {Kind: engine.Leave, Seat: 2}}, 5, "alice passed 41 to carol"},
	}
	for _, c := range cases {
		src := &draws{3, 3, 0} // ada opens; her roll: 41
		g, evs, err := engine.New(engine.DefaultOptions(), 4, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range c.script {
			more, err := g.Apply(a)
			if err != nil {
				t.Fatalf("%s: %+v: %v", c.name, a, err)
			}
			evs = append(evs, more...)
		}
		n := ReplayNarrator(seats, engine.Classic)
		if got := n.Line(evs, c.line); got != c.want {
			t.Errorf("%s: %q, want %q (events %+v)", c.name, got, c.want, evs)
		}
	}
}

// draws is a Source that hands out its numbers in order.
type draws []int

func (d *draws) Intn(int) int {
	v := (*d)[0]
	*d = (*d)[1:]
	return v
}
