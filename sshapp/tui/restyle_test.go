package tui

import (
	"io"
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// TestNewRenderer: a session's colour profile comes from its client's
// terminal type and environment, never from the server's.
func TestNewRenderer(t *testing.T) {
	cases := []struct {
		term string
		env  []string
		want termenv.Profile
	}{
		{"xterm-256color", nil, termenv.ANSI256},
		{"xterm-256color", []string{"COLORTERM=truecolor"}, termenv.TrueColor},
		{"xterm-256color", []string{"NO_COLOR=1"}, termenv.Ascii},
		{"dumb", []string{"COLORTERM=truecolor"}, termenv.Ascii},
		{"", nil, termenv.Ascii},
	}
	for _, c := range cases {
		r := NewRenderer(io.Discard, c.term, c.env)
		if got := r.ColorProfile(); got != c.want {
			t.Errorf("%q %v: profile %v, want %v", c.term, c.env, got, c.want)
		}
		if !r.HasDarkBackground() {
			t.Errorf("%q %v: a light background before the terminal said so", c.term, c.env)
		}
	}
}

// TestRestyle: the screen is drawn at once for a dark background; once the
// terminal tells a light one (RestyleMsg), the next frame is drawn for it,
// the line being typed too.
func TestRestyle(t *testing.T) {
	r := NewRenderer(io.Discard, "xterm-256color", nil)
	var cache StyleCache
	dark := cache.For(r)
	m := New(Config{Renderer: r, Styles: dark, Width: 80, Height: 24})
	m.Init()
	before := m.View()
	if !strings.Contains(before, dark.Title.Render("Mia")) {
		t.Fatalf("the prompt is not drawn for a dark background:\n%q", before)
	}
	r.SetHasDarkBackground(false)
	light := cache.For(r)
	if light == dark {
		t.Fatal("the cache gave the dark styles for a light background")
	}
	m.Update(RestyleMsg{Styles: light})
	after := m.View()
	for what, want := range map[string]string{
		"the title":         light.Title.Render("Mia"),
		"the line's prompt": light.input.PromptStyle.Render("> "),
	} {
		if strings.Contains(before, want) {
			t.Fatalf("%s looks the same on both backgrounds: %q", what, want)
		}
		if !strings.Contains(after, want) {
			t.Errorf("%s is not drawn for a light background:\n%q\nwant %q", what, after, want)
		}
	}
}
