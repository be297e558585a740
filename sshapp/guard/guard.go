// Package guard keeps the SSH server's door: what a connection may cost
// before and after it authenticates. It takes each TCP connection before
// the SSH handshake (the PROXY header of a trusted load balancer, the
// per-source cap, the handshake slots and their random early drop, the
// penalties of sources that leave handshakes unfinished), bounds the
// handshake in time, counts the sessions of a connection, keeps an
// authenticated connection alive or closes it, and refuses a person past
// their share of sessions or a banned key. A connection it refuses is told
// why in the SSH protocol's own words (an SSH_MSG_DISCONNECT after the
// version line), which SSH clients print (OpenSSH without -v).
//
// Room: inside sshapp, beside the server, which wires it: Gate.Accept is
// its ConnCallback, Gate.Authenticated its AuthLogCallback, and its
// session channel handler asks ConnOf(ctx) for a place. It imports lobby
// (the kinds of its errors), store (the bans' records) and
// sshapp/internal/netsource (what one source is); never the server.
package guard

import (
	"io"
	"math/rand/v2"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// Config configures a Gate.
type Config struct {
	// Limits are the guard's limits; a zero field takes its default.
	Limits Limits
	// ProxyFrom is the addresses whose connections begin with a PROXY
	// header naming the real client (see proxy.go). Empty: none.
	ProxyFrom []netip.Prefix
	// Version is the server's SSH version line without its line break
	// ("SSH-2.0-mia"), sent before the reason of a refusal.
	Version string
	// Log receives the guard's logs; a discarding logger if nil.
	Log *log.Logger
}

// Gate is the guard of one server's door. Its methods are safe for
// concurrent use.
type Gate struct {
	lim       Limits
	log       *log.Logger
	version   string
	roll      func(n int) int // random early drop's dice: [0, n)
	exempt    netsource.List  // sources never penalised
	proxyFrom netsource.List  // addresses whose PROXY header is taken
	penalties *penalties      // with a lock of its own
	closing   atomic.Bool
	// refusing holds a token for each refused connection being told why
	// (refuse): past its capacity a refusal closes at once.
	refusing chan struct{}

	mu          sync.Mutex // guards the connections and what the limits count of them
	conns       map[*Conn]struct{}
	perSource   map[string]int
	handshaking map[*Conn]struct{} // connections not yet authenticated
	unauthBySrc map[string]int     // of them, by source

	// What Stats counts, by reason or result; the maps are made by New
	// with every key and never change: only the counters do.
	refusals   map[string]*atomic.Uint64
	handshakes map[string]*atomic.Uint64
}

// maxRefusing bounds the refused connections told why at once.
const maxRefusing = 256

// New makes the guard of a server's door.
func New(cfg Config) *Gate {
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	if cfg.Version == "" {
		cfg.Version = "SSH-2.0-Go"
	}
	lim := cfg.Limits.WithDefaults()
	return &Gate{
		lim:         lim,
		log:         cfg.Log,
		version:     cfg.Version,
		roll:        rand.IntN,
		exempt:      netsource.List(lim.PenaltyExempt),
		proxyFrom:   netsource.List(cfg.ProxyFrom),
		penalties:   newPenalties(lim.PenaltyMin, lim.PenaltyMax),
		refusing:    make(chan struct{}, maxRefusing),
		conns:       make(map[*Conn]struct{}),
		perSource:   make(map[string]int),
		handshaking: make(map[*Conn]struct{}),
		unauthBySrc: make(map[string]int),
		refusals:    counters(refusalNames()...),
		handshakes:  counters(HandshakeOK, HandshakeTimeout, HandshakeEvicted, HandshakeNoAuth),
	}
}

// counters is a counter for each key.
func counters(keys ...string) map[string]*atomic.Uint64 {
	m := make(map[string]*atomic.Uint64, len(keys))
	for _, k := range keys {
		m[k] = new(atomic.Uint64)
	}
	return m
}

// count adds one to m[key], a key New made.
func count(m map[string]*atomic.Uint64, key string) { m[key].Add(1) }

// How a handshake ended, as Stats names it.
const (
	HandshakeOK      = "ok"      // authenticated
	HandshakeTimeout = "timeout" // ran out of time
	HandshakeEvicted = "evicted" // closed to make room for a newcomer
	HandshakeNoAuth  = "noauth"  // closed before it authenticated
)

// Stats is what the guard counts. The counters run from New.
type Stats struct {
	// Connections is the TCP connections open; Unauthenticated of them
	// are still in their handshake.
	Connections, Unauthenticated int
	// Handshakes is the connections by how their handshake ended
	// (HandshakeOK …).
	Handshakes map[string]uint64
	// Refusals is the connections refused before their handshake, by
	// reason: "shutdown", "penalised", "per_source", "busy", "proxy".
	Refusals map[string]uint64
}

// Stats reports what the guard counts now.
func (g *Gate) Stats() Stats {
	st := Stats{Handshakes: map[string]uint64{}, Refusals: map[string]uint64{}}
	g.mu.Lock()
	st.Connections, st.Unauthenticated = len(g.conns), len(g.handshaking)
	g.mu.Unlock()
	for k, n := range g.handshakes {
		st.Handshakes[k] = n.Load()
	}
	for k, n := range g.refusals {
		st.Refusals[k] = n.Load()
	}
	return st
}

// SourceInfo is what the guard holds of one source now.
type SourceInfo struct {
	// Connections is its connections open; Handshakes of them are in their
	// handshake, Talking of those have sent their version line.
	Connections, Handshakes, Talking int
	// RefusedFor is how long it is refused for from now (0: it is not).
	RefusedFor time.Duration
	// Strikes is its unfinished connections the penalties remember.
	Strikes int
}

// SourceInfo is what the guard holds of the source named name
// (SourceName).
func (g *Gate) SourceInfo(name string) SourceInfo {
	now := time.Now()
	g.mu.Lock()
	info := SourceInfo{Connections: g.perSource[name], Handshakes: g.unauthBySrc[name]}
	for c := range g.handshaking {
		if c.source == name && c.version.Load() {
			info.Talking++
		}
	}
	g.mu.Unlock()
	info.RefusedFor, info.Strikes = g.penalties.state(name, now)
	return info
}

// Handshakes is the connections in their handshake by source.
func (g *Gate) Handshakes() map[string]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	m := make(map[string]int, len(g.unauthBySrc))
	for k, v := range g.unauthBySrc {
		m[k] = v
	}
	return m
}

// Shutdown refuses every connection from now on and charges no penalty
// for the connections it then closes (CloseAll).
func (g *Gate) Shutdown() { g.closing.Store(true) }

// CloseAll closes every connection, those still in their handshake
// included.
func (g *Gate) CloseAll() {
	g.mu.Lock()
	conns := make([]*Conn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}
