package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestNamesKeptFromBefore: a file of schema 3, whose names were keyed by
// the older skeleton (separators and the digits for letters made names
// distinct), holds root, root_, R.o.o.t, admin and ada_bot, and the
// Mäxchen bots' names root- (a person's look now), zed and z.e.d (one
// look now) and quux. Once opened, every person keeps their name and is
// found by it; no one new may take the look of any of them; the bots'
// name that looks like a person's ends, and of the two alike the one
// heard last stays. Check is clean, and a reopen changes nothing.
func TestNamesKeptFromBefore(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	people := []struct{ key, name string }{
		{"SHA256:root", "root"}, {"SHA256:root_", "root_"}, {"SHA256:dots", "R.o.o.t"},
		{"SHA256:admin", "admin"}, {"SHA256:adabot", "ada_bot"},
	}
	ids := map[string]string{}
	for i, p := range people {
		got, err := s.SetName(ctx, p.key, "setup"+string(rune('a'+i))) // named as schema 3 had it below
		if err != nil {
			t.Fatal(err)
		}
		ids[p.name] = got.ID
	}
	heard := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	bots := []UDPName{
		{Name: "root-", Addr: "203.0.113.1", Heard: heard, Held: true},
		{Name: "zed", Addr: "203.0.113.2", Heard: heard, Held: true},
		{Name: "z.e.d", Addr: "203.0.113.3", Heard: heard.Add(time.Minute), Held: true},
		{Name: "quux", Addr: "203.0.113.4", Heard: heard, Held: true},
	}
	// Write the file as schema 3 had it: names keyed by the older
	// skeleton (for these names, the lower-cased name), no stamp.
	err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketNames); err != nil {
			return err
		}
		names, err := tx.CreateBucket(bucketNames)
		if err != nil {
			return err
		}
		for i, p := range people {
			created := heard.Add(time.Duration(i) * time.Hour)
			v, err := json.Marshal(Person{ID: ids[p.name], Name: p.name, Created: created,
				Keys: []Key{{Fingerprint: p.key, Added: created, LastSeen: created}}})
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketPeople).Put([]byte(ids[p.name]), v); err != nil {
				return err
			}
			if err := names.Put([]byte(strings.ToLower(p.name)), []byte(ids[p.name])); err != nil {
				return err
			}
		}
		for _, n := range bots {
			v, err := encodeUDPName(n)
			if err != nil {
				return err
			}
			if err := tx.Bucket(bucketUDPNames).Put([]byte(n.Name), v); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		if err := meta.Delete(keyNames); err != nil {
			return err
		}
		return meta.Put(keySchema, u64(3))
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}

	// Everyone keeps their name, found by it as spelled, then but for
	// case, then the oldest of the look.
	for name, want := range map[string]string{
		"root": "root", "root_": "root_", "R.o.o.t": "R.o.o.t", "ROOT_": "root_", "r00t": "root",
		"admin": "admin", "ada_bot": "ada_bot", "ADA.BOT": "ada_bot",
	} {
		p, err := s.PersonByName(ctx, name)
		if err != nil || p.Name != want || p.ID != ids[want] {
			t.Errorf("PersonByName(%q) = %s %q, %v; want %s %q", name, p.ID, p.Name, err, ids[want], want)
		}
	}
	// No one new takes a look held, though its holders keep theirs.
	for _, name := range []string{"root.", "_root", "R00T", "Admin", "adabot", "ada-bot"} {
		if _, err := s.SetName(ctx, "SHA256:newcomer", name); !errors.Is(err, ErrNameTaken) {
			t.Errorf("a newcomer named %s: %v, want ErrNameTaken", name, err)
		}
	}
	if _, err := s.SetName(ctx, "SHA256:root_", "root_"); err != nil {
		t.Errorf("root_ sets their own name again: %v", err)
	}
	if _, err := s.SetName(ctx, "SHA256:root_", "ROOT_"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("root_ takes another spelling of a look others hold: %v", err)
	}
	if p, err := s.SetName(ctx, "SHA256:root_", "rootbeer"); err != nil || p.ID != ids["root_"] {
		t.Fatalf("root_ renames: %+v, %v", p, err)
	}
	if _, err := s.SetName(ctx, "SHA256:newcomer", "root."); !errors.Is(err, ErrNameTaken) {
		t.Errorf("the look of root after root_ left it: %v", err)
	}
	if p, err := s.PersonByName(ctx, "root_"); err != nil || p.Name != "root" {
		t.Errorf("root_ after the rename finds %q, %v; want root", p.Name, err)
	}

	// The bots' names: keyed by their look; root- ended, z.e.d stayed.
	held, err := s.HeldUDPNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range held {
		got = append(got, n.Name)
	}
	if strings.Join(got, " ") != "quux z.e.d" {
		t.Errorf("the bots' names held: %v, want quux z.e.d", got)
	}
	if n, err := s.HeldUDPName(ctx, "Z_E_D"); err != nil || n.Name != "z.e.d" {
		t.Errorf("HeldUDPName(Z_E_D) = %+v, %v", n, err)
	}
	if _, err := s.SetName(ctx, "SHA256:newcomer", "qu.ux"); !errors.Is(err, ErrNameHeld) {
		t.Errorf("a person named like a bot's held name: %v", err)
	}

	var before map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { before = dumpBuckets(tx); return nil })
	s = reopen(t, s)
	var after map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { after = dumpBuckets(tx); return nil })
	if len(before["names"]) != len(people) || !reflect.DeepEqual(before, after) {
		t.Errorf("the reopen changed the file, or the names are not %d: %q", len(people), before["names"])
	}
}
