package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// bulkGames writes n finished games of 2 to 6 of 2,000 players at 20
// public tables straight into the file, in transactions of 10,000 (a
// benchmark's setup: the games as Append would leave them, without their
// events), and rates them; ended over a year.
func bulkGames(b *testing.B, s *Store, n int) {
	b.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 20 {
		createTable(b, s, fmt.Sprintf("t%d", i), false, t0)
	}
	r := newRand(100)
	for done := 0; done < n; {
		err := s.db.Update(func(tx *bolt.Tx) error {
			for k := 0; k < 10000 && done < n; k, done = k+1, done+1 {
				id, err := tx.Bucket(bucketGames).NextSequence()
				if err != nil {
					return err
				}
				np := 2 + r.IntN(5)
				rec := Replay{ID: fmt.Sprint(id), Table: fmt.Sprintf("t%d", r.IntN(20)), Rules: engine.DefaultOptions(),
					Started: t0.Add(time.Duration(done) * 5 * time.Minute)}
				for j, p := range r.Perm(2000)[:np] {
					who := fmt.Sprintf("test:p%d", p)
					rec.Players = append(rec.Players, ReplayPlayer{Seat: j, Person: who, Name: who, Fingerprint: who})
				}
				standings := r.Perm(np)
				if err := finishTx(tx, id, &rec, engine.Result{Ended: rec.Started.Add(4 * time.Minute), Winner: standings[0], Standings: standings}); err != nil {
					return err
				}
				table, public, err := gameTable(tx, rec.Table, rec.Started)
				if err != nil {
					return err
				}
				if err := rateTx(tx, id, &rec, table, public); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.RebuildRatings(ctx); err != nil { // compact the boards
		b.Fatal(err)
	}
}

// BenchmarkRatingUpdate: what rating one finished game of 4 adds to the
// transaction that finishes it, through the store (the boards bucket of a
// file holding 100,000 rated games): its finishing number, three seasons
// on two boards read and written, its changes kept. Reports µs a game.
// The commit is not in it (Append's commit is shared, BenchmarkAppend).
func BenchmarkRatingUpdate(b *testing.B) {
	s, _ := openTemp(b)
	bulkGames(b, s, 100000)
	rec := Replay{ID: "1", Table: "t3", Rules: engine.DefaultOptions(), Ended: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	for j, p := range []int{7, 99, 1234, 1999} {
		who := fmt.Sprintf("test:p%d", p)
		rec.Players = append(rec.Players, ReplayPlayer{Seat: j, Person: who, Name: who, Fingerprint: who})
	}
	rec.Started, rec.Winner, rec.Standings = rec.Ended.Add(-time.Minute), 2, []int{2, 0, 3, 1}
	err := s.db.Update(func(tx *bolt.Tx) error {
		table, public, err := gameTable(tx, rec.Table, rec.Started)
		if err != nil {
			return err
		}
		b.ResetTimer()
		start := time.Now()
		for i := 0; b.Loop(); i++ {
			if err := rateTx(tx, uint64(1_000_000+i), &rec, table, public); err != nil {
				return err
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/game")
		return errRollback
	})
	if err != errRollback {
		b.Fatal(err)
	}
}

var errRollback = fmt.Errorf("rolled back")

// BenchmarkRebuild100k: RebuildRatings of a file of 100,000 finished
// games (2 to 6 of 2,000 players, 20 tables, a year): reading each game,
// rating it on its two boards in three seasons, writing every board and
// every game's changes, in one transaction with its commit. Reports
// seconds a rebuild.
func BenchmarkRebuild100k(b *testing.B) {
	s, _ := openTemp(b)
	bulkGames(b, s, 100000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rb, err := s.RebuildRatings(ctx)
		if err != nil || rb.Games != 100000 {
			b.Fatalf("rebuild: %+v, %v", rb, err)
		}
		b.ReportMetric(rb.Took.Seconds(), "s/rebuild")
	}
}
