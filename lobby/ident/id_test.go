package ident

import "testing"

func TestKinds(t *testing.T) {
	cases := []struct {
		id      string
		keys    bool
		keyless string // "" when not key-less
	}{
		{PersonID(1), true, ""},
		{"p:42", true, ""},
		{"p:", false, ""},
		{"p:x", false, "x"}, // not a person's id: a key-less one of kind "p"
		{"SHA256:abc", false, ""},
		{"bot:hard:ada", false, "ada"},
		{"maexchen:deep-thought", false, "deep-thought"},
		{"gateway:maexchen", false, "maexchen"},
		{"alice", false, ""},
		{"bot:", false, ""},
		{UDPBotPrefix + "u1", false, "u1"},
		{UDPAddrPrefix + "203.0.113.7", false, ""}, // addresses, never a person
		{UDPAddrPrefix + "2001:db8::/64", false, ""},
	}
	for _, c := range cases {
		if got := HasKeys(c.id); got != c.keys {
			t.Errorf("HasKeys(%q) = %v", c.id, got)
		}
		name, ok := KeylessName(c.id)
		if ok != (c.keyless != "") || name != c.keyless {
			t.Errorf("KeylessName(%q) = %q, %v; want %q", c.id, name, ok, c.keyless)
		}
	}
	if PersonID(7) != "p:7" {
		t.Errorf("PersonID(7) = %q", PersonID(7))
	}
}

func TestWellFormedKey(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"SHA256:yHKbzhZyy8kipJD1t3fQjZicWC/3uMyh2Q/+04lqMT0", true},
		{"SHA256:unknown", false},
		{"SHA256:", false},
		{"SHA256:yHKbzhZyy8kipJD1t3fQjZicWC/3uMyh2Q/+04lqMT", false},   // 42
		{"SHA256:yHKbzhZyy8kipJD1t3fQjZicWC/3uMyh2Q/+04lqMT0=", false}, // padded
		{"SHA256:yHKbzhZyy8kipJD1t3fQjZicWC/3uMyh2Q/+04lqMT!", false},
		{"yHKbzhZyy8kipJD1t3fQjZicWC/3uMyh2Q/+04lqMT0", false},
		{"MD5:aa:bb", false},
	} {
		if got := WellFormedKey(c.s); got != c.want {
			t.Errorf("WellFormedKey(%q) = %t, want %t", c.s, got, c.want)
		}
	}
}
