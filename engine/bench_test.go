package engine

import (
	"testing"
	"time"
)

// benchGames plays random games (5 players, 6 lives; mostly legal moves)
// for b.N attempted actions, through apply, and reports the applied actions
// per second. The rules are classic, or with random set a random rule set
// (randomOptions) for each game.
func benchGames(b *testing.B, random bool, apply func(g *Game, a Action) error) {
	r := newPCG(1)
	opts := func() Options {
		if random {
			return randomOptions(r)
		}
		return DefaultOptions()
	}
	g, _, _ := New(opts(), 5, r)
	applied := 0
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if g.Over() {
			g, _, _ = New(opts(), 5, r)
		}
		if apply(g, randomAction(r, g, 0)) == nil {
			applied++
		}
	}
	el := time.Since(start)
	b.ReportMetric(float64(applied)/el.Seconds(), "actions/s")
	b.ReportMetric(float64(applied)/float64(b.N), "applied/op")
}

// BenchmarkRandomGame measures Apply, the allocating form every caller
// uses, under the classic rules and under random rule sets.
func BenchmarkRandomGame(b *testing.B) {
	for _, random := range []bool{false, true} {
		name := map[bool]string{false: "classic", true: "random-options"}[random]
		b.Run(name, func(b *testing.B) {
			benchGames(b, random, func(g *Game, a Action) error {
				_, err := g.Apply(a)
				return err
			})
		})
	}
}

// BenchmarkRandomGameAppend measures AppendApply into a reused buffer.
func BenchmarkRandomGameAppend(b *testing.B) {
	buf := make([]Event, 0, 8)
	benchGames(b, false, func(g *Game, a Action) error {
		var err error
		buf, err = g.AppendApply(buf[:0], a)
		return err
	})
}

// BenchmarkApply measures one round of three players: roll, claim, pass,
// roll, claim, challenge, with the lives reset when the game would end.
func BenchmarkApply(b *testing.B) {
	o := DefaultOptions()
	o.Lives = 9
	r := newPCG(2)
	g, _, _ := New(o, 3, r)
	buf := make([]Event, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for range b.N {
		if g.Over() || g.Lives(0) < 3 || g.Lives(1) < 3 || g.Lives(2) < 3 {
			g, _, _ = New(o, 3, r)
		}
		t := g.Turn()
		for _, a := range []Action{roll(t), claim(t, 41), pass((t + 1) % 3), roll((t + 2) % 3), claim((t+2)%3, 52), challenge(t)} {
			var err error
			if buf, err = g.AppendApply(buf[:0], a); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "actions/s")
}

// BenchmarkView measures a seat's view facing a claim.
func BenchmarkView(b *testing.B) {
	g, _, _ := New(DefaultOptions(), 5, script(0, 52))
	g.Apply(roll(0))
	g.Apply(claim(0, 52))
	b.ReportAllocs()
	for range b.N {
		_ = g.View(1)
	}
}
