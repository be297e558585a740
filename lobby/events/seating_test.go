package events

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i)
	}
	return out
}

// pairs makes a met of the pairs given.
func pairs(ps ...[2]string) met {
	m := map[[2]string]bool{}
	for _, p := range ps {
		m[p], m[[2]string{p[1], p[0]}] = true, true
	}
	return func(a, b string) bool { return m[[2]string{a, b}] }
}

func never(string, string) bool { return false }

// TestArenaSeatsWhoeverIsFree: no entrant who is free waits while
// --seats others are free: every full table is made at once, and only
// fewer than seats wait; a smaller table only when gathering, never of
// one.
func TestArenaSeatsWhoeverIsFree(t *testing.T) {
	for n := 0; n <= 30; n++ {
		for seats := 2; seats <= 8; seats++ {
			for _, gather := range []bool{false, true} {
				tables, wait := arenaTables(ids(n), seats, never, gather)
				seen := map[string]int{}
				for _, tb := range tables {
					if len(tb) > seats || len(tb) < 2 {
						t.Fatalf("n=%d seats=%d: a table of %d", n, seats, len(tb))
					}
					for _, id := range tb {
						seen[id]++
					}
				}
				for _, id := range wait {
					seen[id]++
				}
				for _, id := range ids(n) {
					if seen[id] != 1 {
						t.Fatalf("n=%d seats=%d: %s seated %d times", n, seats, id, seen[id])
					}
				}
				switch {
				case len(wait) >= seats:
					t.Fatalf("n=%d seats=%d: %d wait though they fill a table", n, seats, len(wait))
				case gather && len(wait) >= 2:
					t.Fatalf("n=%d seats=%d gathering: %d wait", n, seats, len(wait))
				case !gather && len(tables) != n/seats:
					t.Fatalf("n=%d seats=%d: %d tables, want %d full ones", n, seats, len(tables), n/seats)
				}
			}
		}
	}
}

// TestArenaAvoidsLastOpponents: the same opponents are not seated
// together twice in a row where others are free.
func TestArenaAvoidsLastOpponents(t *testing.T) {
	tests := []struct {
		name  string
		free  []string
		seats int
		last  met
	}{
		{"two pairs", []string{"a", "b", "c", "d"}, 2, pairs([2]string{"a", "b"}, [2]string{"c", "d"})},
		{"three pairs at tables of three", []string{"a", "b", "c", "d", "e", "f"}, 3,
			pairs([2]string{"a", "b"}, [2]string{"c", "d"}, [2]string{"e", "f"})},
		{"one free after the pair", []string{"a", "b", "c"}, 2, pairs([2]string{"a", "b"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tables, _ := arenaTables(tt.free, tt.seats, tt.last, false)
			for _, tb := range tables {
				for i, a := range tb {
					for _, b := range tb[i+1:] {
						if tt.last(a, b) {
							t.Errorf("%s and %s sit together again: %v", a, b, tables)
						}
					}
				}
			}
		})
	}
	// Whoever waits longest is seated first, even against the opponents
	// of their last game when nobody else is free.
	tables, _ := arenaTables([]string{"a", "b"}, 2, pairs([2]string{"a", "b"}), false)
	if len(tables) != 1 {
		t.Fatalf("two free at tables of two wait: %v", tables)
	}
}

// TestSwissPairing holds the rounds of random Swiss events to the rules:
// everyone there once (at a table or a bye), tables of 2 to seats as
// even as they come, a bye only when the count does not fit and never
// twice to one while others have had none, and neighbours by score: no
// repeated table-mate while a round without one can be made (for eight
// at tables of two, up to round 4, by Dirac's theorem).
func TestSwissPairing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, seats := 2+rng.IntN(19), 2+rng.IntN(5)
		if trial%3 == 0 {
			n, seats = 8, 2
		}
		players := ids(n)
		metAt := map[[2]string]bool{}
		seen := func(a, b string) bool { return metAt[[2]string{a, b}] }
		byes := map[string]int{}
		points := map[string]int{}
		for round := 1; round <= 4; round++ {
			ranked := slices.Clone(players)
			slices.SortStableFunc(ranked, func(a, b string) int { return points[b] - points[a] })
			tables, bye := swissTables(ranked, seats, seen, func(id string) bool { return byes[id] > 0 })
			count := map[string]int{}
			sz := map[int]bool{}
			for _, tb := range tables {
				if len(tb) < 2 || len(tb) > seats {
					t.Fatalf("n=%d seats=%d round %d: a table of %d", n, seats, round, len(tb))
				}
				sz[len(tb)] = true
				for _, id := range tb {
					count[id]++
				}
			}
			if len(sz) > 2 {
				t.Fatalf("n=%d seats=%d: table sizes %v", n, seats, sz)
			}
			if bye != "" {
				count[bye]++
				if sizes(n, seats) != nil {
					t.Fatalf("n=%d seats=%d: a bye though the count fits", n, seats)
				}
				for _, id := range players {
					if byes[id] < byes[bye] {
						t.Fatalf("a second bye to %s while %s had none", bye, id)
					}
				}
				byes[bye]++
			}
			for _, id := range players {
				if count[id] != 1 {
					t.Fatalf("n=%d seats=%d round %d: %s placed %d times", n, seats, round, id, count[id])
				}
			}
			if n == 8 && seats == 2 && repeats(tables, seen) > 0 {
				t.Fatalf("round %d repeats a pairing that could be avoided: %v", round, tables)
			}
			for _, tb := range tables {
				order := slices.Clone(tb)
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				for place, id := range order {
					points[id] += len(order) - 1 - place
				}
				for _, a := range tb {
					for _, b := range tb {
						metAt[[2]string{a, b}] = true
					}
				}
			}
		}
	}
}

// TestKnockoutSeeding spreads the seeds snake-wise, gives the bye to
// the top seed, and makes one table the final.
func TestKnockoutSeeding(t *testing.T) {
	tables, bye, final := knockoutTables(ids(8), 2)
	want := [][]string{{"p0", "p7"}, {"p1", "p6"}, {"p2", "p5"}, {"p3", "p4"}}
	if bye != "" || final || !slices.EqualFunc(tables, want, slices.Equal) {
		t.Fatalf("8 at tables of 2: %v bye %q final %v", tables, bye, final)
	}
	tables, bye, final = knockoutTables(ids(5), 2)
	if bye != "p0" || final || len(tables) != 2 {
		t.Fatalf("5 at tables of 2: %v bye %q", tables, bye)
	}
	tables, bye, final = knockoutTables(ids(4), 4)
	if bye != "" || !final || len(tables) != 1 {
		t.Fatalf("4 at tables of 4: %v final %v", tables, final)
	}
	for n := 2; n <= 40; n++ {
		for seats := 2; seats <= 6; seats++ {
			tables, bye, _ := knockoutTables(ids(n), seats)
			got := 0
			for _, tb := range tables {
				if len(tb) < 2 || len(tb) > seats {
					t.Fatalf("n=%d seats=%d: a table of %d", n, seats, len(tb))
				}
				got += len(tb)
			}
			if bye != "" {
				got++
			}
			if got != n {
				t.Fatalf("n=%d seats=%d: %d placed", n, seats, got)
			}
		}
	}
}

// TestKnockoutAwayIsOut: an entrant who played no round of a knockout
// (away when it was dealt) is out once a later round is dealt, ranked
// below those still in.
func TestKnockoutAwayIsOut(t *testing.T) {
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	rec := &Record{Format: Knockout, Round: 2, Entrants: []Entrant{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "away"}},
		Tables: []TableRec{{Name: "k-1", Round: 1, Players: []string{"a", "b"}, Game: "1"}, {Name: "k-2", Round: 2, Players: []string{"a", "c"}}},
		Byes:   []Bye{{Round: 1, ID: "c"}}}
	results := map[string]Result{"1": {Game: "1", Players: []string{"a", "b"}, Standings: []int{0, 1}, Ended: at}}
	scores := Tally(rec, results)
	order := make([]string, len(scores))
	for i, s := range scores {
		order[i] = s.ID
	}
	if !slices.Equal(order[:2], []string{"a", "c"}) || !scores[2].Out || !scores[3].Out {
		t.Fatalf("ranked %v (%+v)", order, scores)
	}
}
