package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mia-game/mia/engine"
)

// Tally is a person's totals over the games of the history, kept up to
// date as each game ends so that reading it costs one lookup. It counts
// every seat of the person's, played by screen or as a bot alike. The
// games that are public (GamePublic: at a public table) are kept apart
// from the others, so that what everyone may read (PublicTally) moves with
// public games only.
//
// A game's moves are counted when it ends (finished, or abandoned when its
// table closed), never while it runs: whether a claim was a bluff is told
// by dice still under the cup, and a count that moved with each claim
// would tell everyone who can read a tally. Games and Wins count the
// games with a result only (hasResult).
type Tally struct {
	// Games is the number of finished games the player sat in.
	Games int `json:"games"`
	// Wins is the number of those the player won.
	Wins int `json:"wins"`
	// LivesLost sums lives_lost where the player lost them: as the loser
	// of a challenge or of a low claim, by giving up, timing out or
	// leaving (a leaver loses the lives they had), and in the losses of a
	// Mia revealed at once or come back.
	LivesLost int `json:"lives_lost"`
	// Challenges is the number of challenges the player made.
	Challenges int `json:"challenges"`
	// ChallengesWon counts those where the challenger was not the loser.
	ChallengesWon int `json:"challenges_won"`
	// Claims is the number of announcements of dice the player threw
	// (engine.Announces): claim events, low claims (low-claim loses), and
	// the raise of the roller the cup came back to; passes of others'
	// dice, blind raises included, are not claims.
	Claims int `json:"claims"`
	// Bluffs counts claims that engine.Judge finds Bluffed: they name a
	// rank above the dice the player had rolled and looked at. A claim
	// after a roll without looking is not a bluff (the player did not
	// know), nor a pass of dice the player never saw (engine.Short).
	Bluffs int `json:"bluffs"`
	// BluffsCaught counts challenges the player lost as the claimant
	// (engine.ChallengeVerdict: Caught), that is, the dice were lower than
	// the claim the player answered for, and Mias of theirs revealed at
	// once that were not there (engine.RevealVerdict: Caught). Since a
	// passer answers for the claim (RULES.md "pass"), a passer caught this
	// way counts, though their pass is not counted in Bluffs.
	BluffsCaught int `json:"bluffs_caught"`
	// Understated counts claims that engine.Judge finds Understated: they
	// name a rank below the dice the player had looked at. Such a lie is
	// no bluff: no challenge can catch it.
	Understated int `json:"understated"`
}

// What Bluffs, Understated and BluffsCaught count, in the words the
// stats screen and the stats command explain them with: a claim below the
// dice is a lie but no bluff, as no challenge can catch it; a claim made
// without looking is never a bluff, yet can be caught short.
const (
	BluffsMeaning      = "claims above the dice you saw"
	UnderstatedMeaning = "below them (never caught)"
	CaughtMeaning      = "claims or passes found short, seen or blind"
)

// BluffsNote is the note under the stats that says what the three counts
// count, in one sentence.
const BluffsNote = "bluffs: " + BluffsMeaning + "; understated: " + UnderstatedMeaning +
	"; caught bluffing: " + CaughtMeaning + "."

func (t *Tally) add(d Tally) {
	t.Games += d.Games
	t.Wins += d.Wins
	t.LivesLost += d.LivesLost
	t.Challenges += d.Challenges
	t.ChallengesWon += d.ChallengesWon
	t.Claims += d.Claims
	t.Bluffs += d.Bluffs
	t.BluffsCaught += d.BluffsCaught
	t.Understated += d.Understated
}

// tallyDelta is the change of each seat's tally made by one append.
type tallyDelta struct {
	seats []Tally
}

func (d *tallyDelta) seat(n, s int) *Tally {
	if d.seats == nil {
		d.seats = make([]Tally, n)
	}
	return &d.seats[s]
}

// events counts evs of a game under ranking rk. prevRoll(i) is the round's
// last roll before evs[i].
func (d *tallyDelta) events(n int, rk engine.Ranking, evs []engine.Event, prevRoll func(i int) (engine.Event, bool)) {
	for i, e := range evs {
		switch e.Type {
		case engine.EvClaim, engine.EvLowClaim, engine.EvPass:
			r, ok := prevRoll(i)
			if !engine.Announces(r, ok, e) {
				break
			}
			t := d.seat(n, e.Seat)
			t.Claims++
			switch engine.JudgeAfter(rk, r, ok, e) {
			case engine.Bluffed:
				t.Bluffs++
			case engine.Understated:
				t.Understated++
			}
		case engine.EvChallenge:
			c := d.seat(n, e.Seat)
			c.Challenges++
			if e.Loser != e.Seat {
				c.ChallengesWon++
			}
			d.seat(n, e.Loser).LivesLost += e.LivesLost
			if engine.ChallengeVerdict(e) == engine.Caught {
				d.seat(n, e.Claimant).BluffsCaught++
			}
		case engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
			d.seat(n, e.Seat).LivesLost += e.LivesLost
		case engine.EvReveal, engine.EvMiaBack:
			for _, l := range e.Losses {
				d.seat(n, l.Seat).LivesLost += l.LivesLost
			}
			if e.Type == engine.EvReveal && engine.RevealVerdict(e) == engine.Caught {
				d.seat(n, e.Seat).BluffsCaught++
			}
		}
		if e.Type == engine.EvLowClaim {
			d.seat(n, e.Loser).LivesLost += e.LivesLost
		}
	}
}

// finish counts a finished game for every seat, and the win.
func (d *tallyDelta) finish(n, winner int) {
	for s := 0; s < n; s++ {
		d.seat(n, s).Games++
	}
	if winner >= 0 && winner < n {
		d.seat(n, winner).Wins++
	}
}

// tallyKey is the key of a person's tally of public games (GamePublic),
// or of the others: person 0x00 "private".
func tallyKey(person string, public bool) []byte {
	if public {
		return []byte(person)
	}
	return append([]byte(person), privateSuffix...)
}

const privateSuffix = "\x00private"

// tallyPerson is the person of a tally's key, and whether it is the
// tally of their public games.
func tallyPerson(k []byte) (person string, public bool) {
	if p, ok := bytes.CutSuffix(k, []byte(privateSuffix)); ok {
		return string(p), false
	}
	return string(k), true
}

// apply adds the deltas to the stored tallies, by person, of the public
// games or of the others. Seats without a person have no tally; a person
// in two seats of one game counts the game once.
func (d *tallyDelta) apply(tx *bolt.Tx, persons []string, public bool) error {
	if d.seats == nil {
		return nil
	}
	byPerson := make(map[string]Tally, len(persons))
	for s, id := range persons {
		if id == "" || d.seats[s] == (Tally{}) {
			continue
		}
		t, seen := byPerson[id]
		dd := d.seats[s]
		if seen && dd.Games > 0 {
			dd.Games = 0
		}
		t.add(dd)
		byPerson[id] = t
	}
	b := tx.Bucket(bucketTallies)
	for id, dd := range byPerson {
		key := tallyKey(id, public)
		t, err := decodeTally(b.Get(key))
		if err != nil {
			return fmt.Errorf("tally of %s: %w", id, err)
		}
		t.add(dd)
		if err := b.Put(key, t.encode()); err != nil {
			return err
		}
	}
	return nil
}

// A stored tally is a version byte (2) and the nine counters as
// big-endian uint64s, in the order of the struct: an append rewrites a
// few of them, so they are kept cheaper to read and write than JSON.
// Files whose tallies are kept otherwise (version 1, whose Bluffs counted
// understated claims too; or every game under the person) are recounted
// when they open (recountTallies).
const (
	tallyVersion = 2
	tallyFields  = 9
	tallyLen     = 1 + 8*tallyFields
)

func (t Tally) fields() [tallyFields]int {
	return [tallyFields]int{t.Games, t.Wins, t.LivesLost, t.Challenges, t.ChallengesWon, t.Claims, t.Bluffs,
		t.BluffsCaught, t.Understated}
}

func (t Tally) encode() []byte {
	b := make([]byte, 1, tallyLen)
	b[0] = tallyVersion
	for _, f := range t.fields() {
		b = binary.BigEndian.AppendUint64(b, uint64(f))
	}
	return b
}

// decodeTally reads encode's bytes; nil is the zero Tally.
func decodeTally(v []byte) (Tally, error) {
	if v == nil {
		return Tally{}, nil
	}
	if len(v) != tallyLen || v[0] != tallyVersion {
		return Tally{}, fmt.Errorf("bad stored tally (%d bytes, version %d)", len(v), v[0])
	}
	var f [tallyFields]int
	for i := range f {
		f[i] = int(binary.BigEndian.Uint64(v[1+8*i:]))
	}
	return Tally{Games: f[0], Wins: f[1], LivesLost: f[2], Challenges: f[3], ChallengesWon: f[4],
		Claims: f[5], Bluffs: f[6], BluffsCaught: f[7], Understated: f[8]}, nil
}

// The tallies are stamped (meta "tallies") with how they are kept: their
// version, ended games only, public games apart from the others. A file whose stamp differs
// (none: a file of schema 1, 2 or 3 as older servers wrote it) has every
// tally counted again from its games when it opens (ensureTallies).
var keyTallies = []byte("tallies")

// The stamp changes with the encoding (tallyVersion) and with what the
// counts count: the claims of engine.Announces, which count the raise of
// a roller the cup came back to.
var tallyStamp = "ended games; public apart; version " + strconv.Itoa(tallyVersion) + "; a roller's raise is a claim"

// ensureTallies recounts the tallies if the file's stamp differs
// (recountTallies), once: the recount stamps them.
func (s *Store) ensureTallies() error {
	current := false
	err := s.db.View(func(tx *bolt.Tx) error {
		current = string(tx.Bucket(bucketMeta).Get(keyTallies)) == tallyStamp
		return nil
	})
	if err != nil || current {
		return err
	}
	return s.update(context.Background(), recountTallies)
}

// tallyEnded counts the game id, just ended and in the history, into
// its players' tallies: all its moves, and the game and its win when it
// has a result. public is GamePublic's answer for it.
func tallyEnded(tx *bolt.Tx, id uint64, rec *Replay, public bool) error {
	evs, err := readEvents(tx, id)
	if err != nil {
		return fmt.Errorf("tally game %d: %w", id, err)
	}
	persons := rec.persons()
	var d tallyDelta
	d.events(len(persons), rec.Rules.Ranking, evs, func(i int) (engine.Event, bool) { return engine.LastRoll(evs[:i]) })
	if hasResult(rec) {
		d.finish(len(persons), rec.Winner)
	}
	if err := d.apply(tx, persons, public); err != nil {
		return fmt.Errorf("tally game %d: %w", id, err)
	}
	return nil
}

// recountTallies counts every tally again from the games of the history
// (the finished index: games with a result and abandoned ones), by
// person, in tx, as tallyEnded counts each when it ends, each under its
// person's public or other tally (GamePublic); then stamps them. The
// games are the record; tallies are their sums, so nothing is lost.
func recountTallies(tx *bolt.Tx) error {
	if err := tx.DeleteBucket(bucketTallies); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
		return fmt.Errorf("recount tallies: %w", err)
	}
	if _, err := tx.CreateBucket(bucketTallies); err != nil {
		return fmt.Errorf("recount tallies: %w", err)
	}
	var ids []uint64
	if err := tx.Bucket(bucketFinished).ForEach(func(k, _ []byte) error {
		ids = append(ids, binary.BigEndian.Uint64(k))
		return nil
	}); err != nil {
		return err
	}
	records := map[string][]TableRecord{}
	for _, id := range ids {
		rec, err := getGame(tx, id)
		if err != nil {
			return fmt.Errorf("recount tallies: game %d: %w", id, err)
		}
		ts, ok := records[fold(rec.Table)]
		if !ok {
			if ts, err = tableRecordsTx(tx, rec.Table); err != nil {
				return fmt.Errorf("recount tallies: game %d: %w", id, err)
			}
			records[fold(rec.Table)] = ts
		}
		if err := tallyEnded(tx, id, &rec, GamePublic(rec.Started, recordOf(ts, rec.Started))); err != nil {
			return fmt.Errorf("recount tallies: %w", err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keyTallies, []byte(tallyStamp))
}
