package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// replayGame is a finished game cut into steps for the replay viewer
// (engine.CutSteps: a step is one action and the events it caused; step 0
// is the game's start), with its narrator.
type replayGame struct {
	game   store.Game
	events []engine.Event
	nar    words.Narrator // tells the events, every die shown
	steps  []engine.Step
	starts []int   // starts[r-1] is the step at which round r begins
	chart  [][]int // chart[seat][r-1]: the seat's lives at the end of round r
	// verdicts are the verdicts on the moves (sshapp/verdict), empty
	// until worked out; judging says they are being worked out, and
	// unjudged why there are none ("" for no reason to say).
	verdicts verdict.Analysis
	judging  bool
	unjudged string
}

// verdictsLoaded brings a game's verdicts to the replay screen.
type verdictsLoaded struct {
	req uint64
	a   verdict.Analysis
	err error
}

// loadVerdicts works out the verdicts on g's moves (verdict.Judge.Of),
// asked from source, waiting at most verdict.Wait or until done closes
// (the session's end).
func loadVerdicts(done <-chan struct{}, jd *verdict.Judge, source string, g store.Game, evs []engine.Event, req uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), verdict.Wait)
		defer cancel()
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
		a, err := jd.Of(ctx, source, g, evs)
		return verdictsLoaded{req: req, a: a, err: err}
	}
}

// newReplay checks a finished game's events against the rules and cuts
// them into steps.
func newReplay(g store.Game, evs []engine.Event) (*replayGame, error) {
	cut, err := engine.CutSteps(g.Rules, len(g.Seats), evs)
	if err != nil {
		return nil, fmt.Errorf("game %s does not replay: %w", g.ID, err)
	}
	return &replayGame{game: g, events: evs, nar: words.ReplayNarrator(replaySeats(g), g.Rules.Ranking),
		steps: cut.Steps, starts: cut.Starts, chart: cut.Chart}, nil
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
func replaySeats(g store.Game) []words.ReplaySeat {
	seats := make([]words.ReplaySeat, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = words.ReplaySeat{Name: s.Called(), Bot: s.Bot}
	}
	return seats
}

// verdict is what the dice say of events[i], in words (words.Narrator,
// by engine's bluff rule).
func (rp *replayGame) verdict(i int) (engine.Verdict, string) { return rp.nar.Verdict(rp.events, i) }

// describe is events[i] in words, every die shown (words.Narrator).
func (rp *replayGame) describe(i int) string { return rp.nar.Line(rp.events, i) }

// roundStart is the step at which the round of step i begins.
func (rp *replayGame) roundStart(i int) int {
	r := rp.steps[i].Round
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
