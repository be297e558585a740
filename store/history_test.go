package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
)

// TestHistoryFilters pages through the games a filter shows: a page of
// Limit games even when hidden games lie between, Before going on from a
// page's last game, the filter given each game's table record (nil when
// there is none), and GameShown agreeing. Who may see what is the lobby's
// rule; store/lobbystore tests it on this store.
func TestHistoryFilters(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"pub", "club"} {
		if err := s.CreateTable(ctx, table(name)); err != nil {
			t.Fatal(err)
		}
	}
	play := func(tableName string, at time.Time) string {
		t.Helper()
		g, err := s.CreateGame(ctx, Game{Table: tableName, Seats: seats(2), Rules: engine.DefaultOptions(), Started: at})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	var pub, club []string // newest last
	for i := range 30 {
		at := t0.Add(time.Duration(i) * time.Minute)
		if i%5 == 0 {
			pub = append(pub, play("pub", at))
		} else {
			club = append(club, play("club", at))
		}
	}
	gone := play("gone", t0.Add(time.Hour)) // no table record
	var noRecord []string
	hideClub := func(g Game, tb *TableRecord) bool {
		if tb == nil {
			noRecord = append(noRecord, g.ID)
			return true
		}
		if fold(tb.Name) != fold(g.Table) {
			t.Errorf("game %s of %s given the record of %s", g.ID, g.Table, tb.Name)
		}
		return tb.Name != "club"
	}
	rev := func(ids ...string) []string { out := slices.Clone(ids); slices.Reverse(out); return out }
	ids := func(keep GameFilter, q Query) []string {
		t.Helper()
		gs, err := s.History(ctx, q, keep)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	shown := append([]string{gone}, rev(pub...)...)
	cases := []struct {
		name string
		keep GameFilter
		q    Query
		want []string
	}{
		{"the shown games only", hideClub, Query{Limit: 100}, shown},
		{"a page skips hidden games", hideClub, Query{Limit: 3}, shown[:3]},
		{"the next page", hideClub, Query{Limit: 3, Before: shown[2]}, shown[3:6]},
		{"the last page", hideClub, Query{Limit: 3, Before: shown[5]}, shown[6:]},
		{"a hidden table", hideClub, Query{Table: "CLUB"}, []string{}},
		{"no filter shows all", nil, Query{Table: "club", Limit: 2}, rev(club...)[:2]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ids(c.keep, c.q); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	if !slices.Contains(noRecord, gone) {
		t.Errorf("the game without a table record was not given a nil record: %v", noRecord)
	}
	for _, c := range []struct {
		id   string
		keep GameFilter
		want bool
	}{{club[0], hideClub, false}, {pub[0], hideClub, true}, {gone, hideClub, true}, {club[0], nil, true}} {
		g, _, err := s.Game(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := s.GameShown(ctx, g, c.keep); err != nil || ok != c.want {
			t.Errorf("GameShown(%s) = %v, %v; want %v", c.id, ok, err, c.want)
		}
	}
}

func TestRounds(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := newRand(5)
	var ids []string
	var want []int
	for i := range 5 {
		opts := engine.DefaultOptions()
		opts.Lives = 2
		g, chunks := playGame(t, r, opts, 2+i%3, 0)
		gm := storeGame(t, s, "t", seats(g.Players()), opts, g, chunks)
		ids = append(ids, gm.ID)
		want = append(want, g.Round())
	}
	empty, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, empty.ID, "999", "x")
	want = append(want, 0, 0, 0)
	got, err := s.Rounds(ctx, ids)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Rounds(%v) = %v, %v; want %v", ids, got, err, want)
	}
}

func TestNewMethodsCheckTheContext(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	checks := map[string]error{}
	all := func(Game, *TableRecord) bool { return true }
	_, checks["History"] = s.History(ctx, Query{}, all)
	_, checks["Rounds"] = s.Rounds(ctx, []string{"1"})
	_, checks["GameShown"] = s.GameShown(ctx, Game{Table: "t"}, all)
	_, checks["Rating"] = s.Rating(ctx, "x", Board{})
	_, checks["Leaderboard"] = s.Leaderboard(ctx, BoardQuery{Limit: 1})
	_, checks["Seasons"] = s.Seasons(ctx, nil, rating.Monthly)
	_, _, checks["Champion"] = s.Champion(ctx, Board{})
	_, checks["GameRatings"] = s.GameRatings(ctx, "1")
	_, checks["Trend"] = s.Trend(ctx, "x", nil, 5)
	_, checks["SeatRatings"] = s.SeatRatings(ctx, "t", nil)
	_, checks["RebuildRatings"] = s.RebuildRatings(ctx)
	_, checks["PublicTally"] = s.PublicTally(ctx, "x")
	checks["Ban"] = s.Ban(ctx, Ban{Key: "x"})
	checks["Unban"] = s.Unban(ctx, "x")
	_, checks["Banned"] = s.Banned(ctx, "x")
	_, checks["Bans"] = s.Bans(ctx)
	for name, err := range checks {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
	}
}

// A closed table's record moves aside when its name is used again:
// TableRecords lists both, RecordAt picks the one each game was played
// at, and History and GameShown hand that record to the filter, across a
// reopen too.
func TestClosedTableRecordsAfterNameReused(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(host string, at time.Time) {
		t.Helper()
		tb := table("g2")
		tb.Host, tb.Created = host, at
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	play := func(at time.Time) string {
		t.Helper()
		g, err := s.CreateGame(ctx, Game{Table: "g2", Seats: seats(2), Rules: engine.DefaultOptions(), Started: at})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	closeAt := func(at time.Time) {
		t.Helper()
		if err := s.UpdateTable(ctx, "G2", func(tb *TableRecord) error { tb.Closed = at; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	mk("SHA256:first", t0)
	first := play(t0.Add(time.Minute))
	closeAt(t0.Add(time.Hour))
	mk("SHA256:second", t0.Add(2*time.Hour))
	second := play(t0.Add(3 * time.Hour))
	closeAt(t0.Add(4 * time.Hour))
	mk("SHA256:third", t0.Add(5*time.Hour))
	s = reopen(t, s)

	recs, err := s.TableRecords(ctx, "g2")
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, r := range recs {
		hosts = append(hosts, r.Host)
	}
	if want := []string{"SHA256:first", "SHA256:second", "SHA256:third"}; !slices.Equal(hosts, want) {
		t.Fatalf("TableRecords hosts %v, want %v", hosts, want)
	}
	if recs[0].IsOpen() || recs[1].IsOpen() || !recs[2].IsOpen() {
		t.Errorf("open: %v %v %v", recs[0].IsOpen(), recs[1].IsOpen(), recs[2].IsOpen())
	}
	for _, c := range []struct {
		at   time.Time
		want string // host; "" for none
	}{
		{t0.Add(-time.Minute), "SHA256:first"}, // older than every record: the oldest
		{t0, "SHA256:first"},
		{t0.Add(time.Minute), "SHA256:first"},
		{t0.Add(3 * time.Hour), "SHA256:second"},
		{t0.Add(6 * time.Hour), "SHA256:third"},
	} {
		got := ""
		if r := RecordAt(recs, c.at); r != nil {
			got = r.Host
		}
		if got != c.want {
			t.Errorf("RecordAt(%s) is %q's, want %q's", c.at.Format(time.Kitchen), got, c.want)
		}
	}
	if recs, err := s.TableRecords(ctx, "never"); err != nil || len(recs) != 0 {
		t.Errorf("TableRecords(never) = %v, %v", recs, err)
	}

	// The filter is handed each game's own table.
	hostOf := map[string]string{}
	keep := func(g Game, t *TableRecord) bool {
		if t != nil {
			hostOf[g.ID] = t.Host
		}
		return true
	}
	gs, err := s.History(ctx, Query{Table: "g2"}, keep)
	if err != nil || len(gs) != 2 {
		t.Fatalf("History = %v, %v", gs, err)
	}
	if hostOf[first] != "SHA256:first" || hostOf[second] != "SHA256:second" {
		t.Errorf("History's filter saw the tables of %v", hostOf)
	}
	clear(hostOf)
	g, _, err := s.Game(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.GameShown(ctx, g, keep); !ok || err != nil || hostOf[first] != "SHA256:first" {
		t.Errorf("GameShown = %v, %v; its filter saw %v", ok, err, hostOf)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
