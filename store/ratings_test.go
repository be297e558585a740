package store

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
)

func TestPlaces(t *testing.T) {
	cases := []struct {
		n         int
		standings []int
		winner    int
		want      []int
	}{
		{3, []int{2, 0, 1}, 2, []int{1, 2, 0}},
		{3, nil, 1, []int{1, 0, 1}},
		{3, []int{1}, 1, []int{1, 0, 1}},
		{2, []int{0, 0, 1}, 0, []int{0, 2}},
	}
	for _, c := range cases {
		if got := places(c.n, c.standings, c.winner); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("places(%d, %v, %d) = %v, want %v", c.n, c.standings, c.winner, got, c.want)
		}
	}
}

// finishGame stores a game with no events whose result is the standings,
// started now.
func finishGame(t testing.TB, s *Store, table string, st []Seat, standings []int) Game {
	t.Helper()
	return finishGameAt(t, s, table, st, standings, time.Time{}, time.Time{})
}

// finishGameAt is finishGame started and ended when given (zero: now).
func finishGameAt(t testing.TB, s *Store, table string, st []Seat, standings []int, started, ended time.Time) Game {
	t.Helper()
	ctx := context.Background()
	g, err := s.CreateGame(ctx, Game{Table: table, Seats: st, Rules: engine.DefaultOptions(), Started: started})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, nil, &engine.Result{Ended: ended, Winner: standings[0], Standings: standings}); err != nil {
		t.Fatal(err)
	}
	return g
}

// createTable stores a table, public or private, created at `at`.
func createTable(t testing.TB, s *Store, name string, private bool, at time.Time) TableRecord {
	t.Helper()
	tb := table(name)
	tb.Private, tb.Created = private, at
	if err := s.CreateTable(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	got, err := s.Table(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// persons are the seats' person ids.
func persons(st []Seat) []string {
	out := make([]string, len(st))
	for i, s := range st {
		out[i] = s.Person
	}
	return out
}

func TestRatings(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	a := createTable(t, s, "a", false, time.Time{})
	b := createTable(t, s, "b", false, time.Time{})
	ss := seats(4) // p0 … p3
	strong, err := s.SetName(ctx, ss[0].Fingerprint, "strong")
	if err != nil {
		t.Fatal(err)
	}
	ss[0].Person = strong.ID
	get := func(i int, board Board) Rating {
		t.Helper()
		r, err := s.Rating(ctx, ss[i].Person, board)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	overall, atA, atB := Board{Season: rating.AllTime}, Board{Table: &a, Season: rating.AllTime}, Board{Table: &b, Season: rating.AllTime}
	if r := get(3, overall); r.Rating != rating.Newcomer() || r.Games != 0 || r.Wins != 0 {
		t.Fatalf("unrated player: %+v", r)
	}
	// The same games, folded through a ladder: what the store must hold.
	want := rating.NewLadder[string](rating.Default)
	trio := ss[:3]
	for range 10 {
		finishGame(t, s, "a", trio, []int{0, 1, 2})
		if _, err := want.Play(persons(trio), []int{0, 1, 2}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range trio {
		if r := get(i, overall); r.Rating != want.Rating(ss[i].Person) {
			t.Errorf("p%d overall = %+v, want %+v", i, r.Rating, want.Rating(ss[i].Person))
		}
		if r := get(i, atA); r.Rating != want.Rating(ss[i].Person) {
			t.Errorf("p%d at a = %+v, want the overall %+v", i, r.Rating, want.Rating(ss[i].Person))
		}
	}
	r0, r1, r2 := get(0, overall), get(1, overall), get(2, overall)
	if !(r0.Points() > r1.Points() && r1.Points() > r2.Points()) {
		t.Errorf("figures not in the order of results: %d %d %d", r0.Points(), r1.Points(), r2.Points())
	}
	if r0.Games != 10 || r0.Wins != 10 || r1.Wins != 0 || r0.Name != "strong" {
		t.Errorf("p0 = %+v", r0)
	}
	// At b, p3 (new) beats p0: b knows only that game.
	finishGame(t, s, "b", []Seat{ss[0], ss[3]}, []int{1, 0})
	if _, err := want.Play([]string{ss[0].Person, ss[3].Person}, []int{1, 0}); err != nil {
		t.Fatal(err)
	}
	fresh := rating.NewLadder[string](rating.Default)
	_, _ = fresh.Play([]string{ss[0].Person, ss[3].Person}, []int{1, 0})
	if r := get(3, atB); r.Rating != fresh.Rating(ss[3].Person) || r.Wins != 1 {
		t.Errorf("p3 at b = %+v, want %+v", r, fresh.Rating(ss[3].Person))
	}
	if r := get(3, overall); r.Rating != want.Rating(ss[3].Person) || !r.Provisional() {
		t.Errorf("p3 overall = %+v, want %+v, provisional", r, want.Rating(ss[3].Person))
	}
	lb, err := s.Leaderboard(ctx, BoardQuery{Board: overall})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range lb {
		order = append(order, r.Name)
	}
	byPerson := map[string]string{ss[0].Person: "strong", ss[1].Person: "p1", ss[2].Person: "p2", ss[3].Person: "p3"}
	ids := slices.Collect(maps.Keys(byPerson))
	slices.SortFunc(ids, func(x, y string) int { return rating.Compare(want.Rating(x), want.Rating(y)) })
	var expect []string
	for _, id := range ids {
		expect = append(expect, byPerson[id])
	}
	if !slices.Equal(order, expect) {
		t.Errorf("leaderboard %v, want %v", order, expect)
	}
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: atA, Limit: 2}); len(lb) != 2 || lb[0].Name != "strong" || lb[1].Person != ss[1].Person {
		t.Errorf("leaderboard at a, 2: %+v", lb)
	}
	gone := table("nowhere")
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: Board{Table: &gone}}); len(lb) != 0 {
		t.Errorf("leaderboard of an unknown table: %+v", lb)
	}
	// A rename shows at once.
	if _, err := s.SetName(ctx, ss[0].Fingerprint, "renamed"); err != nil {
		t.Fatal(err)
	}
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: overall, Limit: 1}); lb[0].Name != "renamed" {
		t.Errorf("leaderboard after a rename: %+v", lb)
	}
	// Each game's changes, and the trend.
	g := finishGame(t, s, "a", []Seat{ss[1], ss[2]}, []int{1, 0})
	gr, err := s.GameRatings(ctx, g.ID)
	if err != nil || gr.Seq != 12 || len(gr.Overall) != 2 || len(gr.Table) != 2 {
		t.Fatalf("GameRatings = %+v, %v", gr, err)
	}
	if gr.Overall[1].After != get(2, overall).Rating || gr.Overall[1].Points() <= 0 || gr.Overall[0].Points() >= 0 {
		t.Errorf("changes %+v; p2 now %+v", gr.Overall, get(2, overall))
	}
	if _, err := s.GameRatings(ctx, "999"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GameRatings of no game: %v", err)
	}
	trend, err := s.Trend(ctx, ss[2].Person, nil, 5)
	if err != nil || len(trend) != 5 || trend[4].Game != g.ID || trend[4].After != get(2, overall).Rating ||
		trend[3].After != trend[4].Before {
		t.Errorf("trend %+v, %v", trend, err)
	}
	if tb, _ := s.Trend(ctx, ss[3].Person, &b, 5); len(tb) != 1 {
		t.Errorf("trend at b: %+v", tb)
	}
	sr, err := s.SeatRatings(ctx, "a", []string{ss[0].Person, ss[3].Person, "test:new"})
	if err != nil || sr.AtTable || sr.Ratings[0] != get(0, overall).Rating || sr.Ratings[2] != rating.Newcomer() || len(sr.Chances) != 3 ||
		!(sr.Chances[0] > sr.Chances[2]) {
		t.Errorf("SeatRatings = %+v, %v", sr, err)
	}
}

// A person in two seats of one game (no door allows it): the game is
// rated for nobody, keeps its finishing number and counts once in the
// tallies.
func TestRatingsSamePersonTwice(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	createTable(t, s, "a", false, time.Time{})
	ss := seats(2)
	g := finishGame(t, s, "a", []Seat{ss[0], ss[1], ss[0]}, []int{0, 1, 2})
	for _, p := range ss {
		if r, _ := s.Rating(ctx, p.Person, Board{}); r.Games != 0 {
			t.Errorf("%s rated: %+v", p.Person, r)
		}
	}
	gr, err := s.GameRatings(ctx, g.ID)
	if err != nil || gr.Seq != 1 || gr.Shown() != nil {
		t.Errorf("GameRatings = %+v, %v", gr, err)
	}
	if tl, _ := s.Tally(ctx, ss[0].Person); tl.Games != 1 || tl.Wins != 1 {
		t.Errorf("tally %+v", tl)
	}
	finishGame(t, s, "a", ss, []int{0, 1})
	if r, _ := s.Rating(ctx, ss[0].Person, Board{}); r.Games != 1 || r.Rating.Games != 1 {
		t.Errorf("after a fair game: %+v", r)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// A person's rating counts the games they played in a bot's seat; Bot
// holds only when every one was; the boards filter by it.
func TestRatingsBotSeats(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	createTable(t, s, "a", false, time.Time{})
	b := createTable(t, s, "b", false, time.Time{})
	ss := seats(2)
	asBot := ss[0]
	asBot.Bot = true
	finishGame(t, s, "a", []Seat{asBot, ss[1]}, []int{0, 1})
	r, _ := s.Rating(ctx, ss[0].Person, Board{})
	if r.Games != 1 || r.BotGames != 1 || !r.Bot() {
		t.Errorf("after a game as a bot: %+v (bot %v)", r, r.Bot())
	}
	kinds := func(k BoardKind) []string {
		rs, err := s.Leaderboard(ctx, BoardQuery{Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return out
	}
	if p, bs, all := kinds(People), kinds(Bots), kinds(Everyone); !slices.Equal(p, []string{"p1"}) || !slices.Equal(bs, []string{"p0"}) || len(all) != 2 {
		t.Errorf("people %v, bots %v, everyone %v", p, bs, all)
	}
	finishGame(t, s, "b", []Seat{ss[0], ss[1]}, []int{1, 0})
	r, _ = s.Rating(ctx, ss[0].Person, Board{})
	if r.Games != 2 || r.BotGames != 1 || r.Bot() {
		t.Errorf("after a game by screen: %+v (bot %v)", r, r.Bot())
	}
	if rb, _ := s.Rating(ctx, ss[0].Person, Board{Table: &b}); rb.BotGames != 0 || rb.Games != 1 {
		t.Errorf("at b: %+v", rb)
	}
	if bs := kinds(Bots); len(bs) != 0 {
		t.Errorf("bots after a game by screen: %v", bs)
	}
}

// A private table's games move only its own board, never the overall
// boards or the tallies everyone reads, not even while they run; its
// board and its figures stay with its record when a public table takes
// its name.
func TestRatingsPrivate(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	createTable(t, s, "pub", false, t0)
	secret := createTable(t, s, "secret", true, t0)
	ss := seats(3)
	finishGameAt(t, s, "pub", ss[:2], []int{0, 1}, t0.Add(time.Minute), t0.Add(2*time.Minute))
	before := snapshot(t, s)
	pubTally, _ := s.PublicTally(ctx, ss[0].Person)

	// A private game, event by event, then its result.
	r := newRand(5)
	eg, chunks := playGame(t, r, engine.DefaultOptions(), 3, 0)
	g, err := s.CreateGame(ctx, Game{Table: "secret", Seats: ss, Rules: engine.DefaultOptions(), Started: t0.Add(3 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range chunks {
		var res *engine.Result
		if i == len(chunks)-1 {
			res = resultOf(eg)
		}
		if err := s.Append(ctx, g.ID, c, res); err != nil {
			t.Fatal(err)
		}
		for _, p := range ss {
			if pt, _ := s.PublicTally(ctx, p.Person); p.Person == ss[0].Person && pt != pubTally {
				t.Fatalf("event %d of a private game moved %s's public tally: %+v → %+v", i, p.Person, pubTally, pt)
			}
		}
	}
	after := snapshot(t, s)
	for k, v := range before {
		if bytes.HasPrefix([]byte(k), []byte("boards\x00\x00")) && after[k] != v {
			t.Errorf("the private game moved the overall board: %q", k)
		}
	}
	for k := range after {
		if bytes.HasPrefix([]byte(k), []byte("boards\x00\x00")) && before[k] == "" {
			t.Errorf("the private game added to the overall board: %q", k)
		}
	}
	if all, _ := s.Tally(ctx, ss[2].Person); all.Games != 1 {
		t.Errorf("the person's own tally misses the private game: %+v", all)
	}
	if pt, _ := s.PublicTally(ctx, ss[2].Person); pt != (Tally{}) {
		t.Errorf("public tally of a private player: %+v", pt)
	}
	atSecret := Board{Table: &secret}
	board, _ := s.Leaderboard(ctx, BoardQuery{Board: atSecret})
	if len(board) != 3 {
		t.Fatalf("the private table's board: %+v", board)
	}
	gr, _ := s.GameRatings(ctx, g.ID)
	if gr.Overall != nil || len(gr.Table) != 3 || len(gr.Shown()) != 3 {
		t.Errorf("a private game's changes: %+v", gr)
	}
	if sr, _ := s.SeatRatings(ctx, "secret", persons(ss)); !sr.AtTable || sr.Ratings[0] != board[slices.IndexFunc(board, func(r Rating) bool { return r.Person == ss[0].Person })].Rating {
		t.Errorf("seat ratings at the private table: %+v", sr)
	}

	// The table closes; a public table takes its name. Its board is its
	// own: empty, then only its own games.
	if err := s.UpdateTable(ctx, "secret", func(tb *TableRecord) error { tb.Closed = t0.Add(time.Hour); return nil }); err != nil {
		t.Fatal(err)
	}
	reused := createTable(t, s, "SECRET", false, t0.Add(2*time.Hour))
	if reused.Created.Equal(secret.Created) {
		t.Fatal("the new table has the old one's creation")
	}
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: Board{Table: &reused}}); len(lb) != 0 {
		t.Errorf("the new public table shows the closed private table's board: %+v", lb)
	}
	if r, _ := s.Rating(ctx, ss[0].Person, Board{Table: &reused}); r.Games != 0 || r.Wins != 0 {
		t.Errorf("the new table shows the old one's rating: %+v", r)
	}
	if sr, _ := s.SeatRatings(ctx, "secret", persons(ss)); sr.AtTable || sr.Ratings[2] != rating.Newcomer() {
		t.Errorf("seat ratings at the new public table: %+v", sr)
	}
	finishGameAt(t, s, "secret", ss[1:], []int{0, 1}, t0.Add(3*time.Hour), t0.Add(3*time.Hour+time.Minute))
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: Board{Table: &reused}}); len(lb) != 2 || lb[0].Games != 1 {
		t.Errorf("the new table's board: %+v", lb)
	}
	if lb, _ := s.Leaderboard(ctx, BoardQuery{Board: atSecret}); len(lb) != 3 || lb[0].Games != 1 {
		t.Errorf("the closed table's board changed: %+v", lb)
	}
	// The new public table's game counts overall: ss[2] now there.
	if r, _ := s.Rating(ctx, ss[2].Person, Board{}); r.Games != 1 {
		t.Errorf("the public game at the reused name: %+v", r)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// A game that began in one season and ended in the next counts in the one
// it ended in, month and week alike; seasons are listed and a season's
// champion kept.
func TestRatingsSeasonBoundary(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	createTable(t, s, "a", false, t0)
	ss := seats(3)
	p0, err := s.SetName(ctx, ss[0].Fingerprint, "p0")
	if err != nil {
		t.Fatal(err)
	}
	ss[0].Person = p0.ID
	// May: p0 beats p1 twice.
	finishGameAt(t, s, "a", ss[:2], []int{0, 1}, t0.Add(24*time.Hour), t0.Add(25*time.Hour))
	finishGameAt(t, s, "a", ss[:2], []int{0, 1}, t0.Add(48*time.Hour), t0.Add(49*time.Hour))
	// 31 May 23:58 to 1 June 00:03 (a Monday: a new month and a new ISO
	// week): p1 beats p2.
	start := time.Date(2026, 5, 31, 23, 58, 0, 0, time.UTC)
	end := time.Date(2026, 6, 1, 0, 3, 0, 0, time.UTC)
	finishGameAt(t, s, "a", ss[1:], []int{0, 1}, start, end)

	may, june := rating.Monthly.Of(start), rating.Monthly.Of(end)
	w22, w23 := rating.Weekly.Of(start), rating.Weekly.Of(end)
	if may.String() != "2026-05" || june.String() != "2026-06" || w22.String() != "2026-W22" || w23.String() != "2026-W23" {
		t.Fatalf("seasons %v %v %v %v", may, june, w22, w23)
	}
	count := func(season rating.Season) map[string]int {
		rs, err := s.Leaderboard(ctx, BoardQuery{Board: Board{Season: season}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, r := range rs {
			out[r.Name] = r.Games
		}
		return out
	}
	if got := count(may); !maps.Equal(got, map[string]int{"p0": 2, "p1": 2}) {
		t.Errorf("May: %v", got)
	}
	if got := count(june); !maps.Equal(got, map[string]int{"p1": 1, "p2": 1}) {
		t.Errorf("June: %v", got)
	}
	if got := count(w23); !maps.Equal(got, map[string]int{"p1": 1, "p2": 1}) {
		t.Errorf("week 23: %v", got)
	}
	if got := count(rating.AllTime); !maps.Equal(got, map[string]int{"p0": 2, "p1": 3, "p2": 1}) {
		t.Errorf("all time: %v", got)
	}
	// A season starts from its own games: p1 is a newcomer in June.
	fresh := rating.NewLadder[string](rating.Default)
	_, _ = fresh.Play([]string{"p1", "p2"}, []int{0, 1})
	if r, _ := s.Rating(ctx, ss[1].Person, Board{Season: june}); r.Rating != fresh.Rating("p1") {
		t.Errorf("p1 in June = %+v, want %+v", r.Rating, fresh.Rating("p1"))
	}
	months, err := s.Seasons(ctx, nil, rating.Monthly)
	if err != nil || !slices.Equal(months, []rating.Season{june, may}) {
		t.Errorf("months %v, %v", months, err)
	}
	if weeks, _ := s.Seasons(ctx, nil, rating.Weekly); !slices.Equal(weeks, []rating.Season{w23, rating.Weekly.Of(t0.Add(24 * time.Hour))}) {
		t.Errorf("weeks %v", weeks)
	}
	if off, _ := s.Seasons(ctx, nil, rating.Off); len(off) != 0 {
		t.Errorf("seasons of off: %v", off)
	}
	champ, ok, err := s.Champion(ctx, Board{Season: may})
	if err != nil || !ok || champ.Name != "p0" {
		t.Errorf("May's champion: %+v %v %v", champ, ok, err)
	}
	if _, ok, _ := s.Champion(ctx, Board{Season: rating.Monthly.Of(t0.AddDate(0, -1, 0))}); ok {
		t.Error("a champion of a season without games")
	}
	// A rename reaches a remembered champion.
	if _, err := s.SetName(ctx, ss[0].Fingerprint, "zed"); err != nil {
		t.Fatal(err)
	}
	if c, _, _ := s.Champion(ctx, Board{Season: may}); c.Name != "zed" || c.Person != champ.Person {
		t.Errorf("after a rename: %+v", c)
	}
}

// snapshot is every key and value of the ratings' buckets and the meta
// stamp, as "bucket 0x00 key" -> value.
func snapshot(t testing.TB, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketBoards, bucketRatingGames, bucketFinishOrder} {
			err := tx.Bucket(b).ForEach(func(k, v []byte) error {
				out[string(b)+"\x00"+string(k)] = string(v)
				return nil
			})
			if err != nil {
				return err
			}
		}
		out["meta\x00ratings"] = string(tx.Bucket(bucketMeta).Get(keyRatings))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// randomHistory stores n random finished games through the store, from
// many goroutines (so the order they finish in is not the order they were
// made in, nor the order they ended in), at a public table, a private
// one, a private table closed and its name used again by a public one,
// and a table without a record; over five months. Now and then one
// person holds two seats. It returns the games by id and their tables'
// records.
func randomHistory(t testing.TB, s *Store, n int) (map[string]Game, map[string]*TableRecord) {
	t.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	reuse := t0.Add(60 * 24 * time.Hour)
	pub := createTable(t, s, "pub", false, t0)
	club := createTable(t, s, "club", true, t0)
	old := createTable(t, s, "secret", true, t0)
	if err := s.UpdateTable(ctx, "secret", func(tb *TableRecord) error { tb.Closed = reuse; return nil }); err != nil {
		t.Fatal(err)
	}
	old.Closed = reuse
	neu := createTable(t, s, "secret", false, reuse)
	pool := seats(40)
	r := newRand(26)
	type plan struct {
		g   Game
		res engine.Result
	}
	plans := make([]plan, n)
	for i := range plans {
		np := 2 + r.IntN(5)
		st := make([]Seat, 0, np)
		for _, j := range r.Perm(len(pool))[:np] {
			p := pool[j]
			p.Bot = j%7 == 0
			st = append(st, p)
		}
		if r.IntN(200) == 0 {
			st = append(st, st[0]) // one person in two seats
		}
		started := t0.Add(time.Duration(r.Int64N(int64(150 * 24 * time.Hour))))
		tbl := []string{"pub", "pub", "club", "secret", "ghost"}[r.IntN(5)]
		standings := r.Perm(len(st))
		if r.IntN(10) == 0 {
			standings = standings[:1+r.IntN(len(st)-1)] // players left out share the last place
		}
		plans[i] = plan{
			g:   Game{Table: tbl, Seats: st, Rules: engine.DefaultOptions(), Started: started},
			res: engine.Result{Ended: started.Add(time.Duration(r.Int64N(int64(40 * time.Minute)))), Winner: standings[0], Standings: standings},
		}
	}
	var (
		mu    sync.Mutex
		games = map[string]Game{}
		next  atomic.Int64
		wg    sync.WaitGroup
	)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				p := plans[i]
				g, err := s.CreateGame(ctx, p.g)
				if err != nil {
					t.Error(err)
					return
				}
				res := p.res
				if err := s.Append(ctx, g.ID, nil, &res); err != nil {
					t.Error(err)
					return
				}
				g.Ended, g.Winner, g.Standings = res.Ended, res.Winner, res.Standings
				mu.Lock()
				games[g.ID] = g
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return games, map[string]*TableRecord{"pub": &pub, "club": &club, "secret old": &old, "secret": &neu}
}

// rebuildGames is how many games TestRebuildEqualsLive rates: CI's long
// runs rate 10,000 (.ci/run), go test a share of them.
var rebuildGames = flag.Int("rebuild-games", 2000, "how many random games TestRebuildEqualsLive rates")

// TestRebuildEqualsLive: random games (10,000 in CI) rated live through the store
// give, byte for byte, what a rebuild gives, what a reopen after a change
// of model (the stamp) gives, and what folding the same games through the
// model's ladders gives, on every board in every season.
func TestRebuildEqualsLive(t *testing.T) {
	n := *rebuildGames
	if testing.Short() {
		n = 1000
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	games, tables := randomHistory(t, s, n)
	live := snapshot(t, s)
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}

	rb, err := s.RebuildRatings(ctx)
	if err != nil || rb.Games != n || rb.Numbered != 0 || rb.Stamp != RatingsStamp() {
		t.Fatalf("RebuildRatings = %+v, %v", rb, err)
	}
	sameSnapshot(t, "rebuild", live, snapshot(t, s))

	// Another model's ratings: Open rebuilds them.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyRatings, []byte("boards 1; elo k=32"))
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	sameSnapshot(t, "reopen", live, snapshot(t, s))

	// The same games folded through ladders, in their finishing order,
	// by the rule of which board each counts on.
	order := make([]string, n)
	for k, v := range live {
		if name, seq, ok := bytes.Cut([]byte(k), []byte{0}); ok && string(name) == "finish_order" {
			order[int(u64from(seq))-1] = fmt.Sprint(u64from([]byte(v)))
		}
	}
	ladders := map[string]*rating.Ladder[string]{}
	play := func(board string, season rating.Season, g Game) {
		key := board + "|" + season.String()
		l := ladders[key]
		if l == nil {
			l = rating.NewLadder[string](rating.Default)
			ladders[key] = l
		}
		ps := make([]string, len(g.Seats))
		for i, st := range g.Seats {
			ps[i] = st.Person
		}
		if _, err := l.Play(ps, places(len(ps), g.Standings, g.Winner)); err != nil && !errors.Is(err, rating.ErrDuplicate) {
			t.Fatal(err)
		}
	}
	reuse := tables["secret"].Created
	for _, id := range order {
		g := games[id]
		var boards []string
		switch {
		case g.Table == "pub":
			boards = []string{"overall", "pub"}
		case g.Table == "club":
			boards = []string{"club"}
		case g.Table == "secret" && g.Started.Before(reuse):
			boards = []string{"secret old"}
		case g.Table == "secret":
			boards = []string{"overall", "secret"}
		}
		for _, b := range boards {
			for _, season := range []rating.Season{rating.AllTime, rating.Monthly.Of(g.Ended), rating.Weekly.Of(g.Ended)} {
				play(b, season, g)
			}
		}
	}
	rows := 0
	for key, l := range ladders {
		board, name, _ := bytes.Cut([]byte(key), []byte("|"))
		season, err := rating.ParseSeason(string(name))
		if err != nil {
			t.Fatal(err)
		}
		b := Board{Table: tables[string(board)], Season: season}
		lb, err := s.Leaderboard(ctx, BoardQuery{Board: b})
		if err != nil {
			t.Fatal(err)
		}
		if len(lb) != l.Len() {
			t.Errorf("%s: %d rows, the fold has %d", key, len(lb), l.Len())
		}
		for _, r := range lb {
			if r.Rating != l.Rating(r.Person) {
				t.Errorf("%s: %s = %+v, the fold %+v", key, r.Person, r.Rating, l.Rating(r.Person))
			}
			rows++
		}
	}
	if len(ladders) < 4*(1+5+20) || rows < 1000 {
		t.Errorf("only %d boards and %d rows compared", len(ladders), rows)
	}
	t.Logf("%d games; %d boards and seasons, %d rows compared", n, len(ladders), rows)
}

func u64from(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

func sameSnapshot(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d keys, live %d", what, len(got), len(want))
	}
	diff := 0
	for k, v := range want {
		if got[k] != v {
			if diff++; diff <= 5 {
				t.Errorf("%s: %q differs", what, k)
			}
		}
	}
	if diff > 0 {
		t.Errorf("%s: %d keys differ from the live ratings", what, diff)
	}
}

// A file of an older server (finished games without finishing numbers,
// its Elo in the ratings bucket) is numbered in the order its games ended
// and rated on open.
func TestRatingsOfAnOlderFile(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	createTable(t, s, "a", false, t0)
	ss := seats(3)
	// Finished in this order, ended in another.
	ends := []time.Duration{3, 1, 2}
	pairs := [][]Seat{{ss[0], ss[1]}, {ss[1], ss[2]}, {ss[0], ss[2]}}
	var ids []string
	for i, e := range ends {
		g := finishGameAt(t, s, "a", pairs[i], []int{0, 1}, t0.Add(time.Hour), t0.Add(e*time.Hour))
		ids = append(ids, g.ID)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketBoards, bucketRatingGames, bucketFinishOrder} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		if _, err := tx.CreateBucket(bucketOldRatings); err != nil {
			return err
		}
		if err := tx.Bucket(bucketOldRatings).Put([]byte("\x00x"), []byte(`{"rating":1516}`)); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Delete(keyRatings)
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	for i, want := range []uint64{3, 1, 2} {
		gr, err := s.GameRatings(ctx, ids[i])
		if err != nil || gr.Seq != want {
			t.Errorf("game %s: %+v, %v; want finishing number %d", ids[i], gr, err, want)
		}
	}
	if err := s.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketOldRatings) != nil {
			return fmt.Errorf("the old ratings are still there")
		}
		return nil
	}); err != nil {
		t.Error(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestAbandonedGamesAreNotRated: a game that ended without a result gets
// no finishing number and moves no rating, live or in a rebuild: one
// abandoned because its table closed while it ran (Abandon with a reason,
// listed among the finished games, by table and by player) and one the
// server could not resume (no reason, not listed).
func TestAbandonedGamesAreNotRated(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	createTable(t, s, "a", false, t0)
	ss := seats(2)
	var cut []Game
	for i, why := range []*Abandonment{{Reason: AbandonClosed, By: ss[0].Person}, nil} {
		g, err := s.CreateGame(ctx, Game{Table: "a", Seats: ss, Rules: engine.DefaultOptions(), Started: t0.Add(time.Duration(i+1) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Abandon(ctx, g.ID, t0.Add(time.Hour), why); err != nil {
			t.Fatal(err)
		}
		cut = append(cut, g)
	}
	played := finishGameAt(t, s, "a", ss, []int{0, 1}, t0.Add(2*time.Hour), t0.Add(3*time.Hour))
	// The closed table's game is listed: finished, by table, by player.
	id, _ := parseID(cut[0].ID)
	if err := s.db.View(func(tx *bolt.Tx) error {
		listed := tx.Bucket(bucketFinished).Get(u64(id)) != nil && tx.Bucket(bucketByTable).Get(indexKey("a", id)) != nil
		for _, st := range ss {
			listed = listed && tx.Bucket(bucketByPlayer).Get(indexKey(st.Person, id)) != nil
		}
		if !listed {
			t.Error("the abandoned game is not listed in every index")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T) {
		for _, g := range cut {
			if _, err := s.GameRatings(ctx, g.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("the abandoned game %s's ratings: %v", g.ID, err)
			}
		}
		for _, st := range ss {
			r, err := s.Rating(ctx, st.Person, Board{Season: rating.AllTime})
			if err != nil || r.Games != 1 {
				t.Errorf("%s: %+v %v; want the one game played", st.Person, r, err)
			}
			pts, err := s.Trend(ctx, st.Person, nil, 10)
			if err != nil || len(pts) != 1 || pts[0].Game != played.ID {
				t.Errorf("%s's trend: %+v %v", st.Person, pts, err)
			}
		}
	}
	t.Run("live", check)
	live := snapshot(t, s)
	if got := len(live); got == 0 {
		t.Fatal("no ratings")
	}
	rb, err := s.RebuildRatings(ctx)
	if err != nil || rb.Games != 1 || rb.Numbered != 0 {
		t.Fatalf("RebuildRatings = %+v, %v", rb, err)
	}
	sameSnapshot(t, "rebuild", live, snapshot(t, s))
	t.Run("rebuilt", check)
	// A file whose ratings were made by no one (an older server's) is
	// rebuilt on open, numbering its finished games: the abandoned one
	// gets no number.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketFinishOrder); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Delete(keyRatings)
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	sameSnapshot(t, "rebuild on open", live, snapshot(t, s))
	t.Run("reopened", check)
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestKindNames: each kind of rows is named and read back by its name
// (leaderboard --json's "kind", the web's ?kind=); any other word is
// no kind.
func TestKindNames(t *testing.T) {
	for _, c := range []struct {
		kind BoardKind
		name string
	}{{Everyone, "everyone"}, {People, "people"}, {Bots, "bots"}} {
		if got := c.kind.String(); got != c.name {
			t.Errorf("%d names itself %q, want %q", c.kind, got, c.name)
		}
		if k, ok := ParseBoardKind(c.name); !ok || k != c.kind {
			t.Errorf("ParseKind(%q) = %d, %v", c.name, k, ok)
		}
	}
	if len(BoardKinds) != 3 {
		t.Errorf("Kinds: %v", BoardKinds)
	}
	for _, w := range []string{"", "People", "bot", "all", "kind(3)"} {
		if k, ok := ParseBoardKind(w); ok {
			t.Errorf("ParseKind(%q) = %d, a kind", w, k)
		}
	}
}
