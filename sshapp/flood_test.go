package sshapp

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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

// floodSources is how many addresses the flood comes from, and how many
// silent connections each keeps open.
const (
	floodSources = 12
	floodPerSrc  = 8
)

// flood keeps floodSources×floodPerSrc silent TCP connections open against
// addr from 127.0.0.10 on, each reconnecting as soon as the server closes
// it, until stop is closed; attempts counts the connections made.
func flood(addr string, stop <-chan struct{}, attempts *atomic.Int64) *sync.WaitGroup {
	var wg sync.WaitGroup
	for a := range floodSources {
		d := net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(fmt.Sprintf("127.0.0.%d", 10+a))}}
		for range floodPerSrc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					nc, err := d.Dial("tcp", addr)
					if err != nil {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					attempts.Add(1)
					// Silent: read whatever the server says until it hangs
					// up (or the test ends).
					go func() { <-stop; nc.Close() }()
					_, _ = io.Copy(io.Discard, nc)
					nc.Close()
					// A refused attacker comes back at once; a little pause
					// spares the shared test machine.
					time.Sleep(20 * time.Millisecond)
				}
			}()
		}
	}
	return &wg
}

func (srv *Server) refusedFor(reason refusal) uint64 { return srv.Stats().Refusals[string(reason)] }

// 96 silent connections from 12 addresses: more than the handshake slots.
// The version deadline frees the slots, the penalties then refuse the
// flood's addresses at the door, and a real login gets in while the flood
// goes on.
func TestHandshakeFloodLetsALoginThrough(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.Limits.VersionTimeout = 300 * time.Millisecond
		c.Limits.MaxPerSource = -1 // the flood's addresses would meet it; it is not what is tested
	})
	stop := make(chan struct{})
	var attempts atomic.Int64
	wg := flood(ts.addr, stop, &attempts)
	defer func() {
		close(stop)
		wg.Wait()
	}()
	start := time.Now()
	eventually(t, 10*time.Second, "the flood fills the handshake slots", func() bool { return ts.refusedFor(refuseBusy) > 0 })
	t.Logf("flood at full: %s after it began", time.Since(start).Round(time.Millisecond))
	eventually(t, 10*time.Second, "every flooding address refused", func() bool {
		now := time.Now()
		for a := range floodSources {
			if !ts.penalties.refused(fmt.Sprintf("127.0.0.%d", 10+a), now) {
				return false
			}
		}
		return true
	})
	t.Logf("flooding addresses refused: %s after the flood began", time.Since(start).Round(time.Millisecond))
	// The flood's connections accepted before their addresses were refused
	// run out of time; from then on the flood is turned away at the door
	// and the handshake slots stay free.
	eventually(t, 10*time.Second, "the slots free again", func() bool {
		return ts.Stats().Unauthenticated < Limits{}.withDefaults().EarlyDrop
	})
	t.Logf("slots free: %s after the flood began", time.Since(start).Round(time.Millisecond))

	key := newKey(t)
	for i := range 5 {
		before := attempts.Load()
		begin := time.Now()
		c, err := dialFrom(ts.addr, "127.0.0.1", clientConfig(key))
		if err != nil {
			t.Fatalf("login %d during the flood: %v", i+1, err)
		}
		r := runOn(t, c, "whoami")
		c.Close()
		if r.code != 0 {
			t.Fatalf("whoami %d during the flood: %+v", i+1, r)
		}
		t.Logf("login %d took %s", i+1, time.Since(begin).Round(time.Millisecond))
		eventually(t, 5*time.Second, "the flood goes on", func() bool { return attempts.Load() > before+floodSources })
	}
	t.Logf("flood: %d connections, refused %d busy, %d penalised", attempts.Load(), ts.refusedFor(refuseBusy), ts.refusedFor(refusePenalised))
}
