package sshapp

import (
	"context"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestDroppedScreenLeavesNothing: a spectator's screen hears its table
// and its person's notices with no goroutine waiting (tui.Config.Post);
// when the connection drops without quitting, the server ends both: the
// table counts no watcher and the lobby no one hearing notices.
func TestDroppedScreenLeavesNothing(t *testing.T) {
	t.Parallel()
	var lob *lobby.Lobby
	ts := startServer(t, withLobby(t, &lob))
	host, carol := newKey(t), newKey(t)
	hp, err := ts.players.SetName(context.Background(), Fingerprint(host.PublicKey()), "hosta")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.players.SetName(context.Background(), Fingerprint(carol.PublicKey()), "carol"); err != nil {
		t.Fatal(err)
	}
	den, err := lob.CreateTable(context.Background(), lobby.Player{ID: hp.ID, Key: Fingerprint(host.PublicKey())},
		lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	c := ts.connect(t, carol)
	sc := startScreen(t, c, "dumb", 80, 24, "play den")
	sc.waitFor(t, "den · classic", 5*time.Second)
	eventually(t, 5*time.Second, "carol watches den and hears her notices", func() bool {
		return den.Info().Watching == 1 && lob.NewsStats().Noticed == 1
	})
	c.Close() // dropped: no q
	eventually(t, 5*time.Second, "nothing left of carol's screen", func() bool {
		return den.Info().Watching == 0 && lob.NewsStats().Noticed == 0
	})
}
