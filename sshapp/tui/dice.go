package tui

import (
	"strings"

	"github.com/mia-game/mia/engine"
)

// dieHeight and dieWidth are the size of one drawn die, in cells.
const (
	dieHeight = 5
	dieWidth  = 9
)

// pip rows of a die: which of the left, middle and right columns hold a pip
// in the top, middle and bottom rows.
var pipRows = [7][3][3]bool{
	1: {{false, false, false}, {false, true, false}, {false, false, false}},
	2: {{true, false, false}, {false, false, false}, {false, false, true}},
	3: {{true, false, false}, {false, true, false}, {false, false, true}},
	4: {{true, false, true}, {false, false, false}, {true, false, true}},
	5: {{true, false, true}, {false, true, false}, {true, false, true}},
	6: {{true, false, true}, {true, false, true}, {true, false, true}},
}

// faces holds the six drawn faces, made once.
var faces = func() [7][dieHeight]string {
	var f [7][dieHeight]string
	for n := 1; n <= 6; n++ {
		f[n][0] = "┌───────┐"
		f[n][4] = "└───────┘"
		for row := 0; row < 3; row++ {
			var b strings.Builder
			b.WriteString("│ ")
			for col := 0; col < 3; col++ {
				if col > 0 {
					b.WriteByte(' ')
				}
				if pipRows[n][row][col] {
					b.WriteString("●")
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(" │")
			f[n][row+1] = b.String()
		}
	}
	return f
}()

// dieFace returns the lines of one die showing n (1 to 6), or nil for any
// other n.
func dieFace(n int) []string {
	if n < 1 || n > 6 {
		return nil
	}
	return faces[n][:]
}

// drawDice draws the two dice of v side by side, the higher die first, as
// dieHeight lines joined by newlines; "" if v is not a roll.
func drawDice(v engine.Value) string {
	if !v.Valid() {
		return ""
	}
	hi, lo := v.Dice()
	var b strings.Builder
	for row := 0; row < dieHeight; row++ {
		if row > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(faces[hi][row])
		b.WriteString("  ")
		b.WriteString(faces[lo][row])
	}
	return b.String()
}

// cupLines is the closed cup, as tall as a die.
var cupLines = [dieHeight]string{
	"   ╭───────────╮   ",
	"   │           │   ",
	"   │    ? ?    │   ",
	"  ╱             ╲  ",
	" ╰───────────────╯ ",
}

// drawCup draws the closed cup: dice that the viewer may not see.
func drawCup() string { return strings.Join(cupLines[:], "\n") }

// hearts draws lives as ♥ for each life left and ♡ for each lost, out of
// max (at most engine.MaxLives of each).
func hearts(lives, max int) (left, lost string) {
	lives = clamp(lives, 0, engine.MaxLives)
	max = clamp(max, lives, engine.MaxLives)
	return heartRuns[lives], lostRuns[max-lives]
}

var heartRuns, lostRuns = func() (a, b [engine.MaxLives + 1]string) {
	for i := range a {
		a[i] = strings.Repeat("♥", i)
		b[i] = strings.Repeat("♡", i)
	}
	return
}()

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
