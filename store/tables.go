package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// TableRecord is a table's record: its configuration, who may see it,
// who sits for its next game, and when it closed. Tables are keyed by
// name, ignoring case. A closed table's record stays (for history); when a new table of
// the same name is created, the closed record moves aside (TableRecords
// still lists it) and the new one takes the name.
type TableRecord struct {
	Name    string         `json:"name"`
	Host    string         `json:"host"` // the host's person id
	Rules   engine.Options `json:"rules"`
	Seats   int            `json:"seats"` // 2..10
	Private bool           `json:"private"`
	Members []string       `json:"members,omitempty"` // person ids allowed in a private table
	Created time.Time      `json:"created"`
	Closed  time.Time      `json:"closed,omitzero"` // zero while open
	// Seated are the players sitting down for the table's next game, in
	// the order they sat, so that a restart between games keeps them: who
	// (Person), with which key (Fingerprint) and whether as a bot; never a
	// name. (A game in progress keeps its own seats, in its record.)
	Seated []Seat `json:"seated,omitempty"`
	// Link is the token of the table's web link (`table link`), "" when
	// it has none. A closed table's record keeps it: its games stay open
	// to the link.
	Link string `json:"link,omitempty"`
	// Event is the name of the event whose table this is (lobby/events),
	// "" for a table of its own.
	Event string `json:"event,omitempty"`
}

// IsOpen reports whether the table is not closed.
func (t TableRecord) IsOpen() bool { return t.Closed.IsZero() }

// validTable checks what the store relies on: a name (without NUL
// bytes, which would break the index keys), seats and valid rules. What a
// table's name may be is the caller's rule (lobby.CheckTableName).
func validTable(t TableRecord) error {
	if t.Name == "" {
		return errors.New("a table needs a name")
	}
	if err := noNUL("table name", t.Name); err != nil {
		return err
	}
	if t.Seats < engine.MinSeats || t.Seats > engine.MaxSeats {
		return fmt.Errorf("table %s: %d seats is not between %d and %d", t.Name, t.Seats, engine.MinSeats, engine.MaxSeats)
	}
	if err := t.Rules.Validate(); err != nil {
		return fmt.Errorf("table %s: %w", t.Name, err)
	}
	if len(t.Seated) > t.Seats {
		return fmt.Errorf("table %s: %d seated at %d seats", t.Name, len(t.Seated), t.Seats)
	}
	return nil
}

// CreateTable stores a new open table. ErrExists if an open table has the
// same name, ignoring case; a closed one of that name moves aside (see
// TableRecords). A zero Created is set to now; Closed must be zero. The
// name must not be empty nor hold a NUL byte, Seats 2–10, and the rules
// valid.
func (s *Store) CreateTable(ctx context.Context, t TableRecord) error {
	if err := ctxErr(ctx, "create table"); err != nil {
		return err
	}
	if err := validTable(t); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	if !t.Closed.IsZero() {
		return fmt.Errorf("create table %s: already closed", t.Name)
	}
	if t.Created.IsZero() {
		t.Created = time.Now()
	}
	t.Created = t.Created.UTC()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getTable(tx, t.Name)
		switch {
		case err == nil && old.IsOpen():
			return ErrExists
		case err != nil && !errors.Is(err, ErrNotFound):
			return err
		case err == nil:
			if err := putClosed(tx, old); err != nil {
				return err
			}
		}
		if err := deleteInvites(tx, t.Name); err != nil {
			return err
		}
		if err := dropKept(tx, t.Name); err != nil {
			return err
		}
		return putTable(tx, t)
	})
	if err != nil {
		return fmt.Errorf("create table %s: %w", t.Name, err)
	}
	return nil
}

// Table returns the table of that name (ignoring case), open or closed, or
// ErrNotFound.
func (s *Store) Table(ctx context.Context, name string) (TableRecord, error) {
	if err := ctxErr(ctx, "table"); err != nil {
		return TableRecord{}, err
	}
	var t TableRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		t, err = getTable(tx, name)
		return err
	})
	if err != nil {
		return TableRecord{}, fmt.Errorf("table %s: %w", name, err)
	}
	return t, nil
}

// UpdateTable reads the table, lets fn change it and writes it back, in
// one transaction. An error from fn aborts the update and is returned
// (wrapped). fn must not rename the table. Closing it (setting Closed)
// voids its outstanding invites, and drops its next dice and its chat.
func (s *Store) UpdateTable(ctx context.Context, name string, fn func(*TableRecord) error) error {
	if err := ctxErr(ctx, "update table"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		t, err := getTable(tx, name)
		if err != nil {
			return err
		}
		wasOpen := t.IsOpen()
		t.Members = slices.Clone(t.Members)
		if err := fn(&t); err != nil {
			return err
		}
		if fold(t.Name) != fold(name) {
			return fmt.Errorf("cannot rename table %s to %s", name, t.Name)
		}
		if err := validTable(t); err != nil {
			return err
		}
		t.Created, t.Closed = t.Created.UTC(), t.Closed.UTC()
		if wasOpen && !t.IsOpen() {
			if err := deleteInvites(tx, t.Name); err != nil {
				return err
			}
			if err := dropKept(tx, t.Name); err != nil {
				return err
			}
		}
		return putTable(tx, t)
	})
	if err != nil {
		return fmt.Errorf("update table %s: %w", name, err)
	}
	return nil
}

// OpenTables lists the tables not closed, sorted by name (ignoring case).
func (s *Store) OpenTables(ctx context.Context) ([]TableRecord, error) {
	if err := ctxErr(ctx, "open tables"); err != nil {
		return nil, err
	}
	var ts []TableRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			var t TableRecord
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("decode table %s: %w", k, err)
			}
			if t.IsOpen() {
				ts = append(ts, t)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("open tables: %w", err)
	}
	return ts, nil
}

// TableRecords lists every record of the tables that had this name
// (ignoring case), oldest first: the closed tables whose name was used
// again, then the newest table, open or closed. None is not an error.
// RecordAt picks the one a game was played at.
func (s *Store) TableRecords(ctx context.Context, name string) ([]TableRecord, error) {
	if err := ctxErr(ctx, "table records"); err != nil {
		return nil, err
	}
	var ts []TableRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		ts, err = tableRecordsTx(tx, name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("table records %s: %w", name, err)
	}
	return ts, nil
}

// tableRecordsTx is TableRecords in tx.
func tableRecordsTx(tx *bolt.Tx, name string) ([]TableRecord, error) {
	var ts []TableRecord
	prefix := append([]byte(fold(name)), 0)
	c := tx.Bucket(bucketClosed).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var t TableRecord
		if err := json.Unmarshal(v, &t); err != nil {
			return nil, fmt.Errorf("decode closed table %x: %w", k, err)
		}
		ts = append(ts, t)
	}
	t, err := getTable(tx, name)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return nil, err
	default:
		ts = append(ts, t)
	}
	return ts, nil
}

// RecordAt is the record, of a table's records oldest first
// (TableRecords), of the table a game started at `at` was played at: the
// newest created at or before then. A game older than every record (its
// table's record was replaced before records were kept aside) gets the
// oldest, whose Created tells. Nil if there is no record.
func RecordAt(records []TableRecord, at time.Time) *TableRecord {
	for i := len(records) - 1; i > 0; i-- {
		if !at.Before(records[i].Created) {
			return &records[i]
		}
	}
	if len(records) == 0 {
		return nil
	}
	return &records[0]
}

// putClosed moves a closed table's record aside, keyed by name and
// creation time.
func putClosed(tx *bolt.Tx, t TableRecord) error {
	v, err := json.Marshal(t)
	if err != nil {
		return err
	}
	k := append([]byte(fold(t.Name)), 0)
	k = binary.BigEndian.AppendUint64(k, uint64(max(t.Created.UnixNano(), 0)))
	return tx.Bucket(bucketClosed).Put(k, v)
}

// invite is the stored part of an invite: only the hash of its code is the
// key.
type invite struct {
	Expires time.Time `json:"expires"`
}

func inviteKey(table, code string) []byte {
	h := sha256.Sum256([]byte(code))
	k := append([]byte(fold(table)), 0)
	return append(k, h[:]...)
}

// AddInvite stores a one-time invite code for an open table, valid until
// expires. Only the code's SHA-256 is stored. Expired invites of the table
// are dropped on the way. ErrNotFound if the table is unknown or closed.
func (s *Store) AddInvite(ctx context.Context, table string, code string, expires time.Time) error {
	if err := ctxErr(ctx, "add invite"); err != nil {
		return err
	}
	if code == "" {
		return fmt.Errorf("add invite to %s: empty code", table)
	}
	v, err := json.Marshal(invite{Expires: expires.UTC()})
	if err != nil {
		return fmt.Errorf("add invite to %s: %w", table, err)
	}
	now := time.Now()
	err = s.update(ctx, func(tx *bolt.Tx) error {
		t, err := getTable(tx, table)
		if err != nil {
			return err
		}
		if !t.IsOpen() {
			return fmt.Errorf("table closed: %w", ErrNotFound)
		}
		b := tx.Bucket(bucketInvites)
		prefix := append([]byte(fold(table)), 0)
		var stale [][]byte
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var in invite
			if json.Unmarshal(v, &in) != nil || !now.Before(in.Expires) {
				stale = append(stale, clone(k))
			}
		}
		for _, k := range stale {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return b.Put(inviteKey(table, code), v)
	})
	if err != nil {
		return fmt.Errorf("add invite to %s: %w", table, err)
	}
	return nil
}

// UseInvite spends a one-time invite: the code is consumed and the person
// joins the table's Members (once). ErrBadInvite if the code is unknown to
// this table, already used, expired at now, or the table is closed;
// ErrNotFound if there is no such table.
func (s *Store) UseInvite(ctx context.Context, table, code, person string, now time.Time) error {
	if err := ctxErr(ctx, "use invite"); err != nil {
		return err
	}
	if person == "" {
		return fmt.Errorf("use invite for %s: no person", table)
	}
	var expired bool
	err := s.write(ctx, false, func(tx *bolt.Tx) error {
		t, err := getTable(tx, table)
		if err != nil {
			return err
		}
		if !t.IsOpen() {
			return fmt.Errorf("table closed: %w", ErrBadInvite)
		}
		b := tx.Bucket(bucketInvites)
		key := inviteKey(table, code)
		v := b.Get(key)
		if v == nil {
			return ErrBadInvite
		}
		var in invite
		if err := json.Unmarshal(v, &in); err != nil {
			return fmt.Errorf("decode invite: %w", err)
		}
		if err := b.Delete(key); err != nil {
			return err
		}
		if !now.Before(in.Expires) {
			expired = true // commit the deletion, then refuse
			return nil
		}
		if !slices.Contains(t.Members, person) {
			t.Members = append(t.Members, person)
		}
		return putTable(tx, t)
	}, func(err error) error {
		if err == nil && expired {
			err = fmt.Errorf("expired: %w", ErrBadInvite)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("use invite for %s: %w", table, err)
	}
	return nil
}

// deleteInvites drops every invite of a table.
func deleteInvites(tx *bolt.Tx, table string) error {
	b := tx.Bucket(bucketInvites)
	prefix := append([]byte(fold(table)), 0)
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func getTable(tx *bolt.Tx, name string) (TableRecord, error) {
	v := tx.Bucket(bucketTables).Get([]byte(fold(name)))
	if v == nil {
		return TableRecord{}, ErrNotFound
	}
	var t TableRecord
	if err := json.Unmarshal(v, &t); err != nil {
		return TableRecord{}, fmt.Errorf("decode table: %w", err)
	}
	return t, nil
}

func putTable(tx *bolt.Tx, t TableRecord) error {
	v, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketTables).Put([]byte(fold(t.Name)), v)
}
