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
		{"ban", func() error { return s.Ban(ctx, Ban{Fingerprint: "SHA256:x", Name: "x", By: "SHA256:admin", At: at}) }, nil},
		{"banned", func() error {
			b, err := s.Banned(ctx, "SHA256:x")
			if err == nil && (b.Name != "x" || b.By != "SHA256:admin" || !b.At.Equal(at)) {
				t.Errorf("ban = %+v", b)
			}
			return err
		}, nil},
		{"ban again", func() error { return s.Ban(ctx, Ban{Fingerprint: "SHA256:x"}) }, nil},
		{"ban another", func() error { return s.Ban(ctx, Ban{Fingerprint: "SHA256:y"}) }, nil},
		{"no fingerprint", func() error { return s.Ban(ctx, Ban{}) }, errors.New("any")},
		{"list", func() error {
			bs, err := s.Bans(ctx)
			if len(bs) != 2 || bs[0].Fingerprint != "SHA256:x" || bs[0].At.IsZero() {
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
