package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/ident"
)

// Seat is one player of a game, by seat index, or one seated at a table
// for its next game (Table.Seated, which keeps Person, Fingerprint and Bot
// only).
type Seat struct {
	// Person is who sat: a person's id (lobby/ident).
	Person string `json:"person"`
	// Name is their name now, looked up when the game is read (for a
	// key-less player, the name they played under). Not stored.
	Name string `json:"-"`
	// PlayedAs is the name they played the game under.
	PlayedAs string `json:"-"`
	// Fingerprint is the key they sat down with (a key-less player's id):
	// what the fair seating hashes (engine/fair), the replay's
	// "fingerprint".
	Fingerprint string `json:"fingerprint"`
	// Bot: the seat was played by a program (the bot line protocol, the
	// Mäxchen gateway, a built-in bot); a fact of the seat, not of the
	// person.
	Bot bool `json:"bot"`
}

// Called is the seat's player's name now, or the name played under when
// no name is known now.
func (s Seat) Called() string {
	if s.Name == "" {
		return s.PlayedAs
	}
	return s.Name
}

// Shown is the seat's name as shown: the name now, with the name played
// under beside it where it differs ("bob (played as red)").
func (s Seat) Shown() string {
	switch {
	case s.Name == "":
		return s.PlayedAs
	case s.PlayedAs != "" && s.PlayedAs != s.Name:
		return s.Name + " (played as " + s.PlayedAs + ")"
	}
	return s.Name
}

// Game is a game's meta data; its events are stored apart.
type Game struct {
	ID        string // decimal sequence number: "1", "2", …
	Table     string
	Seats     []Seat
	Rules     engine.Options
	Started   time.Time
	Ended     time.Time // zero while in progress
	Winner    int       // seat index; -1 while in progress (or if abandoned)
	Standings []int     // seat indexes, winner first; nil while in progress
	// Fair is the game's proof of fair dice (nil for a game without one).
	// Given to CreateGame with its ServerSeed, which the store keeps apart
	// (bucket seeds): a game read back has it only once the game has ended
	// (or in InProgress, to resume the same dice).
	Fair *fair.Proof
	// Abandoned says why the game ended without a result, when it did so
	// by someone's act (its table closed while it ran: Abandon); nil
	// otherwise. Such a game is listed (Query.Abandoned) and replayed; a
	// game the server could not resume also ends without a result
	// (Winner -1), with no Abandoned, and is not listed.
	Abandoned *Abandonment
}

// Finished reports whether the game ended with a result (not abandoned).
func (g Game) Finished() bool { return !g.Ended.IsZero() && g.Winner >= 0 }

// Abandonment is why a game ended without a result: PROTOCOL.md §3's
// "abandoned".
type Abandonment struct {
	// Reason is AbandonClosed.
	Reason string `json:"reason"`
	// By is who did it: a person's id.
	By string `json:"by"`
	// Name is By's name now, looked up when the game is read; not stored.
	Name string `json:"name,omitempty"`
}

// AbandonClosed is the Reason of a game whose table was closed while it
// ran (by its host or a server admin, By).
const AbandonClosed = "closed"

func cloneAbandonment(a *Abandonment) *Abandonment {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}

// Replay is a game in the shape of PROTOCOL.md §3, the fields in its
// order: the one type of that document. The store keeps a game's meta data
// in it (without events); `replay GAME --json` writes it with the events,
// which engine.Event's MarshalJSON writes.
type Replay struct {
	ID        string         `json:"id"`
	Table     string         `json:"table"`
	Rules     engine.Options `json:"rules"`
	Players   []ReplayPlayer `json:"players"`
	Started   time.Time      `json:"started"`
	Ended     time.Time      `json:"ended,omitzero"`      // zero while in progress
	Winner    int            `json:"winner"`              // -1 while in progress
	Standings []int          `json:"standings,omitempty"` // nil while in progress
	Abandoned *Abandonment   `json:"abandoned,omitempty"` // a game ended without a result, and why
	Fair      *fair.Proof    `json:"fair,omitempty"`      // without server_seed while in progress
	Events    []engine.Event `json:"events,omitempty"`    // none in the stored meta data
}

// Encode writes the document as `replay GAME --json` and the web
// window's /games/ID.json give it: indented by two spaces, one newline
// at the end.
func (r Replay) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReplayPlayer is one player of a Replay. Name is their name now and
// PlayedAs the name they played under, when it differs; the stored header
// keeps the name played under in Name.
type ReplayPlayer struct {
	Seat        int    `json:"seat"`
	Person      string `json:"person"`
	Name        string `json:"name"`
	PlayedAs    string `json:"played_as,omitempty"`
	Fingerprint string `json:"fingerprint"`
	Bot         bool   `json:"bot"`
}

// game is the Game a stored header describes, each seat named as of tx.
func (r Replay) game(tx *bolt.Tx) Game {
	g := Game{ID: r.ID, Table: r.Table, Rules: r.Rules, Started: r.Started, Ended: r.Ended,
		Winner: r.Winner, Standings: slices.Clone(r.Standings), Fair: cloneProof(r.Fair),
		Abandoned: cloneAbandonment(r.Abandoned)}
	if a := g.Abandoned; a != nil {
		a.Name = nameOf(tx, a.By)
	}
	g.Seats = make([]Seat, len(r.Players))
	for i, p := range r.Players {
		name := p.Name
		if now := nameOf(tx, p.Person); now != "" && ident.HasKeys(p.Person) {
			name = now
		}
		g.Seats[i] = Seat{Person: p.Person, Name: name, PlayedAs: p.Name, Fingerprint: p.Fingerprint, Bot: p.Bot}
	}
	return g
}

// record is g as the store keeps its header: each seat's name the name it
// played under.
func (g Game) record() Replay {
	r := Replay{ID: g.ID, Table: g.Table, Rules: g.Rules, Started: g.Started.UTC(), Ended: g.Ended.UTC(),
		Winner: g.Winner, Standings: slices.Clone(g.Standings), Fair: cloneProof(g.Fair),
		Abandoned: cloneAbandonment(g.Abandoned)}
	if r.Abandoned != nil {
		r.Abandoned.Name = "" // looked up when read
	}
	r.Players = make([]ReplayPlayer, len(g.Seats))
	for i, s := range g.Seats {
		played := s.PlayedAs
		if played == "" {
			played = s.Name
		}
		r.Players[i] = ReplayPlayer{Seat: i, Person: s.Person, Name: played, Fingerprint: s.Fingerprint, Bot: s.Bot}
	}
	return r
}

// Replay is g as the document of PROTOCOL.md §3, with the events evs.
func (g Game) Replay(evs []engine.Event) Replay {
	r := Replay{ID: g.ID, Table: g.Table, Rules: g.Rules, Started: g.Started.UTC(), Ended: g.Ended.UTC(),
		Winner: g.Winner, Standings: slices.Clone(g.Standings), Fair: cloneProof(g.Fair),
		Abandoned: cloneAbandonment(g.Abandoned), Events: evs}
	r.Players = g.Players()
	return r
}

// Players is g's players as PROTOCOL.md §3 writes them: each by their
// name now, and the name played under where it differs.
func (g Game) Players() []ReplayPlayer {
	out := make([]ReplayPlayer, len(g.Seats))
	for i, s := range g.Seats {
		name, played := s.Name, ""
		if name == "" {
			name = s.PlayedAs
		} else if s.PlayedAs != name {
			played = s.PlayedAs
		}
		out[i] = ReplayPlayer{Seat: i, Person: s.Person, Name: name, PlayedAs: played, Fingerprint: s.Fingerprint, Bot: s.Bot}
	}
	return out
}

func cloneProof(p *fair.Proof) *fair.Proof {
	if p == nil {
		return nil
	}
	c := p.Clone()
	return &c
}

// reveal moves a game's secret seed from bucket seeds into its proof: the
// game has ended.
func reveal(tx *bolt.Tx, id uint64, rec *Replay) error {
	seeds := tx.Bucket(bucketSeeds)
	v := seeds.Get(u64(id))
	if v == nil || rec.Fair == nil {
		return nil
	}
	rec.Fair = cloneProof(rec.Fair)
	rec.Fair.ServerSeed = string(v)
	return seeds.Delete(u64(id))
}

// parseID reads a decimal game ID; anything else is ErrNotFound.
func parseID(id string) (uint64, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("no game %q: %w", id, ErrNotFound)
	}
	return n, nil
}

func getGame(tx *bolt.Tx, id uint64) (Replay, error) {
	v := tx.Bucket(bucketGames).Get(u64(id))
	if v == nil {
		return Replay{}, ErrNotFound
	}
	var r Replay
	if err := json.Unmarshal(v, &r); err != nil {
		return Replay{}, fmt.Errorf("decode game %d: %w", id, err)
	}
	return r, nil
}

func putGame(tx *bolt.Tx, id uint64, r Replay) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketGames).Put(u64(id), v)
}

// CreateGame stores a new game in progress and returns it with its ID
// (the next decimal number), Winner -1 and no end. A zero Started is set to
// now. It needs a table name, 2–10 seats and valid rules.
func (s *Store) CreateGame(ctx context.Context, g Game) (Game, error) {
	return s.createGame(ctx, g, nil)
}

// CreateGameWithNext is CreateGame that keeps, in the same write, the
// next dice of the game's table (SetNextDice): drawn as the game begins,
// they replace those the game was dealt from, so that a stop at any
// moment finds either the old dice unused or the game and the new dice.
func (s *Store) CreateGameWithNext(ctx context.Context, g Game, next fair.NextDice) (Game, error) {
	return s.createGame(ctx, g, &next)
}

func (s *Store) createGame(ctx context.Context, g Game, next *fair.NextDice) (Game, error) {
	if err := ctxErr(ctx, "create game"); err != nil {
		return Game{}, err
	}
	switch {
	case g.Table == "":
		return Game{}, errors.New("create game: no table")
	case len(g.Seats) < engine.MinSeats || len(g.Seats) > engine.MaxSeats:
		return Game{}, fmt.Errorf("create game at %s: %w", g.Table, engine.ErrBadSeats)
	}
	if err := g.Rules.Validate(); err != nil {
		return Game{}, fmt.Errorf("create game at %s: %w", g.Table, err)
	}
	if err := noNUL("table", g.Table); err != nil {
		return Game{}, fmt.Errorf("create game: %w", err)
	}
	var secret string
	if g.Fair != nil {
		if err := g.Fair.Check(len(g.Seats)); err != nil {
			return Game{}, fmt.Errorf("create game at %s: fair dice: %w", g.Table, err)
		}
		secret = g.Fair.ServerSeed
		sealed := g.Fair.Sealed()
		g.Fair = &sealed
	}
	for _, st := range g.Seats {
		if err := noNUL("fingerprint", st.Fingerprint); err != nil {
			return Game{}, fmt.Errorf("create game at %s: %w", g.Table, err)
		}
		if err := noNUL("person", st.Person); err != nil {
			return Game{}, fmt.Errorf("create game at %s: %w", g.Table, err)
		}
	}
	g.Seats = slices.Clone(g.Seats)
	g.Ended, g.Winner, g.Standings = time.Time{}, -1, nil
	if g.Started.IsZero() {
		g.Started = time.Now()
	}
	g.Started = g.Started.UTC()
	var nextJSON []byte
	if next != nil {
		var err error
		if nextJSON, err = json.Marshal(keep(*next)); err != nil {
			return Game{}, fmt.Errorf("create game at %s: next dice: %w", g.Table, err)
		}
	}
	var out Game
	err := s.batch(ctx, func(tx *bolt.Tx) error {
		if next != nil {
			if _, err := openTable(tx, g.Table); err != nil {
				return err
			}
			if err := tx.Bucket(bucketNextDice).Put([]byte(fold(g.Table)), nextJSON); err != nil {
				return err
			}
		}
		n, err := tx.Bucket(bucketGames).NextSequence()
		if err != nil {
			return err
		}
		out = g
		out.ID = strconv.FormatUint(n, 10)
		if err := putGame(tx, n, out.record()); err != nil {
			return err
		}
		if secret != "" {
			if err := tx.Bucket(bucketSeeds).Put(u64(n), []byte(secret)); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketActive).Put(u64(n), nil)
	})
	if err != nil {
		return Game{}, fmt.Errorf("create game at %s: %w", g.Table, err)
	}
	return out, nil
}

// Append stores events of a game, durably (committed and fsynced) before
// it returns. The events must continue the game's gap-free sequence:
// evs[0].Seq is the last stored seq + 1 and the rest follow one by one;
// otherwise nothing is written (ErrSeq). Events with a zero At are stamped
// with the time of the call. A non-nil res marks the game finished in the
// same transaction (evs may then be empty); a finished game takes no more
// events (ErrFinished). The players' tallies are updated in the same
// transaction, and so are the ratings when res is given (see Leaderboard).
// Many concurrent Appends share a commit (bbolt's DB.Batch).
func (s *Store) Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error {
	if err := ctxErr(ctx, "append game "+gameID); err != nil {
		return err
	}
	id, err := parseID(gameID)
	if err != nil {
		return fmt.Errorf("append: %w", err)
	}
	if len(evs) == 0 && res == nil {
		return nil
	}
	for i, e := range evs {
		if e.Seq != evs[0].Seq+i || e.Seq < 1 {
			return fmt.Errorf("append game %s: %w: event %d has seq %d after %d", gameID, ErrSeq, i, e.Seq, evs[0].Seq)
		}
	}
	now := time.Now().UTC()
	stamped := make([]engine.Event, len(evs))
	vals := make([][]byte, len(evs))
	for i, e := range evs {
		if e.At.IsZero() {
			e.At = now
		}
		e.At = e.At.UTC()
		stamped[i] = e
		if vals[i], err = e.MarshalJSON(); err != nil { // direct: json.Marshal would re-scan it
			return fmt.Errorf("append game %s: seq %d: %w", gameID, e.Seq, err)
		}
	}
	if res != nil {
		r := *res
		r.Standings = slices.Clone(res.Standings)
		if r.Ended.IsZero() {
			if len(stamped) > 0 {
				r.Ended = stamped[len(stamped)-1].At
			} else {
				r.Ended = now
			}
		}
		r.Ended = r.Ended.UTC()
		res = &r
	}
	cached, hit := s.cachedGame(id)
	var after liveGame
	err = s.write(ctx, true, func(tx *bolt.Tx) error {
		var known *liveGame
		if hit {
			known = &cached
		}
		return appendTx(tx, id, known, &after, stamped, vals, res)
	}, func(err error) error {
		switch {
		case err != nil:
		case res != nil:
			s.forgetGame(id)
			s.dropChampions()
		default:
			s.rememberGame(id, after)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("append game %s: %w", gameID, err)
	}
	return nil
}

// appendTx is the body of Append. It may run more than once (DB.Batch
// retries a batch without a failing call), so it changes nothing but tx
// and *after. known is what Append remembered of the game (nil if
// nothing); it is trusted for the seats. *after is set to what is true
// once the transaction commits. The game's moves reach the tallies when
// it ends (tallyEnded), not as they are appended.
func appendTx(tx *bolt.Tx, id uint64, known, after *liveGame, evs []engine.Event, vals [][]byte, res *engine.Result) error {
	key := u64(id)
	if tx.Bucket(bucketActive).Get(key) == nil {
		if tx.Bucket(bucketGames).Get(key) == nil {
			return ErrNotFound
		}
		return ErrFinished
	}
	var (
		rec Replay
		fps []string
	)
	if known != nil {
		fps = known.persons
	}
	if fps == nil || res != nil {
		var err error
		if rec, err = getGame(tx, id); err != nil {
			return err
		}
		fps = rec.persons()
	}
	events := tx.Bucket(bucketEvents)
	last := lastSeq(events.Cursor(), id)
	if len(evs) > 0 && evs[0].Seq != last+1 {
		return fmt.Errorf("%w: first new seq is %d, the game has %d events", ErrSeq, evs[0].Seq, last)
	}
	for _, e := range evs {
		if !validSeats(e, len(fps)) {
			return fmt.Errorf("seq %d: a seat out of range for %d players", e.Seq, len(fps))
		}
	}
	*after = liveGame{persons: fps}
	for i, e := range evs {
		if err := events.Put(eventKey(id, e.Seq), vals[i]); err != nil {
			return err
		}
	}
	if res == nil {
		return nil
	}
	if err := finishTx(tx, id, &rec, *res); err != nil {
		return err
	}
	table, public, err := gameTable(tx, rec.Table, rec.Started)
	if err != nil {
		return err
	}
	if err := tallyEnded(tx, id, &rec, public); err != nil {
		return err
	}
	if err := rateTx(tx, id, &rec, table, public); err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	return nil
}

// persons lists the players' ids by seat.
func (r Replay) persons() []string {
	ids := make([]string, len(r.Players))
	for i, p := range r.Players {
		ids[i] = p.Person
	}
	return ids
}

// validSeats checks the seat numbers of an event against a game of n
// seats.
func validSeats(e engine.Event, n int) bool {
	ok := func(s int) bool { return s >= 0 && s < n }
	for _, l := range e.Losses {
		if !ok(l.Seat) {
			return false
		}
	}
	switch e.Type {
	case engine.EvRound:
		return ok(e.Opener)
	case engine.EvChallenge: // claimant -1: a challenge of nothing (low-claim loses)
		return ok(e.Seat) && (ok(e.Claimant) || e.Claimant == -1 && e.Claim == engine.NoValue) && ok(e.Loser)
	case engine.EvLowClaim:
		return ok(e.Seat) && ok(e.Loser)
	case engine.EvEnd:
		return e.Winner == -1 || ok(e.Winner)
	}
	return ok(e.Seat)
}

// lastSeq is the game's last stored seq (0 if none); the cursor is left on
// that event.
func lastSeq(c *bolt.Cursor, id uint64) int {
	k, _ := c.Seek(eventKey(id+1, 0))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if len(k) != 16 || binary.BigEndian.Uint64(k) != id {
		return 0
	}
	return int(binary.BigEndian.Uint64(k[8:]))
}

// finishTx marks a game finished and indexes it.
func finishTx(tx *bolt.Tx, id uint64, rec *Replay, res engine.Result) error {
	n := len(rec.Players)
	if res.Winner < 0 || res.Winner >= n {
		return fmt.Errorf("winner %d is not a seat of %d", res.Winner, n)
	}
	for _, st := range res.Standings {
		if st < 0 || st >= n {
			return fmt.Errorf("standings: %d is not a seat of %d", st, n)
		}
	}
	rec.Ended, rec.Winner, rec.Standings = res.Ended, res.Winner, res.Standings
	return endTx(tx, id, rec, true)
}

// endTx stores a game's header as it ended, reveals its seed and takes it
// out of the games in progress; listed, it is indexed for the history
// (finished, by table, by player).
func endTx(tx *bolt.Tx, id uint64, rec *Replay, listed bool) error {
	if err := reveal(tx, id, rec); err != nil {
		return err
	}
	if err := putGame(tx, id, *rec); err != nil {
		return err
	}
	if err := tx.Bucket(bucketActive).Delete(u64(id)); err != nil {
		return err
	}
	if !listed {
		return nil
	}
	if err := tx.Bucket(bucketFinished).Put(u64(id), nil); err != nil {
		return err
	}
	if err := tx.Bucket(bucketByTable).Put(indexKey(fold(rec.Table), id), nil); err != nil {
		return err
	}
	bp := tx.Bucket(bucketByPlayer)
	for _, p := range rec.Players {
		if p.Person == "" {
			continue
		}
		if err := bp.Put(indexKey(p.Person, id), nil); err != nil {
			return err
		}
	}
	return nil
}

// Abandon ends a game without a result: Ended is set, Winner stays -1,
// its seed is revealed, it leaves the in-progress set, and no rating
// moves. why says who ended it and why (its table closed while it ran):
// the game is then listed in the history (Games with Query.Abandoned),
// its replay says so, and its moves (Tally's claims, bluffs, lives lost…)
// are counted in its players' tallies, though not as a game played or
// won. A nil why is a game that cannot go on (one whose events InProgress
// could not replay, or that has none): it is not listed nor counted.
// ErrFinished if it already ended.
func (s *Store) Abandon(ctx context.Context, gameID string, at time.Time, why *Abandonment) error {
	if err := ctxErr(ctx, "abandon game "+gameID); err != nil {
		return err
	}
	id, err := parseID(gameID)
	if err != nil {
		return fmt.Errorf("abandon: %w", err)
	}
	if at.IsZero() {
		at = time.Now()
	}
	err = s.write(ctx, false, func(tx *bolt.Tx) error {
		rec, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if !rec.Ended.IsZero() {
			return ErrFinished
		}
		rec.Ended, rec.Winner, rec.Standings = at.UTC(), -1, nil
		rec.Abandoned = cloneAbandonment(why)
		if why == nil {
			return endTx(tx, id, &rec, false)
		}
		rec.Abandoned.Name = ""
		if err := endTx(tx, id, &rec, true); err != nil {
			return err
		}
		_, public, err := gameTable(tx, rec.Table, rec.Started)
		if err != nil {
			return err
		}
		return tallyEnded(tx, id, &rec, public)
	}, func(err error) error {
		if err == nil {
			s.forgetGame(id)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("abandon game %s: %w", gameID, err)
	}
	return nil
}

// Game returns a game and all its events, with their seq, time and every
// die (nothing is redacted: callers decide who may see what). ErrNotFound
// if there is no such game.
func (s *Store) Game(ctx context.Context, id string) (Game, []engine.Event, error) {
	if err := ctxErr(ctx, "game "+id); err != nil {
		return Game{}, nil, err
	}
	n, err := parseID(id)
	if err != nil {
		return Game{}, nil, fmt.Errorf("game: %w", err)
	}
	var (
		g   Game
		evs []engine.Event
	)
	err = s.db.View(func(tx *bolt.Tx) error {
		rec, err := getGame(tx, n)
		if err != nil {
			return err
		}
		g = rec.game(tx)
		evs, err = readEvents(tx, n)
		return err
	})
	if err != nil {
		return Game{}, nil, fmt.Errorf("game %s: %w", id, err)
	}
	return g, evs, nil
}

// readEvents decodes a game's events in order.
func readEvents(tx *bolt.Tx, id uint64) ([]engine.Event, error) {
	var evs []engine.Event
	prefix := u64(id)
	c := tx.Bucket(bucketEvents).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var e engine.Event
		if err := e.UnmarshalJSON(v); err != nil {
			return nil, fmt.Errorf("decode event %d: %w", binary.BigEndian.Uint64(k[8:]), err)
		}
		evs = append(evs, e)
	}
	return evs, nil
}

// Query selects finished games. Table and Player may be combined.
type Query struct {
	Table  string // table name, ignoring case; "" for any
	Player string // a seated person's id; "" for any
	Limit  int    // at most this many; 0 (or less) means 50
	Before string // a game ID: only games with smaller IDs (paging); "" for none
	// Abandoned lists the games abandoned by someone's act (their table
	// closed while they ran: Game.Abandoned) beside the finished ones, as
	// the history shows them; without it, only games with a result.
	Abandoned bool
}

// DefaultLimit is the number of games Games returns when Query.Limit is 0.
const DefaultLimit = 50

// Games lists finished games matching q, newest (highest ID) first. It
// walks an index backwards, so a page costs about Limit reads whatever the
// number of games.
func (s *Store) Games(ctx context.Context, q Query) ([]Game, error) {
	if err := ctxErr(ctx, "games"); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	before := uint64(0) // none
	if q.Before != "" {
		n, err := strconv.ParseUint(q.Before, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("games: before %q is not a game ID", q.Before)
		}
		if n <= 1 {
			return nil, nil
		}
		before = n
	}
	var (
		bucket []byte
		prefix []byte
		table  = fold(q.Table)
	)
	switch {
	case q.Player != "":
		bucket, prefix = bucketByPlayer, append([]byte(q.Player), 0)
	case q.Table != "":
		bucket, prefix = bucketByTable, append([]byte(table), 0)
	default:
		bucket, prefix = bucketFinished, nil
	}
	var out []Game
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucket).Cursor()
		byTable := tx.Bucket(bucketByTable)
		upper := append(slices.Clone(prefix), u64(^uint64(0))...)
		if before != 0 {
			upper = append(slices.Clone(prefix), u64(before)...)
		}
		k, _ := c.Seek(upper)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, _ = c.Prev() {
			if len(k) != len(prefix)+8 {
				continue
			}
			id := binary.BigEndian.Uint64(k[len(prefix):])
			if q.Player != "" && q.Table != "" && byTable.Get(indexKey(table, id)) == nil {
				continue // a cheap lookup, not a decode, per game of the player's elsewhere
			}
			rec, err := getGame(tx, id)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			if rec.Winner < 0 && !q.Abandoned {
				continue
			}
			out = append(out, rec.game(tx))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	return out, nil
}

// Recovered is a game that was in progress, rebuilt from its events. Its
// Game.Fair carries the secret ServerSeed, so that the game resumes the
// same dice; nothing else reads the seed before the game ends.
type Recovered struct {
	Game   Game
	Events []engine.Event
	State  *engine.Game // replayed; draws further dice from crypto/rand
}

// InProgress returns every game not finished, oldest first, its state
// rebuilt with engine.Replay. A game whose events already reach the end of
// the game (the server stopped between the last event and the result) is
// finished here, with the engine's winner and standings and the time of
// its last event, and not returned. A game with no events at all (the
// server stopped between CreateGame and the first Append) is abandoned
// (see Abandon) and not returned. A game whose events do not replay is not
// returned either: the error then joins one error per such game, each
// naming its ID ("recover game 7: …"), while the slice still holds every
// game that did recover; such a game stays in progress until Abandon.
// Call it at start-up, before any table appends.
func (s *Store) InProgress(ctx context.Context) ([]Recovered, error) {
	if err := ctxErr(ctx, "in progress"); err != nil {
		return nil, err
	}
	type loaded struct {
		rec  Replay
		game Game
		evs  []engine.Event
		err  error
	}
	var games []loaded
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).ForEach(func(k, _ []byte) error {
			id := binary.BigEndian.Uint64(k)
			rec, err := getGame(tx, id)
			if err != nil {
				games = append(games, loaded{rec: Replay{ID: strconv.FormatUint(id, 10)}, err: err})
				return nil
			}
			if seed := tx.Bucket(bucketSeeds).Get(k); seed != nil && rec.Fair != nil {
				rec.Fair = cloneProof(rec.Fair)
				rec.Fair.ServerSeed = string(seed)
			}
			evs, err := readEvents(tx, id)
			games = append(games, loaded{rec: rec, game: rec.game(tx), evs: evs, err: err})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("in progress: %w", err)
	}
	var (
		out  []Recovered
		errs []error
	)
	for _, l := range games {
		if l.err == nil && len(l.evs) == 0 {
			// Created, then the server stopped before its first event:
			// there is nothing to resume.
			if err := s.Abandon(ctx, l.rec.ID, l.rec.Started, nil); err != nil && !errors.Is(err, ErrFinished) {
				errs = append(errs, fmt.Errorf("recover game %s: %w", l.rec.ID, err))
			}
			continue
		}
		if l.err != nil {
			errs = append(errs, fmt.Errorf("recover game %s: %w", l.rec.ID, l.err))
			continue
		}
		g := l.game
		st, err := engine.Replay(g.Rules, len(g.Seats), l.evs, nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("recover game %s: %w", g.ID, err))
			continue
		}
		if st.Over() {
			res := &engine.Result{Ended: l.evs[len(l.evs)-1].At, Winner: st.Winner(), Standings: st.Standings()}
			if err := s.Append(ctx, g.ID, nil, res); err != nil {
				errs = append(errs, fmt.Errorf("recover game %s: finish: %w", g.ID, err))
			}
			continue
		}
		out = append(out, Recovered{Game: g, Events: l.evs, State: st})
	}
	return out, errors.Join(errs...)
}

// Tally returns a person's running totals over every game, by id; a
// person with no games has a zero Tally, not an error.
func (s *Store) Tally(ctx context.Context, person string) (Tally, error) {
	return s.tally(ctx, person, false)
}

// PublicTally returns a person's running totals over the public games
// only (GamePublic: played at a public table): what everyone may read.
// A private table's games, even while they run, never move it.
func (s *Store) PublicTally(ctx context.Context, person string) (Tally, error) {
	return s.tally(ctx, person, true)
}

func (s *Store) tally(ctx context.Context, person string, publicOnly bool) (Tally, error) {
	if err := ctxErr(ctx, "tally"); err != nil {
		return Tally{}, err
	}
	var t Tally
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTallies)
		var err error
		if t, err = decodeTally(b.Get(tallyKey(person, true))); err != nil || publicOnly {
			return err
		}
		other, err := decodeTally(b.Get(tallyKey(person, false)))
		t.add(other)
		return err
	})
	if err != nil {
		return Tally{}, fmt.Errorf("tally %s: %w", person, err)
	}
	return t, nil
}
