package rating

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// game is one finished game of a history: who sat, their places, when it
// ended.
type game struct {
	players []uint64
	places  []int
	ended   time.Time
}

// randHistory is n games among people players: 2 to 12 seats, places a
// strict order or, one game in five, the standings with some players
// missing and sharing the last place (as the store reads them); ended
// times a few minutes to hours apart from 2026-10-20, crossing months and
// ISO weeks (and 2026's week 53).
func randHistory(rng *rand.Rand, n, people int) []game {
	at := utc("2026-10-20T00:00:00Z")
	h := make([]game, n)
	for g := range h {
		seats := 2 + rng.IntN(11)
		ids := rng.Perm(people)[:seats]
		players := make([]uint64, seats)
		for i, id := range ids {
			players[i] = uint64(id) + 1
		}
		places := rng.Perm(seats)
		if rng.IntN(5) == 0 {
			cut := 1 + rng.IntN(seats-1)
			for i := range places {
				places[i] = min(places[i], cut)
			}
		}
		at = at.Add(time.Duration(1+rng.IntN(120)) * time.Minute)
		h[g] = game{players: players, places: places, ended: at}
	}
	return h
}

// scopes are the boards a game counts in: all time, its month, its week.
func scopes(ended time.Time) []Season {
	return []Season{AllTime, Monthly.Of(ended), Weekly.Of(ended)}
}

// TestRebuildEqualsLive: ratings kept live, one game at a time through
// storage (encoded after each game, decoded before the next, as the store
// will), and rebuilt by folding the same 10,000 games through ladders with
// each game's players in another order, are the same bytes: all time and
// every month and week.
func TestRebuildEqualsLive(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	history := randHistory(rng, 10000, 400)

	type key struct {
		season Season
		id     uint64
	}
	live := make(map[key][]byte) // MarshalBinary
	for _, g := range history {
		for _, s := range scopes(g.ended) {
			before := make([]Rating, len(g.players))
			for i, id := range g.players {
				k := key{s, id}
				before[i] = Newcomer()
				if b, ok := live[k]; ok {
					if err := before[i].UnmarshalBinary(b); err != nil {
						t.Fatal(err)
					}
				}
			}
			after, err := Rate(before, g.places)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range g.players {
				k := key{s, id}
				if live[k], err = after[i].MarshalBinary(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}

	ladders := make(map[Season]*Ladder[uint64])
	for _, g := range history {
		perm := rng.Perm(len(g.players))
		players, places := make([]uint64, len(perm)), make([]int, len(perm))
		for i, j := range perm {
			players[i], places[i] = g.players[j], g.places[j]
		}
		for _, s := range scopes(g.ended) {
			l := ladders[s]
			if l == nil {
				l = NewLadder[uint64](Default)
				ladders[s] = l
			}
			if _, err := l.Play(players, places); err != nil {
				t.Fatal(err)
			}
		}
	}

	rebuilt := 0
	for s, l := range ladders {
		for id, r := range l.All() {
			k := key{s, id}
			b, err := r.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, live[k]) {
				var lr Rating
				_ = lr.UnmarshalBinary(live[k])
				t.Fatalf("%s, player %d: rebuilt %v (%x), live %v (%x)", s, id, r, b, lr, live[k])
			}
			rebuilt++
		}
	}
	if rebuilt != len(live) {
		t.Errorf("rebuilt %d ratings, live kept %d", rebuilt, len(live))
	}
	if len(ladders) < 10 {
		t.Errorf("the history spans %d seasons; want it to cross several months and weeks", len(ladders))
	}
}

func TestLadder(t *testing.T) {
	l := NewLadder[string](Default)
	if r := l.Rating("ann"); r != Newcomer() || l.Len() != 0 {
		t.Fatalf("an unseen player: %v, %d rated", r, l.Len())
	}
	ch, err := l.Play([]string{"ann", "bob", "cat"}, []int{1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Rate(newcomers(3), []int{1, 0, 2})
	for i, p := range []string{"ann", "bob", "cat"} {
		if ch[i].Before != Newcomer() || ch[i].After != want[i] || l.Rating(p) != want[i] {
			t.Errorf("%s: change %v, rating %v; want %v", p, ch[i], l.Rating(p), want[i])
		}
		if ch[i].Points() != want[i].Points()-Newcomer().Points() {
			t.Errorf("%s: moved %d points", p, ch[i].Points())
		}
	}
	if ch[1].Points() <= 0 || ch[2].Points() >= 0 {
		t.Errorf("the winner moved %d, the last %d", ch[1].Points(), ch[2].Points())
	}
	if l.Len() != 3 {
		t.Errorf("%d rated, want 3", l.Len())
	}

	snapshot := map[string]Rating{}
	for k, r := range l.All() {
		snapshot[k] = r
	}
	refused := []struct {
		name    string
		players []string
		places  []int
		want    error
	}{
		{"a player twice", []string{"ann", "dan", "ann"}, []int{0, 1, 2}, ErrDuplicate},
		{"alone", []string{"dan"}, []int{0}, ErrPlayers},
		{"places missing", []string{"ann", "dan"}, []int{0}, ErrPlaces},
	}
	for _, tc := range refused {
		if _, err := l.Play(tc.players, tc.places); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := l.Set("eve", Rating{Mu: 1, Sigma: -1}); !errors.Is(err, ErrRating) {
		t.Errorf("Set of an invalid rating: %v", err)
	}
	if l.Len() != len(snapshot) {
		t.Errorf("refused games changed the ladder: %d rated", l.Len())
	}
	for k, r := range snapshot {
		if l.Rating(k) != r {
			t.Errorf("refused games changed %s: %v → %v", k, r, l.Rating(k))
		}
	}

	stored := Rating{Mu: 30, Sigma: 3, Games: 40}
	if err := l.Set("eve", stored); err != nil || l.Rating("eve") != stored {
		t.Errorf("Set: %v, %v", l.Rating("eve"), err)
	}
}
