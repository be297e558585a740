package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// The rating is a multiplayer Elo: a finished game of n players counts as
// the n(n-1)/2 two-player results between every pair of seats, the one
// placed higher in the standings beating the other. Each seat's rating
// moves by K·Σ(score − expected) over its n−1 pairs, with K = 32/(n−1), so
// one game moves a rating by at most 32 whatever the number of players,
// and beating strong players earns more than beating weak ones. Every
// pair's changes cancel, so a game leaves the sum of its players' ratings
// as it was (Elo is zero-sum). All pairs use the ratings from before the
// game. Ratings are kept overall and per table, updated by Append in the
// transaction that finishes the game.
const (
	// StartRating is the rating of a player before their first game.
	StartRating = 1500.0
	// EloK is the most one game moves a rating; a game of n players uses
	// EloK/(n−1) for each of the n−1 pairs of a seat.
	EloK = 32.0
)

// Rating is a person's standing overall or at one table. A person has
// one rating whether they played by screen or as a bot (a bot is a fact
// of a seat, not of a person); BotGames counts the games they played in a
// bot's seat.
type Rating struct {
	Person   string  `json:"person"`
	Name     string  `json:"name"` // their name now
	Rating   float64 `json:"rating"`
	Games    int     `json:"games"` // finished games rated
	Wins     int     `json:"wins"`
	BotGames int     `json:"bot_games"` // of Games, those played in a bot's seat
}

// Bot reports whether every rated game was played in a bot's seat: a
// built-in bot, a bot of the gateway or one on the line protocol.
func (r Rating) Bot() bool { return r.Games > 0 && r.BotGames == r.Games }

// ratingRecord is the stored value of a rating.
type ratingRecord struct {
	Rating   float64 `json:"rating"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	BotGames int     `json:"bot_games,omitempty"`
}

// ratingKey is lower(table) 0x00 person; table "" is overall.
func ratingKey(table, person string) []byte {
	k := make([]byte, 0, len(table)+1+len(person))
	k = append(k, fold(table)...)
	k = append(k, 0)
	return append(k, person...)
}

func getRating(b *bolt.Bucket, key []byte) (ratingRecord, bool, error) {
	v := b.Get(key)
	if v == nil {
		return ratingRecord{Rating: StartRating}, false, nil
	}
	var r ratingRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return ratingRecord{}, false, fmt.Errorf("decode rating %q: %w", key, err)
	}
	return r, true, nil
}

// eloDeltas returns the change of each seat's rating for one game: before
// holds the seats' ratings, place their places (0 first; equal places
// draw). Seats i and j with same(i, j) (one key in two seats) are not
// paired. The changes of every pair cancel out.
func eloDeltas(before []float64, place []int, same func(i, j int) bool) []float64 {
	n := len(before)
	d := make([]float64, n)
	if n < 2 {
		return d
	}
	k := EloK / float64(n-1)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if same != nil && same(i, j) {
				continue
			}
			expect := 1 / (1 + math.Pow(10, (before[j]-before[i])/400))
			score := 0.5
			switch {
			case place[i] < place[j]:
				score = 1
			case place[i] > place[j]:
				score = 0
			}
			d[i] += k * (score - expect)
			d[j] -= k * (score - expect)
		}
	}
	return d
}

// places turns standings (seats, winner first) into a place per seat; a
// seat missing from the standings shares the last place.
func places(n int, standings []int, winner int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = len(standings)
	}
	if len(standings) == 0 && winner >= 0 && winner < n {
		for i := range p {
			p[i] = 1
		}
		p[winner] = 0
	}
	for i, s := range standings {
		if s >= 0 && s < n && p[s] == len(standings) {
			p[s] = i
		}
	}
	return p
}

// rateTx updates the overall and the table's ratings of a game's players
// once it is finished. Seats without a person play at StartRating and are
// not stored; a person in two seats counts the game once.
func rateTx(tx *bolt.Tx, rec *Replay, res Result) error {
	n := len(rec.Players)
	place := places(n, res.Standings, res.Winner)
	fp := func(i int) string { return rec.Players[i].Person }
	same := func(i, j int) bool { return fp(i) != "" && fp(i) == fp(j) }
	b := tx.Bucket(bucketRatings)
	for _, table := range []string{"", rec.Table} {
		before := make([]float64, n)
		recs := make(map[string]ratingRecord, n)
		for i := range rec.Players {
			before[i] = StartRating
			if fp(i) == "" {
				continue
			}
			r, ok := recs[fp(i)]
			if !ok {
				var err error
				if r, _, err = getRating(b, ratingKey(table, fp(i))); err != nil {
					return err
				}
				recs[fp(i)] = r
			}
			before[i] = r.Rating
		}
		d := eloDeltas(before, place, same)
		counted := make(map[string]bool, n)
		for i, p := range rec.Players {
			if p.Person == "" {
				continue
			}
			r := recs[p.Person]
			r.Rating += d[i]
			if !counted[p.Person] {
				counted[p.Person] = true
				r.Games++
				if res.Winner >= 0 && res.Winner < n && fp(res.Winner) == p.Person {
					r.Wins++
				}
				if botSeat(rec, p.Person) {
					r.BotGames++
				}
			}
			recs[p.Person] = r
		}
		for f, r := range recs {
			v, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if err := b.Put(ratingKey(table, f), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// botSeat reports whether person played every seat of theirs in the game
// as a bot.
func botSeat(rec *Replay, person string) bool {
	for _, p := range rec.Players {
		if p.Person == person && !p.Bot {
			return false
		}
	}
	return true
}

// Rating returns a person's rating overall (table "") or at a table. A
// person without a rated game there has StartRating and no games, not an
// error.
func (s *Store) Rating(ctx context.Context, person, table string) (Rating, error) {
	if err := ctxErr(ctx, "rating"); err != nil {
		return Rating{}, err
	}
	var out Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		r, _, err := getRating(tx.Bucket(bucketRatings), ratingKey(table, person))
		if err != nil {
			return err
		}
		out = ratingOf(tx, person, r)
		return nil
	})
	if err != nil {
		return Rating{}, fmt.Errorf("rating of %s at %q: %w", person, table, err)
	}
	return out, nil
}

// ratingOf is r with the person's name now.
func ratingOf(tx *bolt.Tx, person string, r ratingRecord) Rating {
	return Rating{Person: person, Name: nameOf(tx, person), Rating: r.Rating, Games: r.Games, Wins: r.Wins, BotGames: r.BotGames}
}

// Leaderboard ranks the people with a rated game, overall (table "") or
// at one table, best first (ties: more games, then name); at most limit of
// them, all if limit <= 0. Names are the people's names now.
func (s *Store) Leaderboard(ctx context.Context, table string, limit int) ([]Rating, error) {
	if err := ctxErr(ctx, "leaderboard"); err != nil {
		return nil, err
	}
	var out []Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		prefix := ratingKey(table, "")
		c := tx.Bucket(bucketRatings).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r ratingRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("decode rating %q: %w", k, err)
			}
			if r.Games == 0 {
				continue
			}
			out = append(out, ratingOf(tx, string(k[len(prefix):]), r))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("leaderboard %q: %w", table, err)
	}
	slices.SortFunc(out, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(b.Games, a.Games),
			cmp.Compare(fold(a.Name), fold(b.Name)), cmp.Compare(a.Person, b.Person))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit:limit]
	}
	return out, nil
}

// rateAll fills the ratings from the finished games stored, in the order
// they ended, as if each had just finished: for a file whose ratings
// bucket is new.
func rateAll(tx *bolt.Tx) error {
	var recs []Replay
	err := tx.Bucket(bucketFinished).ForEach(func(k, _ []byte) error {
		r, err := getGame(tx, binary.BigEndian.Uint64(k))
		if err != nil {
			return err
		}
		if r.Winner >= 0 { // an abandoned game moves no rating
			recs = append(recs, r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rate stored games: %w", err)
	}
	slices.SortStableFunc(recs, func(a, b Replay) int { return a.Ended.Compare(b.Ended) })
	for i := range recs {
		r := &recs[i]
		if err := rateTx(tx, r, Result{Ended: r.Ended, Winner: r.Winner, Standings: r.Standings}); err != nil {
			return fmt.Errorf("rate stored game %s: %w", r.ID, err)
		}
	}
	return nil
}
