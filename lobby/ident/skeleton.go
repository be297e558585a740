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

// SkeletonVersion changes whenever Skeleton does: the store keys its
// indexes of names by skeletons, and keys them again when a file was
// keyed by another version.
const SkeletonVersion = 2

// Separators are the characters of a name that set its parts apart; they
// never make a name distinct (Skeleton drops them).
const Separators = "_.-"

// Skeleton is the skeleton of name. Names are A-Z a-z 0-9 _ . - (the lobby's
// rule); in them it
//
//   - drops the separators _ . - wherever they are: "pub_1", "pub1." and
//     "pub1" are one name, as are "ada.bot" and "adabot";
//   - folds case: "Bob" and "bob";
//   - folds I, i, l, L, 1 and | alike ("aIice", "alice", "a1ice");
//   - folds the digits that stand for letters: 0 as o, 3 as e, 4 as a,
//     5 as s, 7 as t, 8 as b ("r00t", "m4exchen", "5erver");
//   - reads rn as m and vv as w, as TR39's confusables do ("rnary",
//     "mary"), once the separators are gone ("r.n" too).
//
// A name of separators alone keeps them (lower-cased), so that its
// skeleton is never empty. Other characters (a name of an older server
// could hold any) are kept, lower-cased.
func Skeleton(name string) string {
	folded := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 0x80 {
			// Leave multi-byte runes whole, lower-cased.
			j := i + 1
			for j < len(name) && name[j]&0xC0 == 0x80 {
				j++
			}
			folded = append(folded, strings.ToLower(name[i:j])...)
			i = j - 1
			continue
		}
		if strings.IndexByte(Separators, c) >= 0 {
			continue
		}
		folded = append(folded, fold(c))
	}
	if len(folded) == 0 {
		return strings.ToLower(name)
	}
	var b strings.Builder
	b.Grow(len(folded))
	for i := 0; i < len(folded); i++ {
		c := folded[i]
		if i+1 < len(folded) {
			switch next := folded[i+1]; {
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
		b.WriteByte(c)
	}
	return b.String()
}

// fold is an ASCII character of a name as its skeleton has it.
func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	switch c {
	case 'i', 'l', '1', '|':
		return 'l'
	case '0':
		return 'o'
	case '3':
		return 'e'
	case '4':
		return 'a'
	case '5':
		return 's'
	case '7':
		return 't'
	case '8':
		return 'b'
	}
	return c
}

// Alike reports whether a and b look alike (have the same skeleton).
func Alike(a, b string) bool { return Skeleton(a) == Skeleton(b) }
