package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Ban keeps a key off the server.
type Ban struct {
	Fingerprint string    `json:"fingerprint"` // the banned key
	Name        string    `json:"name"`        // its display name when banned, if any
	By          string    `json:"by"`          // the admin's fingerprint
	At          time.Time `json:"at"`
}

// Ban stores a ban of b.Fingerprint (replacing an earlier one). A zero At
// is set to now.
func (s *Store) Ban(ctx context.Context, b Ban) error {
	if err := ctxErr(ctx, "ban"); err != nil {
		return err
	}
	if b.Fingerprint == "" {
		return fmt.Errorf("ban: empty fingerprint")
	}
	if b.At.IsZero() {
		b.At = time.Now()
	}
	b.At = b.At.UTC()
	v, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("ban %s: %w", b.Fingerprint, err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBans).Put([]byte(b.Fingerprint), v)
	})
	if err != nil {
		return fmt.Errorf("ban %s: %w", b.Fingerprint, err)
	}
	return nil
}

// Unban lifts the ban of a key; ErrNotFound if it is not banned.
func (s *Store) Unban(ctx context.Context, fingerprint string) error {
	if err := ctxErr(ctx, "unban"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBans)
		if b.Get([]byte(fingerprint)) == nil {
			return ErrNotFound
		}
		return b.Delete([]byte(fingerprint))
	})
	if err != nil {
		return fmt.Errorf("unban %s: %w", fingerprint, err)
	}
	return nil
}

// Banned returns the ban of a key, or ErrNotFound if it is not banned.
func (s *Store) Banned(ctx context.Context, fingerprint string) (Ban, error) {
	if err := ctxErr(ctx, "banned"); err != nil {
		return Ban{}, err
	}
	var b Ban
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBans).Get([]byte(fingerprint))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &b)
	})
	if err != nil {
		return Ban{}, fmt.Errorf("ban of %s: %w", fingerprint, err)
	}
	return b, nil
}

// Bans lists every ban, by fingerprint.
func (s *Store) Bans(ctx context.Context) ([]Ban, error) {
	if err := ctxErr(ctx, "bans"); err != nil {
		return nil, err
	}
	var out []Ban
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBans).ForEach(func(k, v []byte) error {
			var b Ban
			if err := json.Unmarshal(v, &b); err != nil {
				return fmt.Errorf("decode ban %s: %w", k, err)
			}
			out = append(out, b)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("bans: %w", err)
	}
	return out, nil
}
