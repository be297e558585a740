package sshapp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/sshapp/tui"
)

// titleIn is the name prompt's title as a 256-colour terminal draws it
// on a dark or a light background.
func titleIn(dark bool) string {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(dark)
	return tui.NewStyles(r).Title.Render("Mia")
}

// TestScreenDrawsBeforeTheTerminalAnswers: a terminal that never answers
// the screen's queries (its background colour, OSC 11, and DA1), as a Go
// client or `script` does not, sees the name prompt at once, in the
// colours of a dark background; the queries were sent.
func TestScreenDrawsBeforeTheTerminalAnswers(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	sc := startScreen(t, ts.connect(t, newKey(t)), "xterm-256color", 80, 24, "")
	sc.waitFor(t, "Choose a display name", 3*time.Second)
	out := sc.out.String()
	if !strings.Contains(out, "\x1b]11;?\a\x1b[c") {
		t.Errorf("the screen did not ask the terminal its background: %q", out)
	}
	if !strings.Contains(out, titleIn(true)) {
		t.Errorf("the prompt is not drawn for a dark background: %q", out)
	}
}

// TestScreenTakesTheTerminalsAnswer: a terminal that answers (a light
// background, then DA1) gets the screen restyled for it, and the keys
// typed after the answer, in the same packet, reach the prompt whole
// while the answer never shows as keys.
func TestScreenTakesTheTerminalsAnswer(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	sc := startScreen(t, ts.connect(t, newKey(t)), "xterm-256color", 80, 24, "")
	sc.waitFor(t, "Choose a display name", 3*time.Second)
	sc.send(t, "\x1b]11;rgb:ffff/fafa/f0f0\x1b\\\x1b[?62;22cbob")
	sc.waitFor(t, titleIn(false), 3*time.Second)
	sc.waitFor(t, "bob", 3*time.Second)
	if out := sc.out.String(); strings.Contains(out, "rgb") || strings.Contains(out, "62;22") {
		t.Errorf("the terminal's answer reached the screen as keys: %q", out)
	}
}

// chunks is a reader that hands out one chunk per Read, then io.EOF.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// TestTermAnswers: the terminal's answers are taken out of the input
// wherever they stand, cut across reads or not, the background they tell
// is reported once each, and every key around them goes on in order; a
// lone ESC (the esc key) and what only looks like the start of an answer
// go on too.
func TestTermAnswers(t *testing.T) {
	const (
		dark  = "\x1b]11;rgb:1c1c/1c1c/1c1c\a"
		light = "\x1b]11;rgb:ffff/ffff/ffff\x1b\\"
		da1   = "\x1b[?1;2c"
	)
	cases := []struct {
		name  string
		parts []string
		want  string
		told  []bool
	}{
		{"no answer", []string{"abc", "\x1b", "[A"}, "abc\x1b[A", nil},
		{"a dark background, then keys", []string{dark + da1 + "q"}, "q", []bool{true}},
		{"a light one, ST-terminated", []string{"x" + light + da1}, "x", []bool{false}},
		{"cut everywhere", []string{"a\x1b]", "1", "1;rgb:ff", "ff/ffff/ffff\x1b", "\\\x1b[", "?6", "2;c", "b"}, "ab", []bool{false}},
		{"DA1 alone", []string{da1 + "z"}, "z", nil},
		{"after DA1, nothing is taken out", []string{da1, dark}, dark, nil},
		{"a short colour (rgb:0/0/0)", []string{"\x1b]11;rgb:0/0/0\a" + da1}, "", []bool{true}},
		{"rgba", []string{"\x1b]11;rgba:ffff/ffff/ffff/ffff\a" + da1}, "", []bool{false}},
		{"not a colour", []string{"\x1b]11;bogus\a" + da1 + "k"}, "k", nil},
		{"an escape and a key, not an answer", []string{"\x1b[?5x"}, "\x1b[?5x", nil},
		{"esc at the end of a read", []string{"j\x1b", "k"}, "j\x1bk", nil},
		{"too long for an answer", []string{"\x1b]11;" + strings.Repeat("9", 80)}, "\x1b]11;" + strings.Repeat("9", 80), nil},
		{"cut off at the end of the input", []string{"a\x1b]11;rgb"}, "a\x1b]11;rgb", nil},
	}
	for _, c := range cases {
		a := newTermAnswers(&chunks{parts: append([]string(nil), c.parts...)}, time.Now().Add(time.Hour))
		var told []bool
		a.background = func(dark bool) { told = append(told, dark) }
		var got bytes.Buffer
		buf := make([]byte, 3) // small reads: output waiting is handed on in parts
		for {
			n, err := a.Read(buf)
			got.Write(buf[:n])
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if got.String() != c.want {
			t.Errorf("%s: read %q, want %q", c.name, got.String(), c.want)
		}
		if len(told) != len(c.told) || (len(told) > 0 && told[0] != c.told[0]) {
			t.Errorf("%s: backgrounds told %v, want %v", c.name, told, c.told)
		}
	}
}

// TestTermAnswersWindow: once the window is over, the input passes
// untouched.
func TestTermAnswersWindow(t *testing.T) {
	const dark = "\x1b]11;rgb:0000/0000/0000\a"
	a := newTermAnswers(&chunks{parts: []string{dark}}, time.Now().Add(-time.Second))
	a.background = func(bool) { t.Error("a background told after the window") }
	got, err := io.ReadAll(a)
	if err != nil || string(got) != dark {
		t.Errorf("read %q, %v; want %q", got, err, dark)
	}
}
