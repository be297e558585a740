package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/lobby/ident"
)

// Ban keeps a person (every key of theirs; a key-less person such as a
// Mäxchen bot by their id), one key off the server, or UDP addresses off
// the Mäxchen gateway. Exactly one of Person, Key and UDP is set.
type Ban struct {
	Person string `json:"person,omitempty"` // a banned person's id
	Key    string `json:"key,omitempty"`    // a banned key's fingerprint
	// UDP is the addresses of a ban of the gateway's senders: an address
	// or a network in CIDR, as lobby.UDPBan.Addresses writes it.
	UDP string    `json:"udp,omitempty"`
	By  string    `json:"by"` // the admin's key
	At  time.Time `json:"at"`
}

// Target is what the ban names, its key in the bans bucket: the person's
// id, the key, or "udp:" and the addresses (ident.UDPAddrPrefix).
func (b Ban) Target() string {
	switch {
	case b.Person != "":
		return b.Person
	case b.UDP != "":
		return ident.UDPAddrPrefix + b.UDP
	}
	return b.Key
}

// Ban stores a ban (replacing an earlier one of the same person or key).
// A zero At is set to now.
func (s *Store) Ban(ctx context.Context, b Ban) error {
	if err := ctxErr(ctx, "ban"); err != nil {
		return err
	}
	set := 0
	for _, f := range []string{b.Person, b.Key, b.UDP} {
		if f != "" {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("ban: name one person, key or set of UDP addresses (%+v)", b)
	}
	if b.At.IsZero() {
		b.At = time.Now()
	}
	b.At = b.At.UTC()
	v, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("ban %s: %w", b.Target(), err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBans).Put([]byte(b.Target()), v)
	})
	if err != nil {
		return fmt.Errorf("ban %s: %w", b.Target(), err)
	}
	return nil
}

// Unban lifts the ban of a person (by id), a key (by fingerprint) or UDP
// addresses (by "udp:" and the addresses); ErrNotFound if there is none.
func (s *Store) Unban(ctx context.Context, target string) error {
	if err := ctxErr(ctx, "unban"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketBans)
		if b.Get([]byte(target)) == nil {
			return ErrNotFound
		}
		return b.Delete([]byte(target))
	})
	if err != nil {
		return fmt.Errorf("unban %s: %w", target, err)
	}
	return nil
}

// Banned returns the ban that keeps a key off: the key's own, or its
// person's. ErrNotFound if neither is banned.
func (s *Store) Banned(ctx context.Context, fingerprint string) (Ban, error) {
	if err := ctxErr(ctx, "banned"); err != nil {
		return Ban{}, err
	}
	var b Ban
	err := s.db.View(func(tx *bolt.Tx) error {
		bans := tx.Bucket(bucketBans)
		v := bans.Get([]byte(fingerprint))
		if v == nil {
			if id := tx.Bucket(bucketKeys).Get([]byte(fingerprint)); id != nil {
				v = bans.Get(id)
			}
		}
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

// BanOf returns the ban of a target (Ban.Target: a person's id, a key, or
// UDP addresses) itself, or ErrNotFound.
func (s *Store) BanOf(ctx context.Context, target string) (Ban, error) {
	if err := ctxErr(ctx, "ban of"); err != nil {
		return Ban{}, err
	}
	var b Ban
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBans).Get([]byte(target))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &b)
	})
	if err != nil {
		return Ban{}, fmt.Errorf("ban of %s: %w", target, err)
	}
	return b, nil
}

// Bans lists every ban, by target.
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
