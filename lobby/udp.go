package lobby

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// The Mäxchen gateway's players (sshapp/maexchen) have no key: each is
// known by its name, in an identity space of its own ("maexchen:NAME",
// never an SSH key's), and plays from a UDP address. A server admin bans
// one by that identity or bans the addresses it writes from
// ("udp:ADDRESS" or "udp:NETWORK"); the ban command stores the ban under
// that form and the gateway enforces it. Both read it here.

// UDPNamePrefix starts the identity of every player of the Mäxchen gateway.
const UDPNamePrefix = "maexchen:"

// UDPAddressPrefix starts a ban of UDP addresses.
const UDPAddressPrefix = "udp:"

// maxUDPBanName bounds the name of a name ban (the gateway's names are
// shorter; a ban of a longer one would never apply).
const maxUDPBanName = 64

// ErrBadUDPBan is the kind of ParseUDPBan's errors.
var ErrBadUDPBan = errors.New("not a Mäxchen bot's name nor a UDP address")

// UDPBan is a ban the Mäxchen gateway enforces: a bot's name, or a
// network of UDP addresses (a single address is a /32 or /128).
type UDPBan struct {
	Name string
	Net  netip.Prefix // valid only for an address ban
}

// ParseUDPBan reads "maexchen:NAME", "udp:ADDRESS" or "udp:NETWORK" (CIDR,
// IPv4 or IPv6). ok is false if s is none of these forms (an SSH player's
// name or key); err says what is wrong with one that is.
func ParseUDPBan(s string) (b UDPBan, ok bool, err error) {
	if name, found := strings.CutPrefix(s, UDPNamePrefix); found {
		if name == "" || len(name) > maxUDPBanName || Clean(name, maxUDPBanName) != name || strings.ContainsAny(name, " ;,:") {
			return UDPBan{}, true, fmt.Errorf("%w: %q is not a Mäxchen name", ErrBadUDPBan, Clean(name, maxUDPBanName))
		}
		return UDPBan{Name: name}, true, nil
	}
	a, found := strings.CutPrefix(s, UDPAddressPrefix)
	if !found {
		return UDPBan{}, false, nil
	}
	if strings.Contains(a, "/") {
		p, err := netip.ParsePrefix(a)
		if err != nil || p.Addr().Is4In6() {
			return UDPBan{}, true, fmt.Errorf("%w: %q is not a network such as udp:203.0.113.0/24", ErrBadUDPBan, Clean(a, 64))
		}
		return UDPBan{Net: p.Masked()}, true, nil
	}
	ip, err := netip.ParseAddr(a)
	if err != nil || ip.Zone() != "" {
		return UDPBan{}, true, fmt.Errorf("%w: %q is not an address such as udp:203.0.113.7", ErrBadUDPBan, Clean(a, 64))
	}
	ip = ip.Unmap()
	return UDPBan{Net: netip.PrefixFrom(ip, ip.BitLen())}, true, nil
}

// Target is the ban's identity, as the store keeps it: "maexchen:NAME",
// "udp:203.0.113.7" or "udp:203.0.113.0/24".
func (b UDPBan) Target() string {
	if b.Name != "" {
		return UDPNamePrefix + b.Name
	}
	if b.Net.IsSingleIP() {
		return UDPAddressPrefix + b.Net.Addr().String()
	}
	return UDPAddressPrefix + b.Net.String()
}

// String is the ban in words: "the Mäxchen bot u1", "the UDP address
// 203.0.113.7", "the UDP addresses 203.0.113.0/24".
func (b UDPBan) String() string {
	switch {
	case b.Name != "":
		return "the Mäxchen bot " + b.Name
	case b.Net.IsSingleIP():
		return "the UDP address " + b.Net.Addr().String()
	}
	return "the UDP addresses " + b.Net.String()
}

// Covers reports whether the ban keeps out the bot name registering from
// addr.
func (b UDPBan) Covers(name string, addr netip.Addr) bool {
	if b.Name != "" {
		return b.Name == name
	}
	return b.Net.IsValid() && b.Net.Contains(addr.Unmap())
}
