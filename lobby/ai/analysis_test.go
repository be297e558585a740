package ai

import (
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

// analysedGames is how many heads-up games TestAnalysisRanksLevels plays
// a level.
const analysedGames = 60

// TestAnalysisRanksLevels plays heads-up games of each level against
// expert and analyses them (engine/solver.Analyse): the expert's moves
// give away almost nothing, and the levels come out in their order of
// strength by accuracy, easy last. It logs each level's marks, the
// figures behind the marks' thresholds (engine/solver/README.md).
func TestAnalysisRanksLevels(t *testing.T) {
	o := engine.DefaultOptions()
	o.Pass = false // solved in a blink
	acc := map[Level]float64{}
	var expertSum solver.Summary
	for _, lv := range []Level{Easy, Normal, Hard} {
		var sum solver.Summary
		for i := range analysedGames {
			levels := []Level{lv, Expert}
			me := i % 2
			if me == 1 {
				levels = []Level{Expert, lv}
			}
			evs := playGame(t, o, levels, uint64(100*i+len(lv)))
			a, err := solver.Analyse(o, 2, evs)
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(a.Players[me])
			expertSum.Add(a.Players[1-me])
		}
		acc[lv] = sum.Accuracy()
		t.Logf("%-6s %4d moves: accuracy %5.1f%%, %.4f lives given away a move; ?! %d, ? %d, ?? %d",
			lv, sum.Decisions, sum.Accuracy(), sum.PerDecision(), sum.Marks[solver.Inaccuracy], sum.Marks[solver.Mistake], sum.Marks[solver.Blunder])
	}
	t.Logf("expert %4d moves: accuracy %5.1f%%, %.4f lives given away a move; ?! %d, ? %d, ?? %d",
		expertSum.Decisions, expertSum.Accuracy(), expertSum.PerDecision(), expertSum.Marks[solver.Inaccuracy], expertSum.Marks[solver.Mistake], expertSum.Marks[solver.Blunder])
	if expertSum.Accuracy() < 99 || expertSum.Marks[solver.Mistake]+expertSum.Marks[solver.Blunder] > 0 {
		t.Errorf("the expert's own moves: accuracy %.1f%%, marks %v", expertSum.Accuracy(), expertSum.Marks)
	}
	for _, lv := range []Level{Easy, Normal, Hard} {
		if acc[lv] >= expertSum.Accuracy() {
			t.Errorf("%s is as accurate as expert: %.1f%%", lv, acc[lv])
		}
	}
	if acc[Easy] >= acc[Normal] || acc[Easy] >= acc[Hard] {
		t.Errorf("easy is not the least accurate: %v", acc)
	}
}

// playGame plays one game of the levels, seat by seat, and returns its
// events, numbered.
func playGame(t *testing.T, o engine.Options, levels []Level, seed uint64) []engine.Event {
	t.Helper()
	var m match
	var all []engine.Event
	g, evs, err := engine.New(o, len(levels), newDice(seed))
	if err != nil {
		t.Fatal(err)
	}
	m.g = g
	m.record(evs)
	all = append(all, evs...)
	for steps := 0; !g.Over(); steps++ {
		if steps > 20_000 {
			t.Fatalf("seed %d: no end", seed)
		}
		s := g.Turn()
		a := Decide(levels[s], g.View(s), m.roundFor(s), nil)
		evs, err := g.Apply(a)
		if err != nil {
			t.Fatal(err)
		}
		m.record(evs)
		all = append(all, evs...)
	}
	for i := range all {
		all[i].Seq = i + 1
	}
	return all
}
