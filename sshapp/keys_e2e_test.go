package sshapp

import (
	"strings"
	"testing"
	"time"
)

// TestEscThenAKeyInOneBurst: a terminal sends esc and a key typed fast
// as alt+key ("\x1bh"); where the screen has no alt binding it is the two
// keys, in order, over the real SSH input: the form's esc back to the
// lobby, then L the stats; esc esc h from the stats to the lobby, then the
// history.
func TestEscThenAKeyInOneBurst(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, time.Millisecond)
	sc := openScreen(t, e.connect(t, e.key(t, "alice")), 80, 24)
	sc.waitFor(t, "lobby", 5*time.Second)
	sc.send(t, "n")
	sc.waitFor(t, "new table", 5*time.Second)
	mark := len(sc.out.String())
	sc.send(t, "\x1bL") // esc L, as a terminal sends it typed fast
	eventually(t, 5*time.Second, "the stats after esc L", func() bool {
		return strings.Contains(sc.out.String()[mark:], "stats & leaderboard")
	})
	mark = len(sc.out.String())
	sc.send(t, "\x1b\x1bh")
	eventually(t, 5*time.Second, "the history after esc esc h", func() bool {
		return strings.Contains(sc.out.String()[mark:], "history · finished games")
	})
}
