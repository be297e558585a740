package verdict

import (
	"context"
	"testing"
)

// benchGame is a heads-up game of over a hundred moves (9 lives, no
// pass, a Mia penalty of 1: a rule set solved in a tenth of a second),
// random moves (lobbytest.Move).
func benchGame(b *testing.B) (Analysis, func(*Judge) (Analysis, error)) {
	b.Helper()
	o := cheap()
	o.Lives = 9
	t := &testing.T{}
	evs := playGame(t, o, 2, 3)
	for seed := uint64(4); seed < 60; seed++ { // the longest of them
		if e := playGame(t, o, 2, seed); len(e) > len(evs) {
			evs = e
		}
	}
	g := stored(o, 2, evs, true)
	judge := func(jd *Judge) (Analysis, error) { return jd.Of(context.Background(), "", g, evs) }
	a, err := judge(New()) // solves the rule sets (and their caps) once
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d events, %d moves judged", len(evs), len(a.Decisions))
	return a, judge
}

// BenchmarkVerdictFirst is a door's first ask of a finished game's
// verdicts, its rule sets solved: the analysis itself.
func BenchmarkVerdictFirst(b *testing.B) {
	_, judge := benchGame(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := judge(New()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerdictKept is a door's ask of verdicts kept (Judge).
func BenchmarkVerdictKept(b *testing.B) {
	_, judge := benchGame(b)
	jd := New()
	if _, err := judge(jd); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := judge(jd); err != nil {
			b.Fatal(err)
		}
	}
}
