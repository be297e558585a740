// Package text makes text that someone typed safe to show on another
// person's terminal. Room: shared by the rooms of sshapp (the server, the
// commands, the bot line protocol). It may import the standard library
// only.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes text someone typed safe to show on another person's
// terminal: invalid UTF-8, control characters (escape codes included) and
// format characters (bidi overrides, zero-width joiners) are dropped, and
// the result is cut to max runes.
func Clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			break
		}
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r) {
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
