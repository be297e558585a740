package guard

import (
	"bytes"
	"errors"
	"io"
	"net"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	gossh "golang.org/x/crypto/ssh"
)

// tcpPair is a connected pair of TCP connections on loopback: the
// client's end and the server's.
func tcpPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cl, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	sv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(); sv.Close() })
	return cl.(*net.TCPConn), sv.(*net.TCPConn)
}

// eventually polls cond until it holds.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// handshake puts c among g's handshakes under way.
func (g *Gate) handshake(c *Conn) {
	c.g = g
	g.handshaking[c] = struct{}{}
	g.unauthBySrc[c.source]++
}

// TestUnreadVersionIsNotSilent: a connection whose client has sent bytes
// the server has not read yet (its handshake goroutine has not run on a
// busy server) is not taken for silent, nor for stalled until it has
// waited five times EarlyDropAfter; a younger one that sent nothing makes
// room first.
func TestUnreadVersionIsNotSilent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the receive queue is asked on Linux only")
	}
	t.Parallel()
	now := time.Now()
	g := New(Config{})
	busyClient, busy := tcpPair(t)
	_, quiet := tcpPair(t)
	older := &Conn{raw: busy, source: "192.0.2.1", accepted: now.Add(-100 * time.Millisecond)}
	younger := &Conn{raw: quiet, source: "192.0.2.1", accepted: now.Add(-50 * time.Millisecond)}
	g.handshake(older)
	g.handshake(younger)
	if got := g.victimLocked("198.51.100.1", now, false); got != older {
		t.Fatal("with nothing sent, the older connection does not make room")
	}
	if _, err := busyClient.Write([]byte("SSH-2.0-client\r\n")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the bytes queued", func() bool { return queued(busy) })
	if got := g.victimLocked("198.51.100.1", now, false); got != younger {
		t.Error("a connection with its version line unread was taken for silent")
	}
	// Unread for EarlyDropAfter: the server is behind on it, not its
	// client, and it is spared; unread for five times as long, it is
	// stalled all the same.
	if got := g.victimLocked("198.51.100.1", now.Add(2*time.Second), false); got != younger {
		t.Error("a connection unread for two seconds was put out before a silent one")
	}
	if got := g.victimLocked("198.51.100.1", now.Add(6*time.Second), false); got != older {
		t.Error("a connection unread for six seconds was spared")
	}
	if _, err := io.ReadFull(busy, make([]byte, len("SSH-2.0-client\r\n"))); err != nil {
		t.Fatal(err)
	}
	if queued(busy) {
		t.Error("bytes read are still queued")
	}
}

// TestChurnersMakeRoom: a young handshake whose key exchange has begun is
// spared for a newcomer, unless its source has more strikes (unfinished
// connections) than the newcomer's: then the one of the source with the
// most strikes makes room.
func TestChurnersMakeRoom(t *testing.T) {
	t.Parallel()
	now := time.Now()
	talker := func(src string, age time.Duration) *Conn {
		c := &Conn{source: src, accepted: now.Add(-age)}
		c.version.Store(true)
		c.moved.Store(true)
		return c
	}
	tests := []struct {
		name     string
		strikes  map[string]int // unfinished connections of each source, just now
		newcomer string
		want     int // index of the victim among the talkers; -1: none
	}{
		{"clean sources: none", nil, "198.51.100.1", -1},
		{"a churner's for a clean newcomer", map[string]int{"192.0.2.2": 3}, "198.51.100.1", 1},
		{"the worst churner's first", map[string]int{"192.0.2.1": 2, "192.0.2.2": 5}, "198.51.100.1", 1},
		{"none for a newcomer as bad", map[string]int{"192.0.2.1": 2, "192.0.2.2": 2, "192.0.2.3": 2}, "192.0.2.3", -1},
		{"one for a newcomer less bad", map[string]int{"192.0.2.1": 4, "192.0.2.2": 2, "192.0.2.3": 3}, "192.0.2.3", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(Config{})
			talkers := []*Conn{talker("192.0.2.1", 100*time.Millisecond), talker("192.0.2.2", 200*time.Millisecond)}
			for _, c := range talkers {
				g.handshake(c)
			}
			for src, n := range tt.strikes {
				for range n {
					g.penalties.add(src, penaltyNoAuth, now.Add(-time.Millisecond))
				}
			}
			got := g.victimLocked(tt.newcomer, now, false)
			switch {
			case tt.want < 0 && got != nil:
				t.Errorf("%s's talker makes room", got.source)
			case tt.want >= 0 && got != talkers[tt.want]:
				t.Errorf("victim %v, want %s's talker", got, talkers[tt.want].source)
			}
			if own := g.victimLocked("192.0.2.2", now, true); own != nil {
				t.Error("a talker makes room for a newcomer of its own source")
			}
		})
	}
}

// TestStuckTalkersMakeRoom: a handshake whose client has sent its version
// line and nothing after it makes room for a newcomer whose source has no
// more strikes than its own, the oldest first, after a silent one and
// before an old one; one whose key exchange has begun does not, until it
// is old.
func TestStuckTalkersMakeRoom(t *testing.T) {
	t.Parallel()
	now := time.Now()
	g := New(Config{})
	conn := func(src string, age time.Duration, version, moved bool) *Conn {
		c := &Conn{source: src, accepted: now.Add(-age)}
		c.version.Store(version)
		c.moved.Store(moved)
		g.handshake(c)
		return c
	}
	busy := conn("192.0.2.1", 900*time.Millisecond, true, true)
	if got := g.victimLocked("198.51.100.1", now, false); got != nil {
		t.Fatal("a young handshake under way makes room")
	}
	stuckYoung := conn("192.0.2.2", 10*time.Millisecond, true, false)
	stuckOld := conn("192.0.2.2", 300*time.Millisecond, true, false)
	old := conn("192.0.2.1", 2*time.Second, true, true)
	silent := conn("192.0.2.2", time.Millisecond, false, false)
	name := map[*Conn]string{nil: "none", busy: "busy", stuckYoung: "stuck young", stuckOld: "stuck old", old: "old", silent: "silent"}
	for _, want := range []*Conn{silent, stuckOld, stuckYoung, old} {
		if got := g.victimLocked("198.51.100.1", now, false); got != want {
			t.Fatalf("victim %s, want %s", name[got], name[want])
		}
		g.forgetHandshakeLocked(want)
	}
	if got := g.victimLocked("198.51.100.1", now.Add(200*time.Millisecond), false); got != busy {
		t.Errorf("victim %s, want the handshake old by now", name[got])
	}

	// A newcomer whose source has more strikes than the stuck one's does not
	// take its place.
	conn("192.0.2.3", 300*time.Millisecond, true, false)
	g.penalties.add("198.51.100.1", penaltyNoAuth, now.Add(-time.Millisecond))
	g.forgetHandshakeLocked(busy)
	if got := g.victimLocked("198.51.100.1", now, false); got != nil {
		t.Errorf("a newcomer with a worse record takes the place of one from %s", got.source)
	}
	if got := g.victimLocked("198.51.100.2", now, false); got == nil {
		t.Error("a newcomer with a record as clean takes no place")
	}
}

// TestCleanClientIsNotPutOut: a client that has not had time to send its
// version line, from a source without strikes, is not put out for a
// newcomer from a source with strikes (a churner's); a churner's waiting
// connection is, before it.
func TestCleanClientIsNotPutOut(t *testing.T) {
	t.Parallel()
	now := time.Now()
	g := New(Config{})
	for range 2 {
		g.penalties.add("192.0.2.9", penaltyNoAuth, now.Add(-time.Millisecond)) // the churner
	}
	login := &Conn{source: "198.51.100.1", accepted: now.Add(-time.Millisecond)}
	g.handshake(login)
	if got := g.victimLocked("192.0.2.9", now, false); got != nil {
		t.Fatalf("a churner's newcomer puts out the client of a clean source (%s)", got.source)
	}
	churner := &Conn{source: "192.0.2.8", accepted: now.Add(-300 * time.Millisecond)}
	churner.version.Store(true)
	g.handshake(churner)
	for range 3 {
		g.penalties.add("192.0.2.8", penaltyNoAuth, now.Add(-time.Millisecond))
	}
	if got := g.victimLocked("192.0.2.9", now, false); got != churner {
		t.Errorf("victim %v, want the churner's", got)
	}
	if got := g.victimLocked("203.0.113.1", now, false); got != churner {
		t.Errorf("for a clean newcomer: victim %v, want the churner's (more strikes first)", got)
	}
}

// TestRefusalIsADisconnect: a refused connection reads the server's
// version line and an SSH_MSG_DISCONNECT with the reason, which an SSH
// client reports as the server's disconnect; and it is closed cleanly once
// the client hangs up, its bytes read, never reset.
func TestRefusalIsADisconnect(t *testing.T) {
	t.Parallel()
	g := New(Config{Version: "SSH-2.0-mia", Limits: Limits{MaxPerSource: 3}})
	tests := []struct {
		r    refusal
		code int
		says string
	}{
		{refusePerSource, 12, "too many connections from your address (at most 3 at once)"},
		{refuseBusy, 12, "the server is busy"},
		{refusePenalised, 1, "too many unfinished connections from your address; try again in 42s"},
		{refuseClosing, 11, "the server is shutting down"},
	}
	for _, tt := range tests {
		t.Run(string(tt.r), func(t *testing.T) {
			client, server := tcpPair(t)
			done := make(chan struct{})
			go func() {
				defer close(done)
				g.refuse(server, server, "127.0.0.1", tt.r, 42*time.Second)
				server.Close()
			}()
			_, _, _, err := gossh.NewClientConn(client, "127.0.0.1:22", &gossh.ClientConfig{
				HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
			if err == nil || !strings.Contains(err.Error(), "disconnect, reason "+strconv.Itoa(tt.code)) ||
				!strings.Contains(err.Error(), tt.says) {
				t.Errorf("the client's error: %v; want a disconnect, reason %d: %s", err, tt.code, tt.says)
			}
			client.Close()
			<-done
		})
	}

	t.Run("not reset", func(t *testing.T) {
		client, server := tcpPair(t)
		// What an SSH client sends at once: its version line and the start
		// of its key exchange, which the server never reads.
		if _, err := client.Write(append([]byte("SSH-2.0-OpenSSH_9.2\r\n"), bytes.Repeat([]byte{0}, 1500)...)); err != nil {
			t.Fatal(err)
		}
		go func() {
			g.refuse(server, server, "127.0.0.1", refuseBusy, 0)
			server.Close()
		}()
		_ = client.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := io.ReadAll(client)
		if err != nil {
			t.Fatalf("reading the refusal: %v (reset: %v)", err, errors.Is(err, syscall.ECONNRESET))
		}
		if !bytes.HasPrefix(got, []byte("SSH-2.0-mia\r\n")) || !bytes.Contains(got, []byte("the server is busy")) {
			t.Errorf("read %q", got)
		}
	})
}

func TestDisconnectPacket(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{"", "x", "the server is busy, try again in a minute", strings.Repeat("é", 300), "x" + strings.Repeat("é", 300)} {
		p := disconnectPacket(12, msg)
		if len(p)%8 != 0 {
			t.Errorf("%q: %d bytes, not a multiple of 8", msg, len(p))
		}
		length := int(p[0])<<24 | int(p[1])<<16 | int(p[2])<<8 | int(p[3])
		pad := int(p[4])
		if length != len(p)-4 || pad < 4 || p[5] != msgDisconnect {
			t.Errorf("%q: length %d of %d, padding %d, type %d", msg, length, len(p)-4, pad, p[5])
		}
		n := int(p[10])<<24 | int(p[11])<<16 | int(p[12])<<8 | int(p[13])
		got := string(p[14 : 14+n])
		if n > disconnectMessageMaxBytes || !strings.HasPrefix(msg, got) || !utf8.ValidString(got) || n < min(len(msg), disconnectMessageMaxBytes-1) {
			t.Errorf("%q: the message reads %q", msg, got)
		}
	}
}

func TestSourceName(t *testing.T) { // the cases of netsource.Of, as the guard keys them
	t.Parallel()
	tests := []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an ip", "not an ip"},
	}
	for _, tt := range tests {
		if got := SourceName(tt.in); got != tt.want {
			t.Errorf("SourceName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWaitsOnClient: a handshake counts as stalled (for the early drop,
// and to make room as an old one) when it has waited on its client for
// EarlyDropAfter: the server spoke last, that long ago. One whose client
// spoke last waits on the server (short of CPU, it has not answered yet),
// until it has run five times as long.
func TestWaitsOnClient(t *testing.T) {
	t.Parallel()
	now := time.Now()
	ago := func(d time.Duration) int64 { return now.Add(-d).UnixNano() }
	tests := []struct {
		name    string
		age     time.Duration
		in, out int64 // last read and write; 0: none
		want    bool
	}{
		{"young", 500 * time.Millisecond, 0, 0, false},
		{"silent for two seconds", 2 * time.Second, 0, 0, true},
		{"silent since the server's version line", 2 * time.Second, 0, ago(1900 * time.Millisecond), true},
		{"the server spoke last, 1.2 s ago", 2 * time.Second, ago(1800 * time.Millisecond), ago(1200 * time.Millisecond), true},
		{"the server spoke last, 0.5 s ago", 2 * time.Second, ago(1800 * time.Millisecond), ago(500 * time.Millisecond), false},
		{"the client spoke last: the server owes", 2 * time.Second, ago(1500 * time.Millisecond), ago(1900 * time.Millisecond), false},
		{"the server owes, six seconds in", 6 * time.Second, ago(5 * time.Second), ago(5900 * time.Millisecond), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Conn{accepted: now.Add(-tt.age)}
			c.lastIn.Store(tt.in)
			c.lastOut.Store(tt.out)
			if got := c.waitsOnClient(now, time.Second); got != tt.want {
				t.Errorf("waits on its client: %v, want %v", got, tt.want)
			}
		})
	}
}
