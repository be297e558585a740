package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// TestAlertsKeep: a table's hooks, the watches and the invitations are
// kept for open tables only, capped as asked, listed as asked, dropped
// when the table closes, moved when a person merges into another, and
// Check finds each out of place.
func TestAlertsKeep(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	alice, err := s.SetName(ctx, "SHA256:alice", "alice")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := s.SetName(ctx, "SHA256:bob", "bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Den", "Club", "Pub"} {
		if err := s.CreateTable(ctx, TableRecord{Name: name, Host: alice.ID, Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
			t.Fatal(err)
		}
	}

	// Hooks: one per URL, listed under the table's name.
	for _, h := range []Hook{
		{URL: "https://a.example/1", Format: "json", Secret: "s1", By: alice.ID, Created: now},
		{URL: "https://a.example/2", Format: "slack", Secret: "s2", By: alice.ID, Created: now},
		{URL: "https://a.example/1", Format: "ntfy", Secret: "s3", By: alice.ID, Created: now},
	} {
		if err := s.SetHook(ctx, "den", h); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetHook(ctx, "none", Hook{URL: "https://x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a hook of no open table: %v", err)
	}
	hs, err := s.Hooks(ctx)
	if err != nil || len(hs) != 2 || hs[0].Table != "Den" || hs[0].Format != "ntfy" || hs[1].Secret != "s2" {
		t.Fatalf("hooks %+v %v", hs, err)
	}
	if err := s.RemoveHook(ctx, "DEN", "https://a.example/2"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveHook(ctx, "den", "https://a.example/2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removed twice: %v", err)
	}

	// Watches: capped per person; by person and by table.
	for _, table := range []string{"den", "club"} {
		if err := s.AddWatch(ctx, bob.ID, table, now, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddWatch(ctx, bob.ID, "den", now, 2); err != nil {
		t.Fatalf("watching again: %v", err)
	}
	if err := s.AddWatch(ctx, bob.ID, "pub", now, 2); !errors.Is(err, ErrTooMany) {
		t.Fatalf("a third watch with a cap of 2: %v", err)
	}
	if err := s.AddWatch(ctx, bob.ID, "none", now, 2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("watching no open table: %v", err)
	}
	if ws, err := s.WatchesOf(ctx, bob.ID); err != nil || !slices.Equal(ws, []string{"Club", "Den"}) {
		t.Fatalf("bob watches %v %v", ws, err)
	}
	if err := s.AddWatch(ctx, alice.ID, "club", now, 2); err != nil {
		t.Fatal(err)
	}
	if ws, err := s.Watchers(ctx, "CLUB"); err != nil || len(ws) != 2 {
		t.Fatalf("watchers of club %v %v", ws, err)
	}

	// Invitations: one per table, the oldest go past the cap, the expired
	// are not listed.
	for i, table := range []string{"den", "club", "pub"} {
		inv := Invitation{Table: table, Person: bob.ID, By: alice.ID, Code: fmt.Sprint("code", i),
			At: now.Add(time.Duration(i) * time.Minute), Expires: now.Add(time.Hour)}
		if err := s.AddInvitation(ctx, inv, 2); err != nil {
			t.Fatal(err)
		}
	}
	invs, err := s.InvitationsOf(ctx, bob.ID, now)
	if err != nil || len(invs) != 2 || invs[0].Table != "Pub" || invs[1].Table != "Club" || invs[0].Code != "code2" {
		t.Fatalf("invitations %+v %v", invs, err)
	}
	if invs, _ := s.InvitationsOf(ctx, bob.ID, now.Add(time.Hour)); len(invs) != 0 {
		t.Fatalf("expired invitations listed: %+v", invs)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}

	// A merge moves bob's to alice, who keeps her own watch of club.
	if err := s.db.Update(func(tx *bolt.Tx) error { return mergeKept(tx, bob.ID, alice.ID) }); err != nil {
		t.Fatal(err)
	}
	if ws, _ := s.WatchesOf(ctx, alice.ID); !slices.Equal(ws, []string{"Club", "Den"}) {
		t.Fatalf("after the merge alice watches %v", ws)
	}
	if ws, _ := s.WatchesOf(ctx, bob.ID); len(ws) != 0 {
		t.Fatalf("after the merge bob watches %v", ws)
	}
	if invs, _ := s.InvitationsOf(ctx, alice.ID, now); len(invs) != 2 {
		t.Fatalf("after the merge alice holds %+v", invs)
	}

	// Closing den drops its hooks, watches and invitations.
	if err := s.UpdateTable(ctx, "den", func(tb *TableRecord) error { tb.Closed = tb.Created.Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	if hs, _ := s.Hooks(ctx); len(hs) != 0 {
		t.Fatalf("hooks of a closed table: %+v", hs)
	}
	if ws, _ := s.WatchesOf(ctx, alice.ID); !slices.Equal(ws, []string{"Club"}) {
		t.Fatalf("watches after den closed: %v", ws)
	}
	if err := s.RemoveInvitation(ctx, alice.ID, "pub"); err != nil {
		t.Fatal(err)
	}
	if invs, _ := s.InvitationsOf(ctx, alice.ID, now); len(invs) != 1 || invs[0].Table != "Club" {
		t.Fatalf("invitations left %+v", invs)
	}
	if err := s.RemoveWatch(ctx, alice.ID, "club"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveWatch(ctx, alice.ID, "club"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unwatched twice: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}

	// What a damaged file could hold, found.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketHooks).Put(hookKey("gone", "https://x"), []byte(`{}`)); err != nil {
			return err
		}
		bt, _ := pairKeys("club", "p:404")
		return tx.Bucket(bucketWatches).Put(bt, []byte(`"2026-11-21T12:00:00Z"`))
	}); err != nil {
		t.Fatal(err)
	}
	err = s.Check(ctx)
	for _, want := range []string{`hook "gone`, `watches of "p:404" at "club": kept under one key`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check finds no %s: %v", want, err)
		}
	}
}

// TestAlertsBucketsMadeOnOpen: a file without the alerts' buckets (an
// older server's) gets them when it opens, at the same schema.
func TestAlertsBucketsMadeOnOpen(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range alertBuckets {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ws, err := s.WatchesOf(context.Background(), "p:1"); err != nil || len(ws) != 0 {
		t.Fatalf("watches %v %v", ws, err)
	}
}
