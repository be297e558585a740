package guard

import (
	"bytes"
	"errors"
	"net"
	"net/netip"

	"github.com/pires/go-proxyproto"
)

// The PROXY protocol (HAProxy's, versions 1 and 2): behind a TCP load
// balancer every connection comes from the balancer, so the server takes
// the real client's address from the header the balancer sends first, but
// only from the addresses it trusts (Config.ProxyFrom). Every per-source
// limit then counts the real client.
//
//   - From a trusted address, Accept reads the header before anything else
//     (go-proxyproto, REQUIRE: the protocol forbids guessing whether a
//     header is there), within VersionTimeout; a connection without a valid
//     header is refused. A LOCAL header (a balancer's health check) counts
//     as the balancer's own connection.
//   - From any other address, a header is refused: Conn.Read ends the
//     connection when its first bytes are a header's signature. (Watching
//     the bytes the SSH handshake reads anyway, rather than wrapping the
//     connection to look ahead, keeps the server's version line from waiting
//     on the client's first bytes.)

// Errors of the PROXY protocol.
var (
	// errUntrustedProxyHeader ends a connection that sent a PROXY header
	// from an address not in Config.ProxyFrom.
	errUntrustedProxyHeader = errors.New("a PROXY header from an address not trusted to send one")
	// errNoProxyHeader refuses a connection from a trusted proxy that did
	// not begin with a valid PROXY header in time.
	errNoProxyHeader = errors.New("no valid PROXY header from a trusted proxy")
)

// proxied is raw as the server sees it: behind a trusted proxy, with the
// real client's address from its header; from anyone else, raw itself.
func (g *Gate) proxied(raw net.Conn) (net.Conn, error) {
	if len(g.proxyFrom) == 0 {
		return raw, nil
	}
	peer, ok := addrOf(raw.RemoteAddr())
	if !ok || !g.proxyFrom.Contains(peer) {
		return raw, nil
	}
	timeout := g.lim.VersionTimeout
	if timeout <= 0 {
		timeout = 0 // no bound: as the version line itself
	}
	pc := proxyproto.NewConn(raw, proxyproto.WithPolicy(proxyproto.REQUIRE), proxyproto.SetReadHeaderTimeout(timeout))
	if pc.ProxyHeader() == nil {
		return nil, errNoProxyHeader
	}
	return pc, nil
}

// isProxySignature reports whether the first bytes of a connection are a
// PROXY header's signature.
func isProxySignature(head []byte) bool {
	return bytes.HasPrefix(head, proxyproto.SIGV1) || bytes.HasPrefix(head, proxyproto.SIGV2)
}

// addrOf is the IP address of a network address.
func addrOf(a net.Addr) (netip.Addr, bool) {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.AddrPort().Addr().Unmap(), true
	}
	if a == nil {
		return netip.Addr{}, false
	}
	ip, err := netip.ParseAddr(RemoteIP(a))
	return ip.Unmap(), err == nil
}
