package rating

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// play simulates games at tables of size seats among players of skill
// N(25, 4²) (a game's performance is skill plus N(0, β²), places by
// performance), until each has played about games games. It returns, for
// each player, the game after which their rating stopped being
// provisional (0 if it did not) and the figure they showed then, the
// players' skills, and the figures shown by the average players (skill
// within 2 of 25) after each number of games.
func play(seats, games int, seed uint64) (establishedAt, pointsThen []int, skill []float64, average map[int][]int) {
	const people = 200
	rng := rand.New(rand.NewPCG(seed, uint64(seats)))
	skill = make([]float64, people)
	rs := make([]Rating, people)
	for i := range rs {
		skill[i] = 25 + 4*rng.NormFloat64()
		rs[i] = Newcomer()
	}
	establishedAt, pointsThen = make([]int, people), make([]int, people)
	average = make(map[int][]int)
	perf := make([]float64, seats)
	for range people * games / seats {
		who := rng.Perm(people)[:seats]
		for i, w := range who {
			perf[i] = skill[w] + Default.Beta*rng.NormFloat64()
		}
		places := make([]int, seats)
		for i := range places {
			for j := range places {
				if perf[j] > perf[i] {
					places[i]++
				}
			}
		}
		before := make([]Rating, seats)
		for i, w := range who {
			before[i] = rs[w]
		}
		after, err := Rate(before, places)
		if err != nil {
			panic(err)
		}
		for i, w := range who {
			if before[i].Provisional() && !after[i].Provisional() {
				establishedAt[w], pointsThen[w] = after[i].Games, after[i].Points()
			}
			rs[w] = after[i]
			if skill[w] > 23 && skill[w] < 27 {
				average[rs[w].Games] = append(average[rs[w].Games], rs[w].Points())
			}
		}
	}
	return establishedAt, pointsThen, skill, average
}

func median(xs []int) int {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// TestProvisionalAfterAboutTenGames holds README.md's figures: a rating
// stops being provisional after about 8 games at tables of two, 9 of
// three, 11 of four and 17 of six (the median player, ±2), and an average
// player then shows about 1500.
func TestProvisionalAfterAboutTenGames(t *testing.T) {
	for _, tc := range []struct{ seats, games int }{{2, 8}, {3, 9}, {4, 11}, {6, 17}} {
		at, pts, skill, _ := play(tc.seats, 2*tc.games+10, 21)
		if slices.Contains(at, 0) {
			t.Fatalf("tables of %d: a player still provisional after %d games", tc.seats, 2*tc.games+10)
		}
		if m := median(at); m < tc.games-2 || m > tc.games+2 {
			t.Errorf("tables of %d: established after %d games (median), README.md says %d", tc.seats, m, tc.games)
		}
		var avg []int
		for i, s := range skill {
			if s > 23 && s < 27 {
				avg = append(avg, pts[i])
			}
		}
		if m := median(avg); m < 1400 || m > 1600 {
			t.Errorf("tables of %d: an average player shows %d when established, want about 1500", tc.seats, m)
		}
		t.Logf("tables of %d: established after %d games; an average player then shows %d", tc.seats, median(at), median(avg))
	}
}

// TestSettling holds README.md's table of what an average player shows
// at tables of four as their games add up (the median, ±60): the figure
// keeps climbing as σ falls, fast at first.
func TestSettling(t *testing.T) {
	_, _, _, average := play(4, 310, 22)
	want := []struct{ games, points int }{{1, 1370}, {10, 1440}, {50, 1690}, {100, 1820}, {300, 1910}}
	last := 0
	for _, w := range want {
		m := median(average[w.games])
		t.Logf("after %3d games: %d", w.games, m)
		if m < w.points-60 || m > w.points+60 {
			t.Errorf("after %d games an average player shows %d, README.md says about %d", w.games, m, w.points)
		}
		if m <= last {
			t.Errorf("after %d games %d, not above %d", w.games, m, last)
		}
		last = m
	}
}
