package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkStatsReads10k: 10,000 finished games (2 to 4 players, one of
// them always player x); what `history --limit 20` and `stats PLAYER` read.
// It also fails if one read takes 100 ms or more.
func BenchmarkStatsReads10k(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	for i := range 20 {
		tb := table(fmt.Sprintf("t%d", i))
		tb.Created = time.Unix(0, 0)
		if err := s.CreateTable(ctx, tb); err != nil {
			b.Fatal(err)
		}
	}
	games, events := shortGames(b, 10000, 4)
	t0 := time.Now()
	fill(b, s, games)
	b.Logf("%d games, %d events, stored in %v", len(games), events, time.Since(t0).Round(time.Millisecond))
	x := seats(1)[0].Person
	// What a stranger sees: the games of public tables (the lobby's rule,
	// without its other cases).
	stranger := func(g Game, t *TableRecord) bool { return t == nil || !t.Private }
	slow := func(b *testing.B, start time.Time) {
		if d := time.Since(start); d >= 100*time.Millisecond {
			b.Errorf("one read took %v", d)
		}
	}
	b.Run("GamesPlayer20", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			gs, err := s.Games(ctx, Query{Player: x, Limit: 20})
			if err != nil || len(gs) != 20 {
				b.Fatalf("Games: %d, %v", len(gs), err)
			}
			slow(b, start)
		}
	})
	b.Run("History20", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			gs, err := s.History(ctx, Query{Limit: 20}, stranger)
			if err != nil || len(gs) != 20 {
				b.Fatalf("History: %d, %v", len(gs), err)
			}
			slow(b, start)
		}
	})
	b.Run("StatsTallyRating", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			t, err := s.Tally(ctx, x)
			if err != nil || t.Games != 10000 {
				b.Fatalf("Tally: %+v, %v", t, err)
			}
			r, err := s.Rating(ctx, x, Board{})
			if err != nil || r.Games != 10000 {
				b.Fatalf("Rating: %+v, %v", r, err)
			}
			slow(b, start)
		}
	})
	b.Run("StatsAll", func(b *testing.B) { // tally, rating and the last 29 games (the sparkline)
		for b.Loop() {
			start := time.Now()
			if _, err := s.Tally(ctx, x); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Rating(ctx, x, Board{}); err != nil {
				b.Fatal(err)
			}
			if gs, err := s.History(ctx, Query{Player: x, Limit: 29}, stranger); err != nil || len(gs) != 29 {
				b.Fatalf("History: %d, %v", len(gs), err)
			}
			slow(b, start)
		}
	})
	b.Run("Leaderboard", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			lb, err := s.Leaderboard(ctx, BoardQuery{Limit: 20})
			if err != nil || len(lb) != 10 {
				b.Fatalf("Leaderboard: %d, %v", len(lb), err)
			}
			slow(b, start)
		}
	})
}
