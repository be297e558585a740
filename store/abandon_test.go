package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
)

// TestAbandonClosed: a game abandoned because its table closed is
// listed in the history (on request) with why and by whom, replays, and
// moves no game count, win or rating, across a reopen, a rebuild of the
// ratings and a recount of the tallies; its moves count, at a private
// table as private ones; Check holds.
func TestAbandonClosed(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(map[bool]string{false: "public", true: "private"}[private], func(t *testing.T) {
			testAbandonClosed(t, private)
		})
	}
}

func testAbandonClosed(t *testing.T, private bool) {
	s, _ := openTemp(t)
	ctx := context.Background()
	host, err := s.SetName(ctx, "SHA256:host", "ann")
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, s, "club", private, time.Now().Add(-time.Hour))
	st := seats(3)
	r := newRand(7)
	opts := ruleSets()[0]

	// One finished game first, for the ratings and tallies to stand on.
	eg, chunks := playGame(t, r, opts, 3, 0)
	done := storeGame(t, s, "club", st, opts, eg, chunks)
	// Then one cut short after a few moves.
	eg2, chunks2 := playGame(t, r, opts, 3, 6)
	if eg2.Over() {
		t.Fatal("the second game should still run")
	}
	cut := storeGame(t, s, "club", st, opts, eg2, chunks2)

	// While the cut game runs, its moves count nowhere: the tallies are
	// the finished game's alone.
	gameOf := func(id string) (Game, []engine.Event) {
		g, evs, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g, evs
	}
	doneGame, doneEvs := gameOf(done.ID)
	onlyDone := referenceTally([]Game{doneGame}, [][]engine.Event{doneEvs})
	for _, p := range st {
		tl, err := s.Tally(ctx, p.Person)
		if err != nil {
			t.Fatal(err)
		}
		if tl != onlyDone[p.Person] {
			t.Errorf("%s's tally while the game runs: %+v, want the finished game's %+v", p.Person, tl, onlyDone[p.Person])
		}
	}
	ratingsBefore := snapshot(t, s)
	if rs, err := s.Leaderboard(ctx, BoardQuery{Board: Board{Season: rating.AllTime}}); err != nil || len(rs) != map[bool]int{false: 3, true: 0}[private] {
		t.Fatalf("overall board before: %d rows, %v", len(rs), err)
	}

	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	why := &Abandonment{Reason: AbandonClosed, By: host.ID}
	if err := s.Abandon(ctx, cut.ID, at, why); err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(ctx, cut.ID, at, why); err == nil {
		t.Error("a game abandoned twice")
	}
	if err := s.Append(ctx, cut.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1, 2}}); err == nil {
		t.Error("an abandoned game took a result")
	}

	// Once abandoned, its moves count, and no game.
	cutGame, cutEvs := gameOf(cut.ID)
	wantTally := referenceTally([]Game{doneGame, cutGame}, [][]engine.Event{doneEvs, cutEvs})
	check := func(t *testing.T, s *Store) {
		t.Helper()
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
		g, evs, err := s.Game(ctx, cut.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Finished() || g.Winner != -1 || g.Standings != nil || !g.Ended.Equal(at) {
			t.Errorf("abandoned game: finished %t, winner %d, standings %v, ended %v", g.Finished(), g.Winner, g.Standings, g.Ended)
		}
		if g.Abandoned == nil || *g.Abandoned != (Abandonment{Reason: AbandonClosed, By: host.ID, Name: "ann"}) {
			t.Errorf("Abandoned = %+v", g.Abandoned)
		}
		if len(evs) != len(slices.Concat(chunks2...)) {
			t.Errorf("the abandoned game kept %d events of %d", len(evs), len(slices.Concat(chunks2...)))
		}
		doc, err := json.Marshal(g.Replay(evs))
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Winner    int             `json:"winner"`
			Abandoned json.RawMessage `json:"abandoned"`
			Standings json.RawMessage `json:"standings"`
		}
		if err := json.Unmarshal(doc, &raw); err != nil {
			t.Fatal(err)
		}
		if raw.Winner != -1 || string(raw.Abandoned) != `{"reason":"closed","by":"`+host.ID+`","name":"ann"}` || raw.Standings != nil {
			t.Errorf("replay document: winner %d, abandoned %s, standings %s", raw.Winner, raw.Abandoned, raw.Standings)
		}

		ids := func(q Query) []string {
			gs, err := s.Games(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return out
		}
		for _, c := range []struct {
			q    Query
			want []string
		}{
			{Query{}, []string{done.ID}},
			{Query{Abandoned: true}, []string{cut.ID, done.ID}},
			{Query{Table: "CLUB", Abandoned: true}, []string{cut.ID, done.ID}},
			{Query{Player: st[1].Person, Abandoned: true}, []string{cut.ID, done.ID}},
			{Query{Player: st[1].Person, Table: "club"}, []string{done.ID}},
			{Query{Abandoned: true, Limit: 1}, []string{cut.ID}},
			{Query{Abandoned: true, Before: cut.ID}, []string{done.ID}},
		} {
			if got := ids(c.q); !slices.Equal(got, c.want) {
				t.Errorf("Games(%+v) = %v, want %v", c.q, got, c.want)
			}
		}
		for _, p := range st {
			tl, err := s.Tally(ctx, p.Person)
			if err != nil {
				t.Fatal(err)
			}
			if tl != wantTally[p.Person] || tl == onlyDone[p.Person] {
				t.Errorf("%s's tally: %+v, want %+v with the abandoned game's moves", p.Person, tl, wantTally[p.Person])
			}
			if tl.Games != 1 {
				t.Errorf("%s has %d games, want the finished one only", p.Person, tl.Games)
			}
			pub, err := s.PublicTally(ctx, p.Person)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]Tally{false: tl, true: {}}[private]; pub != want {
				t.Errorf("%s's public tally at a private %t table: %+v, want %+v", p.Person, private, pub, want)
			}
		}
		sameSnapshot(t, "ratings after the abandon", ratingsBefore, snapshot(t, s))
		if _, err := s.GameRatings(ctx, cut.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the abandoned game's ratings: %v", err)
		}
		for _, p := range st {
			pts, err := s.Trend(ctx, p.Person, nil, 10)
			if want := map[bool]int{false: 1, true: 0}[private]; err != nil || len(pts) != want || len(pts) > 0 && pts[0].Game != done.ID {
				t.Errorf("%s's trend: %+v %v", p.Person, pts, err)
			}
		}
		if recs, err := s.InProgress(ctx); err != nil || len(recs) != 0 {
			t.Errorf("in progress after the abandon: %d, %v", len(recs), err)
		}
	}
	t.Run("live", func(t *testing.T) { check(t, s) })
	s = reopen(t, s)
	t.Run("reopened", func(t *testing.T) { check(t, s) })
	// The tallies counted again from the games (as a migration does) come
	// out the same: the abandoned game, listed beside the finished one,
	// counts its moves and no game.
	if err := s.update(ctx, recountTallies); err != nil {
		t.Fatal(err)
	}
	t.Run("recounted", func(t *testing.T) { check(t, s) })
	// The ratings made again from the games: the same, byte for byte.
	if rb, err := s.RebuildRatings(ctx); err != nil || rb.Games != 1 || rb.Numbered != 0 {
		t.Fatalf("RebuildRatings = %+v, %v", rb, err)
	}
	t.Run("rebuilt", func(t *testing.T) { check(t, s) })
}

// TestAbandonUnrecoverable: a game abandoned without a reason (one the
// server could not resume) is not listed, even on request.
func TestAbandonUnrecoverable(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := newRand(8)
	opts := ruleSets()[0]
	eg, chunks := playGame(t, r, opts, 2, 3)
	g := storeGame(t, s, "t", seats(2), opts, eg, chunks)
	if err := s.Abandon(ctx, g.ID, time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	if gs, err := s.Games(ctx, Query{Abandoned: true}); err != nil || len(gs) != 0 {
		t.Errorf("Games = %d, %v; want none", len(gs), err)
	}
	got, _, err := s.Game(ctx, g.ID)
	if err != nil || got.Abandoned != nil || got.Winner != -1 || got.Ended.IsZero() {
		t.Errorf("Game = %+v, %v", got, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
