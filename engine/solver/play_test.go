package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
)

// dice is a deterministic engine.Source.
type dice struct{ r *rand.Rand }

func (d dice) Intn(n int) int { return d.r.IntN(n) }

// selfPlay plays a game of players seats, each seat moving as the
// strategy of its decision (as Read places it) says, with its own
// randomness, until moves moves are made or the game ends. It returns
// the game's events, numbered.
func selfPlay(tb testing.TB, o engine.Options, players int, seed uint64, moves int) []engine.Event {
	tb.Helper()
	g, evs, err := engine.New(o, players, dice{rand.New(rand.NewPCG(seed, 1))})
	if err != nil {
		tb.Fatal(err)
	}
	brain := rand.New(rand.NewPCG(seed, 2))
	all := append([]engine.Event(nil), evs...)
	var round []engine.Event
	for _, e := range evs {
		if e.Type == engine.EvRound {
			round = round[:0]
		}
		round = append(round, e)
	}
	for n := 0; n < moves && !g.Over(); n++ {
		s := g.Turn()
		v := g.View(s)
		seen := make([]engine.Event, len(round))
		for i, e := range round {
			seen[i] = e.Redacted(s)
		}
		a := engine.Action{Seat: s, Kind: v.Legal[0]}
		if sit, err := Read(o, v.Lives, seen, s); err == nil {
			st, err := For(sit.Rules)
			if err != nil {
				tb.Fatal(err)
			}
			mv, err := st.Pick(sit, brain.Float64())
			if err != nil {
				tb.Fatalf("pick at %+v: %v", v, err)
			}
			a = mv.Action(s)
			if mv.Kind == MoveLowClaim {
				a.Value = v.LowClaims[0]
			}
		} else if a.Kind == engine.Claim {
			a.Value = v.Claims[0]
		}
		got, err := g.Apply(a)
		if err != nil {
			tb.Fatalf("seed %d: %+v refused at %+v: %v", seed, a, v, err)
		}
		for _, e := range got {
			if e.Type == engine.EvRound {
				round = round[:0]
			}
			round = append(round, e)
		}
		all = append(all, got...)
	}
	for i := range all {
		all[i].Seq = i + 1
	}
	return all
}

// noPass is the default rules without passing: a model solved in a blink.
func noPass() engine.Options {
	o := engine.DefaultOptions()
	o.Pass = false
	return o
}

// TestSelfPlayIsGood: every move of a game the strategy plays against
// itself heads-up has a verdict, an exact one, and none gives away a
// mistake's worth (the strategy's own moves are its best ones, or as good
// as them up to what it mixes).
func TestSelfPlayIsGood(t *testing.T) {
	o := noPass()
	game := selfPlay(t, o, 2, 1, 400)
	a, err := Analyse(o, 2, game)
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for _, e := range game {
		if _, _, ok := actionOf(e); ok {
			moves++
		}
	}
	if len(a.Decisions) != moves || !a.Exact {
		t.Errorf("%d of %d moves judged, exact %v", len(a.Decisions), moves, a.Exact)
	}
	for _, d := range a.Decisions {
		if d.Mark >= Mistake {
			t.Errorf("move %d (%+v): the strategy's own move marked %q, %.4f lives", d.Seq, d.Choices[d.Chosen].Move, d.Mark, d.Loss)
		}
	}
	for s, p := range a.Players {
		if p.Decisions == 0 || p.Accuracy() < 95 {
			t.Errorf("seat %d: %d decisions, accuracy %.1f%%", s, p.Decisions, p.Accuracy())
		}
	}
}

// TestMoreSeats analyses games of three and six: each decision is judged
// as the heads-up decision of its player against the claimant (or the
// next player), never exact; the verdicts use only what each player
// knew (dice they did not see changed, the same verdicts); a blunder
// heads-up is one at a full table too.
func TestMoreSeats(t *testing.T) {
	o := noPass()
	for _, players := range []int{3, 6} {
		game := selfPlay(t, o, players, uint64(players), 300)
		a, err := Analyse(o, players, game)
		if err != nil {
			t.Fatal(err)
		}
		if a.Exact || len(a.Decisions) == 0 {
			t.Errorf("%d seats: %d decisions, exact %v", players, len(a.Decisions), a.Exact)
		}
		judged := 0
		t.Logf("%d seats: %d decisions judged", players, len(a.Decisions))
		for s, p := range a.Players {
			judged += p.Decisions
			if p.Decisions > 0 && p.Accuracy() < 90 {
				t.Errorf("%d seats, seat %d: the strategy's own moves score %.1f%%", players, s, p.Accuracy())
			}
		}
		if judged != len(a.Decisions) {
			t.Errorf("%d seats: %d decisions, the players' summaries count %d", players, len(a.Decisions), judged)
		}
	}
	// Three players: seat 0 opens and claims the lowest value; seat 1
	// challenges it (always a loss: a blunder).
	claims := o.Ranking.Claims()
	lowest := claims[len(claims)-1]
	loss := -1.0
	for _, d := range []engine.Value{31, 65, engine.Mia} {
		game := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
			{Type: engine.EvRoll, Seat: 0, Dice: d, Looked: true},
			{Type: engine.EvClaim, Seat: 0, Value: lowest},
			{Type: engine.EvChallenge, Seat: 1, Claimant: 0, Claim: lowest, Dice: d, Loser: 1, LivesLost: 1},
			{Type: engine.EvRound, Round: 2, Opener: 2}}
		for i := range game {
			game[i].Seq = i + 1
		}
		a, err := Analyse(o, 3, game)
		if err != nil {
			t.Fatal(err)
		}
		dec, ok := a.Of(4)
		if !ok || dec.Mark != Blunder || dec.Seat != 1 || dec.Exact {
			t.Errorf("dice %s: the challenge of %s: %+v (judged %v)", d, lowest, dec, ok)
		}
		if a.Players[1].Marks[Blunder] != 1 || a.Players[2].Decisions != 0 {
			t.Errorf("dice %s: summaries %+v", d, a.Players)
		}
		if loss >= 0 && dec.Loss != loss {
			t.Errorf("dice %s: the challenge gives away %v, with other dice %v", d, dec.Loss, loss)
		}
		loss = dec.Loss
	}
}
