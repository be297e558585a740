package tui

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestTableScreenGameLink: with the web window's public address set, the
// table screen shows its game's web address, to players and spectators
// alike, through the one rule of what the web shows (Config.GameLink);
// without it, nothing.
func TestTableScreenGameLink(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("watched", engine.DefaultOptions(), a, b)
	c := e.player("carol")
	var asked []lobby.GameAccess
	link := func(id string, g lobby.GameAccess) string {
		asked = append(asked, g)
		if g.Table == nil || g.Table.Private {
			return ""
		}
		return "https://mia.test/games/" + id
	}
	for _, p := range []lobby.Player{a, c} {
		snap := e.snapshot(tbl, p)
		cfg := e.config(p, 80, 24)
		cfg.GameLink = link
		m := New(cfg).(*Model)
		showTable(m, tbl, snap)
		frame := m.View()
		want := "on the web: https://mia.test/games/" + snap.GameID
		if !strings.Contains(frame, want) {
			t.Errorf("%s's table screen lacks %q:\n%s", nameOf(p), want, frame)
		}
		plain := New(e.config(p, 80, 24)).(*Model)
		showTable(plain, tbl, snap)
		if strings.Contains(plain.View(), "on the web") {
			t.Errorf("%s's table screen shows a web link without a web window", nameOf(p))
		}
	}
	// A link too long for the words before it keeps whole: the words go.
	long := "https://mia.example.org/games/" + strings.Repeat("9", 8) + "?link=jFKly9Y8ind2tMfYxlDsBw"
	for _, w := range []int{80, 70, len(long)} {
		if got := fitLink(w, long, "You are watching this game · on the web: ", "on the web: "); !strings.HasSuffix(got, long) || len(got) > w {
			t.Errorf("at %d columns: %q", w, got)
		}
	}
	for _, g := range asked {
		if g.Table == nil || g.Table.Host != a.ID || g.Started.Before(g.Table.Created) {
			t.Errorf("the link was asked with %+v, not the table's record", g)
		}
	}
}
