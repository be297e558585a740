package tui

import (
	"fmt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/store"
)

// replayGame is a finished game cut into steps for the replay viewer. A
// step is one action and the events it caused (a challenge brings its
// "out", and the next round or the end, with it); step 0 is the game's
// start. The state after each step comes from replaying the events up to
// it through the engine, so the viewer shows what the rules say, not a
// second reading of them.
type replayGame struct {
	game   store.Game
	events []engine.Event
	steps  []replayStep
	starts []int   // starts[r-1] is the step at which round r begins
	chart  [][]int // chart[seat][r-1]: the seat's lives at the end of round r
}

// replayStep is one step of a replayGame.
type replayStep struct {
	first, end int // events[first:end] are the step's
	round      int // the round the step's action was played in
	lives      []int
	turn       int // who acts next; -1 once the game is over
	over       bool
	done       int // rounds over once the step is played
	// The claim and the cup as the step leaves them; for a step that ends
	// its round (a challenge, giving up, a timeout), as they were when the
	// round ended, the cup lifted.
	claim    engine.Value
	claimant int // -1 if no claim
	cup      engine.Value
	roller   int // -1 if the cup is empty
	looked   bool
}

// isAction reports whether e is the first event of an action.
func isAction(e engine.Event) bool {
	switch e.Type {
	case engine.EvRoll, engine.EvClaim, engine.EvPass, engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
		return true
	}
	return false
}

// newReplay checks a finished game's events against the rules and cuts
// them into steps.
func newReplay(g store.Game, evs []engine.Event) (*replayGame, error) {
	n := len(g.Seats)
	if _, err := engine.Replay(g.Rules, n, evs, nil); err != nil {
		return nil, fmt.Errorf("game %s does not replay: %w", g.ID, err)
	}
	rp := &replayGame{game: g, events: evs, chart: make([][]int, n)}
	// Step boundaries: the start of every action, and the end.
	var bounds []int
	for i, e := range evs {
		if i > 0 && isAction(e) {
			bounds = append(bounds, i)
		}
	}
	bounds = append(bounds, len(evs))

	// Fold the cup and the round along the events; the engine gives the
	// rest of each step's state.
	var (
		round    = 1
		cup      engine.Value
		roller   = -1
		looked   bool
		claim    engine.Value
		claimant = -1
		first    = 0
	)
	for _, end := range bounds {
		st := replayStep{first: first, end: end, round: round}
		ended, kept := false, false
		keep := func() { // the claim and the cup as they are now, once
			if !kept {
				st.claim, st.claimant, st.cup, st.roller, st.looked = claim, claimant, cup, roller, looked
				kept = true
			}
		}
		for k, e := range evs[first:end] {
			switch e.Type {
			case engine.EvRound:
				if first+k > 0 {
					keep()
					ended = true
				}
				round = e.Round
				cup, roller, looked, claim, claimant = engine.NoValue, -1, false, engine.NoValue, -1
			case engine.EvEnd:
				keep()
				ended = true
			case engine.EvRoll:
				cup, roller, looked = e.Dice, e.Seat, e.Looked
			case engine.EvClaim, engine.EvPass:
				claim, claimant = e.Value, e.Seat
			}
		}
		keep()
		gm, err := engine.Replay(g.Rules, n, evs[:end], nil)
		if err != nil {
			return nil, fmt.Errorf("game %s does not replay to seq %d: %w", g.ID, end, err)
		}
		st.lives = make([]int, n)
		for s := range st.lives {
			st.lives[s] = gm.Lives(s)
		}
		st.over, st.turn = gm.Over(), gm.Turn()
		if st.over {
			st.turn = -1
		}
		if len(rp.steps) == 0 || rp.steps[len(rp.steps)-1].round != st.round {
			rp.starts = append(rp.starts, len(rp.steps))
		}
		if ended {
			for s := range rp.chart {
				rp.chart[s] = append(rp.chart[s], st.lives[s])
			}
		}
		st.done = len(rp.chart[0])
		rp.steps = append(rp.steps, st)
		first = end
	}
	return rp, nil
}

// rounds is the number of rounds played.
func (rp *replayGame) rounds() int { return len(rp.starts) }

// name is the display name of a seat.
func (rp *replayGame) name(seat int) string {
	if seat >= 0 && seat < len(rp.game.Seats) {
		return name(rp.game.Seats[seat].Name)
	}
	return "?"
}

// rollBefore is the round's last roll before events[i], if any.
func (rp *replayGame) rollBefore(i int) (engine.Event, bool) {
	for j := i - 1; j >= 0; j-- {
		switch rp.events[j].Type {
		case engine.EvRoll:
			return rp.events[j], true
		case engine.EvRound:
			return engine.Event{}, false
		}
	}
	return engine.Event{}, false
}

// receiver is who took the cup after the claim or pass at i, or -1.
func (rp *replayGame) receiver(i int) int {
	for j := i + 1; j < len(rp.events); j++ {
		switch e := rp.events[j]; e.Type {
		case engine.EvRoll, engine.EvClaim, engine.EvPass, engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout:
			return e.Seat
		case engine.EvRound, engine.EvEnd:
			return -1
		}
	}
	return -1
}

// verdictKind sorts what the dice say of a claim, a pass or a challenge.
type verdictKind int

const (
	verdictNone   verdictKind = iota
	verdictTrue               // the claim or pass was true to the cup
	verdictBlind              // announced without looking: no bluff
	verdictBluff              // a bluff
	verdictCaught             // a challenge caught the claimant
	verdictWrong              // a challenge of a claim that stood
)

// verdict is what the dice say of events[i]: whether a claim or pass
// was a bluff, whether a challenge caught one, and a line in words.
//
// A claim is a bluff when its value is not the dice its player rolled and
// looked at (as store.Tally counts bluffs); a claim after a roll without
// looking is no bluff, the player did not know. A pass is a bluff when the
// cup holds less than the value passed on.
func (rp *replayGame) verdict(i int) (verdictKind, string) {
	e := rp.events[i]
	rank := rp.game.Rules.Ranking
	switch e.Type {
	case engine.EvClaim:
		r, ok := rp.rollBefore(i)
		switch {
		case !ok:
			return verdictNone, ""
		case !r.Looked:
			return verdictBlind, fmt.Sprintf("blind: %s claimed unseen, %s in the cup", e.Value.Name(), r.Dice.Name())
		case r.Dice != e.Value:
			return verdictBluff, fmt.Sprintf("bluff: %s claimed, %s in the cup", e.Value.Name(), r.Dice.Name())
		}
		return verdictTrue, fmt.Sprintf("true: %s claimed, %s in the cup", e.Value.Name(), r.Dice.Name())
	case engine.EvPass:
		r, ok := rp.rollBefore(i)
		switch {
		case !ok:
			return verdictNone, ""
		case rank.Compare(r.Dice, e.Value) < 0:
			return verdictBluff, fmt.Sprintf("bluff: %s passed on, %s in the cup", e.Value.Name(), r.Dice.Name())
		}
		return verdictTrue, fmt.Sprintf("true: %s passed on, %s in the cup", e.Value.Name(), r.Dice.Name())
	case engine.EvChallenge:
		if e.Loser == e.Claimant && e.Claimant != e.Seat {
			return verdictCaught, fmt.Sprintf("caught: %s under %s's %s, %s loses %s", e.Dice.Name(),
				rp.name(e.Claimant), e.Claim.Name(), rp.name(e.Loser), livesText(e.LivesLost))
		}
		return verdictWrong, fmt.Sprintf("the %s stood: %s in the cup, %s loses %s", e.Claim.Name(), e.Dice.Name(),
			rp.name(e.Loser), livesText(e.LivesLost))
	}
	return verdictNone, ""
}

// describe is events[i] in words, every die shown.
func (rp *replayGame) describe(i int) string {
	e := rp.events[i]
	who := rp.name
	switch e.Type {
	case engine.EvRound:
		return fmt.Sprintf("— round %d: %s opens —", e.Round, who(e.Opener))
	case engine.EvRoll:
		if e.Looked {
			return fmt.Sprintf("%s rolled %s", who(e.Seat), e.Dice.Name())
		}
		return fmt.Sprintf("%s rolled %s without looking", who(e.Seat), e.Dice.Name())
	case engine.EvClaim, engine.EvPass:
		verb := "announced"
		if e.Type == engine.EvPass {
			verb = "passed"
		}
		line := fmt.Sprintf("%s %s %s", who(e.Seat), verb, e.Value.Name())
		if r := rp.receiver(i); r >= 0 {
			line += " to " + who(r)
		}
		return line
	case engine.EvChallenge:
		return fmt.Sprintf("%s called %s a liar: %s", who(e.Seat), who(e.Claimant), e.Dice.Name())
	case engine.EvGiveUp:
		return fmt.Sprintf("%s gave up against Mia and loses %s", who(e.Seat), livesText(e.LivesLost))
	case engine.EvTimeout:
		return fmt.Sprintf("%s ran out of time and loses %s", who(e.Seat), livesText(e.LivesLost))
	case engine.EvLeave:
		return fmt.Sprintf("%s left the game", who(e.Seat))
	case engine.EvOut:
		return fmt.Sprintf("%s is out", who(e.Seat))
	case engine.EvEnd:
		return fmt.Sprintf("%s wins the game", who(e.Winner))
	}
	return ""
}

// livesText is "a life" or "N lives".
func livesText(n int) string {
	if n == 1 {
		return "a life"
	}
	return fmt.Sprintf("%d lives", n)
}

// roundStart is the step at which the round of step i begins.
func (rp *replayGame) roundStart(i int) int {
	r := rp.steps[i].round
	if r >= 1 && r <= len(rp.starts) {
		return rp.starts[r-1]
	}
	return 0
}

// prevRound is the step to go to for "one round back" from step i: the
// start of its round, or of the round before when i is a round's start.
func (rp *replayGame) prevRound(i int) int {
	for k := len(rp.starts) - 1; k >= 0; k-- {
		if rp.starts[k] < i {
			return rp.starts[k]
		}
	}
	return 0
}

// nextRound is the step to go to for "one round on" from step i: the
// start of the next round, or the last step.
func (rp *replayGame) nextRound(i int) int {
	for _, s := range rp.starts {
		if s > i {
			return s
		}
	}
	return len(rp.steps) - 1
}
