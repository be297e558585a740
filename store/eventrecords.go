package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// EventRecord is an event (lobby/events) as the store keeps it: its name,
// when it was made and closed, and the event's own record, which the
// store keeps as it is given, without reading it. Events are keyed by
// name, ignoring case: the newest of a name under it; an older one, once
// closed, is kept aside when a new event takes its name.
type EventRecord struct {
	Name    string          `json:"name"`
	Created time.Time       `json:"created"`
	Closed  bool            `json:"closed,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// CreateEvent stores a new event: ErrExists if an event of that name
// (ignoring case) is not closed; a closed one moves aside.
func (s *Store) CreateEvent(ctx context.Context, e EventRecord) error {
	if err := ctxErr(ctx, "create event"); err != nil {
		return err
	}
	if err := validEvent(e); err != nil {
		return fmt.Errorf("create event: %w", err)
	}
	e.Created = e.Created.UTC()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketEventRecords)
		key := []byte(strings.ToLower(e.Name))
		if v := b.Get(key); v != nil {
			var old EventRecord
			if err := json.Unmarshal(v, &old); err != nil {
				return fmt.Errorf("event %s: %w", e.Name, err)
			}
			if !old.Closed {
				return ErrExists
			}
			if err := b.Put(olderEventKey(old), bytes.Clone(v)); err != nil {
				return err
			}
		}
		return putEvent(b, key, e)
	})
	if err != nil {
		return fmt.Errorf("create event %s: %w", e.Name, err)
	}
	return nil
}

// SaveEvent replaces the record of the event of that name and creation:
// ErrNotFound when the newest event of its name is another.
func (s *Store) SaveEvent(ctx context.Context, e EventRecord) error {
	if err := ctxErr(ctx, "save event"); err != nil {
		return err
	}
	if err := validEvent(e); err != nil {
		return fmt.Errorf("save event: %w", err)
	}
	e.Created = e.Created.UTC()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketEventRecords)
		key := []byte(strings.ToLower(e.Name))
		old, err := getEvent(b, key)
		if err != nil {
			return err
		}
		if !old.Created.Equal(e.Created) {
			return fmt.Errorf("another event has the name now: %w", ErrNotFound)
		}
		return putEvent(b, key, e)
	})
	if err != nil {
		return fmt.Errorf("save event %s: %w", e.Name, err)
	}
	return nil
}

// Event returns the newest event of that name (ignoring case), closed or
// not, or ErrNotFound.
func (s *Store) Event(ctx context.Context, name string) (EventRecord, error) {
	if err := ctxErr(ctx, "event"); err != nil {
		return EventRecord{}, err
	}
	var e EventRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		e, err = getEvent(tx.Bucket(bucketEventRecords), []byte(strings.ToLower(name)))
		return err
	})
	if err != nil {
		return EventRecord{}, fmt.Errorf("event %s: %w", name, err)
	}
	return e, nil
}

// OpenEvents lists the events not closed, by name.
func (s *Store) OpenEvents(ctx context.Context) ([]EventRecord, error) {
	if err := ctxErr(ctx, "open events"); err != nil {
		return nil, err
	}
	var out []EventRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketEventRecords).ForEach(func(k, v []byte) error {
			if bytes.IndexByte(k, 0) >= 0 {
				return nil // an older one, closed
			}
			var e EventRecord
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("event %q: %w", k, err)
			}
			if !e.Closed {
				e.Data = bytes.Clone(e.Data)
				out = append(out, e)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("open events: %w", err)
	}
	return out, nil
}

func validEvent(e EventRecord) error {
	switch {
	case e.Name == "":
		return errors.New("an event needs a name")
	case e.Created.IsZero():
		return fmt.Errorf("event %s: no time of creation", e.Name)
	case !json.Valid(e.Data):
		return fmt.Errorf("event %s: its record is not JSON", e.Name)
	}
	return noNUL("event name", e.Name)
}

func putEvent(b *bolt.Bucket, key []byte, e EventRecord) error {
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("event %s: %w", e.Name, err)
	}
	return b.Put(key, v)
}

func getEvent(b *bolt.Bucket, key []byte) (EventRecord, error) {
	v := b.Get(key)
	if v == nil {
		return EventRecord{}, ErrNotFound
	}
	var e EventRecord
	if err := json.Unmarshal(v, &e); err != nil {
		return EventRecord{}, err
	}
	e.Data = bytes.Clone(e.Data)
	return e, nil
}

// olderEventKey is where a closed event waits once a new one has its
// name: lower(name) 0x00 created (big-endian nanoseconds).
func olderEventKey(e EventRecord) []byte {
	return append(append([]byte(strings.ToLower(e.Name)), 0), u64(uint64(e.Created.UnixNano()))...)
}

// GameHead reads a game's record without its events: its seats, and how
// it ended (Ended zero while it runs).
func (s *Store) GameHead(ctx context.Context, id string) (Game, error) {
	if err := ctxErr(ctx, "game "+id); err != nil {
		return Game{}, err
	}
	n, err := parseID(id)
	if err != nil {
		return Game{}, err
	}
	var g Game
	err = s.db.View(func(tx *bolt.Tx) error {
		r, err := getGame(tx, n)
		if err != nil {
			return err
		}
		g = r.game(tx)
		return nil
	})
	if err != nil {
		return Game{}, fmt.Errorf("game %s: %w", id, err)
	}
	return g, nil
}
