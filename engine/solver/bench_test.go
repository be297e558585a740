package solver

import (
	"testing"

	"github.com/mia-game/mia/engine"
)

// hundredMoves is a game of four under the default rules, 9 lives each,
// cut after its 100th move (heads-up games end sooner), played by the
// strategy.
func hundredMoves(b *testing.B) (engine.Options, []engine.Event) {
	b.Helper()
	o := engine.DefaultOptions()
	o.Lives = engine.MaxLives
	for seed := uint64(1); ; seed++ {
		game := selfPlay(b, o, 4, seed, 100)
		n := 0
		for _, e := range game {
			if _, _, ok := actionOf(e); ok {
				n++
			}
		}
		if n == 100 {
			return o, game
		}
	}
}

// BenchmarkAnalyse analyses a game of 100 moves, the strategies solved
// (target: under 50 ms).
func BenchmarkAnalyse(b *testing.B) {
	o, game := hundredMoves(b)
	if _, err := Analyse(o, 4, game); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyse(o, 4, game); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecision is an expert's decision: the situation read from
// the round, the solved strategy found, a move drawn (target: under
// 1 ms). The decision is a reply to an opening claim, heads-up.
func BenchmarkDecision(b *testing.B) {
	o := engine.DefaultOptions()
	round := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Looked: true}, {Type: engine.EvClaim, Seat: 0, Value: 62}}
	lives := []int{6, 6}
	sit, err := Read(o, lives, round, 1)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := For(sit.Rules); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	u := 0.0
	for b.Loop() {
		sit, err := Read(o, lives, round, 1)
		if err != nil {
			b.Fatal(err)
		}
		s, err := For(sit.Rules)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Pick(sit, u); err != nil {
			b.Fatal(err)
		}
		u += 0.618
		if u >= 1 {
			u--
		}
	}
}

// BenchmarkSolve solves rule sets from scratch: by default the default
// rules and the slowest kind (mia-pass reroll with mia-penalty-both);
// with -solve-all, every rule set of All (about half an hour).
func BenchmarkSolve(b *testing.B) {
	sets := All()
	if !*solveAll {
		d := engine.DefaultOptions()
		slow := d
		slow.MiaPass, slow.MiaPenaltyBoth = engine.MiaPassReroll, true
		sets = sets[:0]
		for _, o := range []engine.Options{d, slow} {
			r, err := Of(o, 0, 0)
			if err != nil {
				b.Fatal(err)
			}
			sets = append(sets, r)
		}
	}
	for _, r := range sets {
		b.Run(r.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Solve(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEndings computes how a round of the default rules ends from
// every state (the four passes a strategy makes on its first judgement
// at a table of three or more), the strategy solved.
func BenchmarkEndings(b *testing.B) {
	r, err := Of(engine.DefaultOptions(), 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	s, err := For(r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		endingsOf(s.m.g, s.avg)
	}
}
