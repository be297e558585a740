package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

func stripAt(evs []engine.Event) []engine.Event {
	out := slices.Clone(evs)
	for i := range out {
		out[i].At = time.Time{}
	}
	return out
}

func TestCreateGame(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	bad := []Game{
		{Seats: seats(2), Rules: engine.DefaultOptions()},
		{Table: "t", Seats: seats(1), Rules: engine.DefaultOptions()},
		{Table: "t", Seats: seats(engine.MaxSeats + 1), Rules: engine.DefaultOptions()},
		{Table: "t", Seats: seats(2)},
		{Table: "t\x00", Seats: seats(2), Rules: engine.DefaultOptions()},
	}
	for _, g := range bad {
		if _, err := s.CreateGame(ctx, g); err == nil {
			t.Errorf("CreateGame(%+v) accepted", g)
		}
	}
	started := time.Date(2030, 1, 1, 12, 0, 0, 0, time.FixedZone("X", 3600))
	for i := 1; i <= 3; i++ {
		g, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions(), Started: started, Winner: 7})
		if err != nil {
			t.Fatal(err)
		}
		if g.ID != strconv.Itoa(i) || g.Winner != -1 || !g.Ended.IsZero() || !g.Started.Equal(started) {
			t.Errorf("game %d = %+v", i, g)
		}
	}
	s = reopen(t, s)
	g, evs, err := s.Game(ctx, "2")
	if err != nil || g.ID != "2" || len(evs) != 0 || g.Seats[1] != seats(2)[1] || g.Rules != engine.DefaultOptions() {
		t.Fatalf("Game(2) = %+v, %v, %v", g, evs, err)
	}
	for _, id := range []string{"4", "0", "x", "-1", ""} {
		if _, _, err := s.Game(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Game(%q): err = %v, want ErrNotFound", id, err)
		}
	}
	g, err = s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions()})
	if err != nil || g.ID != "4" {
		t.Errorf("after reopen: %+v, %v", g, err)
	}
}

func TestAppendChecks(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := newRand(1)
	opts := engine.DefaultOptions()
	eg, chunks := playGame(t, r, opts, 3, 0)
	all := flatten(chunks)
	gm, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(3), Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, gm.ID, all[:3], nil); err != nil {
		t.Fatal(err)
	}
	bad := func(evs ...engine.Event) []engine.Event { return evs }
	wrongSeat := all[3]
	wrongSeat.Seat, wrongSeat.Opener = 5, 5
	cases := []struct {
		name string
		id   string
		evs  []engine.Event
		res  *engine.Result
		want error
	}{
		{"unknown game", "99", all[3:4], nil, ErrNotFound},
		{"bad id", "abc", all[3:4], nil, ErrNotFound},
		{"restart at 1", gm.ID, all[0:2], nil, ErrSeq},
		{"repeat last", gm.ID, all[2:4], nil, ErrSeq},
		{"gap", gm.ID, all[4:6], nil, ErrSeq},
		{"not consecutive", gm.ID, bad(all[3], all[5]), nil, ErrSeq},
		{"seat out of range", gm.ID, bad(wrongSeat), nil, nil},
		{"unknown type", gm.ID, bad(engine.Event{Seq: 4, Type: "dance"}), nil, engine.ErrBadEvent},
		{"winner out of range", gm.ID, all[3:4], &engine.Result{Winner: 3}, nil},
		{"no winner", gm.ID, all[3:4], &engine.Result{Winner: -1}, nil},
	}
	for _, c := range cases {
		err := s.Append(ctx, c.id, c.evs, c.res)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "panic") {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.id == gm.ID && !strings.Contains(err.Error(), "append game "+gm.ID) {
			t.Errorf("%s: err = %q lacks context", c.name, err)
		}
	}
	_, got, _ := s.Game(ctx, gm.ID)
	if len(got) != 3 {
		t.Fatalf("after refused appends: %d events, want 3", len(got))
	}
	if err := s.Append(ctx, gm.ID, all[3:], resultOf(eg)); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, gm.ID, []engine.Event{{Seq: len(all) + 1, Type: engine.EvRound, Round: 99}}, nil); !errors.Is(err, ErrFinished) {
		t.Errorf("append after finish: err = %v, want ErrFinished", err)
	}
	if err := s.Append(ctx, gm.ID, nil, &engine.Result{Winner: 0}); !errors.Is(err, ErrFinished) {
		t.Errorf("finish twice: err = %v, want ErrFinished", err)
	}
	g, got, err := s.Game(ctx, gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stripAt(got), all) {
		t.Error("stored events differ from the engine's")
	}
	for _, e := range got {
		if e.At.IsZero() {
			t.Fatalf("seq %d has no time", e.Seq)
		}
	}
	if !g.Ended.Equal(got[len(got)-1].At) || g.Winner != eg.Winner() || !slices.Equal(g.Standings, eg.Standings()) {
		t.Errorf("finished game = %+v", g)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestGamesAndTallies stores many random games at several tables,
// concurrently, then checks every query against a brute-force answer, and
// every tally against a recount, before and after reopening.
func TestGamesAndTallies(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	players := seats(6)
	tables := []string{"Red", "blue", "green"}
	const n = 60

	type played struct {
		g      Game
		chunks [][]engine.Event
		eg     *engine.Game
	}
	var (
		mu   sync.Mutex
		all  []played
		wg   sync.WaitGroup
		errc = make(chan error, n)
	)
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := newRand(uint64(100 + w))
			for i := w; i < n; i += 6 {
				opts := ruleSets()[i%len(ruleSets())]
				opts.Lives = 1 + r.IntN(3)
				np := 2 + r.IntN(4)
				perm := r.Perm(len(players))[:np]
				st := make([]Seat, np)
				for j, p := range perm {
					st[j] = players[p]
				}
				max := 0
				if i%5 == 0 {
					max = 1 + r.IntN(6) // left in progress
				}
				eg, chunks := playGame(t, r, opts, np, max)
				gm, err := s.CreateGame(ctx, Game{Table: tables[i%3], Seats: st, Rules: opts})
				if err != nil {
					errc <- err
					return
				}
				for k, c := range chunks {
					var res *engine.Result
					if k == len(chunks)-1 {
						res = resultOf(eg)
					}
					if err := s.Append(ctx, gm.ID, c, res); err != nil {
						errc <- err
						return
					}
				}
				mu.Lock()
				all = append(all, played{gm, chunks, eg})
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	slices.SortFunc(all, func(a, b played) int {
		x, _ := strconv.Atoi(a.g.ID)
		y, _ := strconv.Atoi(b.g.ID)
		return y - x // newest first
	})

	check := func(t *testing.T, s *Store) {
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
		var games []Game
		var logs [][]engine.Event
		for _, p := range all {
			g, evs, err := s.Game(ctx, p.g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(stripAt(evs), flatten(p.chunks)) {
				t.Fatalf("game %s: events differ", p.g.ID)
			}
			if g.Finished() != p.eg.Over() || g.Table != p.g.Table || !slices.Equal(g.Seats, p.g.Seats) {
				t.Fatalf("game %s = %+v", p.g.ID, g)
			}
			games, logs = append(games, g), append(logs, evs)
		}
		ids := func(gs []Game) []string {
			var out []string
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return out
		}
		want := func(q Query) []string {
			var out []string
			for _, g := range games {
				if !g.Finished() || (q.Table != "" && !strings.EqualFold(g.Table, q.Table)) ||
					(q.Player != "" && !slices.ContainsFunc(g.Seats, func(s Seat) bool { return s.Person == q.Player })) {
					continue
				}
				if q.Before != "" {
					b, _ := strconv.Atoi(q.Before)
					if id, _ := strconv.Atoi(g.ID); id >= b {
						continue
					}
				}
				out = append(out, g.ID)
			}
			lim := q.Limit
			if lim <= 0 {
				lim = DefaultLimit
			}
			return out[:min(lim, len(out))]
		}
		queries := []Query{
			{},
			{Limit: 5},
			{Limit: 5, Before: "30"},
			{Table: "red"},
			{Table: "BLUE", Limit: 3},
			{Table: "blue", Before: "40", Limit: 4},
			{Table: "none"},
			{Player: players[0].Person},
			{Player: players[1].Person, Limit: 2, Before: "50"},
			{Player: players[2].Person, Table: "green"},
			{Player: "SHA256:nobody"},
			{Before: "1"},
			{Before: "999"},
		}
		for _, q := range queries {
			got, err := s.Games(ctx, q)
			if err != nil {
				t.Fatalf("Games(%+v): %v", q, err)
			}
			if w := want(q); !slices.Equal(ids(got), w) {
				t.Errorf("Games(%+v) = %v, want %v", q, ids(got), w)
			}
		}
		// Paging walks every finished game once.
		var paged []string
		for q := (Query{Limit: 7}); ; {
			page, err := s.Games(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			paged = append(paged, ids(page)...)
			q.Before = page[len(page)-1].ID
		}
		if w := want(Query{Limit: 1000}); !slices.Equal(paged, w) {
			t.Errorf("paging gave %v, want %v", paged, w)
		}
		ref := referenceTally(games, logs)
		for _, p := range players {
			got, err := s.Tally(ctx, p.Person)
			if err != nil {
				t.Fatal(err)
			}
			if got != ref[p.Person] {
				t.Errorf("tally of %s\n got %+v\nwant %+v", p.Person, got, ref[p.Person])
			}
			if got.Games == 0 {
				t.Errorf("player %s played no finished game: test too small", p.Person)
			}
		}
	}
	t.Run("open", func(t *testing.T) { check(t, s) })
	s = reopen(t, s)
	t.Run("reopened", func(t *testing.T) { check(t, s) })
	if _, err := s.Games(ctx, Query{Before: "x"}); err == nil {
		t.Error("Games with a bad Before accepted")
	}
}

func TestInProgress(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := newRand(7)
	opts := engine.DefaultOptions()

	type live struct {
		id string
		eg *engine.Game
	}
	var lives []live
	// Five games cut short, one finished normally.
	for i := 0; i < 6; i++ {
		max := 0
		if i < 5 {
			max = 3 + 7*i
		}
		eg, chunks := playGame(t, r, opts, 2+i%3, max)
		gm := storeGame(t, s, "t", seats(2+i%3), opts, eg, chunks)
		if i < 5 {
			lives = append(lives, live{gm.ID, eg})
		}
	}
	// A game whose log reached its end but whose result was not stored.
	eg, chunks := playGame(t, r, opts, 3, 0)
	endless, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(3), Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, endless.ID, flatten(chunks), nil); err != nil {
		t.Fatal(err)
	}
	// A game with no events (stopped right after CreateGame).
	empty, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	// A game whose log does not replay: a challenge's loser was changed.
	beg, bchunks := playGame(t, r, opts, 2, 12)
	if beg.Over() {
		t.Fatal("the game to damage ended early; pick another seed")
	}
	broken := storeGame(t, s, "t", seats(2), opts, beg, bchunks)
	bid, _ := parseID(broken.ID)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketEvents)
		c := b.Cursor()
		for k, v := c.Seek(u64(bid)); k != nil && string(k[:8]) == string(u64(bid)); k, v = c.Next() {
			var ev engine.Event
			if err := ev.UnmarshalJSON(v); err != nil {
				return err
			}
			if ev.Type != engine.EvChallenge {
				continue
			}
			if ev.Loser == ev.Seat { // the other one lost, says the file
				ev.Loser = ev.Claimant
			} else {
				ev.Loser = ev.Seat
			}
			nv, err := ev.MarshalJSON()
			if err != nil {
				return err
			}
			return b.Put(clone(k), nv)
		}
		return errors.New("no challenge to damage")
	}); err != nil {
		t.Fatal(err)
	}

	s = reopen(t, s)
	recs, err := s.InProgress(ctx)
	if err == nil || !strings.Contains(err.Error(), "recover game "+broken.ID+":") || !errors.Is(err, engine.ErrBadEvent) {
		t.Errorf("InProgress err = %v, want one naming game %s", err, broken.ID)
	}
	if err != nil && strings.Count(err.Error(), "recover game") != 1 {
		t.Errorf("InProgress err = %v, want exactly one game reported", err)
	}
	if len(recs) != len(lives) {
		t.Fatalf("InProgress gave %d games, want %d", len(recs), len(lives))
	}
	for i, rc := range recs {
		want := lives[i]
		if rc.Game.ID != want.id {
			t.Fatalf("game %d: ID %s, want %s", i, rc.Game.ID, want.id)
		}
		if rc.State.Seq() != want.eg.Seq() || len(rc.Events) != want.eg.Seq() ||
			fmt.Sprint(rc.State.View(engine.Spectator)) != fmt.Sprint(want.eg.View(engine.Spectator)) {
			t.Errorf("game %s: recovered state differs", rc.Game.ID)
		}
	}
	// The game that had reached its end is finished with the engine's result.
	g, evs, err := s.Game(ctx, endless.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() || g.Winner != eg.Winner() || !slices.Equal(g.Standings, eg.Standings()) || !g.Ended.Equal(evs[len(evs)-1].At) {
		t.Errorf("endless game after recovery = %+v", g)
	}
	if got, _ := s.Games(ctx, Query{Limit: 1}); len(got) != 1 || got[0].ID != endless.ID {
		t.Errorf("finished-by-recovery game not listed first: %v", got)
	}
	if tl, _ := s.Tally(ctx, seats(3)[eg.Winner()].Person); tl.Wins == 0 {
		t.Error("recovery did not count the win")
	}
	// The empty game is abandoned.
	if g, _, _ := s.Game(ctx, empty.ID); g.Ended.IsZero() || g.Winner != -1 || g.Finished() {
		t.Errorf("empty game = %+v, want abandoned", g)
	}

	// A recovered game goes on where it stopped, across another reopen.
	rc := recs[len(recs)-1]
	rr := newRand(99)
	for !rc.State.Over() {
		evs, err := rc.State.Apply(randomAction(rc.State, rr))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, rc.Game.ID, evs, resultOf(rc.State)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Abandon(ctx, broken.ID, time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	recs, err = s.InProgress(ctx)
	if err != nil || len(recs) != len(lives)-1 {
		t.Fatalf("second recovery: %d games, %v", len(recs), err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
