package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/lobby/ident"
)

// What the alerts keep (sshapp/alerts): a table's own webhooks, the
// tables a person asked to be told about, and the invitations sent to a
// person. Each belongs to an open table: closing it, or opening a new
// table of its name, drops them (dropKept). Their buckets are made when a
// file opens, if missing, as a file an older server wrote has none: no
// change of schema.
//
//	hooks       lower(table) 0x00 url -> Hook (JSON)
//	watches     "t" lower(table) 0x00 person -> time asked (JSON), and
//	            "p" person 0x00 lower(table) -> "" (the same, by person)
//	invitations "t" lower(table) 0x00 person -> Invitation (JSON), and
//	            "p" person 0x00 lower(table) -> ""

var (
	bucketHooks       = []byte("hooks")
	bucketWatches     = []byte("watches")
	bucketInvitations = []byte("invitations")

	alertBuckets = [][]byte{bucketHooks, bucketWatches, bucketInvitations}
)

// ErrTooMany: a person holds as many of a thing as they may (watches).
var ErrTooMany = errors.New("too many")

// ensureAlerts makes the alerts' buckets of a file that has none.
func (s *Store) ensureAlerts() error {
	missing := false
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, b := range alertBuckets {
			missing = missing || tx.Bucket(b) == nil
		}
		return nil
	})
	if err != nil || !missing {
		return err
	}
	return s.update(context.Background(), func(tx *bolt.Tx) error {
		for _, b := range alertBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("create bucket %s: %w", b, err)
			}
		}
		return nil
	})
}

// Hook is a table's own webhook: where to (URL), in which format, the
// secret its deliveries are signed with, who set it and when.
type Hook struct {
	Table   string    `json:"-"` // the table's name, as its record has it
	URL     string    `json:"url"`
	Format  string    `json:"format"`
	Secret  string    `json:"secret"`
	By      string    `json:"by"` // person id
	Created time.Time `json:"created"`
}

// hookKey is lower(table) 0x00 url.
func hookKey(table, url string) []byte { return append(pairPrefix("", fold(table)), url...) }

// SetHook keeps a webhook of an open table (in place of one to the same
// URL). ErrNotFound if the table is not open.
func (s *Store) SetHook(ctx context.Context, table string, h Hook) error {
	if err := ctxErr(ctx, "set hook"); err != nil {
		return err
	}
	if err := noNUL("hook url", h.URL); err != nil {
		return fmt.Errorf("set hook of %s: %w", table, err)
	}
	h.Created = h.Created.UTC()
	v, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("set hook of %s: %w", table, err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := openTable(tx, table); err != nil {
			return err
		}
		return tx.Bucket(bucketHooks).Put(hookKey(table, h.URL), v)
	})
	if err != nil {
		return fmt.Errorf("set hook of %s: %w", table, err)
	}
	return nil
}

// RemoveHook drops a table's webhook to url (every one of the table's
// when url is ""). ErrNotFound if there is none.
func (s *Store) RemoveHook(ctx context.Context, table, url string) error {
	if err := ctxErr(ctx, "remove hook"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		n, err := deletePrefix(tx.Bucket(bucketHooks), hookKey(table, url), url != "")
		if err == nil && n == 0 {
			return ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("remove hook of %s: %w", table, err)
	}
	return nil
}

// Hooks lists every open table's webhooks, by table.
func (s *Store) Hooks(ctx context.Context) ([]Hook, error) {
	if err := ctxErr(ctx, "hooks"); err != nil {
		return nil, err
	}
	var out []Hook
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketHooks).ForEach(func(k, v []byte) error {
			var h Hook
			if err := json.Unmarshal(v, &h); err != nil {
				return fmt.Errorf("decode hook %q: %w", k, err)
			}
			name, _, _ := bytes.Cut(k, []byte{0})
			t, err := openTable(tx, string(name))
			if err != nil {
				return nil // its table closed meanwhile: left for dropKept
			}
			h.Table = t.Name
			out = append(out, h)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	return out, nil
}

// pairPrefix is kind lower(table) 0x00, or kind person 0x00.
func pairPrefix(kind, first string) []byte {
	b := make([]byte, 0, len(kind)+len(first)+1)
	return append(append(append(b, kind...), first...), 0)
}

// deletePrefix deletes the key k (exact) or every key under the prefix k,
// and returns how many it deleted.
func deletePrefix(b *bolt.Bucket, k []byte, exact bool) (int, error) {
	if exact {
		if b.Get(k) == nil {
			return 0, nil
		}
		return 1, b.Delete(k)
	}
	var keys [][]byte
	c := b.Cursor()
	for key, _ := c.Seek(k); key != nil && bytes.HasPrefix(key, k); key, _ = c.Next() {
		keys = append(keys, clone(key))
	}
	for _, key := range keys {
		if err := b.Delete(key); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// A pair is a person's record at a table, kept under both: "t" table
// person -> value, "p" person table -> "". Watches and invitations are
// pairs.

func pairKeys(table, person string) (byTable, byPerson []byte) {
	return append(pairPrefix("t", fold(table)), person...), append(pairPrefix("p", person), fold(table)...)
}

func putPair(b *bolt.Bucket, table, person string, v []byte) error {
	bt, bp := pairKeys(table, person)
	if err := b.Put(bt, v); err != nil {
		return err
	}
	return b.Put(bp, nil)
}

func deletePair(b *bolt.Bucket, table, person string) (bool, error) {
	bt, bp := pairKeys(table, person)
	if b.Get(bt) == nil {
		return false, nil
	}
	if err := b.Delete(bt); err != nil {
		return false, err
	}
	return true, b.Delete(bp)
}

// pairsOf walks a person's pairs: each table (lower case) and its value.
func pairsOf(b *bolt.Bucket, person string, fn func(table string, v []byte) error) error {
	prefix := pairPrefix("p", person)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		table := string(k[len(prefix):])
		bt, _ := pairKeys(table, person)
		if err := fn(table, b.Get(bt)); err != nil {
			return err
		}
	}
	return nil
}

// peopleAt walks the people with a pair at a table, and their values.
func peopleAt(b *bolt.Bucket, table string, fn func(person string, v []byte) error) error {
	prefix := pairPrefix("t", fold(table))
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(string(k[len(prefix):]), v); err != nil {
			return err
		}
	}
	return nil
}

// dropPairs drops every pair of a table.
func dropPairs(b *bolt.Bucket, table string) error {
	var people []string
	if err := peopleAt(b, table, func(p string, _ []byte) error { people = append(people, p); return nil }); err != nil {
		return err
	}
	for _, p := range people {
		if _, err := deletePair(b, table, p); err != nil {
			return err
		}
	}
	return nil
}

// AddWatch keeps that person asked to be told when the open table has a
// seat free; ErrTooMany if they watch max tables already (max < 1: no
// cap), ErrNotFound if the table is not open. Watching it again changes
// nothing.
func (s *Store) AddWatch(ctx context.Context, person, table string, at time.Time, max int) error {
	if err := ctxErr(ctx, "add watch"); err != nil {
		return err
	}
	v, err := json.Marshal(at.UTC())
	if err != nil {
		return fmt.Errorf("watch %s: %w", table, err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := openTable(tx, table); err != nil {
			return err
		}
		b := tx.Bucket(bucketWatches)
		bt, _ := pairKeys(table, person)
		if b.Get(bt) != nil {
			return nil
		}
		n := 0
		if err := pairsOf(b, person, func(string, []byte) error { n++; return nil }); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return ErrTooMany
		}
		return putPair(b, table, person, v)
	})
	if err != nil {
		return fmt.Errorf("watch %s: %w", table, err)
	}
	return nil
}

// RemoveWatch forgets that person watches the table; ErrNotFound if they
// do not.
func (s *Store) RemoveWatch(ctx context.Context, person, table string) error {
	if err := ctxErr(ctx, "remove watch"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		ok, err := deletePair(tx.Bucket(bucketWatches), table, person)
		if err == nil && !ok {
			return ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("unwatch %s: %w", table, err)
	}
	return nil
}

// WatchesOf lists the open tables the person watches, by their names,
// in order of their lower-case names.
func (s *Store) WatchesOf(ctx context.Context, person string) ([]string, error) {
	if err := ctxErr(ctx, "watches"); err != nil {
		return nil, err
	}
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return pairsOf(tx.Bucket(bucketWatches), person, func(table string, _ []byte) error {
			if t, err := openTable(tx, table); err == nil {
				out = append(out, t.Name)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("watches of %s: %w", person, err)
	}
	return out, nil
}

// Watchers lists the people who watch the table, by person id.
func (s *Store) Watchers(ctx context.Context, table string) ([]string, error) {
	if err := ctxErr(ctx, "watchers"); err != nil {
		return nil, err
	}
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return peopleAt(tx.Bucket(bucketWatches), table, func(p string, _ []byte) error {
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("watchers of %s: %w", table, err)
	}
	return out, nil
}

// Invitation is an invite to a private table sent to a person: by whom,
// the code (join TABLE CODE) and when it stops working.
type Invitation struct {
	Table   string    `json:"-"` // the table's name, as its record has it
	Person  string    `json:"-"` // the person invited
	By      string    `json:"by"`
	Code    string    `json:"code"`
	At      time.Time `json:"at"`
	Expires time.Time `json:"expires"`
}

// AddInvitation keeps an invitation of a person to an open table, in
// place of an earlier one to that table; when they hold max already
// (max < 1: no cap), the oldest goes. ErrNotFound if the table is not
// open.
func (s *Store) AddInvitation(ctx context.Context, inv Invitation, max int) error {
	if err := ctxErr(ctx, "add invitation"); err != nil {
		return err
	}
	inv.At, inv.Expires = inv.At.UTC(), inv.Expires.UTC()
	v, err := json.Marshal(inv)
	if err != nil {
		return fmt.Errorf("invite to %s: %w", inv.Table, err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := openTable(tx, inv.Table); err != nil {
			return err
		}
		b := tx.Bucket(bucketInvitations)
		if _, err := deletePair(b, inv.Table, inv.Person); err != nil {
			return err
		}
		held, err := invitationsIn(b, inv.Person)
		if err != nil {
			return err
		}
		for i := 0; max > 0 && i <= len(held)-max; i++ { // the oldest first
			if _, err := deletePair(b, held[i].Table, inv.Person); err != nil {
				return err
			}
		}
		return putPair(b, inv.Table, inv.Person, v)
	})
	if err != nil {
		return fmt.Errorf("invite to %s: %w", inv.Table, err)
	}
	return nil
}

// invitationsIn is a person's invitations, the oldest first, each Table
// its lower-case name.
func invitationsIn(b *bolt.Bucket, person string) ([]Invitation, error) {
	var out []Invitation
	err := pairsOf(b, person, func(table string, v []byte) error {
		var inv Invitation
		if err := json.Unmarshal(v, &inv); err != nil {
			return fmt.Errorf("decode invitation to %q: %w", table, err)
		}
		inv.Table, inv.Person = table, person
		out = append(out, inv)
		return nil
	})
	slices.SortStableFunc(out, func(a, b Invitation) int { return a.At.Compare(b.At) })
	return out, err
}

// InvitationsOf lists a person's invitations to open tables that have not
// expired at now, the newest first.
func (s *Store) InvitationsOf(ctx context.Context, person string, now time.Time) ([]Invitation, error) {
	if err := ctxErr(ctx, "invitations"); err != nil {
		return nil, err
	}
	var out []Invitation
	err := s.db.View(func(tx *bolt.Tx) error {
		held, err := invitationsIn(tx.Bucket(bucketInvitations), person)
		if err != nil {
			return err
		}
		for i := len(held) - 1; i >= 0; i-- {
			t, err := openTable(tx, held[i].Table)
			if err != nil || !now.Before(held[i].Expires) {
				continue
			}
			held[i].Table = t.Name
			out = append(out, held[i])
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invitations of %s: %w", person, err)
	}
	return out, nil
}

// RemoveInvitation drops a person's invitation to a table (used, or
// turned down); ErrNotFound if there is none.
func (s *Store) RemoveInvitation(ctx context.Context, person, table string) error {
	if err := ctxErr(ctx, "remove invitation"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		ok, err := deletePair(tx.Bucket(bucketInvitations), table, person)
		if err == nil && !ok {
			return ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("remove invitation to %s: %w", table, err)
	}
	return nil
}

// dropAlerts drops what the alerts kept of a table: its hooks, who
// watches it and the invitations to it (dropKept).
func dropAlerts(tx *bolt.Tx, table string) error {
	if _, err := deletePrefix(tx.Bucket(bucketHooks), pairPrefix("", fold(table)), false); err != nil {
		return err
	}
	if err := dropPairs(tx.Bucket(bucketWatches), table); err != nil {
		return err
	}
	return dropPairs(tx.Bucket(bucketInvitations), table)
}

// mergeAlerts gives the watches and invitations of the person from to the
// person into (mergeKept); into's own stay where both have one.
func mergeAlerts(tx *bolt.Tx, from, into string) error {
	for _, b := range []*bolt.Bucket{tx.Bucket(bucketWatches), tx.Bucket(bucketInvitations)} {
		type pair struct {
			table string
			v     []byte
		}
		var moved []pair
		if err := pairsOf(b, from, func(table string, v []byte) error {
			moved = append(moved, pair{table, clone(v)})
			return nil
		}); err != nil {
			return err
		}
		for _, p := range moved {
			if _, err := deletePair(b, p.table, from); err != nil {
				return err
			}
			if bt, _ := pairKeys(p.table, into); b.Get(bt) != nil {
				continue
			}
			if err := putPair(b, p.table, into, p.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkAlerts is Check's part of what the alerts keep: every hook,
// watch and invitation is of an open table and decodes, each pair is kept
// under both its keys, and every person in them exists.
func checkAlerts(tx *bolt.Tx) []error {
	var errs []error
	open := func(name string) bool {
		t, err := getTable(tx, name)
		return err == nil && t.IsOpen()
	}
	people := tx.Bucket(bucketPeople)
	unknown := func(id string) bool { return ident.HasKeys(id) && people.Get([]byte(id)) == nil }
	_ = tx.Bucket(bucketHooks).ForEach(func(k, v []byte) error {
		name, _, _ := bytes.Cut(k, []byte{0})
		var h Hook
		switch {
		case !open(string(name)):
			errs = append(errs, fmt.Errorf("hook %q, no open table", k))
		case json.Unmarshal(v, &h) != nil:
			errs = append(errs, fmt.Errorf("hook %q does not decode", k))
		case unknown(h.By):
			errs = append(errs, fmt.Errorf("hook %q: set by unknown person %q", k, h.By))
		}
		return nil
	})
	for _, bn := range [][]byte{bucketWatches, bucketInvitations} {
		b := tx.Bucket(bn)
		_ = b.ForEach(func(k, v []byte) error {
			first, second, ok := bytes.Cut(k[min(1, len(k)):], []byte{0})
			var table, person string
			switch {
			case !ok || len(k) == 0 || k[0] != 't' && k[0] != 'p':
				errs = append(errs, fmt.Errorf("%s: bad key %q", bn, k))
				return nil
			case k[0] == 't':
				table, person = string(first), string(second)
				if bytes.Equal(bn, bucketInvitations) && json.Unmarshal(v, &Invitation{}) != nil {
					errs = append(errs, fmt.Errorf("%s %q does not decode", bn, k))
				}
			default:
				person, table = string(first), string(second)
			}
			bt, bp := pairKeys(table, person)
			switch {
			case b.Get(bt) == nil || b.Get(bp) == nil:
				errs = append(errs, fmt.Errorf("%s of %q at %q: kept under one key", bn, person, table))
			case !open(table):
				errs = append(errs, fmt.Errorf("%s of %q at %q, no open table", bn, person, table))
			case unknown(person):
				errs = append(errs, fmt.Errorf("%s at %q: of unknown person %q", bn, table, person))
			}
			return nil
		})
	}
	return errs
}
