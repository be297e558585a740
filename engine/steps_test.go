package engine

import (
	"errors"
	"slices"
	"testing"
)

// TestCutSteps cuts the scripted game: a step per action after the
// start, each round's first step, the lives at each round's end, and the
// claim and cup each step leaves (a round's last step as the round ended,
// the cup lifted).
func TestCutSteps(t *testing.T) {
	tb, o := scriptedLog(t)
	cut, err := CutSteps(o, 3, tb.events)
	if err != nil {
		t.Fatal(err)
	}
	if len(cut.Steps) != 13 { // the start and 12 actions
		t.Fatalf("%d steps, want 13", len(cut.Steps))
	}
	if !slices.Equal(cut.Starts, []int{0, 5, 8}) {
		t.Errorf("rounds start at steps %v, want [0 5 8]", cut.Starts)
	}
	wantChart := [][]int{{2, 2, 2}, {2, 0, 0}, {1, 1, 0}}
	for s, want := range wantChart {
		if !slices.Equal(cut.Chart[s], want) {
			t.Errorf("seat %d's lives per round %v, want %v", s, cut.Chart[s], want)
		}
	}
	for i, st := range cut.Steps {
		switch {
		case i == 0 && st.First != 0, i > 0 && st.First != cut.Steps[i-1].End:
			t.Fatalf("step %d starts at %d: the steps do not follow each other", i, st.First)
		case i > 0 && !isActionEvent(tb.events[st.First]):
			t.Errorf("step %d starts with %s, not an action", i, tb.events[st.First].Type)
		}
	}
	if last := cut.Steps[len(cut.Steps)-1]; last.End != len(tb.events) || !last.Over || last.Turn != -1 || last.Done != 3 {
		t.Errorf("the last step: %+v", last)
	}
	// Step 3 claims 52 over a 43 (by seat 1); step 4, the challenge, ends
	// the round: the claim stands, passed on by seat 2, and the cup is
	// lifted on the 43.
	if st := cut.Steps[3]; st.Claim != 52 || st.Claimant != 2 || st.Cup != 43 || st.Roller != 1 {
		t.Errorf("step 3 (the pass): %+v", st)
	}
	if st := cut.Steps[4]; st.Claim != 52 || st.Cup != 43 || st.Done != 1 || st.Round != 1 || !slices.Equal(st.Lives, []int{2, 2, 1}) {
		t.Errorf("step 4 (the challenge): %+v", st)
	}
	if st := cut.Steps[5]; st.Round != 2 || st.Cup != Mia || st.Claimant != -1 {
		t.Errorf("step 5 (round 2's roll): %+v", st)
	}

	// Events that do not replay are refused, as by Replay.
	bad := slices.Clone(tb.events)
	bad[3].Value = 21
	if _, err := CutSteps(o, 3, bad); !errors.Is(err, ErrBadEvent) {
		t.Errorf("tampered events: %v, want ErrBadEvent", err)
	}
}

// TestCutStepsRandomGames: in random games, the steps cover the events
// one action each, and the chart holds each seat's lives at every round's
// end, as the rules give them.
func TestCutStepsRandomGames(t *testing.T) {
	var buf []Event
	for i := range uint64(200) {
		c, evs, err := playRandomGame(i, buf)
		if err != nil {
			t.Fatal(err)
		}
		buf = evs
		n := len(c.g.View(Spectator).Lives)
		cut, err := CutSteps(c.g.Options(), n, evs)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		actions := 0
		for k, e := range evs {
			if k > 0 && isActionEvent(e) {
				actions++
			}
		}
		if len(cut.Steps) != actions+1 || cut.Steps[len(cut.Steps)-1].End != len(evs) {
			t.Fatalf("game %d: %d steps for %d actions", i, len(cut.Steps), actions)
		}
		rounds := 0
		for _, e := range evs {
			if e.Type == EvRound {
				rounds++
			}
		}
		if len(cut.Starts) != rounds || len(cut.Chart[0]) != rounds {
			t.Fatalf("game %d: %d round starts, %d chart columns, %d rounds", i, len(cut.Starts), len(cut.Chart[0]), rounds)
		}
		for s := range n {
			if got, want := cut.Chart[s][rounds-1], c.g.Lives(s); got != want {
				t.Fatalf("game %d seat %d: %d lives at the end in the chart, the game says %d", i, s, got, want)
			}
		}
	}
}

func isActionEvent(e Event) bool {
	_, ok := actionOf(e)
	return ok
}
