package sshapp

import (
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
	gossh "golang.org/x/crypto/ssh"
)

// lb is a TCP load balancer in the test: it accepts clients on 127.0.0.1
// and connects to the server from its own address, beginning each
// connection with a PROXY header (version 1 or 2) that names the client.
type lb struct {
	ln      net.Listener
	from    string // the balancer's address towards the server
	server  string
	version byte
	claim   net.Addr // when set, the client every header names, whoever connects
	wg      sync.WaitGroup
}

func startLB(t *testing.T, server, from string, version byte) *lb {
	t.Helper()
	return startClaimingLB(t, server, from, version, nil)
}

// startClaimingLB is startLB whose headers name claim as every client
// (nil: the real one).
func startClaimingLB(t *testing.T, server, from string, version byte, claim net.Addr) *lb {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &lb{ln: ln, from: from, server: server, version: version, claim: claim}
	b.wg.Add(1)
	go b.serve()
	t.Cleanup(func() { ln.Close(); b.wg.Wait() })
	return b
}

func (b *lb) serve() {
	defer b.wg.Done()
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(b.from)}}
	for {
		client, err := b.ln.Accept()
		if err != nil {
			return
		}
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			defer client.Close()
			up, err := d.Dial("tcp", b.server)
			if err != nil {
				return
			}
			defer up.Close()
			src := client.RemoteAddr()
			if b.claim != nil {
				src = b.claim
			}
			h := proxyproto.HeaderProxyFromAddrs(b.version, src, client.LocalAddr())
			if _, err := h.WriteTo(up); err != nil {
				return
			}
			done := make(chan struct{}, 2)
			go func() { _, _ = io.Copy(up, client); done <- struct{}{} }()
			go func() { _, _ = io.Copy(client, up); done <- struct{}{} }()
			<-done
		}()
	}
}

// addr is where clients connect to the balancer.
func (b *lb) addr() string { return b.ln.Addr().String() }

// dialVia connects to the balancer from the client address from.
func (b *lb) dialVia(t *testing.T, from string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	nc, err := d.Dial("tcp", b.addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// sshVia logs in through the balancer from the client address from.
func (b *lb) sshVia(from string, key gossh.Signer) (*gossh.Client, error) {
	return dialFrom(b.addr(), from, clientConfig(key))
}

func trusted(t *testing.T, s string) []netip.Prefix {
	t.Helper()
	l, err := ParseNetworks(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestProxyProtocol: behind a balancer that the server trusts, every
// per-source limit counts the real client named in its PROXY header
// (version 1 and 2): the cap of connections per source, the penalties and
// their exempt list.
func TestProxyProtocol(t *testing.T) {
	t.Parallel()
	for _, version := range []byte{1, 2} {
		t.Run(map[byte]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			ts := startServer(t, func(c *Config) {
				c.ProxyFrom = trusted(t, "127.0.0.2")
				c.Limits.MaxPerSource = 2
				// Short, for the silent connections below; long enough for
				// a real client on a busy machine.
				c.Limits.VersionTimeout = 500 * time.Millisecond
				c.Limits.PenaltyExempt = trusted(t, "127.0.0.54")
			})
			b := startLB(t, ts.addr, "127.0.0.2", version)
			key := newKey(t)

			// Two connections of client .50 are its cap; a third is refused,
			// while .51 behind the same balancer gets in.
			var held []*gossh.Client
			defer func() {
				for _, c := range held {
					c.Close()
				}
			}()
			for i := range 2 {
				c, err := b.sshVia("127.0.0.50", key)
				if err != nil {
					t.Fatalf("connection %d of .50: %v", i+1, err)
				}
				held = append(held, c)
			}
			got, closed := readAll(b.dialVia(t, "127.0.0.50"), 5*time.Second)
			if !closed || !strings.Contains(got, "too many connections from your address") {
				t.Errorf("a third connection of .50 read %q (closed %v)", got, closed)
			}
			other, err := b.sshVia("127.0.0.51", key)
			if err != nil {
				t.Fatalf(".51 behind the same balancer: %v", err)
			}
			if r := runOn(t, other, "whoami"); r.code != 0 {
				t.Errorf("whoami from .51: %+v", r)
			}
			other.Close()
			if got := ts.perSource("127.0.0.2"); got != 0 {
				t.Errorf("the balancer's own address counts %d connections", got)
			}

			// Client .52 stalls until it is penalised; .53 behind the same
			// balancer is not, nor .54, which is exempt.
			for _, from := range []string{"127.0.0.52", "127.0.0.54"} {
				for i := 0; i < 3; i++ {
					if _, closed := readAll(b.dialVia(t, from), 5*time.Second); !closed {
						t.Fatalf("a silent connection of %s stayed open", from)
					}
				}
			}
			eventually(t, 5*time.Second, ".52 penalised", func() bool { return ts.penalised("127.0.0.52") })
			if _, err := b.sshVia("127.0.0.52", key); err == nil {
				t.Error(".52 logged in while penalised")
			}
			for _, from := range []string{"127.0.0.53", "127.0.0.54"} {
				c, err := b.sshVia(from, key)
				if err != nil {
					t.Fatalf("%s behind the balancer: %v", from, err)
				}
				c.Close()
			}
			if ts.penalised("127.0.0.2") {
				t.Error("the balancer's own address was penalised")
			}
		})
	}
}

// perSource is how many connections the server counts for a source.
func (srv *Server) perSource(src string) int { return srv.gate.SourceInfo(src).Connections }

// TestProxyHeaderRefused: a PROXY header is taken only from a trusted
// address; from any other (a client, or a balancer the server was not
// told of) the connection is refused, and without a header a trusted
// address is refused too. A LOCAL header (a balancer's health check)
// counts as the balancer's own connection.
func TestProxyHeaderRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		proxyFrom string
		lbFrom    string // the address the header comes from
		version   byte
	}{
		{"v1 from an untrusted address", "127.0.0.2", "127.0.0.3", 1},
		{"v2 from an untrusted address", "127.0.0.2", "127.0.0.3", 2},
		{"v1 with no proxy trusted", "", "127.0.0.3", 1},
		{"v2 with no proxy trusted", "", "127.0.0.3", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, func(c *Config) {
				c.ProxyFrom = trusted(t, tt.proxyFrom)
				c.Limits.PenaltyMin = -1
			})
			b := startLB(t, ts.addr, tt.lbFrom, tt.version)
			key := newKey(t)
			if c, err := b.sshVia("127.0.0.60", key); err == nil {
				c.Close()
				t.Fatal("a login through an untrusted balancer got in")
			}
			eventually(t, 5*time.Second, "the refusal counted", func() bool { return ts.refusedFor("proxy") == 1 })
			// The same address without a header is an ordinary client.
			c, err := dialFrom(ts.addr, tt.lbFrom, clientConfig(key))
			if err != nil {
				t.Fatalf("a direct login from %s: %v", tt.lbFrom, err)
			}
			c.Close()
		})
	}

	t.Run("a trusted address without a header", func(t *testing.T) {
		t.Parallel()
		ts := startServer(t, func(c *Config) { c.ProxyFrom = trusted(t, "127.0.0.2") })
		if c, err := dialFrom(ts.addr, "127.0.0.2", clientConfig(newKey(t))); err == nil {
			c.Close()
			t.Fatal("a connection from the balancer's address without a header got in")
		}
		if got := ts.refusedFor("proxy"); got != 1 {
			t.Errorf("%d refused for their PROXY header, want 1", got)
		}
	})

	t.Run("a health check", func(t *testing.T) {
		t.Parallel()
		ts := startServer(t, func(c *Config) { c.ProxyFrom = trusted(t, "127.0.0.2") })
		d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
		nc, err := d.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		local := &proxyproto.Header{Version: 2, Command: proxyproto.LOCAL, TransportProtocol: proxyproto.UNSPEC}
		if _, err := local.WriteTo(nc); err != nil {
			t.Fatal(err)
		}
		cc, chans, reqs, err := gossh.NewClientConn(nc, ts.addr, clientConfig(newKey(t)))
		if err != nil {
			t.Fatalf("SSH after a LOCAL header: %v", err)
		}
		c := gossh.NewClient(cc, chans, reqs)
		defer c.Close()
		if got := ts.perSource("127.0.0.2"); got != 1 {
			t.Errorf("the balancer's address counts %d connections, want 1", got)
		}
	})
}

// TestPenaltyExempt: silent connections from an exempt address cost it
// nothing, as OpenSSH's PerSourcePenaltyExemptList: a real login from
// there still gets in, while the same from another address is refused.
func TestPenaltyExempt(t *testing.T) {
	t.Parallel()
	ts := startServer(t, func(c *Config) {
		c.Limits.VersionTimeout = 500 * time.Millisecond     // for the silent ones; a real client sends its version at once
		c.Limits.PenaltyExempt = trusted(t, "127.0.0.20/31") // .20 and .21
	})
	var wg sync.WaitGroup
	for _, from := range []string{"127.0.0.21", "127.0.0.22"} {
		for range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
				nc, err := d.Dial("tcp", ts.addr)
				if err != nil {
					return
				}
				defer nc.Close()
				_, _ = readAll(nc, 5*time.Second)
			}()
		}
	}
	wg.Wait()
	eventually(t, 5*time.Second, ".22 penalised", func() bool { return ts.penalised("127.0.0.22") })
	key := newKey(t)
	if _, err := dialFrom(ts.addr, "127.0.0.22", clientConfig(key)); err == nil {
		t.Error("a login from the penalised address got in")
	}
	for _, from := range []string{"127.0.0.21", "127.0.0.20"} {
		if err := loginFrom(t, ts.addr, from, key); err != nil {
			t.Errorf("a login from exempt %s, at its first try: %v", from, err)
		}
	}
	if ts.penalised("127.0.0.21") {
		t.Error("the exempt address was penalised")
	}
}
