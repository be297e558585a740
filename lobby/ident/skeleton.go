// Package ident is who is who, in the few definitions the store and the
// lobby must share (the store may not import the lobby): the kinds of a
// person's id, the skeleton of a name, which says when two names look
// alike, and the longest name (which lobby/words needs too). The rules
// built on them (which names a person may take, who may
// see what) are the lobby's; the store keys its indexes by them.
//
// Its room: a leaf under lobby, imported by lobby and store alike. It
// imports only the standard library.
package ident

import "strings"

// Skeleton is the skeleton of name. Names are A-Z a-z 0-9 _ . - (the lobby's
// rule); in them it folds:
//
//   - case: "Bob" and "bob";
//   - I, i, l, L, 1 and | alike ("aIice", "alice", "a1ice");
//   - O, o and 0 alike ("b0b", "bob");
//   - rn like m and vv like w, as TR39's confusables do ("rnary", "mary").
//
// Other characters (a name of an older server could hold any) are kept,
// lower-cased.
func Skeleton(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch c {
		case 'i', 'l', '1', '|':
			c = 'l'
		case '0':
			c = 'o'
		}
		if i+1 < len(name) {
			next := name[i+1] | 0x20 // the next ASCII letter in lower case
			switch {
			case c == 'r' && next == 'n':
				b.WriteByte('m')
				i++
				continue
			case c == 'v' && next == 'v':
				b.WriteByte('w')
				i++
				continue
			}
		}
		if c >= 0x80 {
			// Leave multi-byte runes whole, lower-cased.
			j := i + 1
			for j < len(name) && name[j]&0xC0 == 0x80 {
				j++
			}
			b.WriteString(strings.ToLower(name[i:j]))
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Alike reports whether a and b look alike (have the same skeleton).
func Alike(a, b string) bool { return Skeleton(a) == Skeleton(b) }
