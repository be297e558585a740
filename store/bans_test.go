package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBans(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	steps := []struct {
		name string
		do   func() error
		want error
	}{
		{"not banned", func() error { _, err := s.Banned(ctx, "SHA256:x"); return err }, ErrNotFound},
		{"ban", func() error { return s.Ban(ctx, Ban{Key: "SHA256:x", By: "SHA256:admin", At: at}) }, nil},
		{"banned", func() error {
			b, err := s.Banned(ctx, "SHA256:x")
			if err == nil && (b.Key != "SHA256:x" || b.By != "SHA256:admin" || !b.At.Equal(at)) {
				t.Errorf("ban = %+v", b)
			}
			return err
		}, nil},
		{"ban again", func() error { return s.Ban(ctx, Ban{Key: "SHA256:x"}) }, nil},
		{"ban another", func() error { return s.Ban(ctx, Ban{Key: "SHA256:y"}) }, nil},
		{"neither person nor key", func() error { return s.Ban(ctx, Ban{}) }, errors.New("any")},
		{"both", func() error { return s.Ban(ctx, Ban{Key: "SHA256:z", Person: "p:9"}) }, errors.New("any")},
		{"list", func() error {
			bs, err := s.Bans(ctx)
			if len(bs) != 2 || bs[0].Key != "SHA256:x" || bs[0].At.IsZero() {
				t.Errorf("bans = %+v", bs)
			}
			return err
		}, nil},
		{"unban", func() error { return s.Unban(ctx, "SHA256:x") }, nil},
		{"unban again", func() error { return s.Unban(ctx, "SHA256:x") }, ErrNotFound},
		{"gone", func() error { _, err := s.Banned(ctx, "SHA256:x"); return err }, ErrNotFound},
		{"the other stays", func() error { _, err := s.Banned(ctx, "SHA256:y"); return err }, nil},
	}
	for _, st := range steps {
		err := st.do()
		switch {
		case st.want == nil && err != nil:
			t.Fatalf("%s: %v", st.name, err)
		case st.want != nil && err == nil:
			t.Fatalf("%s: no error", st.name)
		case st.want != nil && st.want.Error() != "any" && !errors.Is(err, st.want):
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.want)
		}
	}
	s = reopen(t, s)
	if _, err := s.Banned(ctx, "SHA256:y"); err != nil {
		t.Errorf("ban lost on reopen: %v", err)
	}
}

// TestPersonBan: a ban of a person keeps every key of theirs off, a key
// added later too; a key removed from them is a stranger, not banned.
func TestPersonBan(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Now()
	p, err := s.SetName(ctx, "SHA256:m1", "mallory")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddKeyCode(ctx, p.ID, "c", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinKey(ctx, "c", "SHA256:m2", now); err != nil {
		t.Fatal(err)
	}
	if err := s.Ban(ctx, Ban{Person: p.ID, By: "SHA256:admin"}); err != nil {
		t.Fatal(err)
	}
	for _, fp := range []string{"SHA256:m1", "SHA256:m2"} {
		if b, err := s.Banned(ctx, fp); err != nil || b.Person != p.ID {
			t.Errorf("Banned(%s) = %+v, %v", fp, b, err)
		}
	}
	if _, err := s.RemoveKey(ctx, p.ID, "SHA256:m2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Banned(ctx, "SHA256:m2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a key removed from a banned person: %v", err)
	}
	if _, err := s.BanOf(ctx, p.ID); err != nil {
		t.Errorf("BanOf: %v", err)
	}
	if err := s.Unban(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Banned(ctx, "SHA256:m1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after unban: %v", err)
	}
}

// TestUDPBans: a ban of UDP addresses is a kind of its own, kept by its
// target "udp:…" beside the bans of people and keys; a Mäxchen bot's ban
// is a ban of the person it is.
func TestUDPBans(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, b := range []Ban{{UDP: "203.0.113.0/24"}, {UDP: "2001:db8::1"}, {Person: "maexchen:u1"}} {
		if err := s.Ban(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Ban(ctx, Ban{UDP: "203.0.113.7", Key: "SHA256:k"}); err == nil {
		t.Error("a ban of addresses and a key at once was stored")
	}
	s = reopen(t, s)
	b, err := s.BanOf(ctx, "udp:203.0.113.0/24")
	if err != nil || b.UDP != "203.0.113.0/24" || b.Person != "" || b.Key != "" || b.Target() != "udp:203.0.113.0/24" {
		t.Errorf("the ban of a network: %+v, %v", b, err)
	}
	if b, err := s.BanOf(ctx, "maexchen:u1"); err != nil || b.Person != "maexchen:u1" {
		t.Errorf("the ban of a Mäxchen bot: %+v, %v", b, err)
	}
	all, err := s.Bans(ctx)
	if err != nil || len(all) != 3 {
		t.Fatalf("bans: %+v, %v", all, err)
	}
	if err := s.Unban(ctx, "udp:2001:db8::1"); err != nil {
		t.Error(err)
	}
	if _, err := s.Banned(ctx, "udp:203.0.113.0/24"); err != nil {
		t.Errorf("Banned by the target of addresses: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
