package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

// BenchmarkAppend: 100 tables (goroutines) append the events of one
// action at a time, each Append durable (committed, fsynced) before it
// returns. One op is one Append. Reports events/s and the 99th percentile
// latency of an Append.
func BenchmarkAppend(b *testing.B) {
	const tables = 100
	s, _ := openTemp(b)
	ctx := context.Background()
	per := max(b.N/tables, 1)

	// Realistic events, played through the engine ahead of time.
	type game struct {
		opts   engine.Options
		n      int
		chunks [][]engine.Event
		res    *engine.Result
	}
	work := make([][]game, tables)
	for w := range work {
		r := newRand(uint64(w))
		for left := per; left > 0; {
			opts := engine.DefaultOptions()
			n := 2 + r.IntN(5)
			eg, chunks := playGame(b, r, opts, n, 0)
			if len(chunks) > left {
				chunks = chunks[:left]
				eg = nil
			}
			g := game{opts: opts, n: n, chunks: chunks}
			if eg != nil {
				g.res = resultOf(eg)
			}
			work[w] = append(work[w], g)
			left -= len(chunks)
		}
	}
	lat := make([][]time.Duration, tables)
	var events atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range work {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			l := make([]time.Duration, 0, per)
			for _, g := range work[w] {
				gm, err := s.CreateGame(ctx, Game{Table: fmt.Sprintf("t%d", w), Seats: seats(g.n), Rules: g.opts})
				if err != nil {
					b.Error(err)
					return
				}
				for i, c := range g.chunks {
					var res *engine.Result
					if i == len(g.chunks)-1 {
						res = g.res
					}
					t0 := time.Now()
					if err := s.Append(ctx, gm.ID, c, res); err != nil {
						b.Error(err)
						return
					}
					l = append(l, time.Since(t0))
					events.Add(int64(len(c)))
				}
			}
			lat[w] = l
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	p99 := all[len(all)*99/100]
	b.ReportMetric(float64(events.Load())/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "appends/s")
}

// fill stores games concurrently, each with one Append of all its events.
func fill(tb testing.TB, s *Store, games []storedGame) {
	tb.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < 100; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(games) {
					return
				}
				g := games[i]
				gm, err := s.CreateGame(ctx, Game{Table: g.table, Seats: g.seats, Rules: g.opts})
				if err != nil {
					tb.Error(err)
					return
				}
				if err := s.Append(ctx, gm.ID, g.events, g.res); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if tb.Failed() {
		tb.FailNow()
	}
}

type storedGame struct {
	table  string
	seats  []Seat
	opts   engine.Options
	events []engine.Event
	res    *engine.Result
}

// shortGames plays n finished games of 2 to maxPlayers players with one
// life, the first seat always the same player.
func shortGames(tb testing.TB, n, maxPlayers int) ([]storedGame, int) {
	r := newRand(42)
	pool := seats(10)
	var out []storedGame
	events := 0
	for i := 0; i < n; i++ {
		opts := engine.DefaultOptions()
		opts.Lives = 1
		np := 2 + r.IntN(maxPlayers-1)
		st := []Seat{pool[0]}
		for _, p := range r.Perm(9)[:np-1] {
			st = append(st, pool[p+1])
		}
		eg, chunks := playGame(tb, r, opts, np, 0)
		evs := flatten(chunks)
		events += len(evs)
		out = append(out, storedGame{table: fmt.Sprintf("t%d", i%20), seats: st, opts: opts, events: evs, res: resultOf(eg)})
	}
	return out, events
}

// BenchmarkRecover: a file of 1,000 finished and 100 in-progress games,
// 10,000 events in all; one op is Open + InProgress (replaying the 100) +
// Close.
func BenchmarkRecover(b *testing.B) {
	s, path := openTemp(b)
	games, events := shortGames(b, 1000, 2)
	r := newRand(7)
	per := (10000 - events) / 100
	if per < 5 {
		b.Fatalf("the finished games hold %d events already", events)
	}
	b.Logf("finished games: %d events; %d per game in progress", events, per)
	for len(games) < 1100 {
		opts := engine.DefaultOptions()
		g, chunks := playGame(b, r, opts, 4, 0)
		var evs []engine.Event
		for _, c := range chunks {
			if len(evs) >= per {
				break
			}
			evs = append(evs, c...)
		}
		if g.Over() && len(evs) == g.Seq() {
			continue // ended too soon
		}
		events += len(evs)
		games = append(games, storedGame{table: "live", seats: seats(4), opts: opts, events: evs})
	}
	fill(b, s, games)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		recs, err := s.InProgress(context.Background())
		if err != nil || len(recs) != 100 {
			b.Fatalf("InProgress: %d games, %v", len(recs), err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events), "events")
}

// BenchmarkQueries10k: 10,000 finished games, all with one player x.
func BenchmarkQueries10k(b *testing.B) {
	s, _ := openTemp(b)
	games, events := shortGames(b, 10000, 4)
	fill(b, s, games)
	ctx := context.Background()
	x := seats(1)[0].Person
	b.Logf("%d games, %d events", len(games), events)
	for _, q := range []struct {
		name string
		q    Query
	}{
		{"GamesPlayer", Query{Player: x, Limit: 20}},
		{"GamesPlayerDeepPage", Query{Player: x, Limit: 20, Before: "5000"}},
		{"GamesTable", Query{Table: "t3", Limit: 20}},
		{"GamesAll", Query{Limit: 20}},
		{"GamesPlayerAtTable", Query{Player: x, Table: "t7", Limit: 20}},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				gs, err := s.Games(ctx, q.q)
				if err != nil || len(gs) != 20 {
					b.Fatalf("Games: %d, %v", len(gs), err)
				}
			}
		})
	}
	b.Run("Tally", func(b *testing.B) {
		for b.Loop() {
			t, err := s.Tally(ctx, x)
			if err != nil || t.Games != 10000 {
				b.Fatalf("Tally: %+v, %v", t, err)
			}
		}
	})
}

// BenchmarkUDPNameChurn: a Mäxchen bot registers a name and leaves before
// it plays, as the gateway's actor stores it: one op is a claim (checked
// against people's names) and its drop, two commits. Reports the claims
// the one actor can take a second.
func BenchmarkUDPNameChurn(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	for i := range 1000 { // people's names to check against
		if _, err := s.SetName(ctx, fmt.Sprintf("SHA256:k%d", i), fmt.Sprintf("person%d", i)); err != nil {
			b.Fatal(err)
		}
	}
	taken := func(UDPName) bool { return false }
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		n := UDPName{Name: fmt.Sprintf("bot%d", i%64), Addr: "192.0.2.1", Registered: true}
		if _, err := s.ClaimUDPName(ctx, n, taken); err != nil {
			b.Fatal(err)
		}
		n.Registered = false
		if err := s.KeepUDPNames(ctx, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "claims/s")
}
