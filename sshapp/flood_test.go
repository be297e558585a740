package sshapp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func TestDropChance(t *testing.T) {
	t.Parallel()
	l := Limits{}.withDefaults() // 64 at most, early drop from 16 stalled at 30 %
	tests := []struct {
		lim             Limits
		unauth, stalled int
		want            int
	}{
		{l, 0, 0, 0},
		{l, 15, 15, 0},
		{l, 16, 16, 30},
		{l, 40, 40, 65},
		{l, 63, 63, 98},
		{l, 64, 64, 100},
		{l, 500, 500, 100},
		// a crowd whose handshakes are all under way: only the cap counts
		{l, 40, 0, 0},
		{l, 63, 15, 0},
		{l, 63, 16, 30},
		{l, 64, 0, 100},
		{Limits{MaxUnauthenticated: 2, EarlyDrop: 16, EarlyDropRate: 30}, 1, 1, 0},
		{Limits{MaxUnauthenticated: 2, EarlyDrop: 16, EarlyDropRate: 30}, 2, 2, 100},
		{Limits{MaxUnauthenticated: 64, EarlyDrop: -1, EarlyDropRate: 30}, 63, 63, 0},
		{Limits{MaxUnauthenticated: -1, EarlyDrop: 16, EarlyDropRate: 30}, 1000, 1000, 0},
	}
	for _, tt := range tests {
		if got := tt.lim.dropChance(tt.unauth, tt.stalled); got != tt.want {
			t.Errorf("dropChance(%d, %d stalled) with %d/%d/%d%% = %d, want %d", tt.unauth, tt.stalled,
				tt.lim.EarlyDrop, tt.lim.MaxUnauthenticated, tt.lim.EarlyDropRate, got, tt.want)
		}
	}
}

func TestStalledHandshakes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ages := []time.Duration{0, 10 * time.Millisecond, 999 * time.Millisecond, time.Second, 3 * time.Second}
	tests := []struct {
		name string
		lim  Limits
		want int
	}{
		{"default: a second or more", Limits{}, 2},
		{"after 5 ms", Limits{EarlyDropAfter: 5 * time.Millisecond}, 4},
		{"negative: every handshake, as OpenSSH", Limits{EarlyDropAfter: -1}, 5},
		{"early drop off", Limits{EarlyDrop: -1}, 0},
		{"no cap", Limits{MaxUnauthenticated: -1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &Server{lim: tt.lim.withDefaults(), handshaking: make(map[*conn]struct{})}
			for _, a := range ages {
				srv.handshaking[&conn{accepted: now.Add(-a)}] = struct{}{}
			}
			if got := srv.stalledLocked(now); got != tt.want {
				t.Errorf("stalled = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestPenalties(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type charge struct {
		after time.Duration // since t0
		cost  time.Duration
	}
	tests := []struct {
		name    string
		charges []charge
		at      time.Duration // when to ask
		refused bool
	}{
		{"one timeout", []charge{{0, penaltyTimedOut}}, time.Second, false},
		{"two timeouts at once", []charge{{0, penaltyTimedOut}, {0, penaltyTimedOut}}, 19 * time.Second, true},
		{"...until they leak away", []charge{{0, penaltyTimedOut}, {0, penaltyTimedOut}}, 20 * time.Second, false},
		{"timeouts far apart leak away", []charge{{0, penaltyTimedOut}, {10 * time.Second, penaltyTimedOut}}, 11 * time.Second, false},
		{"a person failing now and then", []charge{{0, penaltyNoAuth}, {time.Second, penaltyNoAuth}, {2 * time.Second, penaltyNoAuth}}, 2 * time.Second, false},
		{"sixteen quick failures", func() []charge {
			var cs []charge
			for range 16 {
				cs = append(cs, charge{0, penaltyNoAuth})
			}
			return cs
		}(), 15 * time.Second, true},
		{"capped at the max", func() []charge {
			var cs []charge
			for range 100 {
				cs = append(cs, charge{0, penaltyTimedOut})
			}
			return cs
		}(), 10 * time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPenalties(15*time.Second, 10*time.Minute)
			for _, c := range tt.charges {
				p.add("192.0.2.1", c.cost, t0.Add(c.after))
			}
			if got := p.refused("192.0.2.1", t0.Add(tt.at)); got != tt.refused {
				t.Errorf("refused = %v, want %v", got, tt.refused)
			}
			if p.refused("192.0.2.2", t0.Add(tt.at)) {
				t.Error("another source is refused")
			}
		})
	}
	off := newPenalties(-1, time.Minute)
	for range 10 {
		off.add("x", penaltyTimedOut, t0)
	}
	if off.refused("x", t0) {
		t.Error("penalties turned off refuse")
	}
}

// flood is silent TCP connections held open against a server: each
// goroutine dials from its address, says nothing, reads whatever the
// server says until it hangs up, and dials again.
type flood struct {
	attempts atomic.Int64 // connections made
	stop     chan struct{}
	wg       sync.WaitGroup
}

// floodAddr is the address of the flood's source i: 127.0.0.10 on.
func floodAddr(i int) string { return fmt.Sprintf("127.0.0.%d", 10+i) }

// startFlood keeps perSource silent connections from each of sources
// addresses (floodAddr) against addr until stopped.
func startFlood(addr string, sources, perSource int) *flood {
	f := &flood{stop: make(chan struct{})}
	for a := range sources {
		d := net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(floodAddr(a))}}
		for range perSource {
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				for {
					select {
					case <-f.stop:
						return
					default:
					}
					nc, err := d.Dial("tcp", addr)
					if err != nil {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					f.attempts.Add(1)
					closed := make(chan struct{})
					go func() {
						select {
						case <-f.stop:
						case <-closed:
						}
						nc.Close()
					}()
					_, _ = io.Copy(io.Discard, nc)
					close(closed)
					// An attacker comes back at once; a pause spares the
					// shared test machine.
					time.Sleep(50 * time.Millisecond)
				}
			}()
		}
	}
	return f
}

func (f *flood) end() {
	close(f.stop)
	f.wg.Wait()
}

func (srv *Server) refusedFor(reason refusal) uint64 { return srv.Stats().Refusals[string(reason)] }

// loginFrom logs in with key from the local address from and runs whoami,
// once: no retry. The handshake may take as long as the server allows
// (the machine may be busy); the test asserts that it succeeds, not how
// fast.
func loginFrom(t *testing.T, addr, from string, key gossh.Signer) error {
	t.Helper()
	d := net.Dialer{Timeout: 20 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	cfg := clientConfig(key)
	cfg.Timeout = 20 * time.Second
	cc, chans, reqs, err := gossh.NewClientConn(nc, addr, cfg)
	if err != nil {
		return err
	}
	c := gossh.NewClient(cc, chans, reqs)
	defer c.Close()
	if r := runOn(t, c, "whoami"); r.code != 0 {
		return fmt.Errorf("whoami: %+v", r)
	}
	return nil
}

// TestHandshakeFloodLetsALoginThrough: 200 silent connections from 8
// addresses, and from 50, more than the 64 handshake slots; a real login
// gets in at its first try while the flood holds the slots. Without
// penalties the flood keeps every slot taken, and the login takes the
// place of a silent connection; with them (the default) the flood's
// addresses are soon refused at the door as well.
func TestHandshakeFloodLetsALoginThrough(t *testing.T) {
	tests := []struct {
		name               string
		sources, perSource int
		penalties          bool
	}{
		{"8 addresses, no penalties", 8, 25, false},
		{"50 addresses, no penalties", 50, 4, false},
		{"8 addresses", 8, 25, true},
		{"50 addresses", 50, 4, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(c *Config) {
				if !tt.penalties {
					c.Limits.PenaltyMin = -1
				}
			})
			slots := ts.lim.MaxUnauthenticated
			f := startFlood(ts.addr, tt.sources, tt.perSource)
			defer f.end()
			key := newKey(t)
			const logins = 3
			for i := range logins {
				if !tt.penalties {
					// Every slot is held by the flood when the login comes.
					eventually(t, 20*time.Second, "the flood holds every handshake slot", func() bool {
						return ts.Stats().Unauthenticated >= slots
					})
				} else {
					eventually(t, 20*time.Second, "the flood goes on", func() bool {
						return f.attempts.Load() >= int64(tt.sources*tt.perSource*(i+1))
					})
				}
				evicted := ts.Stats().Handshakes[handshakeEvicted]
				begin := time.Now()
				if err := loginFrom(t, ts.addr, "127.0.0.1", key); err != nil {
					t.Fatalf("login %d during the flood, at its first try: %v", i+1, err)
				}
				t.Logf("login %d: %s", i+1, time.Since(begin).Round(100*time.Microsecond))
				if !tt.penalties && ts.Stats().Handshakes[handshakeEvicted] <= evicted {
					t.Errorf("login %d got in without a silent connection closed for it", i+1)
				}
			}
			if tt.penalties {
				eventually(t, 30*time.Second, "every flooding address refused", func() bool {
					now := time.Now()
					for a := range tt.sources {
						if !ts.penalties.refused(floodAddr(a), now) {
							return false
						}
					}
					return true
				})
				if err := loginFrom(t, ts.addr, "127.0.0.1", key); err != nil {
					t.Fatalf("login with the flood refused at the door: %v", err)
				}
			}
			st := ts.Stats()
			t.Logf("flood: %d connections; handshakes %v; refusals %v", f.attempts.Load(), st.Handshakes, st.Refusals)
		})
	}
}

// holds is how many connections in their handshake each source holds.
func (srv *Server) holds() map[string]int {
	srv.connMu.Lock()
	defer srv.connMu.Unlock()
	return maps.Clone(srv.unauthBySrc)
}

// rawFrom is a TCP connection from the local address from that has read
// the server's version line: the server has counted it.
func rawFrom(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(nc).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "SSH-2.0-mia") {
		t.Fatalf("from %s the server said %q (%v)", from, line, err)
	}
	_ = nc.SetReadDeadline(time.Time{})
	return nc
}

// closedBy reports whether the server closed nc within a while (what it
// sent before is read and dropped).
func closedBy(nc net.Conn, within time.Duration) bool {
	_ = nc.SetReadDeadline(time.Now().Add(within))
	_, err := io.Copy(io.Discard, nc)
	return err == nil || errors.Is(err, syscall.ECONNRESET)
}

// TestSilentConnectionsMakeRoom: with every handshake slot taken, a
// newcomer takes the place of a silent connection of the source that holds
// the most, which keeps any source to its share; one that has sent its
// version line is spared while its handshake is young, and a newcomer is
// refused only when no connection can make room.
func TestSilentConnectionsMakeRoom(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.Limits.MaxUnauthenticated = 4
		c.Limits.MaxPerSource = -1
		c.Limits.EarlyDrop = -1
		c.Limits.PenaltyMin = -1
		c.Limits.EarlyDropAfter = time.Hour // no handshake under way counts as stalled
	})
	var a []net.Conn
	for range 4 {
		a = append(a, rawFrom(t, ts.addr, "127.0.0.5"))
	}
	want := func(holds map[string]int) {
		t.Helper()
		if got := ts.holds(); !maps.Equal(got, holds) {
			t.Fatalf("sources hold %v, want %v", got, holds)
		}
	}
	want(map[string]int{"127.0.0.5": 4})
	// Newcomers from .6 take the place of .5's oldest until both hold
	// their share; then .6's newcomer takes its own oldest's.
	b1 := rawFrom(t, ts.addr, "127.0.0.6")
	if !closedBy(a[0], 5*time.Second) {
		t.Fatal(".5's oldest connection is still open")
	}
	want(map[string]int{"127.0.0.5": 3, "127.0.0.6": 1})
	rawFrom(t, ts.addr, "127.0.0.6")
	if !closedBy(a[1], 5*time.Second) {
		t.Fatal(".5's second connection is still open")
	}
	want(map[string]int{"127.0.0.5": 2, "127.0.0.6": 2})
	rawFrom(t, ts.addr, "127.0.0.6")
	if !closedBy(b1, 5*time.Second) {
		t.Fatal(".6's oldest connection is still open")
	}
	want(map[string]int{"127.0.0.5": 2, "127.0.0.6": 2})
	if got := ts.Stats().Handshakes[handshakeEvicted]; got != 3 {
		t.Errorf("%d handshakes evicted, want 3", got)
	}

	// A real client gets in, in the place of the oldest silent connection
	// of the two sources that hold the most.
	key := newKey(t)
	if err := loginFrom(t, ts.addr, "127.0.0.1", key); err != nil {
		t.Fatalf("login with every slot held: %v", err)
	}
	if !closedBy(a[2], 5*time.Second) {
		t.Fatal(".5's third connection is still open")
	}
	want(map[string]int{"127.0.0.5": 1, "127.0.0.6": 2})
	// Authenticated connections hold no slot.
	var authed []*gossh.Client
	for range 4 {
		authed = append(authed, ts.connect(t, key))
	}
	want(map[string]int{"127.0.0.5": 1, "127.0.0.6": 2})
	if r := runOn(t, authed[3], "whoami"); r.code != 0 {
		t.Errorf("whoami: %+v", r)
	}

}

// versionsSeen is how many connections in their handshake have sent
// their version line.
func (srv *Server) versionsSeen() int {
	srv.connMu.Lock()
	defer srv.connMu.Unlock()
	n := 0
	for c := range srv.handshaking {
		if c.version.Load() {
			n++
		}
	}
	return n
}

// TestTalkersMakeRoomOnceStalled: connections that sent their version
// line and stall are not silent: while their handshakes are young a
// newcomer is refused (nobody can make room); once they have run
// EarlyDropAfter, the oldest makes room.
func TestTalkersMakeRoomOnceStalled(t *testing.T) {
	for _, stalled := range []time.Duration{time.Hour, 200 * time.Millisecond} {
		t.Run(stalled.String(), func(t *testing.T) {
			ts := startServer(t, func(c *Config) {
				c.Limits.MaxUnauthenticated = 3
				c.Limits.MaxPerSource = -1
				c.Limits.EarlyDrop = -1
				c.Limits.PenaltyMin = -1
				c.Limits.EarlyDropAfter = stalled
			})
			var talkers []net.Conn
			for range 3 {
				nc := rawFrom(t, ts.addr, "127.0.0.7")
				if _, err := nc.Write([]byte("SSH-2.0-slow\r\n")); err != nil {
					t.Fatal(err)
				}
				talkers = append(talkers, nc)
			}
			eventually(t, 5*time.Second, "the server reads the talkers' version lines", func() bool { return ts.versionsSeen() == 3 })
			if stalled == time.Hour {
				nc, err := net.Dial("tcp", ts.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer nc.Close()
				got, closed := readAll(nc, 5*time.Second)
				if !closed || !strings.Contains(got, "busy") {
					t.Errorf("a newcomer with every slot under way read %q (closed %v)", got, closed)
				}
				if ts.refusedFor(refuseBusy) != 1 {
					t.Errorf("refusals %v", ts.Stats().Refusals)
				}
				return
			}
			time.Sleep(stalled) // the talkers' handshakes have now run at least that long
			rawFrom(t, ts.addr, "127.0.0.8")
			if !closedBy(talkers[0], 5*time.Second) {
				t.Fatal("the oldest stalled talker is still open")
			}
			if got := ts.holds(); !maps.Equal(got, map[string]int{"127.0.0.7": 2, "127.0.0.8": 1}) {
				t.Errorf("sources hold %v", got)
			}
		})
	}
}

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

// TestUnreadVersionIsNotSilent: a connection whose client has sent bytes
// the server has not read yet (its handshake goroutine has not run on a
// busy server) is not taken for silent; a younger one that sent nothing
// makes room first.
func TestUnreadVersionIsNotSilent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the receive queue is asked on Linux only")
	}
	now := time.Now()
	srv := &Server{lim: Limits{}.withDefaults(), handshaking: map[*conn]struct{}{}, unauthBySrc: map[string]int{}}
	busyClient, busy := tcpPair(t)
	_, quiet := tcpPair(t)
	older := &conn{raw: busy, source: "192.0.2.1", accepted: now.Add(-100 * time.Millisecond)}
	younger := &conn{raw: quiet, source: "192.0.2.1", accepted: now.Add(-50 * time.Millisecond)}
	for _, c := range []*conn{older, younger} {
		srv.handshaking[c] = struct{}{}
		srv.unauthBySrc[c.source]++
	}
	if got := srv.victimLocked("198.51.100.1", now, false); got != older {
		t.Fatal("with nothing sent, the older connection does not make room")
	}
	if _, err := busyClient.Write([]byte("SSH-2.0-client\r\n")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the bytes queued", func() bool { return queued(busy) })
	if got := srv.victimLocked("198.51.100.1", now, false); got != younger {
		t.Error("a connection with its version line unread was taken for silent")
	}
	// Unread for EarlyDropAfter: stalled all the same.
	if got := srv.victimLocked("198.51.100.1", now.Add(2*time.Second), false); got != older {
		t.Error("a connection unread for seconds was spared")
	}
	if _, err := io.ReadFull(busy, make([]byte, len("SSH-2.0-client\r\n"))); err != nil {
		t.Fatal(err)
	}
	if queued(busy) {
		t.Error("bytes read are still queued")
	}
}
