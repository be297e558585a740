package lobby

import (
	"errors"
	"net/netip"
	"strings"

	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// The Mäxchen gateway's players (sshapp/maexchen) have no key: each is
// the key-less person "maexchen:NAME" (ident.UDPBotPrefix), and plays from
// a UDP address. A server admin bans one as the person it is, or bans the
// addresses it writes from ("udp:ADDRESS" or "udp:NETWORK",
// ident.UDPAddrPrefix); the ban commands store the ban under that form
// and the gateway enforces it. Both read it here.

// MaexchenPoints are the Mäxchen server's points of a bot (its SCORE): +1
// for each round played, −1 for each life lost, from the games it
// finished and the lives it lost in them (sshapp/maexchen's page). The
// gateway's SCORE and the commands that show a Mäxchen bot's rating beside
// its points compute them here.
func MaexchenPoints(games, livesLost int) int { return games - livesLost }

// MaxUDPNameLen is the longest name of a Mäxchen bot: the protocol's 20
// (CheckNameUpTo checks them).
const MaxUDPNameLen = 20

// ErrBadUDPBan is the kind of ParseUDPBan's errors.
var ErrBadUDPBan = NewError(Refused, "not a Mäxchen bot's name nor a UDP address")

// UDPBan is a ban the Mäxchen gateway enforces: a bot's name, or a
// network of UDP addresses (a single address is a /32 or /128).
type UDPBan struct {
	Name string
	Net  netip.Prefix // valid only for an address ban
}

// ParseUDPBan reads "maexchen:NAME" (a name by the one name rule,
// CheckNameUpTo with MaxUDPNameLen), "udp:ADDRESS" or "udp:NETWORK"
// (CIDR, IPv4 or IPv6). ok is false if s is none of these forms (an SSH
// player's name, id or key); err says what is wrong with one that is.
func ParseUDPBan(s string) (b UDPBan, ok bool, err error) {
	if name, found := strings.CutPrefix(s, ident.UDPBotPrefix); found {
		// The one name rule, as the gateway registers names: a name it
		// would refuse is no bot's.
		err := CheckNameUpTo(name, MaxUDPNameLen)
		switch {
		case errors.Is(err, ErrBadName):
			return UDPBan{}, true, Errorf(Refused, "%w: %w", ErrBadUDPBan, err)
		case err != nil:
			return UDPBan{}, true, Errorf(Refused, "%w: %s is reserved, no Mäxchen bot may register it", ErrBadUDPBan, words.Echo(name))
		}
		return UDPBan{Name: name}, true, nil
	}
	a, found := strings.CutPrefix(s, ident.UDPAddrPrefix)
	if !found {
		return UDPBan{}, false, nil
	}
	if strings.Contains(a, "/") {
		p, err := netip.ParsePrefix(a)
		if err != nil || p.Addr().Is4In6() {
			return UDPBan{}, true, Errorf(Refused, "%w: %q is not a network such as udp:203.0.113.0/24", ErrBadUDPBan, words.Echo(a))
		}
		return UDPBan{Net: p.Masked()}, true, nil
	}
	ip, err := netip.ParseAddr(a)
	if err != nil || ip.Zone() != "" {
		return UDPBan{}, true, Errorf(Refused, "%w: %q is not an address such as udp:203.0.113.7", ErrBadUDPBan, words.Echo(a))
	}
	ip = ip.Unmap()
	return UDPBan{Net: netip.PrefixFrom(ip, ip.BitLen())}, true, nil
}

// Target is what the ban names, as the store keeps it: the bot's person
// id "maexchen:NAME", or "udp:203.0.113.7" or "udp:203.0.113.0/24".
func (b UDPBan) Target() string {
	if b.Name != "" {
		return ident.UDPBotPrefix + b.Name
	}
	return ident.UDPAddrPrefix + b.Addresses()
}

// Addresses is an address ban's addresses, as its target has them after
// "udp:": "203.0.113.7" or "203.0.113.0/24"; "" for a ban of a name.
func (b UDPBan) Addresses() string {
	switch {
	case b.Name != "" || !b.Net.IsValid():
		return ""
	case b.Net.IsSingleIP():
		return b.Net.Addr().String()
	}
	return b.Net.String()
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
// addr. A ban of a bot covers every name that looks like its (Alike): no
// bot comes back as "U1" or "u1" once "u1" is banned.
func (b UDPBan) Covers(name string, addr netip.Addr) bool {
	if b.Name != "" {
		return Alike(b.Name, name)
	}
	return b.Net.IsValid() && b.Net.Contains(addr.Unmap())
}
