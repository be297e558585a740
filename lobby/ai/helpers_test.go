package ai

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
)

// dice is a deterministic engine.Source.
type dice struct{ r *rand.Rand }

func newDice(seed uint64) dice { return dice{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (d dice) Intn(n int) int { return d.r.IntN(n) }

// match plays games between bots, each seeing only its own view and the
// round's events redacted for its seat.
type match struct {
	g      *engine.Game
	round  []engine.Event // the current round's events, unredacted
	seen   []engine.Event // scratch for one seat's redacted copy
	events int
}

func (m *match) record(evs []engine.Event) {
	for _, e := range evs {
		if e.Type == engine.EvRound {
			m.round = m.round[:0]
		}
		m.round = append(m.round, e)
		m.events++
	}
}

// roundFor returns the current round as seat may see it.
func (m *match) roundFor(seat int) []engine.Event {
	m.seen = m.seen[:0]
	for _, e := range m.round {
		m.seen = append(m.seen, e.Redacted(seat))
	}
	return m.seen
}

// play plays one game of len(levels) bots (seat i plays levels[i]) and
// returns the winner, or an error if a bot's move is refused or the game
// does not end.
func (m *match) play(o engine.Options, levels []Level, seed uint64) (int, error) {
	g, evs, err := engine.New(o, len(levels), newDice(seed))
	if err != nil {
		return -1, err
	}
	m.g, m.round = g, m.round[:0]
	m.record(evs)
	brains := rand.New(rand.NewPCG(seed, 7))
	for steps := 0; !g.Over(); steps++ {
		if steps > 20_000 {
			return -1, fmt.Errorf("seed %d: no end after %d moves", seed, steps)
		}
		s := g.Turn()
		v := g.View(s)
		a := Decide(levels[s], v, m.roundFor(s), brains)
		evs, err := g.Apply(a)
		if err != nil {
			return -1, fmt.Errorf("seed %d: %s bot at seat %d: %+v refused in %+v: %w", seed, levels[s], s, a, v, err)
		}
		m.record(evs)
	}
	return g.Winner(), nil
}

// winRate plays games of one bot of level a against others of level b,
// seats rotated, under each option set, and returns a's share of wins.
func winRate(t testing.TB, a, b Level, players, games int, sets []engine.Options, seed uint64) float64 {
	var m match
	wins := 0
	for i := range games {
		levels := make([]Level, players)
		for s := range levels {
			levels[s] = b
		}
		me := i % players
		levels[me] = a
		w, err := m.play(sets[i%len(sets)], levels, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if w == me {
			wins++
		}
	}
	return float64(wins) / float64(games)
}

// script is an engine.Source that opens the first round with a given seat
// and then rolls the given values in order.
type script struct{ q []int }

func newScript(opener int, rolls ...engine.Value) *script {
	s := &script{q: []int{opener}}
	for _, v := range rolls {
		hi, lo := v.Dice()
		s.q = append(s.q, hi-1, lo-1)
	}
	return s
}

func (s *script) Intn(n int) int {
	if len(s.q) == 0 {
		panic("script: out of draws")
	}
	v := s.q[0]
	s.q = s.q[1:]
	return v
}

// Action constructors keep the scenarios short.
func roll(s int) engine.Action { return engine.Action{Kind: engine.Roll, Seat: s, Look: true} }
func claim(s int, v engine.Value) engine.Action {
	return engine.Action{Kind: engine.Claim, Seat: s, Value: v}
}
func pass(s int, v engine.Value) engine.Action {
	return engine.Action{Kind: engine.Pass, Seat: s, Value: v}
}
func challenge(s int) engine.Action { return engine.Action{Kind: engine.Challenge, Seat: s} }
func giveUp(s int) engine.Action    { return engine.Action{Kind: engine.GiveUp, Seat: s} }

// setup plays the actions from the start of a game and returns it with the
// events so far.
func setup(t testing.TB, o engine.Options, players int, src engine.Source, moves ...engine.Action) (*engine.Game, []engine.Event) {
	t.Helper()
	g, evs, err := engine.New(o, players, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range moves {
		more, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		evs = append(evs, more...)
	}
	return g, evs
}

// redacted returns the events of the last round as seat may see them.
func redacted(evs []engine.Event, seat int) []engine.Event {
	start := 0
	for i, e := range evs {
		if e.Type == engine.EvRound {
			start = i
		}
	}
	out := make([]engine.Event, 0, len(evs)-start)
	for _, e := range evs[start:] {
		out = append(out, e.Redacted(seat))
	}
	return out
}
