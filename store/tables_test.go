package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

func table(name string) TableRecord {
	return TableRecord{Name: name, Host: "SHA256:host", Rules: engine.DefaultOptions(), Seats: 4}
}

func TestTables(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()

	bad := []TableRecord{
		{Name: "", Rules: engine.DefaultOptions(), Seats: 4},
		{Name: "x", Rules: engine.DefaultOptions(), Seats: 1},
		{Name: "x", Rules: engine.DefaultOptions(), Seats: engine.MaxSeats + 1},
		{Name: "x", Rules: engine.Options{}, Seats: 4},
		{Name: "a\x00b", Rules: engine.DefaultOptions(), Seats: 4},
	}
	for _, tb := range bad {
		if err := s.CreateTable(ctx, tb); err == nil {
			t.Errorf("CreateTable(%+v) accepted", tb)
		}
	}
	for _, n := range []string{"zeta", "Alpha", "mid"} {
		if err := s.CreateTable(ctx, table(n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTable(ctx, table("ALPHA")); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate: err = %v, want ErrExists", err)
	}
	if _, err := s.Table(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Table(nope): err = %v", err)
	}
	tb, err := s.Table(ctx, "alpha")
	if err != nil || tb.Name != "Alpha" || tb.Seats != 4 || tb.Created.IsZero() || !tb.IsOpen() || tb.Rules != engine.DefaultOptions() {
		t.Fatalf("Table(alpha) = %+v, %v", tb, err)
	}

	// UpdateTable: fn's error aborts, renames are refused, changes stick.
	boom := errors.New("boom")
	if err := s.UpdateTable(ctx, "mid", func(t *TableRecord) error { t.Seats = 9; return boom }); !errors.Is(err, boom) {
		t.Fatalf("UpdateTable: err = %v, want boom", err)
	}
	if err := s.UpdateTable(ctx, "mid", func(t *TableRecord) error { t.Name = "other"; return nil }); err == nil {
		t.Fatal("rename accepted")
	}
	if err := s.UpdateTable(ctx, "nope", func(*TableRecord) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("UpdateTable(nope): err = %v", err)
	}
	if err := s.UpdateTable(ctx, "MID", func(t *TableRecord) error { t.Seats = 3; t.Private = true; return nil }); err != nil {
		t.Fatal(err)
	}
	closed := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := s.UpdateTable(ctx, "zeta", func(t *TableRecord) error { t.Closed = closed; return nil }); err != nil {
		t.Fatal(err)
	}

	s = reopen(t, s)
	open, err := s.OpenTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range open {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"Alpha", "mid"}) {
		t.Fatalf("OpenTables = %v", names)
	}
	if open[1].Seats != 3 || !open[1].Private {
		t.Errorf("mid = %+v", open[1])
	}
	z, err := s.Table(ctx, "zeta")
	if err != nil || !z.Closed.Equal(closed) {
		t.Fatalf("closed zeta = %+v, %v", z, err)
	}
	// A closed table's name can be used again.
	if err := s.CreateTable(ctx, table("Zeta")); err != nil {
		t.Fatalf("re-create closed table: %v", err)
	}
	if z, _ := s.Table(ctx, "zeta"); !z.IsOpen() || z.Name != "Zeta" {
		t.Errorf("re-created = %+v", z)
	}
}

func TestInvites(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	priv := table("club")
	priv.Private = true
	if err := s.CreateTable(ctx, priv); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, table("other")); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	later := now.Add(time.Hour)
	for _, code := range []string{"c1", "c2", "c3", "c4"} {
		if err := s.AddInvite(ctx, "club", code, later); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddInvite(ctx, "nope", "c", later); !errors.Is(err, ErrNotFound) {
		t.Fatalf("AddInvite(nope): err = %v", err)
	}
	// Only hashes are stored.
	if err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketInvites).ForEach(func(k, v []byte) error {
			if slices.Contains([]string{"c1", "c2", "c3", "c4"}, string(k[len(k)-2:])) {
				t.Errorf("invite key %q holds a code", k)
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)

	steps := []struct {
		name        string
		table, code string
		fp          string
		at          time.Time
		want        error
	}{
		{"good", "CLUB", "c1", "SHA256:x", now, nil},
		{"used", "club", "c1", "SHA256:y", now, ErrBadInvite},
		{"unknown", "club", "zz", "SHA256:y", now, ErrBadInvite},
		{"other table", "other", "c2", "SHA256:y", now, ErrBadInvite},
		{"no table", "nope", "c2", "SHA256:y", now, ErrNotFound},
		{"expired", "club", "c2", "SHA256:y", later, ErrBadInvite},
		{"expired is gone", "club", "c2", "SHA256:y", now, ErrBadInvite},
		{"second member", "club", "c3", "SHA256:y", now, nil},
	}
	for _, st := range steps {
		err := s.UseInvite(ctx, st.table, st.code, st.fp, st.at)
		if !errors.Is(err, st.want) || (st.want == nil) != (err == nil) {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.want)
		}
	}
	club, _ := s.Table(ctx, "club")
	if !slices.Equal(club.Members, []string{"SHA256:x", "SHA256:y"}) {
		t.Errorf("members = %v", club.Members)
	}
	// Closing voids the remaining invite.
	if err := s.UpdateTable(ctx, "club", func(t *TableRecord) error { t.Closed = time.Now(); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.UseInvite(ctx, "club", "c4", "SHA256:z", now); !errors.Is(err, ErrBadInvite) {
		t.Fatalf("invite of a closed table: err = %v", err)
	}
	n := 0
	_ = s.db.View(func(tx *bolt.Tx) error { n = tx.Bucket(bucketInvites).Stats().KeyN; return nil })
	if n != 0 {
		t.Errorf("%d invites left after close", n)
	}
}
