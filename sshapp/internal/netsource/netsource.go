// Package netsource says what one source of connections or datagrams is,
// for every limit counted per source: an IPv4 address, or the /64 network
// of an IPv6 address (one host is usually given a whole /64, and picks its
// addresses in it at will). It also reads the lists of networks a host
// names on the command line (--proxy-from, --penalty-exempt).
//
// Room: inside sshapp; the SSH server's guard (sshapp/guard: its
// per-source caps, handshake slots and penalties, and the source a
// session gives the lobby's caps by address) and the Mäxchen gateway (an
// address's fair share of its places) count by it. It imports the
// standard library only.
package netsource

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Of is the source an address belongs to: the address itself for IPv4 (an
// IPv4-mapped IPv6 address counts as its IPv4 address), its /64 for IPv6.
func Of(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64) // a valid IPv6 address always has a /64
	return p
}

// Name is how a source is written in logs and used as a key: the address
// alone for an IPv4 source, the network for an IPv6 one.
func Name(p netip.Prefix) string {
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// List is a set of networks, such as the trusted proxies.
type List []netip.Prefix

// ErrBadList is the kind of every error of ParseList.
var ErrBadList = errors.New("not a list of addresses and networks")

// ParseList reads a comma-separated list of addresses ("192.0.2.7",
// "2001:db8::1") and networks in CIDR notation ("10.0.0.0/8",
// "2001:db8::/32"); white space around each is allowed, an empty string
// is the empty list. A network is kept as given, its host bits cleared.
func ParseList(s string) (List, error) {
	var l List
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("%w: %q is not a network such as 10.0.0.0/8", ErrBadList, f)
			}
			if p.Addr().Is4In6() {
				return nil, fmt.Errorf("%w: %q: write an IPv4 network in IPv4 notation", ErrBadList, f)
			}
			l = append(l, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%w: %q is not an address such as 192.0.2.7", ErrBadList, f)
		}
		a = a.Unmap()
		l = append(l, netip.PrefixFrom(a, a.BitLen()))
	}
	return l, nil
}

// Contains reports whether a is in one of the networks.
func (l List) Contains(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, p := range l {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// String writes the list as ParseList reads it.
func (l List) String() string {
	s := make([]string, len(l))
	for i, p := range l {
		s[i] = Name(p)
	}
	return strings.Join(s, ",")
}
