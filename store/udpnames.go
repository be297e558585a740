package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/lobby/ident"
)

// UDPName is a Mäxchen bot's name taken for the address the bot plays
// from: while a bot is registered under it, and, once the bot has played
// (Held), after it leaves, so that a bot gone quiet keeps its name and the
// record under it for a while. The bucket is keyed by the name's look
// (ident.Skeleton), as the names of people are: no two bots, and no bot
// and person, hold names that look alike. The rules of when a name may
// change hands are the gateway's (sshapp/maexchen); the store keeps the
// names and checks them against people's in the transactions that take
// them (ClaimUDPName, SetName).
type UDPName struct {
	Name       string    `json:"name"`       // as registered; the bot is the person "maexchen:"+Name
	Addr       string    `json:"addr"`       // the IP address that holds it
	Heard      time.Time `json:"heard"`      // when the bot was last heard
	Held       bool      `json:"held"`       // the bot has played: the name outlives its registration
	Registered bool      `json:"registered"` // a bot is registered under it now
}

// ErrRegistered: a bot is registered under the name now (FreeUDPName).
var ErrRegistered = errors.New("a bot is registered under the name")

// ErrNameHeld: the name, or one that looks like it, is a Mäxchen bot's;
// SetName's refusal matches it and ErrNameTaken.
var ErrNameHeld = errors.New("name held by a Mäxchen bot")

func udpNameKey(name string) []byte { return []byte(ident.Skeleton(name)) }

func encodeUDPName(n UDPName) ([]byte, error) {
	if n.Name == "" {
		return nil, errors.New("empty name")
	}
	if err := noNUL("name", n.Name); err != nil {
		return nil, err
	}
	n.Heard = n.Heard.UTC()
	return json.Marshal(n)
}

func getUDPName(b *bolt.Bucket, key []byte) (UDPName, bool, error) {
	v := b.Get(key)
	if v == nil {
		return UDPName{}, false, nil
	}
	var n UDPName
	if err := json.Unmarshal(v, &n); err != nil {
		return UDPName{}, false, fmt.Errorf("decode udp name %s: %w", key, err)
	}
	return n, true, nil
}

// ClaimUDPName takes n.Name for n.Addr, in one transaction with the
// checks: ErrNameTaken if a person's name looks like it, or if a name
// that looks like it is stored and taken reports true of it (the
// gateway's rule: held for another address, say). It stores n, but Held,
// which it keeps from a stored claim of the same name (a record under
// the name stays the name's), and returns what it stored.
func (s *Store) ClaimUDPName(ctx context.Context, n UDPName, taken func(UDPName) bool) (UDPName, error) {
	if err := ctxErr(ctx, "claim udp name"); err != nil {
		return UDPName{}, err
	}
	if _, err := encodeUDPName(n); err != nil {
		return UDPName{}, fmt.Errorf("claim udp name %q: %w", n.Name, err)
	}
	var stored UDPName
	err := s.update(ctx, func(tx *bolt.Tx) error {
		key := udpNameKey(n.Name)
		if len(namesLike(tx, n.Name)) > 0 {
			return ErrNameTaken
		}
		b := tx.Bucket(bucketUDPNames)
		old, ok, err := getUDPName(b, key)
		if err != nil {
			return err
		}
		if ok && taken(old) {
			return ErrNameTaken
		}
		stored = n
		stored.Held = ok && old.Name == n.Name && old.Held
		v, err := encodeUDPName(stored)
		if err != nil {
			return err
		}
		return b.Put(key, v)
	})
	if err != nil {
		return UDPName{}, fmt.Errorf("claim udp name %q: %w", n.Name, err)
	}
	stored.Heard = stored.Heard.UTC()
	return stored, nil
}

// KeepUDPNames stores each name again as given (when its bot was last
// heard, whether it is held, whether it is registered), in one
// transaction. A name neither held nor registered is dropped. A name
// whose place another has taken meanwhile (a person's, or another bot's
// that looks like it, after FreeUDPName) is left to them.
func (s *Store) KeepUDPNames(ctx context.Context, names ...UDPName) error {
	if err := ctxErr(ctx, "keep udp names"); err != nil {
		return err
	}
	vals := make([][]byte, len(names))
	for i, n := range names {
		v, err := encodeUDPName(n)
		if err != nil {
			return fmt.Errorf("keep udp name %q: %w", n.Name, err)
		}
		vals[i] = v
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		for i, n := range names {
			key := udpNameKey(n.Name)
			old, ok, err := getUDPName(b, key)
			switch {
			case err != nil:
				return err
			case ok && old.Name != n.Name, len(namesLike(tx, n.Name)) > 0:
				continue
			case !n.Held && !n.Registered:
				if ok {
					err = b.Delete(key)
				}
			default:
				err = b.Put(key, vals[i])
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("keep udp names: %w", err)
	}
	return nil
}

// SweepUDPNames passes every stored name to keep, in one transaction, and
// stores what it returns, or drops the name if it returns false.
func (s *Store) SweepUDPNames(ctx context.Context, keep func(UDPName) (UDPName, bool)) error {
	if err := ctxErr(ctx, "sweep udp names"); err != nil {
		return err
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		type put struct {
			k, v []byte // v nil: drop
		}
		var puts []put
		err := b.ForEach(func(k, v []byte) error {
			n, _, err := getUDPName(b, k)
			if err != nil {
				return err
			}
			kept, ok := keep(n)
			switch {
			case !ok:
				puts = append(puts, put{k: clone(k)})
			case kept != n:
				if kept.Name != n.Name {
					return fmt.Errorf("sweep changed the name %q to %q", n.Name, kept.Name)
				}
				nv, err := encodeUDPName(kept)
				if err != nil {
					return err
				}
				puts = append(puts, put{k: clone(k), v: nv})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, p := range puts {
			if p.v == nil {
				err = b.Delete(p.k)
			} else {
				err = b.Put(p.k, p.v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sweep udp names: %w", err)
	}
	return nil
}

// HeldUDPName returns the stored name that looks like name (the same
// skeleton), or ErrNotFound.
func (s *Store) HeldUDPName(ctx context.Context, name string) (UDPName, error) {
	if err := ctxErr(ctx, "udp name"); err != nil {
		return UDPName{}, err
	}
	var n UDPName
	err := s.db.View(func(tx *bolt.Tx) error {
		var (
			ok  bool
			err error
		)
		n, ok, err = getUDPName(tx.Bucket(bucketUDPNames), udpNameKey(name))
		if err == nil && !ok {
			err = ErrNotFound
		}
		return err
	})
	if err != nil {
		return UDPName{}, fmt.Errorf("udp name %q: %w", name, err)
	}
	return n, nil
}

// FreeUDPName drops the stored name that looks like name and returns it:
// a bot from any address may register it, and a person take it.
// ErrNotFound if there is none; ErrRegistered, and nothing dropped, while
// a bot is registered under it.
func (s *Store) FreeUDPName(ctx context.Context, name string) (UDPName, error) {
	if err := ctxErr(ctx, "free udp name"); err != nil {
		return UDPName{}, err
	}
	var n UDPName
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		key := udpNameKey(name)
		var (
			ok  bool
			err error
		)
		n, ok, err = getUDPName(b, key)
		switch {
		case err != nil:
			return err
		case !ok:
			return ErrNotFound
		case n.Registered:
			return ErrRegistered
		}
		return b.Delete(key)
	})
	if errors.Is(err, ErrStalled) { // the write goes on and may still set n
		return UDPName{}, fmt.Errorf("free udp name %q: %w", name, err)
	}
	if err != nil {
		return n, fmt.Errorf("free udp name %q: %w", name, err)
	}
	return n, nil
}

// HeldUDPNames lists every stored name, by its look.
func (s *Store) HeldUDPNames(ctx context.Context) ([]UDPName, error) {
	if err := ctxErr(ctx, "udp names"); err != nil {
		return nil, err
	}
	var out []UDPName
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUDPNames)
		return b.ForEach(func(k, _ []byte) error {
			n, _, err := getUDPName(b, k)
			if err != nil {
				return err
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
