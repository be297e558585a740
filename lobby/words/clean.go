package words

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Clean is the one cleaner of text someone typed (names, chat, table
// names, words echoed back), making it safe for other people's terminals:
// escape sequences go whole (ansi.Strip), then invalid UTF-8, control
// characters, format characters (bidi overrides, zero-width joiners),
// surrogates and private-use runes; every white space (a tab, a line
// break) becomes a space, and none is left at either end; the result is
// cut to max runes.
func Clean(s string, max int) string {
	if isClean(s, max) {
		return s // most text is clean already: the log's lines, names (no copy)
	}
	return clean(s, max)
}

// isClean reports whether Clean would leave s as it is: no rune it drops
// or changes (escape sequences start with a control character), no white
// space but ' ' and none at either end, at most max runes.
func isClean(s string, max int) bool {
	n := 0
	for i, r := range s {
		if n++; n > max {
			return false
		}
		if r < utf8.RuneSelf {
			if r < ' ' || r == 0x7f || r == ' ' && (i == 0 || i == len(s)-1) {
				return false
			}
			continue
		}
		if r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) ||
			unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r) {
			return false
		}
	}
	return true
}

// clean is Clean of text that needs it.
func clean(s string, max int) string {
	s = ansi.Strip(s)
	var b strings.Builder
	n, spaces := 0, 0 // spaces: white space waiting for a rune after it
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			if b.Len() > 0 {
				spaces++
			}
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
			continue
		}
		if n+spaces+1 > max {
			break
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
			n++
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// EchoRunes is the most of a value a person gave that an error repeats
// (PROTOCOL.md §1).
const EchoRunes = 32

// Echo is what an error repeats of a value a person gave (a name, a
// flag's value, a word where none is taken): at most its first EchoRunes
// characters, with "…" where it is cut, cleaned as Clean cleans. It reads
// no more of v than it shows. Every error that repeats a person's value
// repeats it through Echo.
func Echo(v string) string {
	n := 0
	for i := range v {
		if n == EchoRunes {
			return Clean(v[:i], EchoRunes) + "…"
		}
		n++
	}
	return Clean(v, EchoRunes)
}

// Plural is a count in words: one when n is 1 ("a life", "1 game"),
// otherwise n and many ("3 lives", "0 games"). It is the one plural of
// every count the server writes.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Percent is n of all as a whole percent, rounded half up ("63%"), or
// "-" when all is 0: the one rounding of every rate the server shows (the
// stats screen and the stats command).
func Percent(n, all int) string {
	if all <= 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", (200*n+all)/(2*all))
}
