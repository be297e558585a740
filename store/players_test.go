package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// errAny stands for any error in a table of steps.
var errAny = errors.New("any error")

func TestPlayers(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const a, b = "SHA256:alice", "SHA256:bob"

	if _, err := s.Player(ctx, a); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown player: err = %v, want ErrNotFound", err)
	}
	if err := s.Touch(ctx, a, time.Now()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Touch unknown: err = %v, want ErrNotFound", err)
	}
	before := time.Now()
	p, err := s.SetName(ctx, a, "Alice", false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Fingerprint != a || p.Name != "Alice" || p.Bot || p.Created.Before(before.Add(-time.Second)) || p.LastSeen.IsZero() {
		t.Fatalf("SetName gave %+v", p)
	}

	steps := []struct {
		name    string
		fp, nm  string
		bot     bool
		wantErr error
	}{
		{"taken, other case", b, "ALICE", false, ErrNameTaken},
		{"empty", b, "", false, errAny},
		{"a NUL byte", b, "nul\x00", false, errAny},
		{"bob ok", b, "bob", true, nil},
		{"alice renames", a, "Alicia", false, nil},
		{"old name is free", b, "alice", true, nil},
		{"case change only", a, "ALICIA", false, nil},
		{"taken again", a, "Alice", false, ErrNameTaken},
	}
	for _, st := range steps {
		_, err := s.SetName(ctx, st.fp, st.nm, st.bot)
		if st.wantErr == errAny && err != nil {
			continue
		}
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil) != (err == nil) {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.wantErr)
		}
	}
	s = reopen(t, s)
	for _, c := range []struct{ name, fp, shown string }{
		{"alicia", a, "ALICIA"}, {"Alice", b, "alice"}, {"BOB", "", ""},
	} {
		p, err := s.PlayerByName(ctx, c.name)
		if c.fp == "" {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("PlayerByName(%q): err = %v, want ErrNotFound (bob renamed)", c.name, err)
			}
			continue
		}
		if err != nil || p.Fingerprint != c.fp || p.Name != c.shown {
			t.Errorf("PlayerByName(%q) = %+v, %v", c.name, p, err)
		}
	}
	pb, _ := s.Player(ctx, b)
	if !pb.Bot {
		t.Error("bob's bot flag lost")
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := s.Touch(ctx, a, at); err != nil {
		t.Fatal(err)
	}
	pa, _ := s.Player(ctx, a)
	if !pa.LastSeen.Equal(at) || !pa.Created.Equal(p.Created) {
		t.Errorf("after Touch: %+v", pa)
	}
}

// TestConcurrentNames: people naming themselves at once (their commits
// are batched) each get their own name, and a name wanted by many goes to
// exactly one of them.
func TestConcurrentNames(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const n = 24
	tests := []struct {
		name    string
		nameFor func(i int) string
		wantOK  int
	}{
		{"distinct names", func(i int) string { return fmt.Sprintf("p%d", i) }, n},
		{"one name wanted by all", func(int) string { return "Popular" }, 1},
	}
	for ti, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = s.SetName(ctx, fmt.Sprintf("SHA256:k%d-%d", ti, i), tt.nameFor(i), false)
				}()
			}
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, ErrNameTaken):
					t.Errorf("session %d: %v", i, err)
				}
			}
			if ok != tt.wantOK {
				t.Errorf("%d named, want %d", ok, tt.wantOK)
			}
			for i := range n {
				p, err := s.PlayerByName(ctx, tt.nameFor(i))
				if err != nil {
					t.Fatalf("%s: %v", tt.nameFor(i), err)
				}
				if errs[i] == nil && p.Fingerprint != fmt.Sprintf("SHA256:k%d-%d", ti, i) {
					t.Errorf("%s belongs to %s, not to the session told it has it", tt.nameFor(i), p.Fingerprint)
				}
			}
		})
	}
}
