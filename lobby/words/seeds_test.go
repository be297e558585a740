package words

import (
	"strings"
	"testing"
)

// TestSeedSays: a seed is said to count only where the lobby deals it:
// for a player seated for the next game, or in the running game's dice;
// never for someone not seated.
func TestSeedSays(t *testing.T) {
	cases := []struct {
		next, seated bool
		counts       bool
	}{
		{true, true, true},
		{true, false, false},
		{false, true, true},
	}
	for _, c := range cases {
		s := SeedSays(c.next, c.seated)
		if got := !strings.Contains(s, "only if you play"); got != c.counts {
			t.Errorf("SeedSays(%v, %v) = %q", c.next, c.seated, s)
		}
	}
}
