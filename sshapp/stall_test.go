package sshapp

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/store"
)

// pausedConn is a client's TCP connection whose reads block while paused:
// its SSH client stops reading altogether, as a client that hangs does.
type pausedConn struct {
	net.Conn
	mu     sync.Mutex
	paused chan struct{} // nil while reading
}

func (c *pausedConn) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused == nil {
		c.paused = make(chan struct{})
	}
}

func (c *pausedConn) resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused != nil {
		close(c.paused)
		c.paused = nil
	}
}

func (c *pausedConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	wait := c.paused
	c.mu.Unlock()
	if wait != nil {
		<-wait
	}
	return c.Conn.Read(p)
}

// A client that stops reading its screen while a table of bots plays on
// is dropped once it owes MaxOwed, with a log line; the table never waits.
func TestStalledReaderDropped(t *testing.T) {
	t.Parallel()
	const bound = 64 << 10
	logs := &syncBuffer{}
	e := startBotServer(t, lobby.Config{BotDelay: 5 * time.Millisecond}, func(c *Config) {
		c.Limits.MaxOwed = bound
		c.Log = log.New(logs)
	})
	key, host := e.named(t, "host")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl := e.table(t, host, "g1", 3, rules)
	for range 3 {
		if _, err := tbl.AddBot(context.Background(), host, ai.Easy); err != nil {
			t.Fatal(err)
		}
	}
	finished := func() int {
		gs, err := e.st.Games(context.Background(), store.Query{Table: "g1", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return len(gs)
	}

	// The client: a small receive buffer, so that what it does not read
	// piles up at the server soon.
	nc, err := net.Dial("tcp", e.addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.(*net.TCPConn).SetReadBuffer(4 << 10); err != nil {
		t.Fatal(err)
	}
	pc := &pausedConn{Conn: nc}
	cc, chans, reqs, err := gossh.NewClientConn(pc, e.addr, clientConfig(key))
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	defer func() { pc.resume(); c.Close() }()
	// Four screens of the table (the most sessions a connection may
	// have), to pile output up four times as fast.
	var screens []*gossh.Session
	for i := range 4 {
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RequestPty("dumb", 200, 500, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		var screen syncBuffer
		s.Stdout = &screen
		stdin, err := s.StdinPipe() // open: the end of input would quit the screen
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		if err := s.Start("play g1"); err != nil {
			t.Fatal(err)
		}
		eventually(t, 10*time.Second, fmt.Sprintf("the table on screen %d", i+1), func() bool { return strings.Contains(screen.String(), "g1") })
		screens = append(screens, s)
	}

	pc.pause()
	begin, games := time.Now(), finished()
	// Redraws in full keep the screen's output coming. (Window changes
	// are sent, not read: the client can still send them.)
	for w := 0; !strings.Contains(logs.String(), "stopped reading"); w++ {
		if time.Since(begin) > 60*time.Second {
			t.Fatalf("the stalled session is still there after %s; log:\n%s", time.Since(begin), logs.String())
		}
		for _, s := range screens {
			go func() { // never blocks the test when the connection is gone
				_, _ = s.SendRequest("window-change", false, gossh.Marshal(struct{ W, H, PW, PH uint32 }{uint32(499 + w%2), 200, 0, 0}))
			}()
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(begin)
	t.Logf("dropped after %s; %d games finished meanwhile", took.Round(time.Millisecond), finished()-games)
	eventually(t, 5*time.Second, "the session gone", func() bool { return e.sessionCount() == 0 })
	// Each screen that passed its bound before the connection closed
	// counts.
	if got := e.Stats().Dropped["stalled"]; got < 1 || got > uint64(len(screens)) {
		t.Errorf("Stats: %d sessions dropped for not reading, want 1 to %d", got, len(screens))
	}
	if !strings.Contains(logs.String(), fmt.Sprintf("bound=%d", bound)) {
		t.Errorf("the log line does not give the bound:\n%s", logs.String())
	}
	// The table played on all along, and goes on.
	after := finished()
	if after <= games {
		t.Errorf("no game finished while the client stalled (%d before, %d after)", games, after)
	}
	eventually(t, 10*time.Second, "the table plays on", func() bool { return finished() > after })
}
