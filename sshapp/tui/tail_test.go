package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestTailLinesAsTheViewport: tailLines draws what the bubbles viewport
// it stands in for drew (setTail, then viewLines), for random items as
// words.Clean leaves them (no tabs or line breaks): styled, with long
// words and wide runes, in windows of every size.
func TestTailLinesAsTheViewport(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	s := &Styles{r: r}
	bold := r.NewStyle().Bold(true)
	rnd := rand.New(rand.NewPCG(3, 36))
	pieces := []string{"bob", "passed", "65", "to", "you", "—", "ada [bot]", "called", "a", "liar:",
		"supercalifragilisticexpialidocious", "日本語", "🎲", "  ", "x", ""}
	for run := range 3000 {
		n := rnd.IntN(12)
		items := make([]string, n)
		for i := range items {
			var b strings.Builder
			for k := rnd.IntN(14); k >= 0; k-- {
				p := pieces[rnd.IntN(len(pieces))]
				if rnd.IntN(5) == 0 {
					p = bold.Render(p)
				}
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(p)
			}
			items[i] = b.String()
		}
		w, h := rnd.IntN(40)-1, rnd.IntN(12)-1
		line := func(i int) string { return items[i] }
		vp := s.newView()
		sizeView(&vp, w, h)
		setTail(&vp, n, line)
		want := viewLines(vp)
		got := s.tailLines(w, h, n, line)
		if !slices.Equal(got, want) {
			t.Fatalf("run %d, %d×%d, items %q:\n got %q\nwant %q", run, w, h, items, got, want)
		}
	}
}

// BenchmarkTailLines: a table's log, 40 columns by 12 rows, of 60 moves.
func BenchmarkTailLines(b *testing.B) {
	s := &Styles{r: lipgloss.NewRenderer(nil)}
	items := make([]string, 60)
	for i := range items {
		items[i] = fmt.Sprintf("ada [bot] passed %d to bert [bot], who looks and raises", 31+i%30)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.tailLines(40, 12, len(items), func(i int) string { return items[i] })
	}
}
