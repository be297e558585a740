package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Player is a key's profile.
type Player struct {
	Fingerprint string    `json:"fingerprint"` // SHA256 fingerprint of the SSH key
	Name        string    `json:"name"`        // display name, unique case-insensitively
	Bot         bool      `json:"bot"`
	Created     time.Time `json:"created"`
	LastSeen    time.Time `json:"last_seen"`
}

// Player returns the profile of a key, or ErrNotFound.
func (s *Store) Player(ctx context.Context, fingerprint string) (Player, error) {
	if err := ctxErr(ctx, "player"); err != nil {
		return Player{}, err
	}
	var p Player
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		p, err = getPlayer(tx, fingerprint)
		return err
	})
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", fingerprint, err)
	}
	return p, nil
}

// PlayerByName finds a player by display name, ignoring case, or returns
// ErrNotFound.
func (s *Store) PlayerByName(ctx context.Context, name string) (Player, error) {
	if err := ctxErr(ctx, "player by name"); err != nil {
		return Player{}, err
	}
	var p Player
	err := s.db.View(func(tx *bolt.Tx) error {
		fp := tx.Bucket(bucketNames).Get([]byte(fold(name)))
		if fp == nil {
			return ErrNotFound
		}
		var err error
		p, err = getPlayer(tx, string(fp))
		return err
	})
	if err != nil {
		return Player{}, fmt.Errorf("player named %q: %w", name, err)
	}
	return p, nil
}

// SetName gives a key its display name, creating the player if the key is
// new (Created and LastSeen are then now). The name must not be used by
// another key, ignoring case (ErrNameTaken); the store keeps any name that
// is not empty and has no NUL byte: what a name may be is the caller's rule
// (lobby.CheckName). Renaming frees the old name; a change of case only is
// allowed. Bot is stored as given.
func (s *Store) SetName(ctx context.Context, fingerprint, name string, bot bool) (Player, error) {
	if err := ctxErr(ctx, "set name"); err != nil {
		return Player{}, err
	}
	if name == "" {
		return Player{}, fmt.Errorf("set name: empty name")
	}
	if err := noNUL("name", name); err != nil {
		return Player{}, fmt.Errorf("set name: %w", err)
	}
	if fingerprint == "" {
		return Player{}, fmt.Errorf("set name %q: empty fingerprint", name)
	}
	if err := noNUL("fingerprint", fingerprint); err != nil {
		return Player{}, fmt.Errorf("set name: %w", err)
	}
	// Batch: people naming themselves at once share one commit (and its
	// fsync) instead of queueing for one each; the function may run again
	// if another in the batch fails, so it sets p afresh each time.
	var p Player
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		names := tx.Bucket(bucketNames)
		key := []byte(fold(name))
		if owner := names.Get(key); owner != nil && string(owner) != fingerprint {
			return ErrNameTaken
		}
		old, err := getPlayer(tx, fingerprint)
		switch {
		case errors.Is(err, ErrNotFound):
			now := time.Now().UTC()
			p = Player{Fingerprint: fingerprint, Created: now, LastSeen: now}
		case err != nil:
			return err
		default:
			p = old
			if ok := fold(old.Name); ok != string(key) && string(names.Get([]byte(ok))) == fingerprint {
				if err := names.Delete([]byte(ok)); err != nil {
					return err
				}
			}
		}
		p.Name, p.Bot = name, bot
		if err := names.Put(key, []byte(fingerprint)); err != nil {
			return err
		}
		return putPlayer(tx, p)
	})
	if err != nil {
		return Player{}, fmt.Errorf("set name %q for %s: %w", name, fingerprint, err)
	}
	return p, nil
}

// Touch records that a key was seen at the given time; ErrNotFound if the
// key has no profile yet.
func (s *Store) Touch(ctx context.Context, fingerprint string, at time.Time) error {
	if err := ctxErr(ctx, "touch"); err != nil {
		return err
	}
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		p, err := getPlayer(tx, fingerprint)
		if err != nil {
			return err
		}
		p.LastSeen = at.UTC()
		return putPlayer(tx, p)
	})
	if err != nil {
		return fmt.Errorf("touch %s: %w", fingerprint, err)
	}
	return nil
}

func getPlayer(tx *bolt.Tx, fingerprint string) (Player, error) {
	v := tx.Bucket(bucketPlayers).Get([]byte(fingerprint))
	if v == nil {
		return Player{}, ErrNotFound
	}
	var p Player
	if err := json.Unmarshal(v, &p); err != nil {
		return Player{}, fmt.Errorf("decode player: %w", err)
	}
	return p, nil
}

func putPlayer(tx *bolt.Tx, p Player) error {
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketPlayers).Put([]byte(p.Fingerprint), v)
}
