package lobby

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Length limits of user-typed text.
const (
	MaxChatRunes = 200
	MaxNameRunes = 24
)

// Clean makes user-typed text safe for other people's terminals: invalid
// UTF-8, control characters (escape codes included), format characters
// (bidi overrides, zero-width joiners) and private-use runes are dropped,
// runs of space become one space, and the result is cut to max runes.
func Clean(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for i := 0; i < len(s) && n < max; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r),
			unicode.Is(unicode.Cs, r), r == utf8.RuneError:
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
