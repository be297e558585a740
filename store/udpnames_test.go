package store

import (
	"context"
	"errors"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestUDPNames(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	if _, err := s.HeldUDPName(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a name never held: %v", err)
	}
	if err := s.HoldUDPNames(ctx, UDPName{Name: "u1", Addr: "127.0.0.30", Heard: at}, UDPName{Name: "U1", Addr: "::1", Heard: at}); err != nil {
		t.Fatal(err)
	}
	if err := s.HoldUDPNames(ctx, UDPName{Addr: "127.0.0.1"}); err == nil {
		t.Error("a hold without a name was stored")
	}
	later := at.Add(time.Hour)
	if err := s.HoldUDPNames(ctx, UDPName{Name: "u1", Addr: "127.0.0.31", Heard: later}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	n, err := s.HeldUDPName(ctx, "u1")
	if err != nil || n.Addr != "127.0.0.31" || !n.Heard.Equal(later) || n.Heard.Location() != time.UTC {
		t.Errorf("u1 = %+v, %v", n, err)
	}
	all, err := s.HeldUDPNames(ctx)
	if err != nil || len(all) != 2 || all[0].Name != "U1" || all[1].Name != "u1" {
		t.Errorf("every hold: %+v, %v", all, err)
	}
	if err := s.FreeUDPName(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if err := s.FreeUDPName(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("freed twice: %v", err)
	}
	if _, err := s.HeldUDPName(ctx, "U1"); err != nil {
		t.Errorf("another case is another name: %v", err)
	}
}

// A file written before the udp_names bucket existed opens, gains it, and
// keeps what it had.
func TestUDPNamesAddedToAnOlderFile(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Ban(ctx, Ban{Fingerprint: "maexchen:u1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketUDPNames) }); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if _, err := s.HeldUDPName(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a name in the new bucket: %v", err)
	}
	if err := s.HoldUDPNames(ctx, UDPName{Name: "u1", Addr: "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Banned(ctx, "maexchen:u1"); err != nil {
		t.Errorf("the ban of the older file: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
