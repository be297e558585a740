package ai

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// tableModelGames is how many games TestTableModelBot plays a pairing:
// a few by default (its moves legal), more for the figures in
// engine/solver/README.md:
//
//	nice -n 10 go test -count=1 -timeout 1h -run 'TestTableModelBot$' -v ./lobby/ai -table-model-games=10000
var tableModelGames = flag.Int("table-model-games", 0, "games of each pairing in TestTableModelBot (0: a few)")

// byModel is a bot that plays a judgement at a table: while three or
// more are alive, the move the judgement values most (engine/solver's
// Choices) among those the solved strategy makes; else as expert.
// With inLives, the value is the verdicts' as shown (lives, as
// heads-up), else by the win chance (ByWinChance).
func byModel(v engine.View, round []engine.Event, r *rand.Rand, inLives bool) engine.Action {
	if living(v.Lives) <= 2 {
		return Decide(Expert, v, round, r)
	}
	sit, err := solver.Read(v.Options, v.Lives, roundOf(round), v.Seat)
	if err != nil {
		return Decide(Hard, v, round, r)
	}
	s, err := solver.For(sit.Rules)
	if err != nil {
		return Decide(Hard, v, round, r)
	}
	if !inLives {
		sit = sit.ByWinChance()
	}
	cs, err := s.Choices(sit)
	if err != nil {
		return Decide(Hard, v, round, r)
	}
	best := -1
	for i, c := range cs {
		if c.Prob >= solver.Rare && (best < 0 || c.Value > cs[best].Value) {
			best = i
		}
	}
	if best < 0 {
		return Decide(Hard, v, round, r)
	}
	a := cs[best].Move.Action(v.Seat)
	if cs[best].Move.Kind == solver.MoveLowClaim {
		a.Value = first(v.LowClaims)
	}
	return legalize(v, a)
}

// TestTableModelBot plays each judgement at a table as a bot (byModel:
// by the win chance, in lives) and expert, each alone against bots of
// each other level at 3 and 6 seats, the same seeds, and reports each one's share of wins with a 95% interval: does
// the move a judgement calls best win more than hard's? Every move they
// make must be legal.
func TestTableModelBot(t *testing.T) {
	games, o := *tableModelGames, engine.DefaultOptions()
	if games == 0 {
		games, o.Pass = 20, false
	}
	for _, players := range []int{3, 6} {
		for _, other := range []Level{Hard, Normal, Easy} {
			for _, who := range []string{"model", "lives", "expert"} {
				t.Run(fmt.Sprintf("%s at %d seats against %s", who, players, other), func(t *testing.T) {
					wins := 0
					var m match
					for i := range games {
						me, seed := i%players, uint64(4099*players+i)
						g, evs, err := engine.New(o, players, newDice(seed))
						if err != nil {
							t.Fatal(err)
						}
						m.g, m.round = g, m.round[:0]
						m.record(evs)
						brains := rand.New(rand.NewPCG(seed, 13))
						for steps := 0; !g.Over(); steps++ {
							if steps > 50_000 {
								t.Fatalf("seed %d: no end", seed)
							}
							s := g.Turn()
							v := g.View(s)
							var a engine.Action
							switch {
							case s != me:
								a = Decide(other, v, m.roundFor(s), brains)
							case who != "expert":
								a = byModel(v, m.roundFor(s), brains, who == "lives")
							default:
								a = Decide(Expert, v, m.roundFor(s), brains)
							}
							evs, err := g.Apply(a)
							if err != nil {
								t.Fatalf("seed %d: %s's %+v refused: %v", seed, who, a, err)
							}
							m.record(evs)
						}
						if g.Winner() == me {
							wins++
						}
					}
					w := float64(wins) / float64(games)
					lo, hi := wilson(w, games)
					t.Logf("%s against %d %s: wins %.1f%% of %d games (95%%: %.1f–%.1f%%; an equal player %.1f%%)",
						who, players-1, other, 100*w, games, 100*lo, 100*hi, 100/float64(players))
				})
			}
		}
	}
}
