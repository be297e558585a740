package sshapp

import (
	"context"
	"errors"
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

func TestOutboxBound(t *testing.T) {
	tests := []struct {
		name    string
		max     int
		writes  []int // sizes
		wantErr int   // index of the first write that fails; -1 none
	}{
		{"under the bound", 100, []int{40, 40, 20}, -1},
		{"past the bound", 100, []int{40, 40, 21, 1}, 2},
		{"one write too big", 100, []int{101}, 0},
		{"no bound", 0, []int{1 << 20, 1 << 20}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &blockingWriter{release: make(chan struct{})} // the client reads nothing
			overs := make(chan int, 4)
			o := newOutbox(w, tt.max, func(owed int) { overs <- owed })
			first := -1
			for i, n := range tt.writes {
				if _, err := o.Write(make([]byte, n)); err != nil {
					if !errors.Is(err, errOwes) {
						t.Fatalf("write %d: %v", i, err)
					}
					if first < 0 {
						first = i
					}
				}
			}
			if first != tt.wantErr {
				t.Fatalf("first failed write %d, want %d", first, tt.wantErr)
			}
			if tt.wantErr >= 0 {
				select {
				case owed := <-overs:
					if owed <= tt.max {
						t.Errorf("over called with %d owed, bound %d", owed, tt.max)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("over was not called")
				}
			}
			if tt.wantErr < 0 && o.close(10*time.Millisecond) {
				t.Error("close reports done while the client reads nothing")
			}
			close(w.release)
			if !o.close(5 * time.Second) {
				t.Error("close still waits once the client reads")
			}
			if len(overs) > 0 {
				t.Error("over called more than once")
			}
			if _, err := o.Write([]byte("x")); err == nil {
				t.Error("a write after close went through")
			}
		})
	}
}

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
