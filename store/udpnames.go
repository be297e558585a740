package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// UDPName is a Mäxchen bot's name as the gateway holds it for the address
// the bot plays from, so that a bot gone quiet keeps its name (and the
// record under it) for a while after it was last heard.
type UDPName struct {
	Name  string    `json:"name"`  // as registered (names are case-sensitive on the wire)
	Addr  string    `json:"addr"`  // the IP address that holds it
	Heard time.Time `json:"heard"` // when the bot was last heard
}

// HoldUDPNames stores names, each replacing an earlier hold of the same
// name, in one transaction.
func (s *Store) HoldUDPNames(ctx context.Context, names ...UDPName) error {
	if err := ctxErr(ctx, "hold udp names"); err != nil {
		return err
	}
	vals := make([][]byte, len(names))
	for i, n := range names {
		if n.Name == "" {
			return fmt.Errorf("hold udp names: empty name")
		}
		n.Heard = n.Heard.UTC()
		v, err := json.Marshal(n)
		if err != nil {
			return fmt.Errorf("hold udp name %s: %w", n.Name, err)
		}
		vals[i] = v
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		for i, n := range names {
			if err := b.Put([]byte(n.Name), vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("hold udp names: %w", err)
	}
	return nil
}

// HeldUDPName returns the hold of a name, or ErrNotFound.
func (s *Store) HeldUDPName(ctx context.Context, name string) (UDPName, error) {
	if err := ctxErr(ctx, "udp name"); err != nil {
		return UDPName{}, err
	}
	var n UDPName
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketUDPNames).Get([]byte(name))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &n)
	})
	if err != nil {
		return UDPName{}, fmt.Errorf("udp name %s: %w", name, err)
	}
	return n, nil
}

// FreeUDPName ends the hold of a name; ErrNotFound if it is not held.
func (s *Store) FreeUDPName(ctx context.Context, name string) error {
	if err := ctxErr(ctx, "free udp name"); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		if b.Get([]byte(name)) == nil {
			return ErrNotFound
		}
		return b.Delete([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("free udp name %s: %w", name, err)
	}
	return nil
}

// HeldUDPNames lists every hold, by name.
func (s *Store) HeldUDPNames(ctx context.Context) ([]UDPName, error) {
	if err := ctxErr(ctx, "udp names"); err != nil {
		return nil, err
	}
	var out []UDPName
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketUDPNames).ForEach(func(k, v []byte) error {
			var n UDPName
			if err := json.Unmarshal(v, &n); err != nil {
				return fmt.Errorf("decode udp name %s: %w", k, err)
			}
			out = append(out, n)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("udp names: %w", err)
	}
	return out, nil
}
