package lobby

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParseUDPBan(t *testing.T) {
	tests := []struct {
		in        string
		ok, bad   bool
		target    string
		words     string
		covers    [][2]string // name, address
		coversNot [][2]string
	}{
		{in: "ada", ok: false},
		{in: "SHA256:abc", ok: false},
		{in: "maexchen:u1", ok: true, target: "maexchen:u1", words: "the Mäxchen bot u1",
			covers: [][2]string{{"u1", "192.0.2.1"}, {"U1", "192.0.2.1"}, {"ul", "192.0.2.1"}}, coversNot: [][2]string{{"u2", "192.0.2.1"}, {"u1x", "192.0.2.1"}}},
		{in: "maexchen:" + strings.Repeat("y", MaxUDPNameLen), ok: true, target: "maexchen:" + strings.Repeat("y", MaxUDPNameLen)},
		{in: "udp:127.0.0.30", ok: true, target: "udp:127.0.0.30", words: "the UDP address 127.0.0.30",
			covers: [][2]string{{"any", "127.0.0.30"}, {"any", "::ffff:127.0.0.30"}}, coversNot: [][2]string{{"any", "127.0.0.31"}}},
		{in: "udp:10.9.8.7/8", ok: true, target: "udp:10.0.0.0/8", words: "the UDP addresses 10.0.0.0/8",
			covers: [][2]string{{"x", "10.200.1.1"}}, coversNot: [][2]string{{"x", "11.0.0.1"}}},
		{in: "udp:2001:db8::1", ok: true, target: "udp:2001:db8::1", words: "the UDP address 2001:db8::1",
			covers: [][2]string{{"x", "2001:db8::1"}}, coversNot: [][2]string{{"x", "2001:db8::2"}}},
		{in: "udp:2001:db8:1:2::/64", ok: true, target: "udp:2001:db8:1:2::/64", covers: [][2]string{{"x", "2001:db8:1:2:ffff::9"}}},
		{in: "maexchen:", ok: true, bad: true},
		{in: "maexchen:a b", ok: true, bad: true},
		{in: "maexchen:red\x1b[31m", ok: true, bad: true},
		// The gateway's own name rule: what it would never register.
		{in: "maexchen:" + strings.Repeat("y", MaxUDPNameLen+1), ok: true, bad: true},
		{in: "maexchen:-u1", ok: true, bad: true},
		{in: "maexchen:\u0430da", ok: true, bad: true},
		{in: "maexchen:a:b", ok: true, bad: true},
		{in: "maexchen:ada2", ok: true, bad: true},
		{in: "maexchen:MAEXCHEN", ok: true, bad: true},
		{in: "p:7", ok: false},
		{in: "bot:hard:ada", ok: false},
		{in: "udp:", ok: true, bad: true},
		{in: "udp:example.org", ok: true, bad: true},
		{in: "udp:10.0.0.0/33", ok: true, bad: true},
		{in: "udp:fe80::1%eth0", ok: true, bad: true},
	}
	for _, tt := range tests {
		b, ok, err := ParseUDPBan(tt.in)
		if ok != tt.ok {
			t.Errorf("%q: ok = %v", tt.in, ok)
			continue
		}
		if tt.bad {
			if !errors.Is(err, ErrBadUDPBan) {
				t.Errorf("%q: err = %v, want ErrBadUDPBan", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if !ok {
			continue
		}
		if b.Target() != tt.target {
			t.Errorf("%q: target %q, want %q", tt.in, b.Target(), tt.target)
		}
		if tt.words != "" && b.String() != tt.words {
			t.Errorf("%q: %q, want %q", tt.in, b.String(), tt.words)
		}
		if again, _, _ := ParseUDPBan(b.Target()); again != b {
			t.Errorf("%q: its target reads back as %+v", tt.in, again)
		}
		for _, c := range tt.covers {
			if !b.Covers(c[0], netip.MustParseAddr(c[1])) {
				t.Errorf("%q does not cover %v", tt.in, c)
			}
		}
		for _, c := range tt.coversNot {
			if b.Covers(c[0], netip.MustParseAddr(c[1])) {
				t.Errorf("%q covers %v", tt.in, c)
			}
		}
	}
}

// TestParseUDPBanNameRule: a ban of a Mäxchen name reads the name by the
// one name rule, with its kinds: the gateway's length, the dash, the
// characters.
func TestParseUDPBanNameRule(t *testing.T) {
	for in, kind := range map[string]error{
		"maexchen:" + strings.Repeat("y", MaxUDPNameLen+1): ErrNameLong,
		"maexchen:-u1": ErrNameDash,
		"maexchen:a b": ErrNameChars,
		"maexchen:":    ErrNameChars,
		"maexchen:bоb": ErrNameChars, // a Cyrillic о
	} {
		_, ok, err := ParseUDPBan(in)
		if !ok || !errors.Is(err, ErrBadUDPBan) || !errors.Is(err, kind) {
			t.Errorf("%q: ok %v, err %v; want %v", in, ok, err, kind)
		}
	}
}
