package solver

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"

	"github.com/mia-game/mia/engine"
)

// The continuation model: a player's chance of winning a last-standing
// game from the lives everyone has after a round, among players of equal
// strength. It is a choice model (Luce's): each living player has a
// strength by how many are alive and their own lives, and wins with their
// share of the living players' strengths. So the chances are in [0, 1]
// and sum to 1 by construction, and the model has one number a cell
// (alive 2 to 12, lives 1 to 9), fitted from self-play (FitStrengths) and
// kept in continuation_table.go (README.md: how it is generated).

// MaxAlive and MaxLivesModelled bound the model's table: engine.MaxSeats
// and engine.MaxLives.
const (
	MaxAlive         = engine.MaxSeats
	MaxLivesModelled = engine.MaxLives
)

// Strengths is a continuation model's table: [alive][lives], the strength
// of a player with those lives when that many are alive (row 0 and 1 and
// column 0 unused; [n][1] is 1).
type Strengths [MaxAlive + 1][MaxLivesModelled + 1]float64

// WinChance is the chance that seat wins a last-standing game of equal
// players from lives (by seat, 0 for a player out), by the embedded
// model: 0 for a seat out, 1 for the last one in.
func WinChance(lives []int, seat int) float64 { return strengths.WinChance(lives, seat) }

// WinChance is WinChance under the model st.
func (st *Strengths) WinChance(lives []int, seat int) float64 {
	if seat < 0 || seat >= len(lives) || lives[seat] <= 0 {
		return 0
	}
	alive := 0
	for _, l := range lives {
		if l > 0 {
			alive++
		}
	}
	if alive == 1 {
		return 1
	}
	row := &st[min(alive, MaxAlive)]
	sum := 0.0
	for _, l := range lives {
		if l > 0 {
			sum += row[min(l, MaxLivesModelled)]
		}
	}
	return row[min(lives[seat], MaxLivesModelled)] / sum
}

// Sample is one state after a round of a self-played game: the lives of
// the players alive (2 or more), and which of them won the game in the end.
type Sample struct {
	Lives  []int
	Winner int // an index into Lives
}

// FitStrengths fits the model to samples by maximum likelihood (the MM
// algorithm of Hunter, 2004, for Luce's choice model), each row apart:
// deterministic, the same samples in any order giving the same table. To
// every row it adds, as a prior, one virtual state of two players for
// each pair of neighbouring cells (lives l−1 and l), each winning half
// of it: a cell few states have (a player with 9 lives when 12 are
// alive) leans on its neighbours, and no strength grows without bound
// when its players always won.
func FitStrengths(samples []Sample) Strengths {
	type key [MaxLivesModelled + 2]uint8 // counts by lives, then the winner's lives
	rows := make([]map[key]float64, MaxAlive+1)
	for n := range rows {
		rows[n] = map[key]float64{}
		for l := 2; l <= MaxLivesModelled; l++ {
			var k key
			k[l-1], k[l] = 1, 1
			k[MaxLivesModelled+1] = uint8(l - 1)
			rows[n][k] += prior / 2
			k[MaxLivesModelled+1] = uint8(l)
			rows[n][k] += prior / 2
		}
	}
	for _, s := range samples {
		n := len(s.Lives)
		if n < 2 || n > MaxAlive || s.Winner < 0 || s.Winner >= n {
			continue
		}
		var k key
		ok := true
		for _, l := range s.Lives {
			if l < 1 || l > MaxLivesModelled {
				ok = false
				break
			}
			k[l]++
		}
		if !ok {
			continue
		}
		k[MaxLivesModelled+1] = uint8(s.Lives[s.Winner])
		rows[n][k]++
	}
	var st Strengths
	for n := 2; n <= MaxAlive; n++ {
		keys := make([]key, 0, len(rows[n]))
		for k := range rows[n] {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b key) int { return slices.Compare(a[:], b[:]) })
		var wins [MaxLivesModelled + 1]float64
		for _, k := range keys {
			wins[k[MaxLivesModelled+1]] += rows[n][k]
		}
		g := &st[n]
		for l := 1; l <= MaxLivesModelled; l++ {
			g[l] = 1
		}
		for range 5000 {
			var den [MaxLivesModelled + 1]float64
			for _, k := range keys {
				tot := 0.0
				for l := 1; l <= MaxLivesModelled; l++ {
					tot += float64(k[l]) * g[l]
				}
				c := rows[n][k] / tot
				for l := 1; l <= MaxLivesModelled; l++ {
					den[l] += float64(k[l]) * c
				}
			}
			moved := 0.0
			for l := 1; l <= MaxLivesModelled; l++ {
				x := wins[l] / den[l]
				moved = max(moved, abs(x/g[l]-1))
				g[l] = x
			}
			for l := MaxLivesModelled; l >= 1; l-- {
				g[l] /= g[1]
			}
			if moved < 1e-10 {
				break
			}
		}
		for l := 2; l <= MaxLivesModelled; l++ {
			g[l] = max(g[l], g[l-1]*minStep)
		}
	}
	return st
}

// minStep is the least a life more multiplies a strength by: a cell the
// fit put below the one with a life less (a heads-up row's few states
// of many lives) is raised to it, so a life always counts.
const minStep = 1.05

// prior is the weight of the virtual states FitStrengths adds.
const prior = 1.0

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Source is the model as the Go source of continuation_table.go, a
// header saying how it was made.
func (st *Strengths) Source(how string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\npackage solver\n\n", how)
	b.WriteString("// strengths is the continuation model (continuation.go): [alive][lives].\n")
	b.WriteString("var strengths = Strengths{\n")
	for n := 2; n <= MaxAlive; n++ {
		fmt.Fprintf(&b, "\t%d: {", n)
		for l := 1; l <= MaxLivesModelled; l++ {
			fmt.Fprintf(&b, "%d: %.4f, ", l, st[n][l])
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// Embedded is the continuation model the verdicts use.
func Embedded() Strengths { return strengths }
