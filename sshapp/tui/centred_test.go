package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestCentredOnceForAll: a screen centred for one session is the one
// lipgloss's Place draws, kept for the next session of the same styles
// and window, and the kept screens stay bounded however many differ.
func TestCentredOnceForAll(t *testing.T) {
	s := NewStyles(asciiRenderer())
	text := "Mia · the dice bluffing game\n\nWelcome! Choose a display name:\n> "
	want := s.r.Place(80, 24, lipgloss.Center, lipgloss.Center, text)
	if got := s.centred(80, 24, text); got != want {
		t.Fatalf("centred:\n%q\nwant\n%q", got, want)
	}
	if allocs := testing.AllocsPerRun(20, func() { s.centred(80, 24, text) }); allocs > 1 {
		t.Errorf("centring the same screen again: %.0f allocations, want it kept", allocs)
	}
	if got := s.centred(100, 30, text); got != s.r.Place(100, 30, lipgloss.Center, lipgloss.Center, text) {
		t.Error("another window got the first one's screen")
	}
	for i := range 200 {
		s.centred(80, 24, fmt.Sprint(text, i))
	}
	if n := len(s.placed.m); n > maxPlaced {
		t.Errorf("%d screens kept, at most %d", n, maxPlaced)
	}
}
