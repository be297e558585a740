package rating

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRate is the update for one finished game of 2, 6 and 12
// players: the work a finished game adds (once per board it counts in).
func BenchmarkRate(b *testing.B) {
	for _, n := range []int{2, 6, 12} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(23, uint64(n)))
			before := make([]Rating, n)
			for i := range before {
				before[i] = randRating(rng)
			}
			places := rng.Perm(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Rate(before, places); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRebuild folds 100,000 random games of 2 to 12 players among
// 2,000 people through a ladder: a full rebuild of one board from an
// in-memory history (reading the games from the store is not in it).
func BenchmarkRebuild(b *testing.B) {
	history := randHistory(rand.New(rand.NewPCG(24, 25)), 100_000, 2000)
	b.ReportAllocs()
	for b.Loop() {
		l := NewLadder[uint64](Default)
		for _, g := range history {
			if _, err := l.Play(g.players, g.places); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWinChances is the chances shown at a table of 6 before a game.
func BenchmarkWinChances(b *testing.B) {
	rng := rand.New(rand.NewPCG(26, 27))
	rs := make([]Rating, 6)
	for i := range rs {
		rs[i] = randRating(rng)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WinChances(rs); err != nil {
			b.Fatal(err)
		}
	}
}
