package rating_test

import (
	"fmt"
	"time"

	"github.com/mia-game/mia/engine/rating"
)

// Three newcomers play; bob wins, ann is second, cat last.
func ExampleRate() {
	before := []rating.Rating{rating.Newcomer(), rating.Newcomer(), rating.Newcomer()}
	after, err := rating.Rate(before, []int{1, 0, 2}) // ann, bob, cat
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, name := range []string{"ann", "bob", "cat"} {
		r := after[i]
		fmt.Printf("%s: μ %.2f σ %.2f, shows %d (%+d), provisional %v\n",
			name, r.Mu, r.Sigma, r.Points(), r.Points()-before[i].Points(), r.Provisional())
	}
	// Output:
	// ann: μ 25.72 σ 8.06, shows 1398 (+45), provisional true
	// bob: μ 27.87 σ 8.21, shows 1449 (+96), provisional true
	// cat: μ 21.41 σ 8.06, shows 1271 (-82), provisional true
}

// The chances shown at a table before a game: a settled strong player, a
// settled average one and a newcomer.
func ExampleWinChances() {
	table := []rating.Rating{
		{Mu: 32, Sigma: 2, Games: 200},
		{Mu: 25, Sigma: 2.5, Games: 120},
		rating.Newcomer(),
	}
	chances, err := rating.WinChances(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range chances {
		fmt.Printf("seat %d: %4d  %2.0f%%\n", i+1, table[i].Points(), 100*c)
	}
	// Output:
	// seat 1: 2119  48%
	// seat 2: 1869  26%
	// seat 3: 1353  26%
}

// The season a game counts in is the one it ended in, in UTC.
func ExamplePeriod_Of() {
	ended := time.Date(2026, time.December, 1, 0, 3, 0, 0, time.UTC) // began 30 November, 23:58
	fmt.Println(rating.Monthly.Of(ended), rating.Weekly.Of(ended), rating.Off.Of(ended))
	s, err := rating.ParseSeason("2026-w48")
	fmt.Println(s, s.Start().Format(time.DateOnly), s.End().Format(time.DateOnly), err)
	_, err = rating.ParseSeason("2026-13")
	fmt.Println(err)
	// Output:
	// 2026-12 2026-W49 all-time
	// 2026-W48 2026-11-23 2026-11-30 <nil>
	// not a season: "2026-13" has no such month: want a month as 2026-11 or an ISO week as 2026-W48
}
