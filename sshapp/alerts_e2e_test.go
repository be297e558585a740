package sshapp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/alerts"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// startAlertsServer is the real server with a real store, a lobby on
// scripted dice and the alerts.
func startAlertsServer(t *testing.T) (*testServer, *lobby.Lobby, *store.Store) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Dice: lobbytest.NewDice(11)})
	if err != nil {
		t.Fatal(err)
	}
	al, err := alerts.New(context.Background(), alerts.Config{Lobby: lob, Storage: st})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) { c.Storage, c.Lobby, c.Alerts = storageOf(st), lob, al })
	t.Cleanup(func() { al.Close(); lob.Close(); st.Close() })
	return ts, lob, st
}

// bells counts the bells a screen has rung.
func (sc *screen) bells() int { return strings.Count(sc.out.String(), "\a") }

// TestNoticeAndBellWhereverOneIs: alice, seated at bob's table, waits in
// the lobby. When the game starts she sees a notice and hears one bell,
// and enter takes her to the table; at the table, bob's moves ring
// nothing; back in the lobby, her next turn rings once more and its
// notice says so.
func TestNoticeAndBellWhereverOneIs(t *testing.T) {
	t.Parallel()
	ts, lob, st := startAlertsServer(t)
	ctx := context.Background()
	aliceKey := newKey(t)
	alice := openScreen(t, ts.connect(t, aliceKey), 80, 24)
	alice.waitFor(t, "name", 5*time.Second)
	alice.send(t, "alice\r")
	alice.waitFor(t, "you are alice", 5*time.Second)
	bobKey := newKey(t)
	ts.run(t, bobKey, "name bob")
	ap, err := st.PersonByName(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	bp, err := st.PersonByName(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := lobby.Player{ID: ap.ID}, lobby.Player{ID: bp.ID}
	rules := engine.DefaultOptions()
	tbl, err := lob.CreateTable(ctx, pb, lobby.TableConfig{Name: "den", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{pa, pb} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	alice.waitFor(t, "den", 5*time.Second)
	if n := alice.bells(); n != 0 {
		t.Fatalf("%d bells before any news", n)
	}
	bobSees, err := tbl.Watch(ctx, pb)
	if err != nil {
		t.Fatal(err)
	}
	defer bobSees.Close()
	if err := tbl.Start(ctx, pb); err != nil {
		t.Fatal(err)
	}
	alice.waitFor(t, "Your game at den has started", 5*time.Second)
	alice.waitFor(t, "enter: go there", 5*time.Second)
	eventually(t, 5*time.Second, "one bell", func() bool { return alice.bells() == 1 })

	alice.send(t, "\r")
	alice.waitFor(t, "den · classic", 5*time.Second)

	// Both play through the lobby's methods, alice from her seat without
	// a screen of her own there: the moves are simple and legal (a claim
	// is challenged; none: roll, look, claim Mia).
	var snap lobby.Snapshot
	next := func(cond func(lobby.Snapshot) bool) {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		for !cond(snap) {
			s, ok := bobSees.Wait(wctx)
			if !ok {
				t.Fatalf("the table never showed what was awaited; last %+v", snap.Game)
			}
			snap = s
		}
	}
	turnOf := func(name string) func(lobby.Snapshot) bool {
		return func(s lobby.Snapshot) bool { return s.Playing && s.Name(s.Game.Turn) == name }
	}
	move := func(p lobby.Player) {
		t.Helper()
		seq := len(snap.Events())
		var a engine.Action
		switch {
		case snap.Game.Claim != engine.NoValue && snap.Game.Roller != snap.Game.Turn:
			a = engine.Action{Kind: engine.Challenge}
		case snap.Game.Roller != snap.Game.Turn || snap.Game.Claim != engine.NoValue:
			a = engine.Action{Kind: engine.Roll, Look: true}
		default:
			a = engine.Action{Kind: engine.Claim, Value: engine.Mia}
		}
		if err := tbl.Act(ctx, p, a); err != nil {
			t.Fatalf("%v: %v (view %+v)", a.Kind, err, snap.Game)
		}
		next(func(s lobby.Snapshot) bool { return len(s.Events()) > seq })
	}
	next(func(s lobby.Snapshot) bool { return s.Playing })
	for turnOf("alice")(snap) { // at the table: her moves and bob's ring nothing
		move(pa)
	}
	if n := alice.bells(); n != 1 {
		t.Fatalf("%d bells while at the table", n)
	}
	alice.send(t, "\x1b") // esc: back to the lobby
	alice.waitFor(t, "open table", 5*time.Second)
	eventually(t, 5*time.Second, "alice has the table open no more", func() bool {
		for _, s := range tbl.Info().Players {
			if s.ID == pa.ID {
				return !s.Connected
			}
		}
		return false
	})
	for !turnOf("alice")(snap) {
		if !snap.Playing {
			t.Fatal("the game ended before alice's turn came again")
		}
		move(pb)
	}
	alice.waitFor(t, "Your turn at den · ", 5*time.Second)
	eventually(t, 5*time.Second, "a second bell", func() bool { return alice.bells() == 2 })

	// The bell off, from another session of hers: her next turn shows,
	// silent.
	if r := ts.run(t, aliceKey, "settings bell off"); r.code != 0 {
		t.Fatalf("settings bell off: %+v", r)
	}
	n := len(alice.out.String())
	alice.send(t, "\x1b") // the notice put away
	eventually(t, 5*time.Second, "the notice put away", func() bool { return strings.Contains(alice.out.String()[n:], "enter open table") })
	told := strings.Count(alice.out.String(), "Your turn at den")
	move(pa)
	for !turnOf("alice")(snap) || snap.Game.Roller == snap.Game.Turn {
		if !snap.Playing {
			t.Fatal("the game ended before alice's turn came again")
		}
		if turnOf("alice")(snap) {
			move(pa)
		} else {
			move(pb)
		}
	}
	eventually(t, 5*time.Second, "the next notice", func() bool { return strings.Count(alice.out.String(), "Your turn at den") > told })
	if n := alice.bells(); n != 2 {
		t.Fatalf("%d bells with the bell off", n)
	}
	alice.send(t, "\r")
	alice.waitFor(t, "Your turn", 5*time.Second)
	eventually(t, 5*time.Second, "alice at the table again", func() bool {
		for _, s := range tbl.Info().Players {
			if s.ID == pa.ID {
				return s.Connected
			}
		}
		return false
	})
}
