package store

import (
	"context"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
)

// TestCoachedGamesNotRated: a game at a coached table (practice) counts
// on no board, live or rebuilt, while a game at a table beside it does;
// the tallies count both.
func TestCoachedGamesNotRated(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	created := time.Now().Add(-time.Hour).UTC()
	for _, tb := range []TableRecord{
		{Name: "club", Host: "test:p0", Rules: engine.DefaultOptions(), Seats: 2, Created: created},
		{Name: "practice", Host: "test:p0", Rules: engine.DefaultOptions(), Seats: 2, Created: created, Coach: true},
	} {
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	r := newRand(5)
	for _, table := range []string{"club", "practice", "practice"} {
		g, chunks := playGame(t, r, engine.DefaultOptions(), 2, 0)
		storeGame(t, s, table, seats(2), engine.DefaultOptions(), g, chunks)
	}
	check := func(when string) {
		t.Helper()
		ts, err := s.TableRecords(ctx, "practice")
		if err != nil || len(ts) != 1 || !ts[0].Coach {
			t.Fatalf("%s: the practice table's record %+v, %v", when, ts, err)
		}
		for _, b := range []struct {
			board Board
			games int
		}{{Board{Season: rating.AllTime}, 1}, {Board{Table: &ts[0], Season: rating.AllTime}, 0}} {
			got, err := s.Rating(ctx, "test:p0", b.board)
			if err != nil {
				t.Fatal(err)
			}
			if got.Games != b.games {
				t.Errorf("%s: %d games rated on board %v, want %d", when, got.Games, b.board.Table != nil, b.games)
			}
		}
		tally, err := s.Tally(ctx, "test:p0")
		if err != nil || tally.Games != 3 {
			t.Errorf("%s: tally %+v, %v: want 3 games", when, tally, err)
		}
	}
	check("live")
	if _, err := s.RebuildRatings(ctx); err != nil {
		t.Fatal(err)
	}
	check("rebuilt")
}
