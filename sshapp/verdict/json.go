package verdict

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// Document is the replay document of PROTOCOL.md §3 with the verdicts:
// an "analysis" object on each event that is a judged move, and
// "accuracy", each player's moves summed up, after the events. A reader
// of the document without them reads it as before.
type Document struct {
	store.Replay
	Events   []Event  `json:"events,omitempty"`
	Accuracy []Player `json:"accuracy,omitempty"`
}

// Event is an event of the document, with its move's verdict if any.
type Event struct {
	engine.Event
	Analysis *Move
}

// Move is the verdict on one move, as §3 writes it.
type Move struct {
	Mark     string   `json:"mark"` // "", "?!", "?" or "??"
	Lost     float64  `json:"lives_given_away"`
	Best     Choice   `json:"best"`
	Choices  []Choice `json:"choices"`
	Exact    bool     `json:"exact"`
	Dice     string   `json:"dice_seen,omitempty"` // the dice the player saw, if they rolled and looked
	Facing   string   `json:"facing,omitempty"`    // the claim they faced, if any
	Strategy string   `json:"strategy"`            // the moves the strategy makes, in words
	Said     string   `json:"said"`                // the verdict in words (words.Judged)
}

// Choice is one move the player could make: how often the solved
// strategy makes it and what it is worth, in lives, to the player.
type Choice struct {
	Move        string  `json:"move"` // in words: "roll", "announce 54", "challenge"…
	Probability float64 `json:"probability"`
	Value       float64 `json:"value"`
}

// Player is one seat's moves summed up.
type Player struct {
	Seat         int     `json:"seat"`
	Decisions    int     `json:"decisions"`
	Lost         float64 `json:"lives_given_away"`
	PerDecision  float64 `json:"per_decision"`
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
	Said         string  `json:"said"` // in words (words.Accuracy)
}

// MarshalJSON writes the event as engine.Event does, then "analysis".
func (e Event) MarshalJSON() ([]byte, error) {
	b, err := e.Event.MarshalJSON()
	if err != nil || e.Analysis == nil {
		return b, err
	}
	a, err := json.Marshal(e.Analysis)
	if err != nil {
		return nil, err
	}
	if len(b) < 2 || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("verdict: an event's JSON is no object: %s", b)
	}
	out := append(b[:len(b)-1:len(b)-1], `,"analysis":`...)
	out = append(out, a...)
	return append(out, '}'), nil
}

// Doc is the document of g with its events evs and their verdicts a.
func Doc(g store.Game, evs []engine.Event, a solver.Analysis) Document {
	d := Document{Replay: g.Replay(nil)}
	rk := g.Rules.Ranking
	d.Events = make([]Event, len(evs))
	for i, e := range evs {
		d.Events[i].Event = e
		if j, ok := a.Of(e.Seq); ok {
			d.Events[i].Analysis = moveOf(rk, j.Judgement)
		}
	}
	for seat, s := range a.Players {
		d.Accuracy = append(d.Accuracy, Player{Seat: seat, Decisions: s.Decisions, Lost: round(s.Lost),
			PerDecision: round(s.PerDecision()), Accuracy: round(s.Accuracy()),
			Inaccuracies: s.Marks[solver.Inaccuracy], Mistakes: s.Marks[solver.Mistake], Blunders: s.Marks[solver.Blunder],
			Said: words.Accuracy(s)})
	}
	return d
}

func moveOf(rk engine.Ranking, j solver.Judgement) *Move {
	facing := j.Facing()
	m := &Move{Mark: j.Mark.String(), Lost: round(j.Loss), Exact: j.Exact, Strategy: words.Strategy(j, 4), Said: words.Judged(j)}
	if d := j.Dice(rk); d != engine.NoValue {
		m.Dice = d.String()
	}
	if facing != engine.NoValue {
		m.Facing = facing.String()
	}
	for _, c := range j.Choices {
		m.Choices = append(m.Choices, Choice{Move: words.MoveWords(rk, facing, c.Move), Probability: round(c.Prob), Value: round(c.Value)})
	}
	m.Best = m.Choices[j.Best]
	return m
}

// round keeps four decimals: the figures are estimates, and a shorter
// document reads better.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Encode writes d as store.Replay.Encode writes the document.
func (d Document) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}
