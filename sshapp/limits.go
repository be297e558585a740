package sshapp

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// How the limits work with the ssh package:
//
//   - ssh.Server.ConnCallback (accept) runs for every TCP connection before
//     the handshake. It enforces the per-source and unauthenticated caps and
//     wraps the connection in a *conn that carries the handshake deadline.
//   - ssh.Server wraps that again in its own serverConn, which calls
//     SetDeadline before every Read and Write to implement IdleTimeout and
//     MaxTimeout; with both unset it sets a zero deadline, which would erase
//     ours. conn.SetDeadline therefore never lets a later deadline replace
//     the handshake deadline until authentication has succeeded. (The
//     server's IdleTimeout is not used: it counts output too. Idle is
//     measured on the person's input, per session, in session.go.)
//   - gossh.ServerConfig.AuthLogCallback with a nil error marks the end of
//     authentication: the deadline is cleared, the connection stops counting
//     as unauthenticated and its keepalives start.
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
	ip     string // the client's address, for logs
	source string // what the per-source cap counts: the IPv4 address or IPv6 /64

	offered atomic.Bool // the client offered a public key
	refused atomic.Bool // a key was refused by the allow-list
	told    atomic.Bool // the keyless message was shown

	closeOnce sync.Once

	mu        sync.Mutex
	authed    bool
	closed    bool
	deadline  time.Time   // handshake deadline, zero once authenticated
	sessions  int         // open session channels
	noSession *time.Timer // closes an authenticated connection without sessions
}

// accept is the ConnCallback: it refuses a connection over a cap (by
// returning nil, which makes the ssh package close it) and otherwise
// tracks it and starts its handshake deadline.
func (srv *Server) accept(ctx ssh.Context, nc net.Conn) net.Conn {
	ip := remoteIP(nc.RemoteAddr())
	src := sourceOf(ip)
	srv.mu.Lock()
	var refuse string
	switch {
	case srv.closing:
		refuse = "the server is shutting down"
	case srv.lim.MaxPerSource > 0 && srv.perIP[src] >= srv.lim.MaxPerSource:
		refuse = "too many connections from your address"
	case srv.lim.MaxUnauthenticated > 0 && srv.unauth >= srv.lim.MaxUnauthenticated:
		refuse = "the server is busy, try again in a minute"
	}
	if refuse != "" {
		srv.mu.Unlock()
		srv.log.Debug("connection refused", "remote", ip, "reason", refuse)
		// Before the version exchange a server may send text lines; ssh
		// -v shows them. Never wait on a client that does not read.
		_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = fmt.Fprintf(nc, "mia: %s\r\n", refuse)
		return nil
	}
	c := &conn{Conn: nc, srv: srv, ip: ip, source: src}
	srv.perIP[src]++
	srv.unauth++
	srv.conns[c] = struct{}{}
	srv.mu.Unlock()

	if d := srv.lim.HandshakeTimeout; d > 0 {
		c.deadline = time.Now().Add(d)
		_ = nc.SetDeadline(c.deadline)
	}
	ctx.SetValue(connKey, c)
	return c
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
	c.authed = true
	c.deadline = time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
	c.armNoSessionLocked()
	c.mu.Unlock()

	c.srv.mu.Lock()
	c.srv.unauth--
	c.srv.mu.Unlock()
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
		srv.mu.Lock()
		if srv.perIP[c.source]--; srv.perIP[c.source] <= 0 {
			delete(srv.perIP, c.source)
		}
		if !wasAuthed {
			srv.unauth--
		}
		delete(srv.conns, c)
		srv.mu.Unlock()
	})
	return c.Conn.Close()
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
	ssh.DefaultSessionHandler(s, sc, nc, ctx)
}

// sourceOf is what the per-source cap counts: an IPv4 address, or the /64
// network of an IPv6 address (one host usually holds a whole /64).
func sourceOf(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
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
