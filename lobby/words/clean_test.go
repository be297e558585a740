package words

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"plain émoji 🎲", 50, "plain émoji 🎲"},
		// White space: each a space, none at the ends.
		{"  spaced   out \r\n", 50, "spaced   out"},
		{"tab\tnew\nline\r\nbreak", 50, "tab new line  break"},
		// Escape sequences go whole, and stray control characters.
		{"esc\x1b]0;title\x07 \x1b[2Jclear \x1b[31mred\x1b[0m", 50, "esc clear red"},
		{"c1\u009b2J, lone esc\x1b", 50, "c12J, lone esc"},
		// Bidi and zero-width, bad UTF-8, private use.
		{"bidi\u202e\u2066x\u200f zero\u200bwidth", 50, "bidix zerowidth"},
		{"bad\xffutf8 private\ue000use", 50, "badutf8 privateuse"},
		// Cut to max runes, spaces counted.
		{strings.Repeat("ab", 20), 10, strings.Repeat("ab", 5)},
		{"abc def", 4, "abc"},
		{"abc def", 5, "abc d"},
		{"abc def", 6, "abc de"},
	}
	for _, c := range cases {
		if got := Clean(c.in, c.max); got != c.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// TestCleanShortCut: what Clean returns as it is (isClean) is what the
// whole cleaning would make of it, over random text of the runes that
// matter (white space, escapes, controls, bidi, private use, bad UTF-8,
// wide runes) and random bounds.
func TestCleanShortCut(t *testing.T) {
	alphabet := []string{"a", "Z", "9", " ", "  ", "\t", "\n", "\r", "\x1b", "[", "]", "\x1b[31m", "\x07", "\x7f",
		"\u009b", "\u202e", "\u200b", "\ue000", "\xff", "\ufffd", "é", "🎲", "♥", "·", "\u3000", "\u00a0"}
	r := rand.New(rand.NewPCG(7, 11))
	short := 0
	for range 200_000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		in, max := b.String(), r.IntN(14)
		if isClean(in, max) {
			short++
		}
		if got, want := Clean(in, max), clean(in, max); got != want {
			t.Fatalf("Clean(%q, %d) = %q, the whole cleaning makes %q", in, max, got, want)
		}
	}
	if short == 0 {
		t.Fatal("no text took the short cut")
	}
}

// TestPlural is the one plural.
func TestPlural(t *testing.T) {
	cases := []struct {
		n         int
		one, many string
		want      string
	}{
		{1, "a life", "lives", "a life"},
		{2, "a life", "lives", "2 lives"},
		{0, "1 game", "games", "0 games"},
		{1, "1 game", "games", "1 game"},
		{3, "1 time", "times", "3 times"},
	}
	for _, c := range cases {
		if got := Plural(c.n, c.one, c.many); got != c.want {
			t.Errorf("Plural(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
}

// TestPercent is the one rounding of a rate: half up, so that the stats
// screen and the stats command agree (5 of 8 is 63% on both).
func TestPercent(t *testing.T) {
	cases := []struct {
		n, all int
		want   string
	}{{5, 8, "63%"}, {1, 8, "13%"}, {3, 8, "38%"}, {1, 3, "33%"}, {2, 3, "67%"}, {0, 4, "0%"}, {4, 4, "100%"}, {1, 0, "-"}}
	for _, c := range cases {
		if got := Percent(c.n, c.all); got != c.want {
			t.Errorf("Percent(%d, %d) = %q, want %q", c.n, c.all, got, c.want)
		}
	}
}

func TestEcho(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"bogus", "bogus"},
		{strings.Repeat("é", EchoRunes), strings.Repeat("é", EchoRunes)},
		{strings.Repeat("é", EchoRunes+1), strings.Repeat("é", EchoRunes) + "…"},
		{"a\x1b[31mred\x1b[0m\u202eb", "aredb"},
	}
	for _, tt := range tests {
		if got := Echo(tt.in); got != tt.want {
			t.Errorf("Echo(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
