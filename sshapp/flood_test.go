package sshapp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/guard"
)

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
				// An attacker comes back at once; a pause between
				// connections spares the shared test machine.
				pace := time.NewTimer(0)
				defer pace.Stop()
				for {
					select {
					case <-f.stop:
						return
					case <-pace.C:
					}
					pace.Reset(50 * time.Millisecond)
					nc, err := d.Dial("tcp", addr)
					if err != nil {
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

func (srv *Server) refusedFor(reason string) uint64 { return srv.Stats().Refusals[reason] }

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

// Churners, as the probe of issue 31 found them: each address connects,
// sends its version line and closes before a second is up, about once a
// second.
const (
	churnHold  = 800 * time.Millisecond // how long a churner's connection stays open at most
	churnEvery = 900 * time.Millisecond // how often each address connects
)

// startChurn churns from each of sources addresses (floodAddr) against
// addr until stopped.
func startChurn(addr string, sources int) *flood {
	f := &flood{stop: make(chan struct{})}
	for a := range sources {
		d := net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(floodAddr(a))}}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			next := time.NewTimer(0)
			defer next.Stop()
			for {
				select {
				case <-f.stop:
					return
				case <-next.C:
				}
				start := time.Now()
				next.Reset(churnEvery)
				nc, err := d.Dial("tcp", addr)
				if err != nil {
					continue
				}
				f.attempts.Add(1)
				_ = nc.SetDeadline(start.Add(churnHold))
				if _, err := nc.Write([]byte("SSH-2.0-churn\r\n")); err == nil {
					_, _ = io.Copy(io.Discard, nc) // until the server hangs up or the hold is over
				}
				nc.Close()
			}
		}()
	}
	return f
}

// TestHandshakeFloodLetsALoginThrough: 200 silent connections from 8
// addresses, and from 50, more than the 64 handshake slots; a real login
// gets in at its first try while the flood holds the slots. Without
// penalties the flood keeps every slot taken, and the login takes the
// place of a silent connection; with them (the default) the flood's
// addresses are soon refused at the door as well. Churners from 70, 120
// and 200 addresses (each sends its version line and closes before a
// second is up, about once a second: every slot always holds a handshake
// under a second old, and no connection is silent) are refused after a
// few connections each by penalties that grow with each one; a real
// login gets in at its first or second try all along.
func TestHandshakeFloodLetsALoginThrough(t *testing.T) {
	tests := []struct {
		name               string
		sources, perSource int
		churn              bool
		penalties          bool
	}{
		{"8 addresses, no penalties", 8, 25, false, false},
		{"50 addresses, no penalties", 50, 4, false, false},
		{"8 addresses", 8, 25, false, true},
		{"50 addresses", 50, 4, false, true},
		{"70 addresses churning", 70, 1, true, true},
		{"120 addresses churning", 120, 1, true, true},
		{"200 addresses churning", 200, 1, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each flood has a server of its own; most of each case is
			// waiting for its penalties to grow, so they wait together.
			t.Parallel()
			ts := startServer(t, func(c *Config) {
				if !tt.penalties {
					c.Limits.PenaltyMin = -1
				}
			})
			slots := ts.lim.MaxUnauthenticated
			var f *flood
			if tt.churn {
				f = startChurn(ts.addr, tt.sources)
			} else {
				f = startFlood(ts.addr, tt.sources, tt.perSource)
			}
			defer f.end()
			key := newKey(t)
			const logins = 3
			for i := range logins {
				switch {
				case !tt.penalties:
					// Every slot is held by the flood when the login comes.
					eventually(t, 20*time.Second, "the flood holds every handshake slot", func() bool {
						return ts.Stats().Unauthenticated >= slots
					})
				case tt.churn:
					// Two rounds of churn before the first login, one between
					// logins: every address has come back.
					eventually(t, 30*time.Second, "the churn goes on", func() bool {
						return f.attempts.Load() >= int64(tt.sources*(i+2))
					})
				default:
					eventually(t, 20*time.Second, "the flood goes on", func() bool {
						return f.attempts.Load() >= int64(tt.sources*tt.perSource*(i+1))
					})
				}
				evicted := ts.Stats().Handshakes[guard.HandshakeEvicted]
				tries := 1
				if tt.churn {
					tries = 2
				}
				begin := time.Now()
				var err error
				for try := 1; try <= tries; try++ {
					if err = loginFrom(t, ts.addr, "127.0.0.1", key); err == nil {
						t.Logf("login %d: in at try %d, %s", i+1, try, time.Since(begin).Round(100*time.Microsecond))
						break
					}
					t.Logf("login %d, try %d: %v", i+1, try, err)
				}
				if err != nil {
					t.Fatalf("login %d during the flood, at its first %d tries: %v", i+1, tries, err)
				}
				if !tt.penalties && ts.Stats().Handshakes[guard.HandshakeEvicted] <= evicted {
					t.Errorf("login %d got in without a silent connection closed for it", i+1)
				}
			}
			if tt.penalties {
				eventually(t, 30*time.Second, "every flooding address refused", func() bool {
					for a := range tt.sources {
						if !ts.penalised(floodAddr(a)) {
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

// penalised reports whether the server refuses the source src for its
// penalties now.
func (srv *Server) penalised(src string) bool { return srv.gate.SourceInfo(src).RefusedFor > 0 }

// holds is how many connections in their handshake each source holds.
func (srv *Server) holds() map[string]int { return srv.gate.Handshakes() }

// rawFrom is a TCP connection from the local address from that the server
// let in, having read its version line; it says nothing itself.
func rawFrom(t *testing.T, ts *testServer, from string) net.Conn {
	t.Helper()
	nc, in := tryFrom(t, ts, from)
	if !in {
		t.Fatalf("the server refused a connection from %s", from)
	}
	return nc
}

// tryFrom is a TCP connection from the local address from, having read
// the server's version line, and whether the server let it in rather than
// refused it (it counts a refusal before it sends its version line and
// the reason). It says nothing itself.
func tryFrom(t *testing.T, ts *testServer, from string) (net.Conn, bool) {
	t.Helper()
	refused := func() (n uint64) {
		for _, v := range ts.Stats().Refusals {
			n += v
		}
		return n
	}
	before := refused()
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	nc, err := d.Dial("tcp", ts.addr)
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
	return nc, refused() == before
}

// closedBy reports whether the server closed nc within a while (what it
// sent before is read and dropped).
// anyClosed is the index of a connection of ncs that the server closed
// within the time given, or -1.
func anyClosed(ncs []net.Conn, within time.Duration) int {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for i, nc := range ncs {
			if closedBy(nc, 20*time.Millisecond) {
				return i
			}
		}
	}
	return -1
}

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
	t.Parallel()
	ts := startServer(t, func(c *Config) {
		c.Limits.MaxUnauthenticated = 4
		c.Limits.MaxPerSource = -1
		c.Limits.EarlyDrop = -1
		c.Limits.PenaltyMin = -1
		c.Limits.EarlyDropAfter = time.Hour // no handshake under way counts as stalled
	})
	var a []net.Conn
	for range 4 {
		a = append(a, rawFrom(t, ts, "127.0.0.5"))
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
	b1 := rawFrom(t, ts, "127.0.0.6")
	if !closedBy(a[0], 5*time.Second) {
		t.Fatal(".5's oldest connection is still open")
	}
	want(map[string]int{"127.0.0.5": 3, "127.0.0.6": 1})
	rawFrom(t, ts, "127.0.0.6")
	if !closedBy(a[1], 5*time.Second) {
		t.Fatal(".5's second connection is still open")
	}
	want(map[string]int{"127.0.0.5": 2, "127.0.0.6": 2})
	rawFrom(t, ts, "127.0.0.6")
	if !closedBy(b1, 5*time.Second) {
		t.Fatal(".6's oldest connection is still open")
	}
	want(map[string]int{"127.0.0.5": 2, "127.0.0.6": 2})
	if got := ts.Stats().Handshakes[guard.HandshakeEvicted]; got != 3 {
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

// TestTalkersMakeRoom: connections whose key exchange has begun and
// stall are not silent: while their handshakes are young a newcomer is
// refused (nobody can make room); once they have run EarlyDropAfter, the
// one that waits on its client makes room. Connections that sent their
// version line and nothing since (a real client's key exchange follows at
// once) make room at once, the oldest first.
func TestTalkersMakeRoom(t *testing.T) {
	t.Parallel()
	// A version line and the start of a packet: the key exchange has begun.
	const begun, versionOnly = "SSH-2.0-slow\r\n\x00\x00\x01", "SSH-2.0-slow\r\n"
	tests := []struct {
		name    string
		say     string
		stalled time.Duration // EarlyDropAfter
		refused bool          // a newcomer is refused while the talkers are young
	}{
		{"key exchange begun, young", begun, time.Hour, true},
		{"key exchange begun, stalled", begun, 200 * time.Millisecond, false},
		{"version line only", versionOnly, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, func(c *Config) {
				c.Limits.MaxUnauthenticated = 3
				c.Limits.MaxPerSource = -1
				c.Limits.EarlyDrop = -1
				c.Limits.PenaltyMin = -1
				c.Limits.EarlyDropAfter = tt.stalled
			})
			var talkers []net.Conn
			for range 3 {
				nc := rawFrom(t, ts, "127.0.0.7")
				if _, err := nc.Write([]byte(tt.say)); err != nil {
					t.Fatal(err)
				}
				talkers = append(talkers, nc)
			}
			eventually(t, 5*time.Second, "the server reads the talkers' version lines", func() bool {
				return ts.gate.SourceInfo("127.0.0.7").Talking == 3
			})
			if tt.refused {
				nc, err := net.Dial("tcp", ts.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer nc.Close()
				got, closed := readAll(nc, 5*time.Second)
				if !closed || !strings.Contains(got, "busy") {
					t.Errorf("a newcomer with every slot under way read %q (closed %v)", got, closed)
				}
				if ts.refusedFor("busy") != 1 {
					t.Errorf("refusals %v", ts.Stats().Refusals)
				}
				return
			}
			// A newcomer is let in (once the talkers' handshakes have run
			// EarlyDropAfter, if their key exchange has begun).
			eventually(t, 5*time.Second, "a newcomer let in", func() bool {
				nc, in := tryFrom(t, ts, "127.0.0.8")
				if !in {
					nc.Close()
				}
				return in
			})
			if tt.stalled == time.Hour {
				// Silent since their version lines: the oldest goes first.
				if !closedBy(talkers[0], 5*time.Second) {
					t.Fatal("the oldest talker is still open")
				}
			} else if anyClosed(talkers, 5*time.Second) < 0 {
				// Stalled in their key exchange: one that waits on its
				// client goes, which depends on how the server read their
				// bytes (sshapp/guard waitsOnClient), not on age alone.
				t.Fatal("no stalled talker made room")
			}
			if got := ts.holds(); !maps.Equal(got, map[string]int{"127.0.0.7": 2, "127.0.0.8": 1}) {
				t.Errorf("sources hold %v", got)
			}
		})
	}
}
