package tui

import (
	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/store"
)

// Step is one step of a finished game as the replay screen steps through
// it: one action and the events it caused (step 0 is the game's start),
// and the state it leaves. The web window's game page shows the same
// steps (CutGame).
type Step struct {
	First, End int // the step's events are events[First:End]
	Round      int // the round the step's action was played in
	Lives      []int
	Turn       int // who acts next; -1 once the game is over
	Over       bool
	Done       int // rounds over once the step is played
	// The claim and the cup as the step leaves them; for a step that ends
	// its round, as they were when the round ended, the cup lifted.
	Claim    engine.Value
	Claimant int // -1 if no claim
	Cup      engine.Value
	Roller   int // -1 if the cup is empty
	Looked   bool
}

// Cut is a finished game cut into the replay screen's steps.
type Cut struct {
	Steps  []Step
	Starts []int   // Starts[r-1] is the step at which round r begins
	Chart  [][]int // Chart[seat][r-1]: the seat's lives at the end of round r
}

// CutGame checks a finished game's events against the rules and cuts them
// into the steps the replay screen shows (an error if they do not replay).
func CutGame(g store.Game, evs []engine.Event) (Cut, error) {
	rp, err := newReplay(g, evs)
	if err != nil {
		return Cut{}, err
	}
	out := Cut{Steps: make([]Step, len(rp.steps)), Starts: rp.starts, Chart: rp.chart}
	for i, st := range rp.steps {
		out.Steps[i] = Step{First: st.first, End: st.end, Round: st.round, Lives: st.lives, Turn: st.turn, Over: st.over,
			Done: st.done, Claim: st.claim, Claimant: st.claimant, Cup: st.cup, Roller: st.roller, Looked: st.looked}
	}
	return out, nil
}
