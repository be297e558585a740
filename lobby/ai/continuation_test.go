package ai

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// writeContinuation regenerates engine/solver/continuation_table.go, the
// continuation model the verdicts at 3 to 12 seats use, from games of
// hard bots against each other (engine/solver/README.md):
//
//	nice -n 10 go test -count=1 -timeout 1h -run 'TestContinuationModel$' -v ./lobby/ai -continuation-write
var writeContinuation = flag.Bool("continuation-write", false, "regenerate engine/solver/continuation_table.go from self-play")

// The generation's games: at every table size of 3 to 12 seats and every
// number of lives of 2 to 9, continuationGames games each.
const (
	continuationGames = 120
	continuationSeed  = 20261128
)

// selfPlay plays games of level against itself under o, at each of seats
// and lives, games each, from seed, and returns the state after every
// round of every game with its winner.
func selfPlay(t testing.TB, o engine.Options, level Level, seats, lives []int, games int, seed uint64) []solver.Sample {
	t.Helper()
	var out []solver.Sample
	var m match
	for _, n := range seats {
		for _, l := range lives {
			o.Lives = l
			levels := make([]Level, n)
			for s := range levels {
				levels[s] = level
			}
			for i := range games {
				sd := seed + uint64(1_000_000*n+10_000*l+i)
				g, evs, err := engine.New(o, n, newDice(sd))
				if err != nil {
					t.Fatal(err)
				}
				m.g, m.round = g, m.round[:0]
				m.record(evs)
				brains := rand.New(rand.NewPCG(sd, 11))
				var states [][]int
				for steps := 0; !g.Over(); steps++ {
					if steps > 50_000 {
						t.Fatalf("seed %d: no end", sd)
					}
					s := g.Turn()
					evs, err := g.Apply(Decide(levels[s], g.View(s), m.roundFor(s), brains))
					if err != nil {
						t.Fatal(err)
					}
					m.record(evs)
					for _, e := range evs {
						if e.Type == engine.EvRound {
							st := make([]int, n)
							for s := range st {
								st[s] = g.Lives(s)
							}
							states = append(states, st)
						}
					}
				}
				w := g.Winner()
				for _, st := range states {
					var smp solver.Sample
					for s, l := range st {
						if l > 0 {
							if s == w {
								smp.Winner = len(smp.Lives)
							}
							smp.Lives = append(smp.Lives, l)
						}
					}
					if len(smp.Lives) >= 2 {
						out = append(out, smp)
					}
				}
			}
		}
	}
	return out
}

func span(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

// TestContinuationModel checks the embedded continuation model
// (engine/solver/continuation_table.go) against fresh self-play: games
// of hard bots at 3, 5 and 8 seats, a seed of their own, whose every
// state after a round is bucketed by the chance the model gives each
// living player; in every bucket the share of those players who won is
// within 3 standard errors and tolerance of the chance the model says
// (the model is Luce's, an approximation: it rates the leader a little
// high, by 0.04 at most in the generation's own states).
// With -continuation-write it regenerates the table first.
func TestContinuationModel(t *testing.T) {
	o := engine.DefaultOptions()
	if *writeContinuation {
		samples := selfPlay(t, o, Hard, span(3, engine.MaxSeats), span(2, engine.MaxLives), continuationGames, continuationSeed)
		st := solver.FitStrengths(samples)
		src, err := st.Source(fmt.Sprintf("TestContinuationModel -continuation-write (./lobby/ai) from %d states of %d games of hard bots", len(samples), continuationGames*(engine.MaxSeats-2)*(engine.MaxLives-1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../../engine/solver/continuation_table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d states written", len(samples))
		checkAgainst(t, &st, samples)
		return
	}
	games := 200
	if testing.Short() {
		games = 40
	}
	st := solver.Embedded()
	checkAgainst(t, &st, selfPlay(t, o, Hard, []int{3, 5, 8}, []int{3, 6}, games, 777))
	if testing.Short() {
		return
	}
	// The generation itself, at a sixth of its games: a table whose
	// chances agree with the embedded one's within 0.02 on average over
	// the states it is fitted to.
	samples := selfPlay(t, o, Hard, span(3, engine.MaxSeats), span(2, engine.MaxLives), continuationGames/6, continuationSeed)
	small := solver.FitStrengths(samples)
	total, count := 0.0, 0
	for _, s := range samples {
		for p := range s.Lives {
			total += math.Abs(small.WinChance(s.Lives, p) - st.WinChance(s.Lives, p))
			count++
		}
	}
	t.Logf("regenerated from %d states: the chances differ from the embedded ones by %.4f on average", len(samples), total/float64(count))
	if total/float64(count) > 0.02 {
		t.Errorf("the chances differ by %.4f on average", total/float64(count))
	}
}

// checkAgainst buckets every living player of every sample by the chance
// st gives them and compares each bucket's share of winners with it.
// tolerance is how far checkAgainst lets a bucket's share of winners be
// from the model's chance, beyond 3 standard errors.
const tolerance = 0.05

func checkAgainst(t *testing.T, st *solver.Strengths, samples []solver.Sample) {
	t.Helper()
	const buckets = 10
	var n, won, said [buckets]float64
	for _, s := range samples {
		for i := range s.Lives {
			p := st.WinChance(s.Lives, i)
			b := min(int(p*buckets), buckets-1)
			n[b]++
			said[b] += p
			if i == s.Winner {
				won[b]++
			}
		}
	}
	for b := range buckets {
		if n[b] < 30 {
			continue
		}
		p, q := said[b]/n[b], won[b]/n[b]
		se := math.Sqrt(p * (1 - p) / n[b])
		t.Logf("chance %.1f–%.1f: %6.0f players, the model says %.3f, %.3f won (se %.3f)", float64(b)/buckets, float64(b+1)/buckets, n[b], p, q, se)
		if math.Abs(p-q) > 3*se+tolerance {
			t.Errorf("chance %.1f–%.1f: the model says %.3f, %.3f of %.0f won", float64(b)/buckets, float64(b+1)/buckets, p, q, n[b])
		}
	}
}
