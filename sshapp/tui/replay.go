package tui

import (
	"fmt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
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
	nar    lobby.Narrator // tells the events, every die shown
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
	case engine.EvRoll, engine.EvClaim, engine.EvPass, engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLeave,
		engine.EvLowClaim:
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
	rp := &replayGame{game: g, events: evs, chart: make([][]int, n), nar: lobby.ReplayNarrator(replaySeats(g), g.Rules.Ranking)}
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
				if claim == engine.Mia { // a Mia come back, rolled again (mia-pass reroll): no claim now
					claim, claimant = engine.NoValue, -1
				}
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

// name is the name now of a seat.
func (rp *replayGame) name(seat int) string {
	if seat >= 0 && seat < len(rp.game.Seats) {
		return name(rp.game.Seats[seat].Called())
	}
	return "?"
}

// replaySeats are g's players by seat, by their names now, as the
// replay's narrator needs them.
func replaySeats(g store.Game) []lobby.SeatInfo {
	seats := make([]lobby.SeatInfo, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = lobby.SeatInfo{Name: s.Called(), ID: s.Person, Bot: s.Bot}
	}
	return seats
}

// verdict is what the dice say of events[i], in words (lobby.Narrator,
// by engine's bluff rule).
func (rp *replayGame) verdict(i int) (engine.Verdict, string) { return rp.nar.Verdict(rp.events, i) }

// describe is events[i] in words, every die shown (lobby.Narrator).
func (rp *replayGame) describe(i int) string { return rp.nar.Line(rp.events, i) }

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
