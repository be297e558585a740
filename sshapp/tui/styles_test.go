package tui

import (
	"bytes"
	"sync"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func sessionRenderer(p termenv.Profile, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(&bytes.Buffer{})
	r.SetColorProfile(p)
	r.SetHasDarkBackground(dark)
	return r
}

func TestStyleCacheDrawsAsTheSessionsRenderer(t *testing.T) {
	var c StyleCache
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		for _, dark := range []bool{false, true} {
			r := sessionRenderer(p, dark)
			own, shared := NewStyles(r), c.For(r)
			for name, pair := range map[string][2]string{
				"title":  {own.Title.Render("mia"), shared.Title.Render("mia")},
				"heart":  {own.Heart.Render("♥"), shared.Heart.Render("♥")},
				"select": {own.Selected.Render("t1"), shared.Selected.Render("t1")},
				"help":   {own.Help.ShortKey.Render("q"), shared.Help.ShortKey.Render("q")},
				"input":  {own.newInput("say: ", "", 10).View(), shared.newInput("say: ", "", 10).View()},
			} {
				if pair[0] != pair[1] {
					t.Errorf("profile %v dark %v, %s: own styles draw %q, shared %q", p, dark, name, pair[0], pair[1])
				}
			}
		}
	}
}

func TestStyleCacheShares(t *testing.T) {
	var c StyleCache
	a := c.For(sessionRenderer(termenv.Ascii, true))
	tests := []struct {
		name string
		r    *lipgloss.Renderer
		same bool
	}{
		{"another session alike", sessionRenderer(termenv.Ascii, true), true},
		{"a light background", sessionRenderer(termenv.Ascii, false), false},
		{"colours", sessionRenderer(termenv.TrueColor, true), false},
	}
	for _, tt := range tests {
		if got := c.For(tt.r) == a; got != tt.same {
			t.Errorf("%s: shared = %v, want %v", tt.name, got, tt.same)
		}
	}
	// Many sessions at once get one Styles.
	var wg sync.WaitGroup
	got := make([]*Styles, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.For(sessionRenderer(termenv.ANSI256, true))
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("session %d got its own Styles", i)
		}
	}
}
