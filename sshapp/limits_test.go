package sshapp

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/command"
)

// readAll reads a raw connection until it closes or within passes; it
// reports what came and whether the server closed it.
func readAll(nc net.Conn, within time.Duration) (string, bool) {
	_ = nc.SetReadDeadline(time.Now().Add(within))
	b, err := io.ReadAll(nc)
	return string(b), err == nil
}

func TestHandshakeDeadline(t *testing.T) {
	const (
		limit   = 600 * time.Millisecond // to authenticate
		version = 200 * time.Millisecond // to send the version line
	)
	ts := startServer(t, func(c *Config) {
		c.Limits.HandshakeTimeout, c.Limits.VersionTimeout = limit, version
		c.Limits.PenaltyMin = -1 // here the same source stalls again and again
	})

	tests := []struct {
		name  string
		stall func(t *testing.T, nc net.Conn)
		limit time.Duration
	}{
		{"says nothing", func(*testing.T, net.Conn) {}, version},
		{"stops after the version", func(t *testing.T, nc net.Conn) {
			if _, err := nc.Write([]byte("SSH-2.0-slowpoke\r\n")); err != nil {
				t.Fatal(err)
			}
		}, limit},
		{"trickles its version", func(t *testing.T, nc net.Conn) {
			// Each byte is activity: the deadline must hold anyway.
			for _, b := range []byte("SSH-2.0-x") {
				if _, err := nc.Write([]byte{b}); err != nil {
					return
				}
				time.Sleep(version / 4)
			}
		}, version},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			start := time.Now()
			tt.stall(t, nc)
			got, closed := readAll(nc, 5*time.Second)
			took := time.Since(start)
			if !closed {
				t.Fatalf("connection still open after %s", took)
			}
			if took < tt.limit-50*time.Millisecond || took > tt.limit+time.Second {
				t.Errorf("closed after %s, want about %s", took, tt.limit)
			}
			if !strings.HasPrefix(got, "SSH-2.0-mia") {
				t.Errorf("server said %q", got)
			}
		})
	}
	eventually(t, 2*time.Second, "stalled connections released", func() bool { return ts.connCount() == 0 })

	// An authenticated connection outlives the handshake deadline: one
	// accepted after it, stalled after its version line, runs out of time
	// first.
	key := newKey(t)
	c := ts.connect(t, key)
	later, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if _, err := later.Write([]byte("SSH-2.0-slowpoke\r\n")); err != nil {
		t.Fatal(err)
	}
	if _, closed := readAll(later, 5*time.Second); !closed {
		t.Fatal("a connection stalled after its version line stayed open")
	}
	if r := runOn(t, c, "whoami"); r.code != 0 {
		t.Errorf("command after the handshake deadline: %+v", r)
	}
}

func TestPerSourceCap(t *testing.T) {
	t.Parallel()
	ts := startServer(t, func(c *Config) { c.Limits.MaxPerSource = 3 })
	key := newKey(t)
	var held []*gossh.Client
	for i := range 3 {
		c, err := dialFrom(ts.addr, "127.0.0.1", clientConfig(key))
		if err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	if c, err := dialFrom(ts.addr, "127.0.0.1", clientConfig(key)); err == nil {
		c.Close()
		t.Fatal("a fourth connection from 127.0.0.1 got in")
	}
	// A raw look: the refusal says why.
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	got, closed := readAll(nc, 2*time.Second)
	nc.Close()
	if !closed || !strings.Contains(got, "too many connections from your address") {
		t.Errorf("refused connection read %q (closed %v)", got, closed)
	}

	other, err := dialFrom(ts.addr, "127.0.0.2", clientConfig(key))
	if err != nil {
		t.Fatalf("another source was refused: %v", err)
	}
	if r := runOn(t, other, "whoami"); r.code != 0 {
		t.Errorf("whoami from 127.0.0.2: %+v", r)
	}
	other.Close()

	held[0].Close()
	held = held[1:]
	eventually(t, 2*time.Second, "a place under the cap after a close", func() bool {
		c, err := dialFrom(ts.addr, "127.0.0.1", clientConfig(key))
		if err != nil {
			return false
		}
		held = append(held, c)
		return true
	})
}

func TestSessionsPerConnection(t *testing.T) {
	t.Parallel()
	ts := startServer(t, func(c *Config) { c.Limits.MaxSessions = 2 })
	c := ts.connect(t, newKey(t))
	s1, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if s3, err := c.NewSession(); err == nil {
		s3.Close()
		t.Fatal("a third session opened")
	} else if !strings.Contains(err.Error(), "at most 2 sessions") {
		t.Errorf("refusal: %v", err)
	}
	s1.Close()
	s2.Close()
	eventually(t, 2*time.Second, "a session after closing the others", func() bool {
		s, err := c.NewSession()
		if err != nil {
			return false
		}
		s.Close()
		return true
	})
}

func TestNoSessionTimeout(t *testing.T) {
	t.Parallel()
	ts := startServer(t, func(c *Config) { c.Limits.NoSessionTimeout = 200 * time.Millisecond })
	c := ts.connect(t, newKey(t))
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("a connection without sessions stayed open")
	}
}

func TestKeepalive(t *testing.T) {
	t.Parallel()
	ts := startServer(t, func(c *Config) {
		c.Limits.KeepaliveInterval = 100 * time.Millisecond
		c.Limits.NoSessionTimeout = -1
	})
	key := newKey(t)

	// A live client answers keepalives (refusing them, as x/crypto does,
	// is an answer); it counts them.
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cc, chans, reqs, err := gossh.NewClientConn(nc, ts.addr, clientConfig(key))
	if err != nil {
		t.Fatal(err)
	}
	var answered atomic.Int32
	mine := make(chan *gossh.Request)
	go func() {
		defer close(mine)
		for r := range reqs {
			if r.Type == "keepalive@openssh.com" {
				answered.Add(1)
			}
			_ = r.Reply(false, nil)
		}
	}()
	live := gossh.NewClient(cc, chans, mine)
	defer live.Close()

	// A dead one: its requests are never read, so it never answers.
	dead, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	conn, _, _, err := gossh.NewClientConn(dead, ts.addr, clientConfig(key))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	eventually(t, 3*time.Second, "dead connection closed", func() bool { return ts.connCount() == 1 })
	at := answered.Load()
	eventually(t, 3*time.Second, "three more keepalives answered", func() bool { return answered.Load() >= at+3 })
	if r := runOn(t, live, "whoami"); r.code != 0 {
		t.Errorf("the live connection: %+v", r)
	}
}

func TestClampWindow(t *testing.T) {
	t.Parallel()
	l := Limits{}.withDefaults()
	tests := []struct {
		in, want ssh.Window
	}{
		{ssh.Window{Width: 80, Height: 24}, ssh.Window{Width: 80, Height: 24}},
		{ssh.Window{}, ssh.Window{Width: 80, Height: 24}},
		{ssh.Window{Width: 120}, ssh.Window{Width: 120, Height: 24}},
		{ssh.Window{Width: -5, Height: -5, WidthPixels: -1}, ssh.Window{Width: 1, Height: 1}},
		{ssh.Window{Width: 100000, Height: 100000, WidthPixels: 1 << 31, HeightPixels: 1 << 20},
			ssh.Window{Width: 500, Height: 200, WidthPixels: 65535, HeightPixels: 65535}},
		{ssh.Window{Width: 4294967295, Height: 4294967295}, ssh.Window{Width: 500, Height: 200}},
	}
	for _, tt := range tests {
		if got := l.clampWindow(tt.in); got != tt.want {
			t.Errorf("clampWindow(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestCommandLineLimit: a command line longer than command.MaxLine is
// refused before it is split, with the limit named and exit status 2, as
// is one quoted wrong; any key, a nameless one too. A line under the limit
// is split as a shell would.
func TestCommandLineLimit(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	key := newKey(t)
	tests := []struct {
		line   string
		code   int
		stderr string
	}{
		{"whoami " + strings.Repeat("x", command.MaxLine), 2,
			fmt.Sprintf("mia: the command line is %d bytes long; the most this server takes is 4096\n", command.MaxLine+7)},
		{strings.Repeat("x ", 120000), 2, "mia: the command line is 240000 bytes long; the most this server takes is 4096\n"},
		{`name "ada`, 2, "mia: the command line has a \" that is never closed\n"},
		{`name ada\`, 2, "mia: the command line ends in a backslash"},
		{`name "ma"'r'\ta`, 0, ""},
	}
	for _, tt := range tests {
		r := ts.run(t, key, tt.line)
		if r.code != tt.code || !strings.HasPrefix(r.stderr, tt.stderr) || (tt.stderr == "" && r.stderr != "") {
			t.Errorf("%.40q: exit %d, stderr %q; want %d, %q", tt.line, r.code, r.stderr, tt.code, tt.stderr)
		}
	}
	if got := ts.players.name(Fingerprint(key.PublicKey())); got != "marta" {
		t.Errorf("the quoted name is %q, want marta", got)
	}
}
