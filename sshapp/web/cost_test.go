package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestFrameMadeOnce: however many watch a table on the web, each of its
// snapshots is drawn once, and every watcher is sent the newest.
func TestFrameMadeOnce(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(21), nil)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	g := e.newGame("alpha", quickRules(), false, a, b, c)
	const watchers = 30
	var streams []*sse
	for range watchers {
		st := e.stream("/tables/alpha/events")
		st.next(nil)
		streams = append(streams, st)
	}
	waitFor(t, "every watcher counted", func() bool { w, _ := e.web.hub.counts(); return w == watchers })
	before := e.web.Stats().Frames
	moves := 0
	for ; moves < 20 && !g.over(); moves++ {
		g.step()
	}
	last := fmt.Sprint(g.last[0].Version)
	for i, st := range streams {
		ev := st.next(func(ev sseEvent) bool { return ev.id == last })
		if ev.name != "table" {
			t.Errorf("watcher %d: %q", i, ev.name)
		}
	}
	made := e.web.Stats().Frames - before
	if made == 0 || made > uint64(moves) {
		t.Errorf("%d moves watched by %d made %d frames; want at most one a move", moves, watchers, made)
	}
}

// TestStalledStream: a watcher whose browser stops reading is dropped
// once it has not taken an event for Limits.StallTimeout; the table
// plays on and the other watchers are served all along.
func TestStalledStream(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(8), func(c *Config) { c.Limits.StallTimeout = time.Second })
	ctx := ctxT(t)
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)

	// A client that asks for the stream and never reads, with the
	// receive buffer bounded (autotuning would grow it to megabytes).
	d := net.Dialer{Control: nil}
	conn, err := d.DialContext(ctx, "tcp", strings.TrimPrefix(e.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(64 << 10)
	fmt.Fprintf(conn, "GET /tables/alpha/events HTTP/1.1\r\nHost: x\r\n\r\n")
	healthy := e.stream("/tables/alpha/events")
	healthy.next(nil)
	waitFor(t, "both watchers in", func() bool { w, _ := e.web.hub.counts(); return w == 2 })

	long := strings.Repeat("a long line to make each event bigger ", 5)
	for n := 0; e.web.Stats().Dropped == 0; n++ {
		if n > 5000 {
			t.Fatal("the stalled watcher was never dropped")
		}
		if g.over() {
			if err := g.tbl.Start(ctx, a); err != nil {
				t.Fatal(err)
			}
			g.catchUp()
		}
		e.clock.Skip(3 * time.Second) // past the chat's flood limit
		if err := g.tbl.Say(ctx, a, fmt.Sprintf("%d %s", n, long)); err != nil {
			t.Fatal(err)
		}
		g.step()
		if n%20 == 0 {
			time.Sleep(50 * time.Millisecond) // let the writes fill the buffers
		}
	}
	waitFor(t, "only the healthy watcher left", func() bool { w, _ := e.web.hub.counts(); return w == 1 })
	// The healthy one is still served, the table still plays.
	if g.over() {
		if err := g.tbl.Start(ctx, a); err != nil {
			t.Fatal(err)
		}
		g.catchUp()
	} else {
		g.step()
	}
	healthy.next(func(ev sseEvent) bool { return ev.id == fmt.Sprint(g.last[0].Version) })
	// The stalled connection was closed by the server.
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	if n, err := io.Copy(io.Discard, conn); err != nil {
		t.Logf("read %d", n)
		t.Errorf("the stalled connection was not closed: %v", err)
	}
}

// TestLimits: per address, requests over the rate get 429, event
// streams over the cap 429, over everyone's cap 503, connections over
// the cap are closed at once; others are served all along.
func TestLimits(t *testing.T) {
	t.Run("rate", func(t *testing.T) {
		e := newEnv(t, nil, func(c *Config) { c.Limits.Rate, c.Limits.Burst = 0.01, 3 })
		for i := range 3 {
			if resp, _ := e.get("/"); resp.StatusCode != http.StatusOK {
				t.Fatalf("request %d: %d", i, resp.StatusCode)
			}
		}
		resp, body := e.get("/leaderboard")
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Too many") {
			t.Errorf("over the rate: %d %q", resp.StatusCode, body)
		}
		if e.web.Stats().Limited == 0 {
			t.Error("not counted")
		}
	})
	t.Run("streams", func(t *testing.T) {
		e := newEnv(t, lobbytest.NewDice(2), func(c *Config) { c.Limits.MaxStreamsPerAddr = 2 })
		a, b := e.player("alice"), e.player("bob")
		e.newGame("alpha", quickRules(), false, a, b)
		one, two := e.stream("/tables/alpha/events"), e.stream("/tables/alpha/events")
		one.next(nil)
		two.next(nil)
		third := e.stream("/tables/alpha/events")
		if third.resp.StatusCode != http.StatusTooManyRequests || third.resp.Header.Get("Retry-After") == "" {
			t.Errorf("a third stream from one address: %d", third.resp.StatusCode)
		}
		if resp, _ := e.get("/tables/alpha"); resp.StatusCode != http.StatusOK {
			t.Errorf("the page beside the streams: %d", resp.StatusCode)
		}
		one.close()
		waitFor(t, "a stream closed gives its place back", func() bool {
			st := e.stream("/tables/alpha/events")
			defer st.close()
			return st.resp.StatusCode == http.StatusOK
		})
	})
	t.Run("everyone's streams", func(t *testing.T) {
		e := newEnv(t, lobbytest.NewDice(2), func(c *Config) { c.Limits.MaxStreamsPerAddr, c.Limits.MaxStreams = 5, 1 })
		a, b := e.player("alice"), e.player("bob")
		e.newGame("alpha", quickRules(), false, a, b)
		e.stream("/tables/alpha/events").next(nil)
		if st := e.stream("/tables/alpha/events"); st.resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("past everyone's cap: %d", st.resp.StatusCode)
		}
	})
	t.Run("connections", func(t *testing.T) {
		e := newEnv(t, nil, func(c *Config) { c.Limits.MaxConnsPerAddr = 2 })
		addr := strings.TrimPrefix(e.base, "http://")
		var held []net.Conn
		for range 2 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		// The listener counts a connection when it accepts it: ask on both.
		for _, c := range held {
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("a held connection: %v", err)
			}
		}
		over, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(over, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		_ = over.SetReadDeadline(time.Now().Add(20 * time.Second))
		if n, err := over.Read(make([]byte, 64)); n != 0 || err == nil {
			t.Errorf("a third connection was served: %d bytes, %v", n, err)
		}
		over.Close()
		held[0].Close()
		waitFor(t, "a closed connection gives its place back", func() bool {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return false
			}
			defer c.Close()
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			return err == nil && resp.StatusCode == 200
		})
		held[1].Close()
	})
}
