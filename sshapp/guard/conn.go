package guard

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// connKey finds a connection's *Conn in its ssh.Context.
var connKey = &struct{ name string }{"mia-guard-conn"}

// ConnOf is the guarded connection of an ssh.Context (of the connection
// or of one of its sessions), nil if the guard did not accept it.
func ConnOf(ctx ssh.Context) *Conn {
	if ctx == nil {
		return nil
	}
	c, _ := ctx.Value(connKey).(*Conn)
	return c
}

// Source is the source the connection of ctx counts for (SourceName):
// behind a trusted proxy, the real client's. It is what the server's
// per-source limits key on; "" for a connection the guard did not accept.
func Source(ctx ssh.Context) string {
	if c := ConnOf(ctx); c != nil {
		return c.source
	}
	return ""
}

// Uncounted reports whether the lobby's caps by address leave the
// connection's source out: a loopback source (a local client, or a proxy
// that sends no PROXY header), or one Limits.PenaltyExempt names.
func (c *Conn) Uncounted() bool { return c.addr.IsLoopback() || c.g.exempt.Contains(c.addr) }

// Conn is one accepted TCP connection and its limits.
type Conn struct {
	net.Conn
	g      *Gate
	raw    syscall.Conn // the TCP connection, to ask its receive queue (queued)
	ip     string       // the client's address, for logs (behind a trusted proxy: the real client's)
	addr   netip.Addr
	source string // what the per-source limits count: the IPv4 address or IPv6 /64

	version  atomic.Bool // the client's version line has come
	moved    atomic.Bool // and bytes after it (its key exchange)
	timedOut atomic.Bool // a read ran into the handshake deadline
	evicted  atomic.Bool // closed to make room for a newcomer (victimLocked)

	// When the server last read bytes from the client and last wrote to
	// it (unix nanoseconds; 0: not yet), while the handshake runs: whose
	// turn it is (waitsOnClient).
	lastIn, lastOut atomic.Int64
	shook           atomic.Bool // authenticated: the two above are no longer kept

	// What the client sent before its version line, as Read sees it (only
	// the reading goroutine touches these).
	head    [12]byte // its first bytes, to spot a PROXY header
	headLen int
	line    int // how much of "SSH-" the current line has matched; -1: it cannot be the version line

	closeOnce sync.Once

	mu        sync.Mutex
	authed    bool
	closed    bool
	accepted  time.Time
	deadline  time.Time   // handshake deadline, zero once authenticated
	sessions  int         // open session channels
	noSession *time.Timer // closes an authenticated connection without sessions
}

// handshakeDeadline is the deadline of a connection not yet
// authenticated: VersionTimeout after it was accepted until its version
// line has come, then HandshakeTimeout; zero for none.
func (c *Conn) handshakeDeadline() time.Time {
	lim := c.g.lim
	var d time.Duration
	if lim.HandshakeTimeout > 0 {
		d = lim.HandshakeTimeout
	}
	if !c.version.Load() && lim.VersionTimeout > 0 && (d == 0 || lim.VersionTimeout < d) {
		d = lim.VersionTimeout
	}
	if d == 0 {
		return time.Time{}
	}
	return c.accepted.Add(d)
}

// Read notes the end of the client's version line, which moves the
// deadline from VersionTimeout to HandshakeTimeout, and a read that ran
// out of time before authentication. A PROXY header in place of the
// version line ends the connection: this connection is not from a proxy
// the server trusts (those are read in Accept).
func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.shook.Load() {
		c.lastIn.Store(time.Now().UnixNano())
	}
	switch {
	case n == 0 || c.moved.Load():
	case c.version.Load():
		c.moved.Store(true)
	default:
		if c.scanHead(p[:n]) {
			count(c.g.refusals, string(refuseProxy))
			c.g.log.Info("PROXY header refused: not from a trusted proxy", "remote", c.ip)
			return 0, errUntrustedProxyHeader
		}
		if end := c.scanVersion(p[:n]); end >= 0 {
			c.mu.Lock()
			c.version.Store(true)
			c.moved.Store(end+1 < n)
			if !c.authed && !c.closed {
				c.deadline = c.handshakeDeadline()
				_ = c.Conn.SetDeadline(c.deadline)
			}
			c.mu.Unlock()
		}
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.mu.Lock()
		if !c.authed {
			c.timedOut.Store(true)
		}
		c.mu.Unlock()
	}
	return n, err
}

// Write notes, while the handshake runs, when the server last wrote.
func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 && !c.shook.Load() {
		c.lastOut.Store(time.Now().UnixNano())
	}
	return n, err
}

// stalledAnyway is how many times EarlyDropAfter a handshake runs before
// it counts as stalled whoever it waits on (waitsOnClient).
const stalledAnyway = 5

// waitsOnClient reports whether the handshake has been waiting on its
// client for d or longer: the server spoke last, d ago or more, and
// nothing the client sent waits unread in the kernel. A handshake the
// server is behind on (the client's bytes unread, or its answer not yet
// written: a server short of CPU) does not, however long it takes, until
// it has run stalledAnyway times d in all: a client that sends its key
// exchange and then nothing holds its slot that long at most. It asks the
// kernel (one syscall) only of a handshake old enough.
func (c *Conn) waitsOnClient(now time.Time, d time.Duration) bool {
	age := now.Sub(c.accepted)
	if age < d {
		return false
	}
	if age >= stalledAnyway*d {
		return true
	}
	in, out := c.lastIn.Load(), c.lastOut.Load()
	if in > out || now.Sub(time.Unix(0, max(out, c.accepted.UnixNano()))) < d {
		return false
	}
	return !queued(c.raw)
}

// scanVersion is where in b the client's version line ends, -1 if it
// does not: a line that starts with "SSH-" (RFC 4253 lets a client send
// other lines first; a line break alone is not a version).
func (c *Conn) scanVersion(b []byte) int {
	const prefix = "SSH-"
	for i, ch := range b {
		switch {
		case ch == '\n':
			if c.line == len(prefix) {
				return i
			}
			c.line = 0
		case c.line < 0 || c.line == len(prefix):
		case ch == prefix[c.line]:
			c.line++
		default:
			c.line = -1
		}
	}
	return -1
}

// scanHead keeps the first bytes the client sent and reports whether they
// are a PROXY header's signature (version 1 or 2).
func (c *Conn) scanHead(b []byte) bool {
	if c.headLen == len(c.head) {
		return false
	}
	c.headLen += copy(c.head[c.headLen:], b)
	return isProxySignature(c.head[:c.headLen])
}

// SetDeadline keeps the handshake deadline in force until authentication:
// a later or zero deadline is replaced by it.
func (c *Conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock() // held, so authenticated cannot clear in between
	if !c.deadline.IsZero() && (t.IsZero() || t.After(c.deadline)) {
		t = c.deadline
	}
	return c.Conn.SetDeadline(t)
}

// Authenticated is for the AuthLogCallback of the connection of ctx,
// once the client has proven its key: the handshake deadline ends, the
// connection stops counting as unauthenticated, and its keepalives and
// no-session timer start.
func (g *Gate) Authenticated(ctx ssh.Context) {
	c := ConnOf(ctx)
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.authed || c.closed {
		c.mu.Unlock()
		return
	}
	if c.evicted.Load() {
		c.mu.Unlock()
		return // it is being closed for a newcomer
	}
	c.authed = true
	c.shook.Store(true)
	c.deadline = time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
	c.armNoSessionLocked()
	c.mu.Unlock()

	g.mu.Lock()
	g.forgetHandshakeLocked(c)
	g.mu.Unlock()
	count(g.handshakes, HandshakeOK)
	c.keepalive(ctx)
}

// Close closes the connection once and gives back its place under the caps.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		wasAuthed := c.authed
		if c.noSession != nil {
			c.noSession.Stop()
		}
		c.mu.Unlock()

		g := c.g
		g.mu.Lock()
		if g.perSource[c.source]--; g.perSource[c.source] <= 0 {
			delete(g.perSource, c.source)
		}
		if !wasAuthed {
			g.forgetHandshakeLocked(c)
		}
		delete(g.conns, c)
		g.mu.Unlock()
		if wasAuthed {
			return
		}
		switch {
		case c.evicted.Load():
			count(g.handshakes, HandshakeEvicted)
		case c.timedOut.Load():
			count(g.handshakes, HandshakeTimeout)
		default:
			count(g.handshakes, HandshakeNoAuth)
		}
		if !g.closing.Load() {
			c.penalise()
		}
	})
	return c.Conn.Close()
}

// penalise charges the source of a connection that ended before it
// authenticated, unless the source is exempt (Limits.PenaltyExempt). One
// closed for a newcomer costs as much as one that ran out of time: it
// would have.
func (c *Conn) penalise() {
	if c.g.exempt.Contains(c.addr) {
		return
	}
	cost := penaltyNoAuth
	if c.timedOut.Load() || c.evicted.Load() {
		cost = penaltyTimedOut
	}
	if d := c.g.penalties.add(c.source, cost, time.Now()); d > 0 {
		c.g.log.Info("source refused for unfinished connections", "source", c.source, "for", d.Round(time.Second),
			"version", c.version.Load(), "timed_out", c.timedOut.Load(), "evicted", c.evicted.Load())
	}
}

// OpenSession admits one more session channel, up to MaxSessions; a
// session admitted is given back with CloseSession.
func (c *Conn) OpenSession() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || (c.g.lim.MaxSessions > 0 && c.sessions >= c.g.lim.MaxSessions) {
		return false
	}
	c.sessions++
	if c.noSession != nil {
		c.noSession.Stop()
	}
	return true
}

// CloseSession counts a session channel gone.
func (c *Conn) CloseSession() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions--
	if c.sessions == 0 && c.authed && !c.closed {
		c.armNoSessionLocked()
	}
}

func (c *Conn) armNoSessionLocked() {
	d := c.g.lim.NoSessionTimeout
	if d <= 0 || c.sessions > 0 {
		return
	}
	if c.noSession == nil {
		c.noSession = time.AfterFunc(d, func() {
			c.g.log.Debug("closing a connection without sessions", "remote", c.ip)
			_ = c.Close()
		})
		return
	}
	c.noSession.Reset(d)
}

// keepalive sends keepalive@openssh.com every KeepaliveInterval and closes
// the connection if an answer (any answer: OpenSSH refuses the request,
// which is proof enough of life) does not come within another interval.
// Between keepalives nothing waits: a timer starts each one in its own
// goroutine (a goroutine parked per connection for the whole session was
// a few KB of stack for every person connected).
func (c *Conn) keepalive(ctx ssh.Context) {
	every := c.g.lim.KeepaliveInterval
	if every <= 0 {
		return
	}
	time.AfterFunc(every, func() {
		if c.keepaliveOnce(ctx, every) {
			c.keepalive(ctx) // the next one
		}
	})
}

// keepaliveOnce sends one keepalive and waits up to wait for its answer;
// it reports whether the connection lives on.
func (c *Conn) keepaliveOnce(ctx ssh.Context, wait time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	sc, ok := ctx.Value(ssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return true // the handshake is finishing
	}
	answer := make(chan error, 1)
	go func() {
		_, _, err := sc.SendRequest("keepalive@openssh.com", true, nil)
		answer <- err
	}()
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	select {
	case <-ctx.Done():
		return false
	case err := <-answer:
		if err != nil {
			_ = c.Close()
			return false
		}
		return true
	case <-timeout.C:
		c.g.log.Debug("keepalive unanswered, closing", "remote", c.ip)
		_ = c.Close()
		return false
	}
}
