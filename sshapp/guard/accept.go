package guard

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// How the guard works with the ssh package:
//
//   - ssh.Server.ConnCallback (Accept) runs for every TCP connection before
//     the handshake, in the connection's own goroutine. It reads the PROXY
//     header of a connection from a trusted proxy (proxy.go), so that
//     everything after it counts the real client. It refuses penalised
//     sources and enforces the per-source and unauthenticated caps, with
//     OpenSSH's random early drop below the latter; where a cap or the
//     early drop would refuse the newcomer, it closes another connection
//     still in its handshake instead if one qualifies (victimLocked). It
//     wraps the connection in a *Conn that carries the handshake deadline:
//     VersionTimeout until the client's version line has come (Conn.Read
//     watches for it), then HandshakeTimeout.
//   - ssh.Server wraps that again in its own serverConn, which calls
//     SetDeadline before every Read and Write to implement IdleTimeout and
//     MaxTimeout; with both unset it sets a zero deadline, which would erase
//     ours. Conn.SetDeadline therefore never lets a later deadline replace
//     the handshake deadline until authentication has succeeded. (The
//     server's IdleTimeout is not used: it counts output too. Idle is
//     measured on the person's input, per session, by the server.)
//   - gossh.ServerConfig.AuthLogCallback with a nil error (Authenticated)
//     marks the end of authentication: the deadline is cleared, the
//     connection stops counting as unauthenticated and its keepalives
//     start. A connection closed before that costs its source a penalty
//     (penalties.go).
//   - The server's "session" channel handler counts sessions per
//     connection (Conn.OpenSession).

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

// The reason codes of SSH_MSG_DISCONNECT (RFC 4253 §11.1) a refusal
// gives.
const (
	disconnectHostNotAllowed  = 1
	disconnectByApplication   = 11
	disconnectTooManyConns    = 12
	msgDisconnect             = 1
	disconnectMessageMaxBytes = 400 // OpenSSH prints at most this much of it
)

// message is what the client is told, and the reason code that goes with
// it; for a penalised source, refusedFor is how long it is still refused.
func (g *Gate) message(r refusal, refusedFor time.Duration) (string, uint32) {
	switch r {
	case refuseClosing:
		return "the server is shutting down; try again in a minute", disconnectByApplication
	case refusePenalised:
		return fmt.Sprintf("too many unfinished connections from your address; try again in %s",
			max(refusedFor.Round(time.Second), time.Second)), disconnectHostNotAllowed
	case refusePerSource:
		return fmt.Sprintf("too many connections from your address (at most %d at once); close one and try again",
			g.lim.MaxPerSource), disconnectTooManyConns
	case refuseProxy:
		return "a PROXY header is taken only from the proxies this server trusts, and they must send one", disconnectHostNotAllowed
	}
	return "the server is busy, try again in a minute", disconnectTooManyConns
}

// disconnectPacket is an unencrypted SSH_MSG_DISCONNECT, as a server may
// send it after its version line, before key exchange (RFC 4253 §6: the
// binary packet protocol with no cipher and no MAC, its length and
// padding a multiple of 8, at least 4 bytes of padding).
func disconnectPacket(reason uint32, msg string) []byte {
	if len(msg) > disconnectMessageMaxBytes {
		n := disconnectMessageMaxBytes
		for n > 0 && !utf8.RuneStart(msg[n]) {
			n--
		}
		msg = msg[:n]
	}
	payload := []byte{msgDisconnect}
	payload = binary.BigEndian.AppendUint32(payload, reason)
	payload = binary.BigEndian.AppendUint32(payload, uint32(len(msg)))
	payload = append(payload, msg...)
	payload = binary.BigEndian.AppendUint32(payload, 0) // no language tag
	pad := 8 - (5+len(payload))%8
	if pad < 4 {
		pad += 8
	}
	p := binary.BigEndian.AppendUint32(nil, uint32(1+len(payload)+pad))
	p = append(p, byte(pad))
	p = append(p, payload...)
	return append(p, make([]byte, pad)...)
}

// How long a refused connection is given to hang up after it was told
// why, and the most of its bytes read meanwhile.
const (
	refuseLinger   = time.Second
	refuseMaxDrain = 64 << 10
)

// refuse tells a refused connection why, as SSH clients show it
// without asking: the server's version line, then an SSH_MSG_DISCONNECT
// with the reason (OpenSSH prints "Received disconnect from HOST port
// PORT:12: REASON"). Closing at once with the client's version line
// unread would reset the connection, and the client would print
// "Connection reset" instead: so it stops writing and reads what the
// client sends until the client hangs up, for at most refuseLinger
// (at most maxRefusing connections at once; past that it closes at
// once). It counts and logs the refusal. raw is the TCP connection, nc
// the one to read (behind a proxy, past the header).
func (g *Gate) refuse(raw, nc net.Conn, ip string, r refusal, refusedFor time.Duration) {
	count(g.refusals, string(r))
	msg, code := g.message(r, refusedFor)
	g.log.Debug("connection refused", "remote", ip, "reason", msg)
	_ = raw.SetDeadline(time.Now().Add(refuseLinger))
	if _, err := raw.Write(append([]byte(g.version+"\r\n"), disconnectPacket(code, msg)...)); err != nil {
		return
	}
	select {
	case g.refusing <- struct{}{}:
		defer func() { <-g.refusing }()
	default:
		return
	}
	if cw, ok := raw.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(nc, refuseMaxDrain))
}

// Accept is the ssh.Server's ConnCallback: it refuses a connection from a
// penalised source, over a cap or by random early drop (telling it why,
// and returning nil, which makes the ssh package close it) and otherwise
// tracks it and starts its handshake deadline. Where a cap or the early
// drop would refuse the newcomer, another connection in its handshake is
// closed in its place if one qualifies (victimLocked): a client that
// sends its version line at once gets in while silent ones, or churning
// ones, hold the slots.
func (g *Gate) Accept(ctx ssh.Context, raw net.Conn) net.Conn {
	nc, err := g.proxied(raw)
	if err != nil {
		g.refuse(raw, raw, RemoteIP(raw.RemoteAddr()), refuseProxy, 0)
		g.log.Info("PROXY header refused", "remote", RemoteIP(raw.RemoteAddr()), "err", err)
		return nil
	}
	ip := RemoteIP(nc.RemoteAddr())
	addr, _ := netip.ParseAddr(ip)
	src := SourceName(ip)
	now := time.Now()
	refusedFor, _ := g.penalties.state(src, now)
	g.mu.Lock()
	var refuse refusal
	var victim *Conn
	switch {
	case g.closing.Load():
		refuse = refuseClosing
	case refusedFor > 0:
		refuse = refusePenalised
	case g.lim.MaxPerSource > 0 && g.perSource[src] >= g.lim.MaxPerSource:
		// Only the source's own silent connection may make room.
		if victim = g.victimLocked(src, now, true); victim == nil {
			refuse = refusePerSource
		}
	case g.lim.dropChance(len(g.handshaking), g.stalledLocked(now)) > g.roll(100):
		if victim = g.victimLocked(src, now, false); victim == nil {
			refuse = refuseBusy
		}
	}
	if refuse != "" {
		g.mu.Unlock()
		g.refuse(raw, nc, ip, refuse, refusedFor)
		return nil
	}
	if tc, ok := raw.(*net.TCPConn); ok && g.lim.SendBuffer > 0 {
		_ = tc.SetWriteBuffer(g.lim.SendBuffer)
	}
	c := &Conn{Conn: nc, g: g, ip: ip, addr: addr, source: src, accepted: now}
	c.raw, _ = raw.(syscall.Conn)
	if victim != nil {
		victim.evicted.Store(true)
		g.forgetHandshakeLocked(victim)
	}
	g.perSource[src]++
	g.handshaking[c] = struct{}{}
	g.unauthBySrc[src]++
	g.conns[c] = struct{}{}
	g.mu.Unlock()
	if victim != nil {
		g.log.Debug("closing a connection in its handshake for a newcomer", "remote", victim.ip,
			"version", victim.version.Load(), "age", now.Sub(victim.accepted).Round(time.Millisecond), "newcomer", ip)
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
// of, or nil. A connection still in its handshake qualifies, the first
// class first:
//
//  1. waiting: it has sent no version line, or its version line and
//     nothing since (and nothing waits in the kernel to be read from it),
//     and its source has as many strikes (unfinished connections,
//     penalties.go) as the newcomer's or more. A real client's key
//     exchange follows its version line within a round trip, and nothing
//     in between waits for its user; so of these the silent go first, and
//     the newest is the one most likely real. A client with a cleaner
//     record than the newcomer's is not put out for it while it has not
//     had time to speak;
//  2. old: its handshake has waited on its client for EarlyDropAfter (1
//     s; real clients need milliseconds), or run five times as long in
//     all (waitsOnClient: a server short of CPU does not put out the
//     handshakes it is itself behind on);
//  3. suspect: its source has more strikes than the newcomer's.
//
// So a source that floods with silent connections, or churns, sending its
// version line and closing before a second is up, holds no slot a
// newcomer wants, and each connection closed for a newcomer costs it as a
// timeout does. Within a class, it is one of the source with the most
// strikes, then (waiting) a silent one, then of the source that holds the
// most handshake slots (the newcomer counted with its own), so that no
// source keeps more than its share while others wait, and of that source
// the one accepted first. With own, only src's silent connections
// qualify. g.mu is held.
func (g *Gate) victimLocked(src string, now time.Time, own bool) *Conn {
	stalled := g.lim.EarlyDropAfter
	if stalled <= 0 {
		stalled = defaultEarlyDropAfter
	}
	const (
		waiting = iota
		old
		suspect
	)
	type candidate struct {
		c       *Conn
		class   int
		silent  bool
		strikes int
		weight  int
	}
	newcomer := g.penalties.strikes(src, now)
	strikes := map[string]int{}
	var cands []candidate
	for c := range g.handshaking {
		if c.evicted.Load() || (own && c.source != src) {
			continue
		}
		s, ok := strikes[c.source]
		if !ok {
			s = g.penalties.strikes(c.source, now)
			strikes[c.source] = s
		}
		silent := !c.version.Load()
		var class int
		switch {
		case own && silent:
			class = waiting
		case own:
			continue
		case !c.moved.Load() && s >= newcomer:
			class = waiting
		case c.waitsOnClient(now, stalled):
			class = old
		case s > newcomer:
			class = suspect
		default:
			continue
		}
		weight := g.unauthBySrc[c.source]
		if c.source == src {
			weight++
		}
		cands = append(cands, candidate{c, class, silent, s, weight})
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		switch {
		case a.class != b.class:
			return a.class - b.class
		case a.strikes != b.strikes:
			return b.strikes - a.strikes
		case a.class == waiting && a.silent != b.silent:
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
		// One whose next bytes wait unread in the kernel is not waiting:
		// the server has not come round to it yet. It may still qualify as
		// old or as a suspect. (Asked only of the few candidates met first:
		// one syscall each.)
		if k.class == waiting && queued(k.c.raw) {
			if own || (!k.c.waitsOnClient(now, stalled) && k.strikes <= newcomer) {
				continue
			}
		}
		return k.c
	}
	return nil
}

// forgetHandshakeLocked takes c out of the handshakes under way, once.
// g.mu is held.
func (g *Gate) forgetHandshakeLocked(c *Conn) {
	if _, ok := g.handshaking[c]; !ok {
		return
	}
	delete(g.handshaking, c)
	if g.unauthBySrc[c.source]--; g.unauthBySrc[c.source] <= 0 {
		delete(g.unauthBySrc, c.source)
	}
}

// stalledLocked counts the connections whose handshake has waited on
// its client for EarlyDropAfter or longer (waitsOnClient; all of them if
// it is negative). A real client's handshake takes milliseconds, so a
// crowd connecting at once is not mistaken for a flood, nor a crowd a
// busy server is slow to answer. At most MaxUnauthenticated connections are
// counted; g.mu is held.
func (g *Gate) stalledLocked(now time.Time) int {
	lim := g.lim
	if lim.MaxUnauthenticated <= 0 || lim.EarlyDrop <= 0 {
		return 0
	}
	if lim.EarlyDropAfter < 0 {
		return len(g.handshaking)
	}
	n := 0
	for c := range g.handshaking {
		if c.waitsOnClient(now, lim.EarlyDropAfter) {
			n++
		}
	}
	return n
}

// SourceName is the source that an IP address (as text) counts for, as
// every per-source limit counts it and the guard names it
// (netsource.Of): an IPv4 address, or the /64 network of an IPv6
// address; text that is no address is its own source.
func SourceName(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	return netsource.Name(netsource.Of(a))
}

// remoteIP is the IP address of addr, or addr itself if it has no port.
func RemoteIP(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}
