package store

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mia-game/mia/engine"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestEloDeltas(t *testing.T) {
	cases := []struct {
		name   string
		before []float64
		place  []int
		want   []float64
	}{
		{"two equal", []float64{1500, 1500}, []int{0, 1}, []float64{16, -16}},
		{"two equal, reversed", []float64{1500, 1500}, []int{1, 0}, []float64{-16, 16}},
		{"three equal", []float64{1500, 1500, 1500}, []int{0, 1, 2}, []float64{16, 0, -16}},
		{"draw", []float64{1500, 1500}, []int{0, 0}, []float64{0, 0}},
		// 400 points apart: the favourite expects 10/11 of a win.
		{"favourite wins", []float64{1900, 1500}, []int{0, 1}, []float64{32.0 / 11, -32.0 / 11}},
		{"upset", []float64{1900, 1500}, []int{1, 0}, []float64{-320.0 / 11, 320.0 / 11}},
		{"one player", []float64{1500}, []int{0}, []float64{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := eloDeltas(c.before, c.place, nil)
			for i := range got {
				if !near(got[i], c.want[i]) {
					t.Fatalf("deltas = %v, want %v", got, c.want)
				}
			}
		})
	}
	// Zero-sum for any ratings and places, at most K per seat.
	r := newRand(3)
	for range 1000 {
		n := 2 + r.IntN(9)
		before, place := make([]float64, n), make([]int, n)
		for i := range before {
			before[i] = 1000 + 1000*r.Float64()
			place[i] = r.IntN(n)
		}
		sum := 0.0
		for _, d := range eloDeltas(before, place, nil) {
			sum += d
			if math.Abs(d) > EloK+1e-9 {
				t.Fatalf("a seat moved by %v > K", d)
			}
		}
		if math.Abs(sum) > 1e-9 {
			t.Fatalf("deltas of %v at %v sum to %v", before, place, sum)
		}
	}
}

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

// finishGame stores a game with no events whose result is the standings.
func finishGame(t testing.TB, s *Store, table string, st []Seat, standings []int) Game {
	t.Helper()
	ctx := context.Background()
	g, err := s.CreateGame(ctx, Game{Table: table, Seats: st, Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, nil, &Result{Winner: standings[0], Standings: standings}); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRatings(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ss := seats(4) // p0 … p3
	strong, err := s.SetName(ctx, ss[0].Fingerprint, "strong")
	if err != nil {
		t.Fatal(err)
	}
	ss[0].Person = strong.ID
	rating := func(i int, table string) Rating {
		t.Helper()
		r, err := s.Rating(ctx, ss[i].Person, table)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := rating(3, ""); r.Rating != StartRating || r.Games != 0 {
		t.Fatalf("unrated player: %+v", r)
	}
	// Three players, p0 always first, p1 second, p2 last, at table "a".
	trio := ss[:3]
	prev := StartRating
	for i := range 10 {
		finishGame(t, s, "a", trio, []int{0, 1, 2})
		sum := 0.0
		for j := range trio {
			sum += rating(j, "").Rating
		}
		if !near(sum, 3*StartRating) {
			t.Fatalf("game %d: ratings sum to %v, want %v (zero-sum)", i, sum, 3*StartRating)
		}
		r0 := rating(0, "")
		if r0.Rating <= prev {
			t.Fatalf("game %d: the winner's rating went from %v to %v", i, prev, r0.Rating)
		}
		prev = r0.Rating
	}
	r0, r1, r2 := rating(0, ""), rating(1, ""), rating(2, "")
	if !(r0.Rating > r1.Rating && r1.Rating > r2.Rating) {
		t.Errorf("ratings not in the order of results: %v %v %v", r0.Rating, r1.Rating, r2.Rating)
	}
	if r0.Games != 10 || r0.Wins != 10 || r1.Wins != 0 || r0.Name != "strong" {
		t.Errorf("p0 = %+v", r0)
	}
	// Per table: "a" holds the same; "b" knows only what happened there.
	if a := rating(0, "A"); !near(a.Rating, r0.Rating) || a.Games != 10 {
		t.Errorf("rating at a = %+v, overall %+v", a, r0)
	}
	// At b, p3 (new) beats p0 (strong overall, new at b): overall, p3
	// gains more than 16 (beat a stronger player), at b exactly 16.
	finishGame(t, s, "b", []Seat{ss[0], ss[3]}, []int{1, 0})
	if r3 := rating(3, ""); r3.Rating <= StartRating+16 {
		t.Errorf("beating a strong player earned %v, want more than 16", r3.Rating-StartRating)
	}
	if b3 := rating(3, "b"); !near(b3.Rating, StartRating+16) || b3.Games != 1 || b3.Wins != 1 {
		t.Errorf("rating at b = %+v", b3)
	}
	lb, err := s.Leaderboard(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range lb {
		order = append(order, r.Name)
	}
	if got := fmt.Sprint(order); got != "[strong p3 p1 p2]" {
		t.Errorf("leaderboard %s", got)
	}
	if lb, _ := s.Leaderboard(ctx, "a", 2); len(lb) != 2 || lb[0].Name != "strong" || lb[1].Person != ss[1].Person {
		t.Errorf("leaderboard at a, 2: %+v", lb)
	}
	if lb, _ := s.Leaderboard(ctx, "nowhere", 0); len(lb) != 0 {
		t.Errorf("leaderboard of an unknown table: %+v", lb)
	}
	// A rename shows at once.
	if _, err := s.SetName(ctx, ss[0].Fingerprint, "renamed"); err != nil {
		t.Fatal(err)
	}
	if lb, _ := s.Leaderboard(ctx, "", 1); lb[0].Name != "renamed" {
		t.Errorf("leaderboard after a rename: %+v", lb)
	}
}

// A person in two seats of one game is not paired with themselves and
// counts the game once.
func TestRatingsSameKeyTwice(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ss := seats(2)
	finishGame(t, s, "a", []Seat{ss[0], ss[1], ss[0]}, []int{0, 1, 2})
	r0, _ := s.Rating(ctx, ss[0].Person, "")
	r1, _ := s.Rating(ctx, ss[1].Person, "")
	if r0.Games != 1 || r0.Wins != 1 || r1.Games != 1 {
		t.Errorf("games: %+v %+v", r0, r1)
	}
	if !near(r0.Rating+r1.Rating, 2*StartRating) {
		t.Errorf("ratings sum to %v", r0.Rating+r1.Rating)
	}
}

// A person's rating counts the games they played in a bot's seat; Bot
// holds only when every one was.
func TestRatingsBotSeats(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ss := seats(2)
	asBot := ss[0]
	asBot.Bot = true
	finishGame(t, s, "a", []Seat{asBot, ss[1]}, []int{0, 1})
	r, _ := s.Rating(ctx, ss[0].Person, "")
	if r.Games != 1 || r.BotGames != 1 || !r.Bot() {
		t.Errorf("after a game as a bot: %+v (bot %v)", r, r.Bot())
	}
	finishGame(t, s, "b", []Seat{ss[0], ss[1]}, []int{1, 0})
	r, _ = s.Rating(ctx, ss[0].Person, "")
	if r.Games != 2 || r.BotGames != 1 || r.Bot() {
		t.Errorf("after a game by screen: %+v (bot %v)", r, r.Bot())
	}
	if rb, _ := s.Rating(ctx, ss[0].Person, "b"); rb.BotGames != 0 || rb.Games != 1 {
		t.Errorf("at b: %+v", rb)
	}
}
