package solver_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/ai"
)

type dice struct{ r *rand.Rand }

func (d dice) Intn(n int) int { return d.r.IntN(n) }

// playLevels plays one game of bots of levels (seat i plays levels[i]),
// each seeing the round as its seat saw it, and returns its events,
// numbered.
func playLevels(t *testing.T, o engine.Options, levels []ai.Level, seed uint64) []engine.Event {
	t.Helper()
	g, evs, err := engine.New(o, len(levels), dice{rand.New(rand.NewPCG(seed, 5))})
	if err != nil {
		t.Fatal(err)
	}
	brains := rand.New(rand.NewPCG(seed, 6))
	all := append([]engine.Event(nil), evs...)
	var round []engine.Event
	for steps := 0; !g.Over(); steps++ {
		if steps > 50_000 {
			t.Fatalf("seed %d: no end", seed)
		}
		for _, e := range all[len(all)-len(evs):] {
			if e.Type == engine.EvRound {
				round = round[:0]
			}
			round = append(round, e)
		}
		s := g.Turn()
		seen := make([]engine.Event, len(round))
		for i, e := range round {
			seen[i] = e.Redacted(s)
		}
		evs, err = g.Apply(ai.Decide(levels[s], g.View(s), seen, brains))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, evs...)
	}
	for i := range all {
		all[i].Seq = i + 1
	}
	return all
}

// judged is what one way of judging says of a level's moves.
type judged struct {
	sum        solver.Summary
	challenges int // challenges made
	marked     int // of them, marked
	best       int // decisions facing a claim whose best move is a challenge
	facing     int // decisions facing a claim
}

func (j *judged) add(d solver.Decision, challenge bool) {
	if challenge {
		j.challenges++
		if d.Mark != solver.Good {
			j.marked++
		}
	}
	for _, c := range d.Choices {
		if c.Move.Kind == solver.MoveChallenge {
			j.facing++
			if d.Choices[d.Best].Move.Kind == solver.MoveChallenge {
				j.best++
			}
			break
		}
	}
}

// TestTableRanksLevels plays games of easy, normal and hard bots
// together at 3 and 6 seats (two of each), seats rotated, and judges
// every move twice: in lives as a heads-up decision (Analyse, the
// verdicts shown) and by the win chance (AnalyseByWinChance, the
// continuation model). Either way easy gives away the most a decision
// and is the least accurate. It logs
// both ways' figures (engine/solver/README.md): lives given away a move,
// accuracy, marks, and how often each marks a challenge or calls a
// challenge the best move.
func TestTableRanksLevels(t *testing.T) {
	o := engine.DefaultOptions()
	o.Pass = false // solved in a blink
	games := 100
	if testing.Short() {
		games = 20
	}
	levels := []ai.Level{ai.Easy, ai.Normal, ai.Hard}
	for _, players := range []int{3, 6} {
		t.Run(fmt.Sprintf("%d seats", players), func(t *testing.T) {
			now, before := map[ai.Level]*judged{}, map[ai.Level]*judged{}
			for _, lv := range levels {
				now[lv], before[lv] = &judged{}, &judged{}
			}
			for i := range games {
				seats := make([]ai.Level, players)
				for s := range seats {
					seats[s] = levels[(s+i)%len(levels)]
				}
				evs := playLevels(t, o, seats, uint64(1000*players+i))
				challenged := map[int]bool{}
				for _, e := range evs {
					challenged[e.Seq] = e.Type == engine.EvChallenge
				}
				for _, way := range []struct {
					analyse func(engine.Options, int, []engine.Event) (solver.Analysis, error)
					into    map[ai.Level]*judged
				}{{solver.AnalyseByWinChance, now}, {solver.Analyse, before}} {
					a, err := way.analyse(o, players, evs)
					if err != nil {
						t.Fatal(err)
					}
					for _, d := range a.Decisions {
						way.into[seats[d.Seat]].add(d, challenged[d.Seq])
					}
					for seat, p := range a.Players {
						way.into[seats[seat]].sum.Add(p)
					}
				}
			}
			for _, lv := range levels {
				for _, w := range []struct {
					name string
					j    *judged
				}{{"model", now[lv]}, {"lives", before[lv]}} {
					s := w.j.sum
					t.Logf("%-6s %s: %5d moves, %.4f given away a move, accuracy %.1f%%, ?! %3d ? %3d ?? %3d; challenges %4d, %3d marked; best move a challenge at %4d of %4d",
						lv, w.name, s.Decisions, s.PerDecision(), s.Accuracy(), s.Marks[solver.Inaccuracy], s.Marks[solver.Mistake], s.Marks[solver.Blunder],
						w.j.challenges, w.j.marked, w.j.best, w.j.facing)
				}
			}
			for _, way := range []map[ai.Level]*judged{now, before} {
				easy := way[ai.Easy].sum
				for _, lv := range []ai.Level{ai.Normal, ai.Hard} {
					s := way[lv].sum
					if s.PerDecision() >= easy.PerDecision() || s.Accuracy() <= easy.Accuracy() {
						t.Errorf("%s: %.4f given away a move, accuracy %.1f%%; easy %.4f, %.1f%%",
							lv, s.PerDecision(), s.Accuracy(), easy.PerDecision(), easy.Accuracy())
					}
				}
			}
		})
	}
}
