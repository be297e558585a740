package store

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/lobby/ident"
)

// migrations[v-1] turns a file of schema v into schema v+1, in tx.
var migrations = []func(*bolt.Tx) error{migrate1, migrate2, migrate3, migrate4}

// migrate turns a file of schema from into SchemaVersion, in tx (one
// transaction: a failure leaves the file as it was), one schema after the
// other.
func migrate(tx *bolt.Tx, from uint64) error {
	for v := from; v < SchemaVersion; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, u64(SchemaVersion))
}

// Schema 1 knew a person as one SSH key: its bucket "players" held a
// profile per key fingerprint, and every record that meant a person held
// the fingerprint (or a key-less player's identity: "bot:LEVEL:NAME",
// "maexchen:NAME", and "maexchen-gateway" for the gateway). Its "names"
// bucket was keyed by the lower-case name.

// bucketPlayers1 is schema 1's profiles: fingerprint -> player1 (JSON).
var bucketPlayers1 = []byte("players")

// player1 is a profile of schema 1.
type player1 struct {
	Fingerprint string    `json:"fingerprint"`
	Name        string    `json:"name"`
	Bot         bool      `json:"bot"` // the key had used the bot command; a fact of seats now
	Created     time.Time `json:"created"`
	LastSeen    time.Time `json:"last_seen"`
}

// ban1 is a ban of schema 1: always of one key.
type ban1 struct {
	Fingerprint string    `json:"fingerprint"`
	Name        string    `json:"name"` // the key's name when banned: looked up now
	By          string    `json:"by"`
	At          time.Time `json:"at"`
}

// gatewayHost1 was the identity of the Mäxchen gateway in schema 1.
const gatewayHost1 = "maexchen-gateway"

// migrate1 turns a file of schema 1 into schema 2. Nothing is lost:
//
//   - each profile becomes a person ("p:N", numbered in the order the
//     profiles were created) with the key as their one key (added when the
//     profile was created, last seen as the profile was) and its name; of
//     two names that look alike (schema 1 allowed "alice" and "aIice") the
//     older keeps it and the younger becomes NAME-2 (-3, …);
//   - every record that held a fingerprint holds the person's id: each
//     game's seats (which keep the fingerprint too, hashed by the fair
//     seating, and the name played under), the index of games by player,
//     tallies, and tables' hosts, members and seated players; a
//     fingerprint without a profile (none is written by schema 1's server)
//     becomes a person of its own, named playerN;
//   - key-less identities stay what they were, but the gateway's, which
//     becomes ident.GatewayHost;
//   - the ratings (schema 1's multiplayer Elo, if any) are dropped: they
//     are derived from the games, and Open rebuilds them once the file is
//     migrated (ensureRatings);
//   - bans stay bans of their keys (or key-less players); a ban of UDP
//     addresses becomes a ban of their own kind (Ban.UDP);
//   - the Mäxchen bots' held names (udp_names, by name) are keyed by their
//     look, each held; of names that look alike the one heard last keeps
//     its hold, and a hold that looks like a person's name ends;
//   - buckets that schema 1 files may lack (bans, seeds, closed_tables,
//     udp_names) are made.
func migrate1(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketMeta, bucketPlayers1, bucketNames, bucketTables, bucketInvites, bucketGames,
		bucketEvents, bucketActive, bucketFinished, bucketByTable, bucketByPlayer, bucketTallies} {
		if tx.Bucket(b) == nil {
			return fmt.Errorf("%w: schema 1 file without bucket %q", ErrSchema, b)
		}
	}
	udpNames := tx.Bucket(bucketUDPNames) != nil
	if tx.Bucket(bucketOldRatings) != nil {
		if err := tx.DeleteBucket(bucketOldRatings); err != nil {
			return err
		}
	}
	for _, b := range [][]byte{bucketBans, bucketSeeds, bucketClosed, bucketUDPNames} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	m, err := migratePeople(tx)
	if err != nil {
		return fmt.Errorf("migrate people: %w", err)
	}
	steps := []struct {
		what string
		do   func(*bolt.Tx) error
	}{
		{"games", m.games},
		{"games by player", m.byPlayer},
		{"tallies", m.tallies},
		{"tables", m.tables},
		{"bans", m.bans},
	}
	if udpNames {
		steps = append(steps, struct {
			what string
			do   func(*bolt.Tx) error
		}{"udp names", migrateUDPNames})
	}
	for _, st := range steps {
		if err := st.do(tx); err != nil {
			return fmt.Errorf("migrate %s: %w", st.what, err)
		}
	}
	return tx.DeleteBucket(bucketPlayers1)
}

// migration maps schema 1's identities to person ids.
type migration struct {
	ids map[string]string // fingerprint -> person id
	tx  *bolt.Tx
	now time.Time
}

// migratePeople makes a person of every profile, in the order they were
// created, and the people, keys and names buckets anew.
func migratePeople(tx *bolt.Tx) (*migration, error) {
	var profiles []player1
	err := tx.Bucket(bucketPlayers1).ForEach(func(k, v []byte) error {
		var p player1
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("decode player %s: %w", k, err)
		}
		p.Fingerprint = string(k)
		profiles = append(profiles, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(profiles, func(a, b player1) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
	if err := tx.DeleteBucket(bucketNames); err != nil {
		return nil, err
	}
	for _, b := range [][]byte{bucketPeople, bucketKeys, bucketNames, bucketCodes} {
		if _, err := tx.CreateBucket(b); err != nil {
			return nil, fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	m := &migration{ids: map[string]string{}, tx: tx, now: time.Now().UTC()}
	for _, p := range profiles {
		if _, err := m.person(p.Fingerprint, p.Name, p.Created.UTC(), p.LastSeen.UTC()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// person stores a person with one key and a name no one's looks like.
func (m *migration) person(fp, name string, created, seen time.Time) (string, error) {
	n, err := m.tx.Bucket(bucketPeople).NextSequence()
	if err != nil {
		return "", err
	}
	id := ident.PersonID(n)
	if name == "" {
		name = "player" + strconv.FormatUint(n, 10)
	}
	free := name
	for i := 2; len(namesLike(m.tx, free)) > 0; i++ {
		free = name + "-" + strconv.Itoa(i)
	}
	p := Person{ID: id, Name: free, Created: created, Keys: []Key{{Fingerprint: fp, Added: created, LastSeen: seen}}}
	if err := m.tx.Bucket(bucketNames).Put(nameKey(free, id), []byte(id)); err != nil {
		return "", err
	}
	if err := m.tx.Bucket(bucketKeys).Put([]byte(fp), []byte(id)); err != nil {
		return "", err
	}
	if err := putPerson(m.tx, p); err != nil {
		return "", err
	}
	m.ids[fp] = id
	return id, nil
}

// id is the person id of a schema-1 identity.
func (m *migration) id(who string) (string, error) {
	switch {
	case who == "":
		return "", nil
	case who == gatewayHost1:
		return ident.GatewayHost, nil
	case !ident.IsKey(who):
		return who, nil // a key-less player's identity is their id
	}
	if id, ok := m.ids[who]; ok {
		return id, nil
	}
	return m.person(who, "", m.now, m.now)
}

// games gives every seat of every game its person.
func (m *migration) games(tx *bolt.Tx) error {
	b := tx.Bucket(bucketGames)
	var (
		keys [][]byte
		recs []Replay
	)
	err := b.ForEach(func(k, v []byte) error {
		var r Replay
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("decode game %x: %w", k, err)
		}
		keys, recs = append(keys, clone(k)), append(recs, r)
		return nil
	})
	if err != nil {
		return err
	}
	for i, r := range recs {
		for j := range r.Players {
			if r.Players[j].Person, err = m.id(r.Players[j].Fingerprint); err != nil {
				return err
			}
		}
		if err := putGame(tx, binary.BigEndian.Uint64(keys[i]), r); err != nil {
			return err
		}
	}
	return nil
}

// rekey rewrites every key of bucket b whose identity (split from the
// rest by split) is a schema-1 one, keeping values.
func (m *migration) rekey(tx *bolt.Tx, name []byte, split func(k []byte) (pre, who, post []byte, ok bool)) error {
	b := tx.Bucket(name)
	type kv struct{ k, v []byte }
	var moves []kv
	var drops [][]byte
	err := b.ForEach(func(k, v []byte) error {
		pre, who, post, ok := split(k)
		if !ok {
			return fmt.Errorf("bad key %x", k)
		}
		id, err := m.id(string(who))
		if err != nil {
			return err
		}
		if id == string(who) {
			return nil
		}
		nk := append(append(append([]byte{}, pre...), id...), post...)
		drops = append(drops, clone(k))
		moves = append(moves, kv{nk, clone(v)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range drops {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	for _, mv := range moves {
		if err := b.Put(mv.k, mv.v); err != nil {
			return err
		}
	}
	return nil
}

// byPlayer: who 0x00 id(8).
func (m *migration) byPlayer(tx *bolt.Tx) error {
	return m.rekey(tx, bucketByPlayer, func(k []byte) ([]byte, []byte, []byte, bool) {
		if len(k) < 9 || k[len(k)-9] != 0 {
			return nil, nil, nil, false
		}
		return nil, k[:len(k)-9], k[len(k)-9:], true
	})
}

// tallies: who.
func (m *migration) tallies(tx *bolt.Tx) error {
	return m.rekey(tx, bucketTallies, func(k []byte) ([]byte, []byte, []byte, bool) { return nil, k, nil, true })
}

// tables gives open and closed tables' hosts, members and seated players
// their persons.
func (m *migration) tables(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketTables, bucketClosed} {
		b := tx.Bucket(name)
		var (
			keys [][]byte
			ts   []TableRecord
		)
		err := b.ForEach(func(k, v []byte) error {
			var t TableRecord
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("decode table %x: %w", k, err)
			}
			keys, ts = append(keys, clone(k)), append(ts, t)
			return nil
		})
		if err != nil {
			return err
		}
		for i, t := range ts {
			if t.Host, err = m.id(t.Host); err != nil {
				return err
			}
			for j := range t.Members {
				if t.Members[j], err = m.id(t.Members[j]); err != nil {
					return err
				}
			}
			for j := range t.Seated {
				if t.Seated[j].Person, err = m.id(t.Seated[j].Fingerprint); err != nil {
					return err
				}
			}
			v, err := json.Marshal(t)
			if err != nil {
				return err
			}
			if err := b.Put(keys[i], v); err != nil {
				return err
			}
		}
	}
	return nil
}

// bans: each stays a ban of its key (or of its key-less player, such as
// a Mäxchen bot "maexchen:NAME"); one of UDP addresses ("udp:…") becomes
// a ban of addresses.
func (m *migration) bans(tx *bolt.Tx) error {
	b := tx.Bucket(bucketBans)
	type kv struct{ k, v []byte }
	var puts []kv
	err := b.ForEach(func(k, v []byte) error {
		var old ban1
		if err := json.Unmarshal(v, &old); err != nil {
			return fmt.Errorf("decode ban %s: %w", k, err)
		}
		nb := Ban{Key: string(k), By: old.By, At: old.At}
		if addrs, ok := strings.CutPrefix(nb.Key, ident.UDPAddrPrefix); ok {
			nb = Ban{UDP: addrs, By: old.By, At: old.At}
		} else if !ident.IsKey(nb.Key) {
			id, err := m.id(nb.Key)
			if err != nil {
				return err
			}
			nb = Ban{Person: id, By: old.By, At: old.At}
		}
		nv, err := json.Marshal(nb)
		if err != nil {
			return err
		}
		puts = append(puts, kv{[]byte(nb.Target()), nv})
		if nb.Target() != string(k) {
			puts = append(puts, kv{clone(k), nil}) // dropped below
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range puts {
		var err error
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
}

// udpName1 is a held name of schema 1, keyed by the name itself.
type udpName1 struct {
	Name  string    `json:"name"`
	Addr  string    `json:"addr"`
	Heard time.Time `json:"heard"`
}

// migrateUDPNames keys the held names by their look (udpnames.go).
func migrateUDPNames(tx *bolt.Tx) error {
	b := tx.Bucket(bucketUDPNames)
	var names []UDPName
	err := b.ForEach(func(k, v []byte) error {
		var n udpName1
		if err := json.Unmarshal(v, &n); err != nil {
			return fmt.Errorf("decode udp name %q: %w", k, err)
		}
		if n.Name == "" {
			n.Name = string(k)
		}
		names = append(names, UDPName{Name: n.Name, Addr: n.Addr, Heard: n.Heard, Held: true})
		return nil
	})
	if err != nil {
		return err
	}
	return keyUDPNames(tx, names)
}

// schema2Buckets are the buckets of a file of schema 2 that schema 3
// keeps (its ratings, whatever their buckets, are made again on open).
var schema2Buckets = [][]byte{
	bucketMeta, bucketPeople, bucketKeys, bucketNames, bucketCodes,
	bucketTables, bucketInvites,
	bucketGames, bucketEvents, bucketActive, bucketFinished,
	bucketByTable, bucketByPlayer, bucketTallies,
	bucketBans, bucketSeeds, bucketClosed, bucketUDPNames,
}

// migrate2 turns a file of schema 2 into schema 3: the buckets of what an
// open table keeps besides its record (next_dice, chat; tablekeep.go) are
// made, empty (a table's next dice are drawn when it starts). Its tallies
// (version 1, whose bluffs counted understated claims) are counted again
// when the file opens, as they are not stamped (ensureTallies).
func migrate2(tx *bolt.Tx) error {
	for _, b := range schema2Buckets {
		if tx.Bucket(b) == nil {
			return fmt.Errorf("%w: schema 2 file without bucket %q", ErrSchema, b)
		}
	}
	for _, b := range [][]byte{bucketNextDice, bucketChat} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// schema3Buckets are the buckets of a file of schema 3.
var schema3Buckets = append(slices.Clone(schema2Buckets), bucketNextDice, bucketChat)

// migrate3 turns a file of schema 3 into schema 4: the index of people's
// names, keyed by the skeleton alone in schema 3, is keyed by the
// skeleton and the person's id (names.go), so that names kept from before
// the skeleton last changed stand side by side. It is made again, with
// the Mäxchen bots' names, when the file opens, as it is not stamped
// (ensureNames).
func migrate3(tx *bolt.Tx) error {
	for _, b := range schema3Buckets {
		if tx.Bucket(b) == nil {
			return fmt.Errorf("%w: schema 3 file without bucket %q", ErrSchema, b)
		}
	}
	return nil
}

// schema4Buckets are the buckets of a file of schema 4.
var schema4Buckets = schema3Buckets

// migrate4 turns a file of schema 4 into schema 5: the bucket of the
// events' records (eventrecords.go) is made, empty.
func migrate4(tx *bolt.Tx) error {
	for _, b := range schema4Buckets {
		if tx.Bucket(b) == nil {
			return fmt.Errorf("%w: schema 4 file without bucket %q", ErrSchema, b)
		}
	}
	if _, err := tx.CreateBucketIfNotExists(bucketEventRecords); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketEventRecords, err)
	}
	return nil
}
