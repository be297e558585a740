package sshapp

import (
	"net"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// Stats counts open sessions by kind and connections by how their
// handshake ended.
func TestStats(t *testing.T) {
	t.Parallel()
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, func(c *Config) {
		c.Limits.VersionTimeout = 200 * time.Millisecond
		c.Limits.PenaltyMin = -1
	})
	key, host := e.named(t, "host")
	e.table(t, host, "t1", 3, engine.DefaultOptions())

	c := e.connect(t, key)
	sc := openScreen(t, c, 80, 24)
	sc.waitFor(t, "t1", 5*time.Second)
	botKey, _ := e.named(t, "robo")
	b, err := dialBot(e.addr, botKey, "robo", "t1")
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	for _, want := range []string{"HELLO", "JOINED"} {
		if _, err := b.expect(want); err != nil {
			t.Fatal(err)
		}
	}
	if r := runOn(t, c, "whoami"); r.code != 0 {
		t.Fatalf("whoami: %+v", r)
	}

	// One connection closes before it authenticates, one says nothing.
	for _, wait := range []bool{false, true} {
		nc, err := net.Dial("tcp", e.addr)
		if err != nil {
			t.Fatal(err)
		}
		if wait {
			_, _ = readAll(nc, 5*time.Second)
		}
		nc.Close()
	}
	eventually(t, 5*time.Second, "both counted", func() bool {
		st := e.Stats()
		return st.Handshakes["noauth"] >= 1 && st.Handshakes["timeout"] >= 1
	})
	st := e.Stats()
	if st.Sessions["screen"] != 1 || st.Sessions["bot"] != 1 || st.Sessions["command"] != 0 {
		t.Errorf("sessions %v, want one screen and one bot", st.Sessions)
	}
	if st.Handshakes["ok"] != 2 || st.Handshakes["noauth"] != 1 || st.Handshakes["timeout"] != 1 {
		t.Errorf("handshakes %v, want ok 2, noauth 1, timeout 1", st.Handshakes)
	}
	if st.Connections != 2 || st.Unauthenticated != 0 {
		t.Errorf("connections %d (%d unauthenticated), want 2 (0)", st.Connections, st.Unauthenticated)
	}
	for _, r := range []string{"shutdown", "penalised", "per_source", "busy"} {
		if n, ok := st.Refusals[r]; !ok || n != 0 {
			t.Errorf("refusals[%s] = %d, %v; want 0, listed", r, n, ok)
		}
	}
}
