package ident

import "testing"

func TestSkeleton(t *testing.T) {
	cases := []struct {
		a, b  string
		alike bool
	}{
		{"alice", "alice", true},
		{"alice", "ALICE", true},
		{"alice", "aIice", true}, // capital i
		{"alice", "a1ice", true},
		{"alice", "a|ice", true},
		{"bob", "b0b", true},
		{"bob", "BOB", true},
		{"mary", "rnary", true},
		{"wes", "vves", true},
		{"ada", "ada2", false},
		{"bob", "bobb", false},
		{"bob-1", "bob_1", false},
		{"carol", "caro1", true},
		{"x.y", "x-y", false},
		{"аda", "ada", false}, // Cyrillic а is refused at the door, never folded here
		{"ÄDA", "äda", true},
	}
	for _, c := range cases {
		if got := Skeleton(c.a) == Skeleton(c.b); got != c.alike {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q: alike %v, want %v", c.a, Skeleton(c.a), c.b, Skeleton(c.b), got, c.alike)
		}
		if Alike(c.a, c.b) != c.alike {
			t.Errorf("Alike(%q, %q) != %v", c.a, c.b, c.alike)
		}
	}
}

func TestSkeletonKeepsLength(t *testing.T) {
	for _, n := range []string{"", "a", "rn", "vv", "rnrn", "r", "Rn", "vV"} {
		s := Skeleton(n)
		if len(s) > len(n) {
			t.Errorf("Skeleton(%q) = %q is longer", n, s)
		}
	}
	if Skeleton("rN") != "m" || Skeleton("Vv") != "w" {
		t.Errorf("case of pairs: %q %q", Skeleton("rN"), Skeleton("Vv"))
	}
}

func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"alice", "aIice", "rn", "ÄDA", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Skeleton(Skeleton(s)) != Skeleton(s) && isASCII(s) {
			t.Errorf("Skeleton is not idempotent on %q: %q then %q", s, Skeleton(s), Skeleton(Skeleton(s)))
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
