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
		{"carol", "caro1", true},
		// Separators never make a name distinct, wherever they are.
		{"bob-1", "bob_1", true},
		{"x.y", "x-y", true},
		{"pub1", "pub_1", true},
		{"pub1", "pub1.", true},
		{"root", "root_", true},
		{"root", "_r.o-o_t_", true},
		{"ada.bot", "ada_bot", true},
		{"ada.bot", "adabot", true},
		{"mary", "r.nary", true}, // rn once the dot is gone
		{"-", "_", false},        // separators alone keep them
		// Digits that stand for letters.
		{"root", "r00t", true},
		{"maexchen", "m4exchen", true},
		{"server", "5erv3r", true},
		{"bot", "b0t", true},
		{"greta", "gr3t4", true},
		{"test", "7es7", true},
		{"bob", "8o8", true},
		{"ada2", "adaz", false}, // 2, 6 and 9 stand for no letter here
		{"аda", "ada", false},   // Cyrillic а is refused at the door, never folded here
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
	for _, n := range []string{"", "a", "rn", "vv", "rnrn", "r", "Rn", "vV", "_", "a_b", "._-"} {
		s := Skeleton(n)
		if len(s) > len(n) {
			t.Errorf("Skeleton(%q) = %q is longer", n, s)
		}
	}
	if Skeleton("rN") != "m" || Skeleton("Vv") != "w" {
		t.Errorf("case of pairs: %q %q", Skeleton("rN"), Skeleton("Vv"))
	}
	for _, n := range []string{"_", "..", "._-"} {
		if Skeleton(n) != n {
			t.Errorf("Skeleton(%q) = %q: a name of separators alone keeps them", n, Skeleton(n))
		}
	}
}

func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"alice", "aIice", "rn", "ÄDA", "\xff", "r_n", "__", "v.v.v"} {
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
