package lobby

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// MaxChatRunes is the longest chat line, in runes.
const MaxChatRunes = 200

// Clean is the one cleaner of text someone typed (names, chat, table
// names, arguments echoed back), making it safe for other people's
// terminals: escape sequences go whole (ansi.Strip), then invalid UTF-8,
// control characters, format characters (bidi overrides, zero-width
// joiners), surrogates and private-use runes; runs of white space (line
// breaks and tabs included) become one space, none at either end; and the
// result is cut to max runes.
func Clean(s string, max int) string {
	s = ansi.Strip(s)
	var b strings.Builder
	n := 0
	space := false
	for i := 0; i < len(s) && n < max; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
			continue
		}
		if space {
			if n+1 >= max {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
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
