package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/ident"
)

// What an open table keeps besides its record, so that a restart finds
// it as it was: the dice of its next game (the commitment shown, and the
// seeds players gave) and the last lines of its chat. Both belong to the
// table of that name while it is open: closing it, or opening a new table
// of its name, drops them.

// keptDice are a table's next dice (fair.NextDice) as the store keeps
// them, in JSON: the secret seed in hex. They are kept apart from the
// table's record, which commands read.
type keptDice struct {
	Seed  string     `json:"seed"` // 64 hex digits
	Given []keptSeed `json:"given,omitempty"`
}

// keptSeed is a fair.GivenSeed as keptDice keep it.
type keptSeed struct {
	Person string `json:"person"`
	Seed   string `json:"seed"`
}

// keep is d as the store keeps it.
func keep(d fair.NextDice) keptDice {
	k := keptDice{Seed: d.Seed.Reveal()}
	for _, g := range d.Given {
		k.Given = append(k.Given, keptSeed(g))
	}
	return k
}

// dice are the next dice k keeps.
func (k keptDice) dice() (fair.NextDice, error) {
	seed, err := fair.ParseSeed(k.Seed)
	if err != nil {
		return fair.NextDice{}, err
	}
	d := fair.NextDice{Seed: seed}
	for _, g := range k.Given {
		d.Given = append(d.Given, fair.GivenSeed(g))
	}
	return d, nil
}

// ChatRecord is a line of a table's chat as the store keeps it: by the
// id of the person who said it (a name is looked up when shown); no
// person for a notice of the server's.
type ChatRecord struct {
	At     time.Time `json:"at"`
	Person string    `json:"person,omitempty"`
	Bot    bool      `json:"bot,omitempty"`
	Text   string    `json:"text"`
}

// openTable reads an open table's record, or fails with ErrNotFound.
func openTable(tx *bolt.Tx, name string) (TableRecord, error) {
	t, err := getTable(tx, name)
	if err != nil {
		return TableRecord{}, err
	}
	if !t.IsOpen() {
		return TableRecord{}, fmt.Errorf("table closed: %w", ErrNotFound)
	}
	return t, nil
}

// SetNextDice keeps an open table's next dice, durably, in place of those
// kept before. ErrNotFound if the table is not open.
func (s *Store) SetNextDice(ctx context.Context, table string, d fair.NextDice) error {
	if err := ctxErr(ctx, "set next dice"); err != nil {
		return err
	}
	v, err := json.Marshal(keep(d))
	if err != nil {
		return fmt.Errorf("set next dice of %s: %w", table, err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := openTable(tx, table); err != nil {
			return err
		}
		return tx.Bucket(bucketNextDice).Put([]byte(fold(table)), v)
	})
	if err != nil {
		return fmt.Errorf("set next dice of %s: %w", table, err)
	}
	return nil
}

// NextDice returns the next dice kept for a table; ErrNotFound if none
// are.
func (s *Store) NextDice(ctx context.Context, table string) (fair.NextDice, error) {
	if err := ctxErr(ctx, "next dice"); err != nil {
		return fair.NextDice{}, err
	}
	var k keptDice
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketNextDice).Get([]byte(fold(table)))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &k)
	})
	if err != nil {
		return fair.NextDice{}, fmt.Errorf("next dice of %s: %w", table, err)
	}
	d, err := k.dice()
	if err != nil {
		return fair.NextDice{}, fmt.Errorf("next dice of %s: %w", table, err)
	}
	return d, nil
}

// chatPrefix is the prefix of a table's chat keys.
func chatPrefix(table string) []byte { return append([]byte(fold(table)), 0) }

// AddChat keeps a line of an open table's chat, durably, and drops the
// oldest lines beyond the last keep. ErrNotFound if the table is not
// open.
func (s *Store) AddChat(ctx context.Context, table string, l ChatRecord, keep int) error {
	if err := ctxErr(ctx, "add chat"); err != nil {
		return err
	}
	l.At = l.At.UTC()
	v, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("add chat to %s: %w", table, err)
	}
	err = s.batch(ctx, func(tx *bolt.Tx) error {
		if _, err := openTable(tx, table); err != nil {
			return err
		}
		b := tx.Bucket(bucketChat)
		prefix := chatPrefix(table)
		var keys [][]byte
		c := b.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			keys = append(keys, clone(k))
		}
		next := uint64(1)
		if len(keys) > 0 {
			next = binary.BigEndian.Uint64(keys[len(keys)-1][len(prefix):]) + 1
		}
		if err := b.Put(binary.BigEndian.AppendUint64(clone(prefix), next), v); err != nil {
			return err
		}
		for _, k := range keys[:max(0, len(keys)+1-keep)] {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("add chat to %s: %w", table, err)
	}
	return nil
}

// Chat returns the lines kept of a table's chat, oldest first.
func (s *Store) Chat(ctx context.Context, table string) ([]ChatRecord, error) {
	if err := ctxErr(ctx, "chat"); err != nil {
		return nil, err
	}
	var out []ChatRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		prefix := chatPrefix(table)
		c := tx.Bucket(bucketChat).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var l ChatRecord
			if err := json.Unmarshal(v, &l); err != nil {
				return fmt.Errorf("decode chat line %x: %w", k, err)
			}
			out = append(out, l)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("chat of %s: %w", table, err)
	}
	return out, nil
}

// dropKept drops what a table kept besides its record (its next dice, its
// chat, and what the alerts kept of it): when it closes, or a new table
// takes its name.
func dropKept(tx *bolt.Tx, table string) error {
	if err := tx.Bucket(bucketNextDice).Delete([]byte(fold(table))); err != nil {
		return err
	}
	if err := dropAlerts(tx, table); err != nil {
		return err
	}
	b := tx.Bucket(bucketChat)
	prefix := chatPrefix(table)
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

// mergeKept gives what the person from kept at open tables to the person
// into (mergeTx): their chat lines, the seed they gave, unless into gave
// one at that table too (which stays), and their watches and invitations
// (mergeAlerts).
func mergeKept(tx *bolt.Tx, from, into string) error {
	if err := mergeAlerts(tx, from, into); err != nil {
		return err
	}
	dice := tx.Bucket(bucketNextDice)
	type kv struct{ k, v []byte }
	var puts []kv
	err := dice.ForEach(func(k, v []byte) error {
		var d keptDice
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("decode next dice of %q: %w", k, err)
		}
		i := slices.IndexFunc(d.Given, func(g keptSeed) bool { return g.Person == from })
		if i < 0 {
			return nil
		}
		if slices.ContainsFunc(d.Given, func(g keptSeed) bool { return g.Person == into }) {
			d.Given = slices.Delete(d.Given, i, i+1)
		} else {
			d.Given[i].Person = into
		}
		nv, err := json.Marshal(d)
		if err != nil {
			return err
		}
		puts = append(puts, kv{clone(k), nv})
		return nil
	})
	if err != nil {
		return err
	}
	chat := tx.Bucket(bucketChat)
	var lines []kv
	err = chat.ForEach(func(k, v []byte) error {
		var l ChatRecord
		if err := json.Unmarshal(v, &l); err != nil {
			return fmt.Errorf("decode chat line %x: %w", k, err)
		}
		if l.Person != from {
			return nil
		}
		l.Person = into
		nv, err := json.Marshal(l)
		if err != nil {
			return err
		}
		lines = append(lines, kv{clone(k), nv})
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range puts {
		if err := dice.Put(p.k, p.v); err != nil {
			return err
		}
	}
	for _, l := range lines {
		if err := chat.Put(l.k, l.v); err != nil {
			return err
		}
	}
	return nil
}

// checkKept checks what open tables keep: every next dice and chat line
// belongs to an open table and decodes, a next seed parses, and every
// person with keys it names (who gave a seed, who said a line) exists.
func checkKept(tx *bolt.Tx) []error {
	var errs []error
	open := func(name []byte) bool {
		t, err := getTable(tx, string(name))
		return err == nil && t.IsOpen()
	}
	people := tx.Bucket(bucketPeople)
	unknown := func(id string) bool { return ident.HasKeys(id) && people.Get([]byte(id)) == nil }
	_ = tx.Bucket(bucketNextDice).ForEach(func(k, v []byte) error {
		var d keptDice
		switch {
		case !open(k):
			errs = append(errs, fmt.Errorf("next dice of %q, no open table", k))
		case json.Unmarshal(v, &d) != nil:
			errs = append(errs, fmt.Errorf("next dice of %q do not decode", k))
		default:
			if _, err := fair.ParseSeed(d.Seed); err != nil {
				errs = append(errs, fmt.Errorf("next dice of %q: %w", k, err))
			}
			for _, g := range d.Given {
				if g.Person == "" || unknown(g.Person) {
					errs = append(errs, fmt.Errorf("next dice of %q: a seed of unknown person %q", k, g.Person))
				}
			}
		}
		return nil
	})
	_ = tx.Bucket(bucketChat).ForEach(func(k, v []byte) error {
		i := len(k) - 9 // name 0x00 seq(8)
		var l ChatRecord
		switch {
		case i < 1 || k[i] != 0:
			errs = append(errs, fmt.Errorf("chat: bad key %x", k))
		case !open(k[:i]):
			errs = append(errs, fmt.Errorf("chat of %q, no open table", k[:i]))
		case json.Unmarshal(v, &l) != nil:
			errs = append(errs, fmt.Errorf("chat line %x does not decode", k))
		case unknown(l.Person):
			errs = append(errs, fmt.Errorf("chat line %x: said by unknown person %q", k, l.Person))
		}
		return nil
	})
	return errs
}
