package engine

import "fmt"

// Step is one step of a finished game, as a replay steps through it: one
// action and the events it caused (a challenge brings its "out", and the
// next round or the end, with it); step 0 is the game's start. It holds
// the state the step leaves, as the rules give it.
type Step struct {
	First, End int // the step's events are events[First:End]
	Round      int // the round the step's action was played in
	Lives      []int
	Turn       int // who acts next; -1 once the game is over
	Over       bool
	Done       int // rounds over once the step is played
	// The claim and the cup as the step leaves them; for a step that ends
	// its round (a challenge, giving up, a timeout), as they were when the
	// round ended, the cup lifted.
	Claim    Value
	Claimant int // -1 if no claim
	Cup      Value
	Roller   int // -1 if the cup is empty
	Looked   bool
}

// Cut is a game cut into steps (CutSteps).
type Cut struct {
	Steps  []Step
	Starts []int   // Starts[r-1] is the step at which round r begins
	Chart  [][]int // Chart[seat][r-1]: the seat's lives at the end of round r
}

// CutSteps checks a game's events against the rules (Replay) and cuts
// them into steps. The state after each step comes from replaying the
// events up to it, so a replay shows what the rules say, not a second
// reading of them. The replay screen, its recording and the web window's
// game page all step through games by it.
func CutSteps(opts Options, players int, events []Event) (Cut, error) {
	if _, err := Replay(opts, players, events, nil); err != nil {
		return Cut{}, err
	}
	out := Cut{Chart: make([][]int, players)}
	// Step boundaries: the start of every action, and the end.
	var bounds []int
	for i, e := range events {
		if _, action := actionOf(e); i > 0 && action {
			bounds = append(bounds, i)
		}
	}
	bounds = append(bounds, len(events))

	// Fold the cup and the round along the events; the rules give the
	// rest of each step's state.
	var (
		round    = 1
		cup      = NoValue
		roller   = -1
		looked   bool
		claim    = NoValue
		claimant = -1
		first    = 0
	)
	for _, end := range bounds {
		st := Step{First: first, End: end, Round: round}
		ended, kept := false, false
		keep := func() { // the claim and the cup as they are now, once
			if !kept {
				st.Claim, st.Claimant, st.Cup, st.Roller, st.Looked = claim, claimant, cup, roller, looked
				kept = true
			}
		}
		for k, e := range events[first:end] {
			switch e.Type {
			case EvRound:
				if first+k > 0 {
					keep()
					ended = true
				}
				round = e.Round
				cup, roller, looked, claim, claimant = NoValue, -1, false, NoValue, -1
			case EvEnd:
				keep()
				ended = true
			case EvRoll:
				cup, roller, looked = e.Dice, e.Seat, e.Looked
				if claim == Mia { // a Mia come back, rolled again (mia-pass reroll): no claim now
					claim, claimant = NoValue, -1
				}
			case EvClaim, EvPass:
				claim, claimant = e.Value, e.Seat
			}
		}
		keep()
		g, err := Replay(opts, players, events[:end], nil)
		if err != nil {
			return Cut{}, fmt.Errorf("replay to seq %d: %w", end, err)
		}
		st.Lives = make([]int, players)
		for s := range st.Lives {
			st.Lives[s] = g.Lives(s)
		}
		st.Over, st.Turn = g.Over(), g.Turn()
		if st.Over {
			st.Turn = -1
		}
		if len(out.Steps) == 0 || out.Steps[len(out.Steps)-1].Round != st.Round {
			out.Starts = append(out.Starts, len(out.Steps))
		}
		if ended {
			for s := range out.Chart {
				out.Chart[s] = append(out.Chart[s], st.Lives[s])
			}
		}
		st.Done = len(out.Chart[0])
		out.Steps = append(out.Steps, st)
		first = end
	}
	return out, nil
}
