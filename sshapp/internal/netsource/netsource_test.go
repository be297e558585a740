package netsource

import (
	"errors"
	"net/netip"
	"testing"
)

func TestOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
	}
	for _, tt := range tests {
		if got := Name(Of(netip.MustParseAddr(tt.in))); got != tt.want {
			t.Errorf("Of(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		bad     bool
		in4, no []string
	}{
		{in: "", want: ""},
		{in: " , ", want: ""},
		{in: "127.0.0.2", want: "127.0.0.2", in4: []string{"127.0.0.2", "::ffff:127.0.0.2"}, no: []string{"127.0.0.3"}},
		{in: "10.1.2.3/8, 192.0.2.0/24", want: "10.0.0.0/8,192.0.2.0/24", in4: []string{"10.200.0.1", "192.0.2.255"}, no: []string{"192.0.3.1", "11.0.0.1"}},
		{in: "2001:db8::/32,::1", want: "2001:db8::/32,::1", in4: []string{"2001:db8:ffff::1", "::1"}, no: []string{"2001:db9::1", "127.0.0.1"}},
		{in: "::ffff:192.0.2.7", want: "192.0.2.7", in4: []string{"192.0.2.7"}},
		{in: "10.0.0.0/33", bad: true},
		{in: "mia.example.org", bad: true},
		{in: "10.0.0.1,nope", bad: true},
		{in: "fe80::1%eth0", bad: true},
		{in: "::ffff:10.0.0.0/104", bad: true},
	}
	for _, tt := range tests {
		l, err := ParseList(tt.in)
		if tt.bad {
			if !errors.Is(err, ErrBadList) {
				t.Errorf("ParseList(%q) = %v, %v; want ErrBadList", tt.in, l, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseList(%q): %v", tt.in, err)
			continue
		}
		if got := l.String(); got != tt.want {
			t.Errorf("ParseList(%q) = %q, want %q", tt.in, got, tt.want)
		}
		for _, a := range tt.in4 {
			if !l.Contains(netip.MustParseAddr(a)) {
				t.Errorf("%q does not contain %s", tt.in, a)
			}
		}
		for _, a := range tt.no {
			if l.Contains(netip.MustParseAddr(a)) {
				t.Errorf("%q contains %s", tt.in, a)
			}
		}
	}
}
