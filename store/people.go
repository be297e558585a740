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

	"github.com/mia-game/mia/lobby/ident"
)

// Person is someone who plays with SSH keys: an id that never changes
// (ident: "p:N"), a name, unique by its look (ident.Skeleton; names.go),
// and the
// keys that log them in. Built-in bots and the Mäxchen gateway's players
// are persons too, of kinds without keys and without a record here: their
// ids carry their names.
type Person struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Keys     []Key     `json:"keys"` // in the order they were added
	Created  time.Time `json:"created"`
	Settings Settings  `json:"settings,omitzero"`
}

// Settings are a person's own choices of how the server treats them,
// kept with the person and so the same from every key of theirs (the
// settings command lists and changes them; ChangeSettings stores a
// change). The zero value is every setting off.
type Settings struct {
	// Plain: every session of theirs with no command, or play, is the
	// plain, linear mode (sshapp/plain) instead of the screens.
	Plain bool `json:"plain,omitempty"`
	// BellOff: a notice on their screens rings no bell (settings bell
	// off); the bell rings by default.
	BellOff bool `json:"bell_off,omitempty"`
}

// Key is one of a person's SSH keys.
type Key struct {
	Fingerprint string    `json:"fingerprint"` // SHA256 fingerprint, as ssh-keygen -l prints it
	Added       time.Time `json:"added"`
	LastSeen    time.Time `json:"last_seen"`
}

// HasKey reports whether fp is one of p's keys.
func (p Person) HasKey(fp string) bool {
	return slices.ContainsFunc(p.Keys, func(k Key) bool { return k.Fingerprint == fp })
}

// Errors of people and keys.
var (
	// ErrBadCode: the key code is unknown, already used or expired.
	ErrBadCode = errors.New("invalid key code")
	// ErrHasGames: the key belongs to a person who has games of their own
	// (a *GamesError tells how many).
	ErrHasGames = errors.New("the key's person has games")
	// ErrOwnKey: the key is the person's already.
	ErrOwnKey = errors.New("the key is the person's already")
	// ErrLastKey: a person's last key is never removed.
	ErrLastKey = errors.New("a person's last key")
)

// GamesError is ErrHasGames with what the key's person has played.
type GamesError struct {
	Person  string // the key's person
	Name    string
	Games   int // finished games
	Running int // games in progress
}

func (e *GamesError) Error() string {
	return fmt.Sprintf("%s (%s) has %d finished and %d running games", e.Person, e.Name, e.Games, e.Running)
}

// Is matches ErrHasGames.
func (e *GamesError) Is(target error) bool { return target == ErrHasGames }

// PersonByKey returns the person a key belongs to, or ErrNotFound for a
// key that is nobody's (a stranger).
func (s *Store) PersonByKey(ctx context.Context, fingerprint string) (Person, error) {
	if err := ctxErr(ctx, "person by key"); err != nil {
		return Person{}, err
	}
	var p Person
	err := s.db.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketKeys).Get([]byte(fingerprint))
		if id == nil {
			return ErrNotFound
		}
		var err error
		p, err = getPerson(tx, string(id))
		return err
	})
	if err != nil {
		return Person{}, fmt.Errorf("person of key %s: %w", fingerprint, err)
	}
	return p, nil
}

// Person returns a person with keys by id, or ErrNotFound.
func (s *Store) Person(ctx context.Context, id string) (Person, error) {
	if err := ctxErr(ctx, "person"); err != nil {
		return Person{}, err
	}
	var p Person
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		p, err = getPerson(tx, id)
		return err
	})
	if err != nil {
		return Person{}, fmt.Errorf("person %s: %w", id, err)
	}
	return p, nil
}

// PersonByName finds the person whose name looks like name (the same
// ident.Skeleton: "ALICE", "a1ice" and "alice_" find alice), or returns
// ErrNotFound. No two people have names that look alike, but for names
// taken before the look last changed: of those, the one spelled name
// (then so but for case, then the oldest).
func (s *Store) PersonByName(ctx context.Context, name string) (Person, error) {
	if err := ctxErr(ctx, "person by name"); err != nil {
		return Person{}, err
	}
	var p Person
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		p, err = personLike(tx, name)
		return err
	})
	if err != nil {
		return Person{}, fmt.Errorf("person named %q: %w", name, err)
	}
	return p, nil
}

// SetName gives the person of a key their name; a key that is nobody's
// becomes a new person's first key (Created, Added and LastSeen now). No
// one else's name may look like it (ident.Skeleton; a name kept from
// before the look last changed counts too), nor a Mäxchen bot's
// (UDPName: ErrNameTaken and ErrNameHeld), in the same transaction
// (ErrNameTaken); a change of case or of look to one's own name is
// allowed, and one's own name as it is. The store keeps any name that is not empty and has no
// NUL byte: what a name may be is the caller's rule (lobby.CheckName).
func (s *Store) SetName(ctx context.Context, fingerprint, name string) (Person, error) {
	if err := ctxErr(ctx, "set name"); err != nil {
		return Person{}, err
	}
	if name == "" {
		return Person{}, fmt.Errorf("set name: empty name")
	}
	if err := noNUL("name", name); err != nil {
		return Person{}, fmt.Errorf("set name: %w", err)
	}
	if fingerprint == "" {
		return Person{}, fmt.Errorf("set name %q: empty fingerprint", name)
	}
	if err := noNUL("fingerprint", fingerprint); err != nil {
		return Person{}, fmt.Errorf("set name: %w", err)
	}
	// Batch: people naming themselves at once share one commit (and its
	// fsync) instead of queueing for one each; the function may run again
	// if another in the batch fails, so it sets p afresh each time.
	var p Person
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketKeys).Get([]byte(fingerprint))
		if looksTaken(tx, name, string(id)) && !hasName(tx, id, name) {
			return ErrNameTaken
		}
		if tx.Bucket(bucketUDPNames).Get(udpNameKey(name)) != nil {
			// A Mäxchen bot's, registered or held (udpnames.go).
			return fmt.Errorf("%w: %w", ErrNameTaken, ErrNameHeld)
		}
		if id == nil {
			var err error
			if p, err = newPerson(tx, fingerprint, time.Now().UTC()); err != nil {
				return err
			}
		} else {
			old, err := getPerson(tx, string(id))
			if err != nil {
				return err
			}
			p = old
			if err := dropName(tx, p); err != nil {
				return err
			}
		}
		p.Name = name
		if err := tx.Bucket(bucketNames).Put(nameKey(name, p.ID), []byte(p.ID)); err != nil {
			return err
		}
		return putPerson(tx, p)
	})
	if err != nil {
		return Person{}, fmt.Errorf("set name %q for %s: %w", name, fingerprint, err)
	}
	return p, nil
}

// newPerson makes a person with one key (not yet named, not yet stored).
func newPerson(tx *bolt.Tx, fingerprint string, now time.Time) (Person, error) {
	n, err := tx.Bucket(bucketPeople).NextSequence()
	if err != nil {
		return Person{}, err
	}
	p := Person{ID: ident.PersonID(n), Created: now, Keys: []Key{{Fingerprint: fingerprint, Added: now, LastSeen: now}}}
	if err := tx.Bucket(bucketKeys).Put([]byte(fingerprint), []byte(p.ID)); err != nil {
		return Person{}, err
	}
	return p, nil
}

// hasName reports whether the person id is named name already (a name
// kept from before the look last changed may be set again as it is).
func hasName(tx *bolt.Tx, id []byte, name string) bool {
	if id == nil {
		return false
	}
	p, err := getPerson(tx, string(id))
	return err == nil && p.Name == name
}

// dropName frees p's name in the index.
func dropName(tx *bolt.Tx, p Person) error {
	if p.Name == "" {
		return nil
	}
	return tx.Bucket(bucketNames).Delete(nameKey(p.Name, p.ID))
}

// ChangeSettings changes the settings of the person id in one
// transaction: change is given them as stored and changes them in place
// (it may run more than once: it sets, it does not toggle). It returns
// the person as stored after the change; ErrNotFound for no such person.
func (s *Store) ChangeSettings(ctx context.Context, id string, change func(*Settings)) (Person, error) {
	if err := ctxErr(ctx, "change settings"); err != nil {
		return Person{}, err
	}
	var p Person
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		var err error
		if p, err = getPerson(tx, id); err != nil {
			return err
		}
		change(&p.Settings)
		return putPerson(tx, p)
	})
	if err != nil {
		return Person{}, fmt.Errorf("change the settings of %s: %w", id, err)
	}
	return p, nil
}

// Touch records that a key was seen at the given time; ErrNotFound if the
// key is nobody's.
func (s *Store) Touch(ctx context.Context, fingerprint string, at time.Time) error {
	if err := ctxErr(ctx, "touch"); err != nil {
		return err
	}
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketKeys).Get([]byte(fingerprint))
		if id == nil {
			return ErrNotFound
		}
		p, err := getPerson(tx, string(id))
		if err != nil {
			return err
		}
		i := slices.IndexFunc(p.Keys, func(k Key) bool { return k.Fingerprint == fingerprint })
		if i < 0 {
			return fmt.Errorf("person %s does not list key %s", p.ID, fingerprint)
		}
		p.Keys[i].LastSeen = at.UTC()
		return putPerson(tx, p)
	})
	if err != nil {
		return fmt.Errorf("touch %s: %w", fingerprint, err)
	}
	return nil
}

// keyCode is the stored part of a one-time key code: only the hash of the
// code is its key.
type keyCode struct {
	Person  string    `json:"person"`
	Expires time.Time `json:"expires"`
}

func codeKey(code string) []byte {
	h := sha256.Sum256([]byte(code))
	return h[:]
}

// AddKeyCode stores a one-time code that attaches a key to the person,
// valid until expires (JoinKey). Only the code's SHA-256 is stored.
// Expired codes are dropped on the way. ErrNotFound if there is no such
// person.
func (s *Store) AddKeyCode(ctx context.Context, person, code string, expires time.Time) error {
	if err := ctxErr(ctx, "add key code"); err != nil {
		return err
	}
	if code == "" {
		return fmt.Errorf("add key code for %s: empty code", person)
	}
	v, err := json.Marshal(keyCode{Person: person, Expires: expires.UTC()})
	if err != nil {
		return fmt.Errorf("add key code for %s: %w", person, err)
	}
	now := time.Now()
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := getPerson(tx, person); err != nil {
			return err
		}
		b := tx.Bucket(bucketCodes)
		var stale [][]byte
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var kc keyCode
			if json.Unmarshal(v, &kc) != nil || !now.Before(kc.Expires) {
				stale = append(stale, clone(k))
			}
		}
		for _, k := range stale {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return b.Put(codeKey(code), v)
	})
	if err != nil {
		return fmt.Errorf("add key code for %s: %w", person, err)
	}
	return nil
}

// Joined is what JoinKey did.
type Joined struct {
	Person Person // the person the key belongs to now, with every key
	// Merged is the id of the person the key belonged to before, when it
	// was their last key: that person, who had no games, is merged into
	// Person (the tables they hosted, were members of or sat at are
	// Person's now) and no longer exists. "" when the key was nobody's or
	// its person keeps other keys.
	Merged string
	// Left is the name of the key's former person, "" if none.
	Left string
}

// JoinKey spends a one-time code of AddKeyCode: the key fingerprint
// becomes one of the code's person's keys. A key that was nobody's is
// simply added. A key of another person who has games (finished or
// running) is refused with a *GamesError (ErrHasGames); one of a person
// without games moves, and if it was their last key that person is merged
// (see Joined). The code is spent only when the key is attached; an
// unknown, used or expired code is ErrBadCode; a key that is the person's
// already is ErrOwnKey (the code is not spent).
func (s *Store) JoinKey(ctx context.Context, code, fingerprint string, now time.Time) (Joined, error) {
	if err := ctxErr(ctx, "join key"); err != nil {
		return Joined{}, err
	}
	if fingerprint == "" || noNUL("fingerprint", fingerprint) != nil {
		return Joined{}, fmt.Errorf("join key: bad fingerprint %q", fingerprint)
	}
	var (
		out     Joined
		expired bool
	)
	err := s.write(ctx, false, func(tx *bolt.Tx) error {
		codes := tx.Bucket(bucketCodes)
		ck := codeKey(code)
		v := codes.Get(ck)
		if v == nil {
			return ErrBadCode
		}
		var kc keyCode
		if err := json.Unmarshal(v, &kc); err != nil {
			return fmt.Errorf("decode key code: %w", err)
		}
		target, err := getPerson(tx, kc.Person)
		if errors.Is(err, ErrNotFound) || err == nil && !now.Before(kc.Expires) {
			expired = true // commit the deletion, then refuse
			return codes.Delete(ck)
		}
		if err != nil {
			return err
		}
		keys := tx.Bucket(bucketKeys)
		if owner := keys.Get([]byte(fingerprint)); owner != nil {
			if string(owner) == target.ID {
				return ErrOwnKey
			}
			old, err := getPerson(tx, string(owner))
			if err != nil {
				return err
			}
			if err := refuseGames(tx, old); err != nil {
				return err
			}
			out.Left = old.Name
			old.Keys = slices.DeleteFunc(old.Keys, func(k Key) bool { return k.Fingerprint == fingerprint })
			if len(old.Keys) > 0 {
				if err := putPerson(tx, old); err != nil {
					return err
				}
			} else {
				out.Merged = old.ID
				if err := mergeTx(tx, old, target.ID); err != nil {
					return fmt.Errorf("merge %s into %s: %w", old.ID, target.ID, err)
				}
			}
		}
		target.Keys = append(target.Keys, Key{Fingerprint: fingerprint, Added: now.UTC(), LastSeen: now.UTC()})
		if err := keys.Put([]byte(fingerprint), []byte(target.ID)); err != nil {
			return err
		}
		if err := putPerson(tx, target); err != nil {
			return err
		}
		out.Person = target
		return codes.Delete(ck)
	}, func(err error) error {
		if err == nil && expired {
			err = fmt.Errorf("expired: %w", ErrBadCode)
		}
		return err
	})
	if err != nil {
		return Joined{}, fmt.Errorf("join key %s: %w", fingerprint, err)
	}
	return out, nil
}

// refuseGames returns a *GamesError if p has games: finished (indexed by
// player, tallied or rated) or running.
func refuseGames(tx *bolt.Tx, p Person) error {
	e := &GamesError{Person: p.ID, Name: p.Name}
	prefix := append([]byte(p.ID), 0)
	c := tx.Bucket(bucketByPlayer).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		e.Games++
	}
	err := tx.Bucket(bucketActive).ForEach(func(k, _ []byte) error {
		rec, err := getGame(tx, binary.BigEndian.Uint64(k))
		if err != nil {
			return err
		}
		if slices.ContainsFunc(rec.Players, func(rp ReplayPlayer) bool { return rp.Person == p.ID }) {
			e.Running++
		}
		return nil
	})
	if err != nil {
		return err
	}
	if t := tx.Bucket(bucketTallies).Get([]byte(p.ID)); e.Games == 0 && t != nil {
		e.Games = max(e.Games, 1) // events of a game tallied, though none is indexed: a game all the same
	}
	if e.Games > 0 || e.Running > 0 {
		return e
	}
	return nil
}

// mergeTx removes the person old, who has no games and no keys left, and
// gives what they had to into: the tables they host, are members of or sit
// at (open and closed), their lines in tables' chats and the seeds they
// gave (mergeKept); their name is freed, their codes and ban dropped.
func mergeTx(tx *bolt.Tx, old Person, into string) error {
	if err := mergeKept(tx, old.ID, into); err != nil {
		return err
	}
	swap := func(t *TableRecord) bool {
		changed := false
		if t.Host == old.ID {
			t.Host, changed = into, true
		}
		if i := slices.Index(t.Members, old.ID); i >= 0 {
			t.Members = slices.Delete(slices.Clone(t.Members), i, i+1)
			if t.Host != into && !slices.Contains(t.Members, into) {
				t.Members = append(t.Members, into)
			}
			changed = true
		}
		if i := slices.IndexFunc(t.Seated, func(s Seat) bool { return s.Person == old.ID }); i >= 0 {
			seated := slices.Clone(t.Seated)
			if slices.ContainsFunc(seated, func(s Seat) bool { return s.Person == into }) {
				seated = slices.Delete(seated, i, i+1)
			} else {
				seated[i].Person = into
			}
			t.Seated, changed = seated, true
		}
		return changed
	}
	for _, name := range [][]byte{bucketTables, bucketClosed} {
		b := tx.Bucket(name)
		var (
			keys [][]byte
			vals []TableRecord
		)
		err := b.ForEach(func(k, v []byte) error {
			var t TableRecord
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("decode table %x: %w", k, err)
			}
			if swap(&t) {
				keys, vals = append(keys, clone(k)), append(vals, t)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i, k := range keys {
			v, err := json.Marshal(vals[i])
			if err != nil {
				return err
			}
			if err := b.Put(k, v); err != nil {
				return err
			}
		}
	}
	codes := tx.Bucket(bucketCodes)
	var stale [][]byte
	if err := codes.ForEach(func(k, v []byte) error {
		var kc keyCode
		if json.Unmarshal(v, &kc) == nil && kc.Person == old.ID {
			stale = append(stale, clone(k))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range stale {
		if err := codes.Delete(k); err != nil {
			return err
		}
	}
	if err := tx.Bucket(bucketBans).Delete([]byte(old.ID)); err != nil {
		return err
	}
	if err := dropName(tx, old); err != nil {
		return err
	}
	return tx.Bucket(bucketPeople).Delete([]byte(old.ID))
}

// RemoveKey detaches a key from its person: the key is nobody's again (a
// stranger's). ErrNotFound if it is not the person's, ErrLastKey if it
// is their only key.
func (s *Store) RemoveKey(ctx context.Context, person, fingerprint string) (Person, error) {
	if err := ctxErr(ctx, "remove key"); err != nil {
		return Person{}, err
	}
	var p Person
	err := s.update(ctx, func(tx *bolt.Tx) error {
		var err error
		if p, err = getPerson(tx, person); err != nil {
			return err
		}
		if !p.HasKey(fingerprint) {
			return ErrNotFound
		}
		if len(p.Keys) == 1 {
			return ErrLastKey
		}
		p.Keys = slices.DeleteFunc(p.Keys, func(k Key) bool { return k.Fingerprint == fingerprint })
		if err := tx.Bucket(bucketKeys).Delete([]byte(fingerprint)); err != nil {
			return err
		}
		return putPerson(tx, p)
	})
	if err != nil {
		return Person{}, fmt.Errorf("remove key %s of %s: %w", fingerprint, person, err)
	}
	return p, nil
}

func getPerson(tx *bolt.Tx, id string) (Person, error) {
	v := tx.Bucket(bucketPeople).Get([]byte(id))
	if v == nil {
		return Person{}, ErrNotFound
	}
	var p Person
	if err := json.Unmarshal(v, &p); err != nil {
		return Person{}, fmt.Errorf("decode person %s: %w", id, err)
	}
	return p, nil
}

func putPerson(tx *bolt.Tx, p Person) error {
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketPeople).Put([]byte(p.ID), v)
}

// nameOf is the name of a person by id as the store knows it now: a
// person with keys from their record, a key-less player's from their id;
// "" if neither.
func nameOf(tx *bolt.Tx, id string) string {
	if ident.HasKeys(id) {
		if p, err := getPerson(tx, id); err == nil {
			return p.Name
		}
		return ""
	}
	name, _ := ident.KeylessName(id)
	return name
}
