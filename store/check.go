package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/ident"
)

// Check verifies the file: bbolt's own page checks (tx.Check), then the
// store's invariants: every event belongs to a known game and decodes with
// the seq of its key, each game's seqs run gap-free from 1, a game is in
// exactly one of the in-progress and finished sets unless abandoned, every
// finished game is indexed by table and player, people, keys and names
// agree (checkPeople), the Mäxchen bots' names (checkUDPNames), what open
// tables keep (checkKept, checkAlerts), every tally is of the current version and of a
// person who exists (checkTallies), and every finished game has one
// finishing number and its ratings (checkRatings). It reads in one
// transaction and returns every
// problem found, joined.
func (s *Store) Check(ctx context.Context) error {
	if err := ctxErr(ctx, "check"); err != nil {
		return err
	}
	var errs []error
	err := s.db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			errs = append(errs, fmt.Errorf("bbolt: %w", err))
		}
		games := map[uint64]Replay{}
		if err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			var r Replay
			if err := json.Unmarshal(v, &r); err != nil {
				errs = append(errs, fmt.Errorf("game key %x: %w", k, err))
				return nil
			}
			games[binary.BigEndian.Uint64(k)] = r
			return nil
		}); err != nil {
			return err
		}
		var (
			cur  uint64
			next = 1
		)
		if err := tx.Bucket(bucketEvents).ForEach(func(k, v []byte) error {
			if len(k) != 16 {
				errs = append(errs, fmt.Errorf("event key %x: bad length", k))
				return nil
			}
			id, seq := binary.BigEndian.Uint64(k), int(binary.BigEndian.Uint64(k[8:]))
			if id != cur {
				cur, next = id, 1
				if _, ok := games[id]; !ok {
					errs = append(errs, fmt.Errorf("events of unknown game %d", id))
				}
			}
			if seq != next {
				errs = append(errs, fmt.Errorf("game %d: seq %d where %d was due", id, seq, next))
			}
			next = seq + 1
			var e engine.Event
			if err := e.UnmarshalJSON(v); err != nil {
				errs = append(errs, fmt.Errorf("game %d seq %d: %w", id, seq, err))
			} else if e.Seq != seq {
				errs = append(errs, fmt.Errorf("game %d: key seq %d holds event seq %d", id, seq, e.Seq))
			}
			return nil
		}); err != nil {
			return err
		}
		active, finished := tx.Bucket(bucketActive), tx.Bucket(bucketFinished)
		for id, r := range games {
			key := u64(id)
			inA, inF := active.Get(key) != nil, finished.Get(key) != nil
			switch {
			case r.Ended.IsZero() && (!inA || inF):
				errs = append(errs, fmt.Errorf("game %d in progress: active %t, finished %t", id, inA, inF))
			case !r.Ended.IsZero() && r.Winner >= 0 && (inA || !inF):
				errs = append(errs, fmt.Errorf("game %d finished: active %t, finished %t", id, inA, inF))
			case !r.Ended.IsZero() && r.Winner < 0 && (inA || inF != (r.Abandoned != nil)):
				// Abandoned by someone's act, it is listed; unrecoverable, not.
				errs = append(errs, fmt.Errorf("game %d abandoned (listed: %t): active %t, finished %t", id, r.Abandoned != nil, inA, inF))
			}
			if inF {
				if tx.Bucket(bucketByTable).Get(indexKey(fold(r.Table), id)) == nil {
					errs = append(errs, fmt.Errorf("game %d: not indexed by table", id))
				}
				for _, p := range r.Players {
					if p.Person != "" && tx.Bucket(bucketByPlayer).Get(indexKey(p.Person, id)) == nil {
						errs = append(errs, fmt.Errorf("game %d: not indexed by player %s", id, p.Person))
					}
				}
			}
		}
		errs = append(errs, checkSeeds(tx, games)...)
		errs = append(errs, checkPeople(tx)...)
		errs = append(errs, checkUDPNames(tx)...)
		errs = append(errs, checkKept(tx)...)
		errs = append(errs, checkAlerts(tx)...)
		errs = append(errs, checkTallies(tx)...)
		errs = append(errs, checkRatings(tx, games)...)
		for _, b := range [][]byte{bucketActive, bucketFinished} {
			c := tx.Bucket(b).Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				if _, ok := games[binary.BigEndian.Uint64(k)]; !ok {
					errs = append(errs, fmt.Errorf("%s: unknown game %x", b, k))
				}
			}
		}
		for _, b := range [][]byte{bucketByTable, bucketByPlayer} {
			c := tx.Bucket(b).Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				i := bytes.LastIndexByte(k[:max(len(k)-8, 0)], 0)
				if len(k) < 9 || i != len(k)-9 {
					errs = append(errs, fmt.Errorf("%s: bad key %x", b, k))
					continue
				}
				if _, ok := games[binary.BigEndian.Uint64(k[len(k)-8:])]; !ok {
					errs = append(errs, fmt.Errorf("%s: unknown game in %x", b, k))
				}
			}
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("check %s: %w", s.path, errors.Join(errs...))
	}
	return nil
}

// checkSeeds checks the secret seeds kept apart until their games end:
// each belongs to a game in progress with fair dice and matches its
// commitment, and each such game has its seed.
func checkSeeds(tx *bolt.Tx, games map[uint64]Replay) []error {
	var errs []error
	seeds := tx.Bucket(bucketSeeds)
	c := seeds.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 {
			errs = append(errs, fmt.Errorf("seeds: bad key %x", k))
			continue
		}
		id := binary.BigEndian.Uint64(k)
		r, ok := games[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("seeds: unknown game %d", id))
		case !r.Ended.IsZero():
			errs = append(errs, fmt.Errorf("game %d ended with its seed still kept apart", id))
		case r.Fair == nil:
			errs = append(errs, fmt.Errorf("game %d has a seed and no fair dice", id))
		default:
			if seed, err := fair.ParseSeed(string(v)); err != nil {
				errs = append(errs, fmt.Errorf("game %d: seed: %w", id, err))
			} else if seed.Commitment() != r.Fair.Commitment {
				errs = append(errs, fmt.Errorf("game %d: its seed does not match its commitment", id))
			}
		}
	}
	for id, r := range games {
		if r.Ended.IsZero() && r.Fair != nil && seeds.Get(u64(id)) == nil {
			errs = append(errs, fmt.Errorf("game %d in progress with fair dice has no seed", id))
		}
	}
	return errs
}

// checkPeople checks people, keys and names against each other: every
// person's keys point back to them and every key to a person listing it;
// every person's name is indexed by its skeleton to them, and every name
// to a person so named; no person is without a key or a name.
func checkPeople(tx *bolt.Tx) []error {
	var errs []error
	keys, names := tx.Bucket(bucketKeys), tx.Bucket(bucketNames)
	people := map[string]Person{}
	_ = tx.Bucket(bucketPeople).ForEach(func(k, v []byte) error {
		var p Person
		if err := json.Unmarshal(v, &p); err != nil {
			errs = append(errs, fmt.Errorf("person %s: %w", k, err))
			return nil
		}
		if p.ID != string(k) {
			errs = append(errs, fmt.Errorf("person key %s holds %s", k, p.ID))
		}
		people[p.ID] = p
		if len(p.Keys) == 0 {
			errs = append(errs, fmt.Errorf("person %s has no key", p.ID))
		}
		for _, key := range p.Keys {
			if owner := keys.Get([]byte(key.Fingerprint)); string(owner) != p.ID {
				errs = append(errs, fmt.Errorf("person %s lists key %s, which is %q's", p.ID, key.Fingerprint, owner))
			}
		}
		if p.Name == "" {
			errs = append(errs, fmt.Errorf("person %s has no name", p.ID))
		} else if owner := names.Get(nameKey(p.Name, p.ID)); string(owner) != p.ID {
			errs = append(errs, fmt.Errorf("person %s's name %q is not indexed to them (%q)", p.ID, p.Name, owner))
		}
		return nil
	})
	_ = keys.ForEach(func(k, v []byte) error {
		if p, ok := people[string(v)]; !ok || !p.HasKey(string(k)) {
			errs = append(errs, fmt.Errorf("key %s points to %s, who does not list it", k, v))
		}
		return nil
	})
	_ = names.ForEach(func(k, v []byte) error {
		if p, ok := people[string(v)]; !ok || !bytes.Equal(nameKey(p.Name, p.ID), k) {
			errs = append(errs, fmt.Errorf("name %q points to %s, who is not so named", k, v))
		}
		return nil
	})
	if got := string(tx.Bucket(bucketMeta).Get(keyNames)); got != namesStamp {
		errs = append(errs, fmt.Errorf("names keyed as %q, not %q", got, namesStamp))
	}
	return errs
}

// checkUDPNames checks the Mäxchen bots' names: each is keyed by its
// skeleton, and none looks like a person's.
func checkUDPNames(tx *bolt.Tx) []error {
	var errs []error
	_ = tx.Bucket(bucketUDPNames).ForEach(func(k, v []byte) error {
		var n UDPName
		switch err := json.Unmarshal(v, &n); {
		case err != nil:
			errs = append(errs, fmt.Errorf("udp name %q: %w", k, err))
		case ident.Skeleton(n.Name) != string(k):
			errs = append(errs, fmt.Errorf("udp name %q is keyed %q", n.Name, k))
		case len(namesLike(tx, n.Name)) > 0:
			errs = append(errs, fmt.Errorf("udp name %q looks like the name of person %s", n.Name, namesLike(tx, n.Name)[0]))
		}
		return nil
	})
	return errs
}

// checkTallies: the tallies are kept as this code keeps them (the stamp
// in meta "tallies"; a file without it is recounted when it opens), and
// every tally decodes as the current version, of a person who exists or a
// key-less player, public or private (tallyKey).
func checkTallies(tx *bolt.Tx) []error {
	var errs []error
	if got := string(tx.Bucket(bucketMeta).Get(keyTallies)); got != tallyStamp {
		errs = append(errs, fmt.Errorf("tallies kept as %q, not %q", got, tallyStamp))
	}
	people := tx.Bucket(bucketPeople)
	_ = tx.Bucket(bucketTallies).ForEach(func(k, v []byte) error {
		person, public := tallyPerson(k)
		if _, err := decodeTally(v); err != nil {
			of := person
			if !public {
				of += " (private games)"
			}
			errs = append(errs, fmt.Errorf("tally of %s: %w", of, err))
		}
		if ident.HasKeys(person) && people.Get([]byte(person)) == nil {
			errs = append(errs, fmt.Errorf("tally of unknown person %s", person))
		}
		return nil
	})
	return errs
}

// checkRatings checks the finishing numbers and the ratings made from
// them: every finished game has exactly one number and a record of its
// changes carrying it, every number names a finished game, and the
// stored ratings were made by this model and layout (RatingsStamp).
func checkRatings(tx *bolt.Tx, games map[uint64]Replay) []error {
	var errs []error
	if got := string(tx.Bucket(bucketMeta).Get(keyRatings)); got != RatingsStamp() {
		errs = append(errs, fmt.Errorf("ratings made by %q, not %q", got, RatingsStamp()))
	}
	order, changes := tx.Bucket(bucketFinishOrder), tx.Bucket(bucketRatingGames)
	if order == nil || changes == nil || tx.Bucket(bucketBoards) == nil {
		return append(errs, errors.New("the ratings' buckets are missing"))
	}
	seqOf := map[uint64]uint64{}
	_ = order.ForEach(func(k, v []byte) error {
		if len(k) != 8 || len(v) != 8 {
			errs = append(errs, fmt.Errorf("finish order: bad entry %x", k))
			return nil
		}
		seq, id := binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(v)
		r, ok := games[id]
		switch {
		case !ok || !hasResult(&r):
			errs = append(errs, fmt.Errorf("finish order %d: game %d did not finish with a result", seq, id))
		case seqOf[id] != 0:
			errs = append(errs, fmt.Errorf("game %d has finishing numbers %d and %d", id, seqOf[id], seq))
		}
		seqOf[id] = seq
		return nil
	})
	for id, r := range games {
		if !hasResult(&r) { // in progress, or abandoned (listed or not): no number
			if changes.Get(u64(id)) != nil {
				errs = append(errs, fmt.Errorf("game %d without a result has ratings", id))
			}
			continue
		}
		seq, ok := seqOf[id]
		if !ok {
			errs = append(errs, fmt.Errorf("finished game %d has no finishing number", id))
			continue
		}
		v := changes.Get(u64(id))
		if v == nil {
			errs = append(errs, fmt.Errorf("finished game %d has no ratings", id))
			continue
		}
		gr, err := decodeGameRatings(v)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("game %d: ratings: %w", id, err))
		case gr.Seq != seq:
			errs = append(errs, fmt.Errorf("game %d: ratings of finishing number %d, not %d", id, gr.Seq, seq))
		}
	}
	return errs
}
