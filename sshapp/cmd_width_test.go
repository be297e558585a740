package sshapp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/store"
)

// TestTextFits80Columns: the plain text of the commands fits 80 columns
// under the longest rule set (a 12-seat table with every option that adds
// words), with names as long as they go: tables, table create, history,
// replay, stats (of a person and of a bot), and the others around them.
func TestTextFits80Columns(t *testing.T) {
	e := startRecServer(t, time.Millisecond)
	const host, table = "alicewithalongnm", "thelongesttablen"
	longest := "--seats 12 --ranking pips --lives 3 --mia-pass wins --low-claim loses --mia-penalty 1 --mia-penalty-both " +
		"--next-opener before-loser --end first-out --turn-seconds 3600"
	runs := []string{
		"table create " + table + " --private --bots 12 --bot-level normal " + longest,
	}
	for _, cmd := range runs {
		if r := e.as(t, host, cmd); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
	}
	eventually(t, 60*time.Second, "a finished game", func() bool {
		gs, err := e.st.Games(context.Background(), store.Query{Limit: 1})
		return err == nil && len(gs) == 1
	})
	gs, err := e.st.Games(context.Background(), store.Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := gs[0].ID
	for _, cmd := range []string{
		"table create " + "anotherlongtable " + longest,
		"tables", "history", "history --table " + table, "replay " + id, "stats", "stats ada", "stats ada --table " + table,
		"seed " + table, "rules " + table, "table rules anotherlongtable " + longest, "whoami", "leaderboard",
		"leaderboard --table " + table, "help", "help table", "help stats", "rules", "verify " + id,
	} {
		r := e.as(t, host, cmd)
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
		for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
			if n := ansi.StringWidth(l); n > 80 {
				t.Errorf("%s: a line of %d columns:\n%s", cmd, n, l)
			}
		}
		if testing.Verbose() {
			t.Logf("$ %s\n%s", cmd, r.stdout)
		}
	}
}
