package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/lobby/ident"
)

// The index of people's names (bucket names) is keyed by the look of a
// name, ident.Skeleton, then 0x00 and the person's id; the value is the
// id. A name is refused when anyone else's looks like it, so a look has
// one person, but for names taken before the skeleton last changed: those
// stay their holders' (two, or more, under one look), and no one new may
// take that look. The Mäxchen bots' names (udp_names) are keyed by the
// skeleton alone.

// keyNames stamps in meta how the names are keyed (namesStamp): a file
// stamped otherwise, or not at all, has them keyed again when it opens
// (ensureNames).
var keyNames = []byte("names")

var namesStamp = "skeleton 0 id; version " + strconv.Itoa(ident.SkeletonVersion)

// nameKey is the key of the person id's name in the names index.
func nameKey(name, id string) []byte {
	return append(append([]byte(ident.Skeleton(name)), 0), id...)
}

// namesLike lists the ids of the people whose names look like name, in
// the order of their keys.
func namesLike(tx *bolt.Tx, name string) []string {
	prefix := append([]byte(ident.Skeleton(name)), 0)
	var ids []string
	c := tx.Bucket(bucketNames).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		ids = append(ids, string(v))
	}
	return ids
}

// looksTaken reports whether the name of anyone but id looks like name.
func looksTaken(tx *bolt.Tx, name, id string) bool {
	for _, owner := range namesLike(tx, name) {
		if owner != id {
			return true
		}
	}
	return false
}

// personLike is the person whose name looks like name: the only one, or,
// of the names kept from before the skeleton last changed, the one so
// spelled, then the one so spelled but for case, then the oldest.
func personLike(tx *bolt.Tx, name string) (Person, error) {
	ids := namesLike(tx, name)
	if len(ids) == 0 {
		return Person{}, ErrNotFound
	}
	if len(ids) == 1 {
		return getPerson(tx, ids[0])
	}
	people := make([]Person, len(ids))
	for i, id := range ids {
		p, err := getPerson(tx, id)
		if err != nil {
			return Person{}, err
		}
		if p.Name == name {
			return p, nil
		}
		people[i] = p
	}
	for _, p := range people {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	oldest := people[0]
	for _, p := range people[1:] {
		if p.Created.Before(oldest.Created) {
			oldest = p
		}
	}
	return oldest, nil
}

// keyUDPNames stores the Mäxchen bots' names anew (bucket udp_names, in
// tx), keyed by their skeletons: of names that look alike the one heard
// last stays, and one that looks like a person's goes.
func keyUDPNames(tx *bolt.Tx, names []UDPName) error {
	kept := map[string]UDPName{}
	for _, n := range names {
		key := string(udpNameKey(n.Name))
		if len(namesLike(tx, n.Name)) > 0 {
			continue
		}
		if other, ok := kept[key]; ok && !n.Heard.After(other.Heard) {
			continue
		}
		kept[key] = n
	}
	if err := tx.DeleteBucket(bucketUDPNames); err != nil {
		return err
	}
	b, err := tx.CreateBucket(bucketUDPNames)
	if err != nil {
		return err
	}
	for key, n := range kept {
		v, err := encodeUDPName(n)
		if err != nil {
			return fmt.Errorf("udp name %q: %w", n.Name, err)
		}
		if err := b.Put([]byte(key), v); err != nil {
			return err
		}
	}
	return nil
}

// ensureNames keys the names again if the file's stamp differs
// (rekeyNames).
func (s *Store) ensureNames() error {
	current := false
	err := s.db.View(func(tx *bolt.Tx) error {
		current = string(tx.Bucket(bucketMeta).Get(keyNames)) == namesStamp
		return nil
	})
	if err != nil || current {
		return err
	}
	return s.update(context.Background(), rekeyNames)
}

// rekeyNames makes the index of people's names again from the people, and
// keys the Mäxchen bots' names by their skeletons, in tx; then stamps
// them. Every person keeps their name, though it may look like another's
// now (the older rule let both in): each is indexed, and no one new may
// take that look. Of the bots' names, which are holds that end by
// themselves, one that looks like a person's ends now, and of two that
// look alike the one heard last stays.
func rekeyNames(tx *bolt.Tx) error {
	if err := tx.DeleteBucket(bucketNames); err != nil {
		return fmt.Errorf("rekey names: %w", err)
	}
	names, err := tx.CreateBucket(bucketNames)
	if err != nil {
		return fmt.Errorf("rekey names: %w", err)
	}
	err = tx.Bucket(bucketPeople).ForEach(func(k, v []byte) error {
		var p Person
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("decode person %s: %w", k, err)
		}
		if p.Name == "" {
			return nil
		}
		return names.Put(nameKey(p.Name, p.ID), []byte(p.ID))
	})
	if err != nil {
		return fmt.Errorf("rekey names: %w", err)
	}
	b := tx.Bucket(bucketUDPNames)
	var held []UDPName
	err = b.ForEach(func(k, _ []byte) error {
		n, _, err := getUDPName(b, k)
		held = append(held, n)
		return err
	})
	if err != nil {
		return fmt.Errorf("rekey udp names: %w", err)
	}
	if err := keyUDPNames(tx, held); err != nil {
		return fmt.Errorf("rekey udp names: %w", err)
	}
	return tx.Bucket(bucketMeta).Put(keyNames, []byte(namesStamp))
}
