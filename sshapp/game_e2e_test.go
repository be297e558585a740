package sshapp

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// startGameServer is the real server with a real store and lobby.
func startGameServer(t *testing.T) (*testServer, *lobby.Lobby, *store.Store) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st)})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) { c.Storage, c.Lobby = storageOf(st), lob })
	t.Cleanup(func() { lob.Close(); st.Close() })
	return ts, lob, st
}

// TestThreePlayersPlayAGameThroughTheScreens plays a whole game through
// the real server's screens: three SSH clients with PTYs choose names,
// one creates a table, the others sit down, and they play by keys to a
// winner. The test reads whose turn it is from the lobby, as a spectator
// would, and acts only by pressing keys on the players' screens.
func TestThreePlayersPlayAGameThroughTheScreens(t *testing.T) {
	t.Parallel()
	ts, lob, st := startGameServer(t)
	names := []string{"alice", "bob", "carol"}
	screens := map[string]*screen{}
	for _, n := range names {
		sc := openScreen(t, ts.connect(t, newKey(t)), 100, 30)
		sc.waitFor(t, "name", 5*time.Second)
		sc.send(t, n+"\r")
		sc.waitFor(t, "you are "+n, 5*time.Second)
		screens[n] = sc
	}

	// alice opens a table from the form: the suggested name, 3 seats, 2 lives.
	alice := screens["alice"]
	alice.send(t, "n")
	alice.waitFor(t, "Mia penalty both", 5*time.Second)
	// Past the preset; seats 6 -> 3, lives 6 -> 2: the keys in one burst,
	// as a terminal sends what is typed fast.
	alice.send(t, "\x1b[B\x1b[Bhhh\x1b[Bhhhh")
	alice.send(t, "\r")
	var tbl *lobby.Table
	eventually(t, 5*time.Second, "the table exists", func() bool {
		var err error
		tbl, err = lob.Table("alice-table")
		return err == nil && tbl.Info().Taken == 1
	})
	if info := tbl.Info(); info.Seats != 3 || info.Rules.Lives != 2 {
		t.Fatalf("table from the form: %d seats, %d lives", info.Seats, info.Rules.Lives)
	}
	for _, n := range []string{"bob", "carol"} {
		sc := screens[n]
		sc.waitFor(t, "alice-table", 5*time.Second)
		sc.send(t, "\r") // open the table
		sc.waitFor(t, "alice-table ·", 5*time.Second)
		sc.send(t, "s") // sit; the third seat starts the game
	}

	spec, err := tbl.Watch(context.Background(), lobby.Player{ID: "test:spectator"})
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var snap lobby.Snapshot
	// within waits up to d for the spectator to see cond hold.
	within := func(d time.Duration, cond func(lobby.Snapshot) bool) bool {
		wctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		for !cond(snap) {
			s, ok := spec.Wait(wctx)
			if !ok {
				return false
			}
			snap = s
		}
		return true
	}
	// press sends a key until the table shows its effect: a player's
	// screen may not have drawn their turn yet when the spectator sees it,
	// and a key pressed too early is (rightly) ignored.
	press := func(sc *screen, key, what string, cond func(lobby.Snapshot) bool) {
		t.Helper()
		for try := 0; try < 25; try++ {
			sc.send(t, key)
			if within(400*time.Millisecond, cond) {
				return
			}
		}
		t.Fatalf("%s: nothing happened; last %+v", what, snap.Game)
	}
	if !within(10*time.Second, func(s lobby.Snapshot) bool { return s.Playing }) {
		t.Fatal("the game did not start")
	}
	for moves := 0; snap.Playing; moves++ {
		if moves > 200 {
			t.Fatal("the game did not end")
		}
		turn := snap.Name(snap.Game.Turn)
		sc := screens[turn]
		n := len(snap.Events())
		grew := func(s lobby.Snapshot) bool { return len(s.Events()) > n || !s.Playing }
		switch snap.Game.Phase {
		case engine.PhaseOpen:
			// Roll and look: the claim picker opens; enter announces the
			// lowest legal value.
			press(sc, "r", turn+" rolls", grew)
			n = len(snap.Events())
			press(sc, "\r", turn+" announces", grew)
		default:
			press(sc, "c", turn+" calls liar", grew) // liar!
		}
	}
	winner := snap.Name(snap.Game.Winner)
	screens[winner].waitFor(t, "win", 5*time.Second)
	g, evs, err := st.Game(context.Background(), snap.GameID)
	if err != nil || g.Ended.IsZero() || g.Winner != snap.Game.Winner {
		t.Fatalf("stored game %+v, %v", g, err)
	}
	re, err := engine.Replay(g.Rules, len(g.Seats), evs, nil)
	if err != nil || re.Winner() != g.Winner {
		t.Fatalf("the stored game does not replay to its winner: %v", err)
	}
	for _, n := range names {
		if n != winner {
			screens[n].waitFor(t, winner+" wins", 5*time.Second)
		}
	}
}
