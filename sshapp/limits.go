package sshapp

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// How the limits work with the ssh package:
//
//   - ssh.Server.ConnCallback (accept) runs for every TCP connection before
//     the handshake. It reads the PROXY header of a connection from a
//     trusted proxy (proxy.go), so that everything after it counts the real
//     client. It refuses penalised sources and enforces the per-source and
//     unauthenticated caps, with OpenSSH's random early drop below the
//     latter; where a cap or the early drop would refuse the newcomer, it
//     closes a silent connection instead if there is one (victimLocked). It
//     wraps the connection in a *conn that carries the handshake deadline:
//     VersionTimeout until the client's version line has come (conn.Read
//     watches for it), then HandshakeTimeout.
//   - ssh.Server wraps that again in its own serverConn, which calls
//     SetDeadline before every Read and Write to implement IdleTimeout and
//     MaxTimeout; with both unset it sets a zero deadline, which would erase
//     ours. conn.SetDeadline therefore never lets a later deadline replace
//     the handshake deadline until authentication has succeeded. (The
//     server's IdleTimeout is not used: it counts output too. Idle is
//     measured on the person's input, per session, in session.go.)
//   - gossh.ServerConfig.AuthLogCallback with a nil error marks the end of
//     authentication: the deadline is cleared, the connection stops counting
//     as unauthenticated and its keepalives start. A connection closed
//     before that costs its source a penalty (penalties.go).
//   - The "session" channel handler counts sessions per connection.

// connKey finds a connection's *conn in its ssh.Context.
var connKey = &struct{ name string }{"mia-conn"}

func connOf(ctx ssh.Context) *conn {
	c, _ := ctx.Value(connKey).(*conn)
	return c
}

// conn is one accepted TCP connection and its limits.
type conn struct {
	net.Conn
	srv    *Server
	raw    syscall.Conn // the TCP connection, to ask its receive queue (queued)
	ip     string       // the client's address, for logs (behind a trusted proxy: the real client's)
	addr   netip.Addr
	source string // what the per-source limits count: the IPv4 address or IPv6 /64

	offered  atomic.Bool // the client offered a public key
	refused  atomic.Bool // a key was refused by the allow-list
	told     atomic.Bool // the keyless message was shown
	version  atomic.Bool // the client's version line has come
	timedOut atomic.Bool // a read ran into the handshake deadline
	evicted  atomic.Bool // closed to make room for a newcomer (victimLocked)

	// What the client sent before its version line, as conn.Read sees it
	// (only the reading goroutine touches these).
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

// refusal is why a connection is refused before its handshake, as Stats
// names it.
type refusal string

// The refusals.
const (
	refuseClosing   refusal = "shutdown"
	refusePenalised refusal = "penalised"
	refusePerSource refusal = "per_source"
	refuseBusy      refusal = "busy"
	refuseProxy     refusal = "proxy"
)

// refusals lists every refusal, in the order Stats reports them.
var refusals = []refusal{refuseClosing, refusePenalised, refusePerSource, refuseBusy, refuseProxy}

// refusalNames is the refusals as Stats names them.
func refusalNames() []string {
	names := make([]string, len(refusals))
	for i, r := range refusals {
		names[i] = string(r)
	}
	return names
}

// message is what the client is told.
func (r refusal) message() string {
	switch r {
	case refuseClosing:
		return "the server is shutting down"
	case refusePenalised:
		return "too many unfinished connections from your address; try again later"
	case refusePerSource:
		return "too many connections from your address"
	case refuseProxy:
		return "a PROXY header is taken only from the proxies this server trusts, and they must send one"
	}
	return "the server is busy, try again in a minute"
}

// refuse tells a refused connection why (before the version exchange a
// server may send text lines; ssh -v shows them), counts it and logs it.
// It never waits on a client that does not read.
func (srv *Server) refuse(nc net.Conn, ip string, r refusal) {
	srv.count(srv.refusals, string(r))
	srv.log.Debug("connection refused", "remote", ip, "reason", r.message())
	_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = fmt.Fprintf(nc, "mia: %s\r\n", r.message())
}

// accept is the ConnCallback: it refuses a connection from a penalised
// source, over a cap or by random early drop (by returning nil, which
// makes the ssh package close it) and otherwise tracks it and starts its
// handshake deadline. Where a cap or the early drop would refuse the
// newcomer, a silent connection is closed in its place if there is one
// (victimLocked): a client that sends its version line at once gets in
// while silent ones hold the slots.
func (srv *Server) accept(ctx ssh.Context, raw net.Conn) net.Conn {
	nc, err := srv.proxied(raw)
	if err != nil {
		srv.refuse(raw, remoteIP(raw.RemoteAddr()), refuseProxy)
		srv.log.Info("PROXY header refused", "remote", remoteIP(raw.RemoteAddr()), "err", err)
		return nil
	}
	ip := remoteIP(nc.RemoteAddr())
	addr, _ := netip.ParseAddr(ip)
	src := sourceOf(ip)
	now := time.Now()
	srv.connMu.Lock()
	var refuse refusal
	var victim *conn
	switch {
	case srv.closing.Load():
		refuse = refuseClosing
	case srv.penalties.refused(src, now):
		refuse = refusePenalised
	case srv.lim.MaxPerSource > 0 && srv.perIP[src] >= srv.lim.MaxPerSource:
		// Only the source's own silent connection may make room.
		if victim = srv.victimLocked(src, now, true); victim == nil {
			refuse = refusePerSource
		}
	case srv.lim.dropChance(len(srv.handshaking), srv.stalledLocked(now)) > srv.roll(100):
		if victim = srv.victimLocked(src, now, false); victim == nil {
			refuse = refuseBusy
		}
	}
	if refuse != "" {
		srv.connMu.Unlock()
		srv.refuse(raw, ip, refuse)
		return nil
	}
	if tc, ok := raw.(*net.TCPConn); ok && srv.lim.SendBuffer > 0 {
		_ = tc.SetWriteBuffer(srv.lim.SendBuffer)
	}
	c := &conn{Conn: nc, srv: srv, ip: ip, addr: addr, source: src, accepted: now}
	c.raw, _ = raw.(syscall.Conn)
	if victim != nil {
		victim.evicted.Store(true)
		srv.forgetHandshakeLocked(victim)
	}
	srv.perIP[src]++
	srv.handshaking[c] = struct{}{}
	srv.unauthBySrc[src]++
	srv.conns[c] = struct{}{}
	srv.connMu.Unlock()
	if victim != nil {
		srv.log.Debug("closing a silent connection for a newcomer", "remote", victim.ip, "version", victim.version.Load(),
			"silent", now.Sub(victim.accepted).Round(time.Millisecond), "newcomer", ip)
		_ = victim.Close()
	}

	c.mu.Lock()
	c.deadline = c.handshakeDeadline()
	if !c.deadline.IsZero() {
		_ = nc.SetDeadline(c.deadline)
	}
	c.mu.Unlock()
	ctx.SetValue(connKey, c)
	return c
}

// victimLocked chooses the connection a newcomer from src takes the place
// of, or nil. A connection still in its handshake qualifies if it is
// silent (no version line read from it, and none waiting in the kernel to
// be read), or failing any silent one, if its handshake has run for
// EarlyDropAfter (1 s; real clients need milliseconds). Among those, it
// is one of the source that holds the most handshake slots (the newcomer
// counted with its own), so that no source keeps more than its share
// while others wait, and of that source the one accepted first. With own,
// only src's silent connections qualify. srv.connMu is held.
func (srv *Server) victimLocked(src string, now time.Time, own bool) *conn {
	stalled := srv.lim.EarlyDropAfter
	if stalled <= 0 {
		stalled = defaultEarlyDropAfter
	}
	type candidate struct {
		c      *conn
		silent bool
		weight int
	}
	var cands []candidate
	for c := range srv.handshaking {
		if c.evicted.Load() || (own && c.source != src) {
			continue
		}
		silent := !c.version.Load()
		if !silent && (own || now.Sub(c.accepted) < stalled) {
			continue
		}
		weight := srv.unauthBySrc[c.source]
		if c.source == src {
			weight++
		}
		cands = append(cands, candidate{c, silent, weight})
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		switch {
		case a.silent != b.silent:
			if a.silent {
				return -1
			}
			return 1
		case a.weight != b.weight:
			return b.weight - a.weight
		}
		return a.c.accepted.Compare(b.c.accepted)
	})
	for _, k := range cands {
		// One whose version line waits unread in the kernel is not silent:
		// the server has not come round to it yet. (Asked only of the few
		// candidates met before a silent one: one syscall each.)
		if k.silent && queued(k.c.raw) && (own || now.Sub(k.c.accepted) < stalled) {
			continue
		}
		return k.c
	}
	return nil
}

// forgetHandshakeLocked takes c out of the handshakes under way, once.
// srv.connMu is held.
func (srv *Server) forgetHandshakeLocked(c *conn) {
	if _, ok := srv.handshaking[c]; !ok {
		return
	}
	delete(srv.handshaking, c)
	if srv.unauthBySrc[c.source]--; srv.unauthBySrc[c.source] <= 0 {
		delete(srv.unauthBySrc, c.source)
	}
}

// dropChance is the chance in percent that a new connection is refused
// while unauth connections are in their handshake, stalled of them for
// EarlyDropAfter or longer: 100 at MaxUnauthenticated; below that none
// while fewer than EarlyDrop are stalled, EarlyDropRate at EarlyDrop,
// rising linearly to 100 at MaxUnauthenticated.
func (l Limits) dropChance(unauth, stalled int) int {
	full := l.MaxUnauthenticated
	switch {
	case full <= 0:
		return 0
	case unauth >= full:
		return 100
	case l.EarlyDrop <= 0 || l.EarlyDrop >= full || stalled < l.EarlyDrop:
		return 0
	}
	return min(100, l.EarlyDropRate+(100-l.EarlyDropRate)*(stalled-l.EarlyDrop)/(full-l.EarlyDrop))
}

// stalledLocked counts the connections that have been in their handshake
// for EarlyDropAfter or longer (all of them if it is negative). A real
// client's handshake takes milliseconds, so a crowd connecting at once is
// not mistaken for a flood. At most MaxUnauthenticated connections are
// counted; srv.connMu is held.
func (srv *Server) stalledLocked(now time.Time) int {
	lim := srv.lim
	if lim.MaxUnauthenticated <= 0 || lim.EarlyDrop <= 0 {
		return 0
	}
	if lim.EarlyDropAfter < 0 {
		return len(srv.handshaking)
	}
	n := 0
	for c := range srv.handshaking {
		if now.Sub(c.accepted) >= lim.EarlyDropAfter {
			n++
		}
	}
	return n
}

// handshakeDeadline is the deadline of a connection not yet
// authenticated: VersionTimeout after it was accepted until its version
// line has come, then HandshakeTimeout; zero for none.
func (c *conn) handshakeDeadline() time.Time {
	lim := c.srv.lim
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
// the server trusts (those are read in accept).
func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.version.Load() && n > 0 {
		if c.scanHead(p[:n]) {
			c.srv.count(c.srv.refusals, string(refuseProxy))
			c.srv.log.Info("PROXY header refused: not from a trusted proxy", "remote", c.ip)
			return 0, errUntrustedProxyHeader
		}
		if c.scanVersion(p[:n]) {
			c.mu.Lock()
			c.version.Store(true)
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

// scanVersion reports whether b ends the client's version line: a line
// that starts with "SSH-" (RFC 4253 lets a client send other lines
// first; a line break alone is not a version).
func (c *conn) scanVersion(b []byte) bool {
	const prefix = "SSH-"
	for _, ch := range b {
		switch {
		case ch == '\n':
			if c.line == len(prefix) {
				return true
			}
			c.line = 0
		case c.line < 0 || c.line == len(prefix):
		case ch == prefix[c.line]:
			c.line++
		default:
			c.line = -1
		}
	}
	return false
}

// scanHead keeps the first bytes the client sent and reports whether they
// are a PROXY header's signature (version 1 or 2).
func (c *conn) scanHead(b []byte) bool {
	if c.headLen == len(c.head) {
		return false
	}
	c.headLen += copy(c.head[c.headLen:], b)
	h := c.head[:c.headLen]
	return isProxySignature(h)
}

// SetDeadline keeps the handshake deadline in force until authentication:
// a later or zero deadline is replaced by it.
func (c *conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock() // held, so authenticated cannot clear in between
	if !c.deadline.IsZero() && (t.IsZero() || t.After(c.deadline)) {
		t = c.deadline
	}
	return c.Conn.SetDeadline(t)
}

// authenticated runs when the client has proven its key: the handshake
// deadline ends, the connection stops counting as unauthenticated, and
// its keepalives and no-session timer start.
func (c *conn) authenticated(ctx ssh.Context) {
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
	c.deadline = time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
	c.armNoSessionLocked()
	c.mu.Unlock()

	c.srv.connMu.Lock()
	c.srv.forgetHandshakeLocked(c)
	c.srv.connMu.Unlock()
	c.srv.count(c.srv.handshakes, handshakeOK)
	c.keepalive(ctx)
}

// Close closes the connection once and gives back its place under the caps.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		wasAuthed := c.authed
		if c.noSession != nil {
			c.noSession.Stop()
		}
		c.mu.Unlock()

		srv := c.srv
		srv.connMu.Lock()
		if srv.perIP[c.source]--; srv.perIP[c.source] <= 0 {
			delete(srv.perIP, c.source)
		}
		if !wasAuthed {
			srv.forgetHandshakeLocked(c)
		}
		delete(srv.conns, c)
		srv.connMu.Unlock()
		if wasAuthed {
			return
		}
		switch {
		case c.evicted.Load():
			srv.count(srv.handshakes, handshakeEvicted)
		case c.timedOut.Load():
			srv.count(srv.handshakes, handshakeTimeout)
		default:
			srv.count(srv.handshakes, handshakeNoAuth)
		}
		if !srv.closing.Load() {
			c.penalise()
		}
	})
	return c.Conn.Close()
}

// penalise charges the source of a connection that ended before it
// authenticated, unless the source is exempt (Limits.PenaltyExempt). One
// closed for a newcomer costs as much as one that ran out of time: it
// would have.
func (c *conn) penalise() {
	if c.srv.exempt.Contains(c.addr) {
		return
	}
	cost := penaltyNoAuth
	if c.timedOut.Load() || c.evicted.Load() {
		cost = penaltyTimedOut
	}
	if d := c.srv.penalties.add(c.source, cost, time.Now()); d > 0 {
		c.srv.log.Info("source refused for unfinished connections", "source", c.source, "for", d.Round(time.Second),
			"version", c.version.Load(), "timed_out", c.timedOut.Load(), "evicted", c.evicted.Load())
	}
}

// openSession admits one more session channel, up to MaxSessions.
func (c *conn) openSession() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || (c.srv.lim.MaxSessions > 0 && c.sessions >= c.srv.lim.MaxSessions) {
		return false
	}
	c.sessions++
	if c.noSession != nil {
		c.noSession.Stop()
	}
	return true
}

// closeSession counts a session channel gone.
func (c *conn) closeSession() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions--
	if c.sessions == 0 && c.authed && !c.closed {
		c.armNoSessionLocked()
	}
}

func (c *conn) armNoSessionLocked() {
	d := c.srv.lim.NoSessionTimeout
	if d <= 0 || c.sessions > 0 {
		return
	}
	if c.noSession == nil {
		c.noSession = time.AfterFunc(d, func() {
			c.srv.log.Debug("closing a connection without sessions", "remote", c.ip)
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
func (c *conn) keepalive(ctx ssh.Context) {
	every := c.srv.lim.KeepaliveInterval
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
func (c *conn) keepaliveOnce(ctx ssh.Context, wait time.Duration) bool {
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
		c.srv.log.Debug("keepalive unanswered, closing", "remote", c.ip)
		_ = c.Close()
		return false
	}
}

// sessionChannel is the "session" channel handler: it caps sessions per
// connection and refuses new ones during shutdown.
func (srv *Server) sessionChannel(s *ssh.Server, sc *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if srv.isClosing() {
		_ = nc.Reject(gossh.ResourceShortage, "the server is shutting down")
		return
	}
	c := connOf(ctx)
	if c == nil {
		_ = nc.Reject(gossh.ConnectionFailed, "internal error")
		return
	}
	if !c.openSession() {
		_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("at most %d sessions per connection", srv.lim.MaxSessions))
		return
	}
	defer c.closeSession()
	ac := &acceptedChannel{NewChannel: nc}
	ssh.DefaultSessionHandler(s, sc, ac, channelContext{Context: ctx, ch: ac})
}

// sourceOf is what the per-source limits count (netsource.Of): an IPv4
// address, or the /64 network of an IPv6 address.
func sourceOf(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	return netsource.Name(netsource.Of(a))
}

// clampWindow bounds a client's terminal size to 1..MaxWidth columns and
// 1..MaxHeight rows (and its pixel sizes to 0..65535).
func (l Limits) clampWindow(w ssh.Window) ssh.Window {
	w.Width = min(max(w.Width, 1), l.MaxWidth)
	w.Height = min(max(w.Height, 1), l.MaxHeight)
	w.WidthPixels = min(max(w.WidthPixels, 0), 65535)
	w.HeightPixels = min(max(w.HeightPixels, 0), 65535)
	return w
}
