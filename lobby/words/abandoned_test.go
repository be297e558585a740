package words

import (
	"strings"
	"testing"
)

// TestClosedWhileRunning names who closed the table as a name is shown:
// cleaned, cut to the longest name, "someone" when it is not known.
func TestClosedWhileRunning(t *testing.T) {
	for _, c := range []struct{ by, want string }{
		{"ann", "ann closed the table while it ran"},
		{"", "someone closed the table while it ran"},
		{"\x1b[2J", "someone closed the table while it ran"},
		{"ev\x1b[31mil", "evil closed the table while it ran"},
		{strings.Repeat("x", 40), strings.Repeat("x", 16) + " closed the table while it ran"},
	} {
		if got := ClosedWhileRunning(c.by); got != c.want {
			t.Errorf("ClosedWhileRunning(%q) = %q, want %q", c.by, got, c.want)
		}
	}
}
