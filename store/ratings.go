package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine/rating"
)

// Ratings are a function of history (engine/rating, its README): the
// finished games, in the order they finished, folded through the model's
// update. Each finished game gets a finishing number in the transaction
// that finishes it (bucket finish_order, kept like the games themselves);
// the boards (bucket boards) and each game's changes (bucket
// rating_games) are derived from the games in that order, and are made
// again from them by RebuildRatings, by Open when they were made by
// another model or layout (the stamp in meta "ratings"), and by the
// migration of an older file. A rebuild gives the live figures byte for
// byte.
//
// A game counts on these boards, each in three seasons: all time, the
// month it ended in and the ISO week it ended in (the server's --season
// chooses which seasons are shown; all are kept, so a change of it costs
// nothing):
//
//   - the overall board, when it was played at a public table
//     (GamePublic): a private table's games are nobody else's business,
//     and a board everyone reads is made of games everyone may replay;
//   - its table's board: the table's record (Table, told apart by its
//     name and creation), not its name, so a closed table's figures never
//     pass to a new table of the same name.
//
// A game where one person holds two seats (no door allows it; a damaged
// or hand-made file might) is not rated at all: it is no contest of
// people, and the model rates each player once. Nor is a game at a
// coached table (TableRecord.Coach): practice, its moves judged as they
// are made. It keeps its finishing
// number and counts in the tallies.

// ratingsLayout numbers the layout of the boards and rating_games
// buckets; with the model, it is the stamp by which Open knows whether
// the stored boards are current.
const ratingsLayout = 1

// RatingsStamp names what made the stored ratings: the layout of the
// boards and the model, exactly (rating.Model.String). Open rebuilds the
// ratings of a file whose stamp differs.
func RatingsStamp() string {
	return "boards " + strconv.Itoa(ratingsLayout) + "; " + rating.Default.String()
}

// The seasons every game counts in, besides all time.
var seasonPeriods = [...]rating.Period{rating.Monthly, rating.Weekly}

// Rating is a person's standing on one board in one season: what the
// model knows of them (μ, σ, games rated: see engine/rating), their wins,
// and the games of those they played in a bot's seat. A person has one
// rating whether they played by screen or as a bot; Bot tells a bot.
type Rating struct {
	Person string `json:"person"`
	Name   string `json:"name"` // their name now
	rating.Rating
	Wins     int `json:"wins"`
	BotGames int `json:"bot_games"` // of Games, those played in a bot's seat
}

// Bot reports whether every rated game was played in a bot's seat: a
// built-in bot, a bot of the gateway or one on the line protocol.
func (r Rating) Bot() bool { return r.Games > 0 && r.BotGames == r.Games }

// Board is one board in one season: the overall board (Table nil) or a
// table's, the table meaning one record of it (Table.Created tells the
// records of a name apart; see TableRecords).
type Board struct {
	Table  *TableRecord
	Season rating.Season // rating.AllTime, or a month or week
}

// BoardKind selects the rows of a leaderboard.
type BoardKind uint8

// The kinds of rows.
const (
	Everyone BoardKind = iota
	People             // people: not every rated game in a bot's seat (Rating.Bot)
	Bots               // bots: every rated game in a bot's seat
)

// kindWords are the kinds' names: `leaderboard --json`'s "kind" and the
// web window's ?kind=.
var kindWords = [...]string{Everyone: "everyone", People: "people", Bots: "bots"}

// BoardKinds are the kinds of rows, in the order they are offered.
var BoardKinds = []BoardKind{Everyone, People, Bots}

// String is the kind's name: "everyone", "people" or "bots".
func (k BoardKind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseBoardKind is the kind of a name String gives; ok is false for any
// other word.
func ParseBoardKind(s string) (k BoardKind, ok bool) {
	for _, k := range BoardKinds {
		if s == kindWords[k] {
			return k, true
		}
	}
	return Everyone, false
}

// BoardQuery asks for a leaderboard.
type BoardQuery struct {
	Board
	Kind  BoardKind
	Limit int // at most this many rows; all if 0 or less
}

// boardKey is the key of a board: "" for overall, "t" lower(name) 0x00
// created(8) for a table's record.
func boardKey(t *TableRecord) []byte {
	if t == nil {
		return nil
	}
	k := make([]byte, 0, 1+len(t.Name)+1+8)
	k = append(k, 't')
	k = append(k, fold(t.Name)...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, uint64(max(t.Created.UnixNano(), 0)))
}

// ratingPrefix is board 0x00 season 0x00: the keys of one season's board,
// each followed by a person's id.
func ratingPrefix(board []byte, s rating.Season) []byte {
	name := s.String()
	k := make([]byte, 0, len(board)+len(name)+2)
	k = append(k, board...)
	k = append(k, 0)
	k = append(k, name...)
	return append(k, 0)
}

// entry is what the boards bucket keeps of a person on a board in a
// season: a version byte (1), the rating's exact encoding
// (rating.EncodedLen bytes), then wins and bot games as big-endian
// uint64s.
type entry struct {
	r        rating.Rating
	wins     int
	botGames int
}

const (
	entryVersion = 1
	entryLen     = 1 + rating.EncodedLen + 16
)

func (e entry) encode() []byte {
	b := make([]byte, 1, entryLen)
	b[0] = entryVersion
	b, _ = e.r.AppendBinary(b) // a rating the model made is valid
	b = binary.BigEndian.AppendUint64(b, uint64(e.wins))
	return binary.BigEndian.AppendUint64(b, uint64(e.botGames))
}

func decodeEntry(v []byte) (entry, error) {
	if len(v) != entryLen || v[0] != entryVersion {
		return entry{}, fmt.Errorf("bad stored rating (%d bytes)", len(v))
	}
	var e entry
	if err := e.r.UnmarshalBinary(v[1 : 1+rating.EncodedLen]); err != nil {
		return entry{}, err
	}
	e.wins = int(binary.BigEndian.Uint64(v[1+rating.EncodedLen:]))
	e.botGames = int(binary.BigEndian.Uint64(v[1+rating.EncodedLen+8:]))
	return e, nil
}

// GameRatings is what one finished game did to its players' all-time
// ratings, by seat.
type GameRatings struct {
	// Seq is the game's finishing number: games are rated in its order.
	Seq uint64
	// Overall is each seat's change on the overall board; nil when the
	// game counts on none (not played at a public table, or not rated).
	Overall []rating.Change
	// Table is each seat's change on its table's board; nil when it has
	// no table record, or is not rated.
	Table []rating.Change
	// table is the key of the table's board.
	table []byte
}

// Shown is the board a game's players see their change on: the overall
// one, or the table's for a game that counts on no overall board (nil if
// it was not rated).
func (g GameRatings) Shown() []rating.Change {
	if g.Overall != nil {
		return g.Overall
	}
	return g.Table
}

// A stored GameRatings: a version byte (1), the seq (8), flags (1: the
// overall changes follow, 2: the table's), the number of seats (1); then
// the overall changes, each before and after in their exact encoding;
// then, for the table, the length of its board key (2), the key and the
// changes.
const (
	gameRatingsVersion = 1
	flagOverall        = 1
	flagTable          = 2
	changeLen          = 2 * rating.EncodedLen
)

func (g GameRatings) encode() []byte {
	n := max(len(g.Overall), len(g.Table))
	b := make([]byte, 0, 12+2*n*changeLen+2+len(g.table))
	b = append(b, gameRatingsVersion)
	b = binary.BigEndian.AppendUint64(b, g.Seq)
	var flags byte
	if g.Overall != nil {
		flags |= flagOverall
	}
	if g.Table != nil {
		flags |= flagTable
	}
	b = append(b, flags, byte(n))
	changes := func(cs []rating.Change) {
		for _, c := range cs {
			b, _ = c.Before.AppendBinary(b)
			b, _ = c.After.AppendBinary(b)
		}
	}
	changes(g.Overall)
	if g.Table != nil {
		b = binary.BigEndian.AppendUint16(b, uint16(len(g.table)))
		b = append(b, g.table...)
		changes(g.Table)
	}
	return b
}

var errGameRatings = errors.New("bad stored game ratings")

func decodeGameRatings(v []byte) (GameRatings, error) {
	if len(v) < 11 || v[0] != gameRatingsVersion {
		return GameRatings{}, errGameRatings
	}
	g := GameRatings{Seq: binary.BigEndian.Uint64(v[1:])}
	flags, n := v[9], int(v[10])
	v = v[11:]
	changes := func() ([]rating.Change, error) {
		if len(v) < n*changeLen {
			return nil, errGameRatings
		}
		cs := make([]rating.Change, n)
		for i := range cs {
			if err := cs[i].Before.UnmarshalBinary(v[:rating.EncodedLen]); err != nil {
				return nil, err
			}
			if err := cs[i].After.UnmarshalBinary(v[rating.EncodedLen:changeLen]); err != nil {
				return nil, err
			}
			v = v[changeLen:]
		}
		return cs, nil
	}
	var err error
	if flags&flagOverall != 0 {
		if g.Overall, err = changes(); err != nil {
			return GameRatings{}, err
		}
	}
	if flags&flagTable != 0 {
		if len(v) < 2 || len(v) < 2+int(binary.BigEndian.Uint16(v)) {
			return GameRatings{}, errGameRatings
		}
		l := int(binary.BigEndian.Uint16(v))
		g.table = bytes.Clone(v[2 : 2+l])
		v = v[2+l:]
		if g.Table, err = changes(); err != nil {
			return GameRatings{}, err
		}
	}
	if len(v) != 0 {
		return GameRatings{}, errGameRatings
	}
	return g, nil
}

// boardRW is where rateGame reads and writes ratings, by the prefix of a
// board in a season (ratingPrefix) and a person: the boards bucket live,
// maps while rebuilding.
type boardRW interface {
	get(prefix []byte, person string) (entry, bool, error)
	put(prefix []byte, person string, e entry) error
}

// bucketRW is the boards bucket as a boardRW.
type bucketRW struct{ b *bolt.Bucket }

func (rw bucketRW) get(prefix []byte, person string) (entry, bool, error) {
	v := rw.b.Get(append(slices.Clip(prefix), person...))
	if v == nil {
		return entry{}, false, nil
	}
	e, err := decodeEntry(v)
	if err != nil {
		return entry{}, false, fmt.Errorf("rating %q of %s: %w", prefix, person, err)
	}
	return e, true, nil
}

func (rw bucketRW) put(prefix []byte, person string, e entry) error {
	return rw.b.Put(append(slices.Clip(prefix), person...), e.encode())
}

// mapRW is a boardRW in memory: board and season, then person.
type mapRW map[string]map[string]entry

func (m mapRW) get(prefix []byte, person string) (entry, bool, error) {
	e, ok := m[string(prefix)][person]
	return e, ok, nil
}

func (m mapRW) put(prefix []byte, person string, e entry) error {
	rows := m[string(prefix)]
	if rows == nil {
		rows = map[string]entry{}
		m[string(prefix)] = rows
	}
	rows[person] = e
	return nil
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

// hasResult reports whether a game finished with a result: a winner
// among its seats, an end, and not abandoned. Only such a game is rated,
// counts as a game played and won in the tallies (recountTallies), and
// gets a finishing number. A game ended without one (Store.Abandon:
// Winner -1, and Abandoned set when its table closed while it ran, which
// lists it in the finished index beside the games with a result) is
// never rated, live or in a rebuild: this is the one place that decides.
func hasResult(rec *Replay) bool {
	return rec.Abandoned == nil && rec.Winner >= 0 && rec.Winner < len(rec.Players) && !rec.Ended.IsZero()
}

// twice reports whether one person holds two seats of a game.
func twice(players []ReplayPlayer) bool {
	for i, p := range players {
		for _, q := range players[:i] {
			if p.Person != "" && p.Person == q.Person {
				return true
			}
		}
	}
	return false
}

// rateGame rates one finished game, its finishing number seq, on every
// board it counts on (table: the record of its table, nil if none;
// public: GamePublic), in all time and in the seasons it ended in. A seat
// without a person plays as a newcomer and is not kept. It is the one
// update, live (Append) and in a rebuild.
func rateGame(rw boardRW, rec *Replay, seq uint64, table *TableRecord, public bool) (GameRatings, error) {
	out := GameRatings{Seq: seq}
	n := len(rec.Players)
	if n < 2 || !hasResult(rec) || twice(rec.Players) || (table != nil && table.Coach) {
		return out, nil // no contest, or a coached one (practice)
	}
	place := places(n, rec.Standings, rec.Winner)
	seasons := []rating.Season{rating.AllTime}
	for _, p := range seasonPeriods {
		seasons = append(seasons, p.Of(rec.Ended))
	}
	var boards [][]byte
	if public {
		boards = append(boards, boardKey(nil))
	}
	if table != nil {
		out.table = boardKey(table)
		boards = append(boards, out.table)
	}
	before := make([]rating.Rating, n)
	entries := make([]entry, n)
	for _, board := range boards {
		for _, season := range seasons {
			prefix := ratingPrefix(board, season)
			for i, p := range rec.Players {
				entries[i] = entry{r: rating.Newcomer()}
				if p.Person != "" {
					e, ok, err := rw.get(prefix, p.Person)
					if err != nil {
						return GameRatings{}, err
					}
					if ok {
						entries[i] = e
					}
				}
				before[i] = entries[i].r
			}
			after, err := rating.Rate(before, place)
			if err != nil {
				return GameRatings{}, fmt.Errorf("rate game %s: %w", rec.ID, err)
			}
			for i, p := range rec.Players {
				if p.Person == "" {
					continue
				}
				e := entries[i]
				e.r = after[i]
				if i == rec.Winner {
					e.wins++
				}
				if p.Bot {
					e.botGames++
				}
				if err := rw.put(prefix, p.Person, e); err != nil {
					return GameRatings{}, err
				}
			}
			if season.IsAllTime() {
				cs := make([]rating.Change, n)
				for i := range cs {
					cs[i] = rating.Change{Before: before[i], After: after[i]}
				}
				if board == nil {
					out.Overall = cs
				} else {
					out.Table = cs
				}
			}
		}
	}
	return out, nil
}

// GamePublic is the rule of what counts on the overall boards and in the
// tallies everyone may read (PublicTally): a game played at a public
// table, after its record was created. A game at a private table, one
// with no table record and one older than its table's record (whose table
// was replaced before records were kept) are seen by fewer than everyone
// (lobby.Viewer.SeesGame, whose rule for a viewer who is nobody this is;
// store/lobbystore tests that the two agree), so they count only on their
// table's board, if any.
func GamePublic(started time.Time, t *TableRecord) bool {
	return t != nil && !t.Private && !started.Before(t.Created)
}

// gameTable is the record of the table a game was played at (nil if
// none, or if the game is older than every record of its name) and
// whether the game is public (GamePublic).
func gameTable(tx *bolt.Tx, name string, started time.Time) (*TableRecord, bool, error) {
	ts, err := tableRecordsTx(tx, name)
	if err != nil {
		return nil, false, err
	}
	t := recordOf(ts, started)
	return t, GamePublic(started, t), nil
}

// recordOf is the record, of a name's records oldest first, of the table
// a game started at `started` was played at; nil if the game is older
// than every record (RecordAt would give the oldest).
func recordOf(ts []TableRecord, started time.Time) *TableRecord {
	t := RecordAt(ts, started)
	if t == nil || started.Before(t.Created) {
		return nil
	}
	return t
}

// rateTx rates a game that finishes in tx: it takes the next finishing
// number and rates the game live. A game without a result (hasResult)
// takes neither.
func rateTx(tx *bolt.Tx, id uint64, rec *Replay, table *TableRecord, public bool) error {
	if !hasResult(rec) {
		return nil
	}
	order := tx.Bucket(bucketFinishOrder)
	seq, err := order.NextSequence()
	if err != nil {
		return err
	}
	if err := order.Put(u64(seq), u64(id)); err != nil {
		return err
	}
	gr, err := rateGame(bucketRW{tx.Bucket(bucketBoards)}, rec, seq, table, public)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketRatingGames).Put(u64(id), gr.encode())
}

// ensureRatings rebuilds the ratings if the file's were made by another
// model or layout, or by no one (a new or migrated file, or one of an
// older server): the stamp in meta "ratings" tells.
func (s *Store) ensureRatings() error {
	current := false
	err := s.db.View(func(tx *bolt.Tx) error {
		current = string(tx.Bucket(bucketMeta).Get(keyRatings)) == RatingsStamp() &&
			tx.Bucket(bucketBoards) != nil && tx.Bucket(bucketRatingGames) != nil && tx.Bucket(bucketFinishOrder) != nil
		return nil
	})
	if err != nil || current {
		return err
	}
	return s.update(context.Background(), func(tx *bolt.Tx) error {
		_, err := rebuildTx(tx)
		return err
	})
}

// Rebuilt says what a rebuild of the ratings did.
type Rebuilt struct {
	Games    int           // finished games rated, in their order
	Numbered int           // of them, games that had no finishing number yet
	Took     time.Duration // the rebuild, in its transaction
	Stamp    string        // RatingsStamp: the model and layout now stored
}

// RebuildRatings makes every rating again from the finished games, in the
// order they finished, in one write transaction: the admin command
// `ratings rebuild`. The result equals the ratings kept live, byte for
// byte, unless the model changed.
//
// It is a long write (seconds for 100,000 games: see the benchmark
// Rebuild100k), and every other write waits for it; tables whose moves
// wait longer than their bound pause until it ends (lobby: SaveTimeout).
// It waits for the write lock behind other writes as any write does
// (Store.write): if ctx ends before its transaction begins, it writes
// nothing and returns ctx's error; if ctx ends while it runs, it goes on
// to its end and the caller gets a *StalledError.
func (s *Store) RebuildRatings(ctx context.Context) (Rebuilt, error) {
	if err := ctxErr(ctx, "rebuild ratings"); err != nil {
		return Rebuilt{}, err
	}
	var out Rebuilt
	start := time.Now()
	err := s.write(ctx, false, func(tx *bolt.Tx) error {
		var err error
		out, err = rebuildTx(tx)
		return err
	}, func(err error) error {
		if err == nil {
			s.dropChampions()
		}
		return err
	})
	if err != nil {
		return Rebuilt{}, fmt.Errorf("rebuild ratings: %w", err)
	}
	out.Took = time.Since(start)
	return out, nil
}

// rebuildTx makes the boards and every game's changes anew from the
// finished games, in their finishing order. Finished games without a
// finishing number (a file of an older server) get the next ones, in the
// order they ended (then by id).
func rebuildTx(tx *bolt.Tx) (Rebuilt, error) {
	for _, b := range [][]byte{bucketOldRatings, bucketBoards, bucketRatingGames} {
		if tx.Bucket(b) != nil {
			if err := tx.DeleteBucket(b); err != nil {
				return Rebuilt{}, fmt.Errorf("drop bucket %s: %w", b, err)
			}
		}
	}
	for _, b := range [][]byte{bucketBoards, bucketRatingGames, bucketFinishOrder} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return Rebuilt{}, fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	order := tx.Bucket(bucketFinishOrder)
	finished := tx.Bucket(bucketFinished)
	type rated struct{ seq, id uint64 }
	var (
		games    []rated // in finishing order
		numbered = map[uint64]bool{}
		out      Rebuilt
	)
	err := order.ForEach(func(k, v []byte) error {
		if len(k) != 8 || len(v) != 8 {
			return fmt.Errorf("finish order: bad entry %x", k)
		}
		seq, id := binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(v)
		if finished.Get(v) == nil || numbered[id] {
			return fmt.Errorf("finish order %d: game %d is not finished, or numbered twice", seq, id)
		}
		numbered[id] = true
		games = append(games, rated{seq, id})
		return nil
	})
	if err != nil {
		return Rebuilt{}, err
	}
	type late struct {
		id    uint64
		ended time.Time
	}
	var lates []late
	err = finished.ForEach(func(k, _ []byte) error {
		id := binary.BigEndian.Uint64(k)
		if !numbered[id] {
			r, err := getRated(tx, id)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			if !hasResult(&r) {
				return nil // abandoned: no number, no rating (hasResult)
			}
			lates = append(lates, late{id, r.Ended})
		}
		return nil
	})
	if err != nil {
		return Rebuilt{}, err
	}
	slices.SortFunc(lates, func(a, b late) int { return cmp.Or(a.ended.Compare(b.ended), cmp.Compare(a.id, b.id)) })
	for _, l := range lates {
		seq, err := order.NextSequence()
		if err != nil {
			return Rebuilt{}, err
		}
		if err := order.Put(u64(seq), u64(l.id)); err != nil {
			return Rebuilt{}, err
		}
		games = append(games, rated{seq, l.id})
	}
	out.Numbered = len(lates)

	rw := mapRW{}
	records := map[string][]TableRecord{}
	changes := make(map[uint64][]byte, len(games))
	for _, g := range games {
		rec, err := getRated(tx, g.id)
		if err != nil {
			return Rebuilt{}, fmt.Errorf("game %d: %w", g.id, err)
		}
		ts, ok := records[fold(rec.Table)]
		if !ok {
			if ts, err = tableRecordsTx(tx, rec.Table); err != nil {
				return Rebuilt{}, err
			}
			records[fold(rec.Table)] = ts
		}
		t := recordOf(ts, rec.Started)
		gr, err := rateGame(rw, &rec, g.seq, t, GamePublic(rec.Started, t))
		if err != nil {
			return Rebuilt{}, err
		}
		changes[g.id] = gr.encode()
	}
	// Written in key order, which bbolt fills pages best with.
	slices.SortFunc(games, func(a, b rated) int { return cmp.Compare(a.id, b.id) })
	rg := tx.Bucket(bucketRatingGames)
	rg.FillPercent = 1
	for _, g := range games {
		if err := rg.Put(u64(g.id), changes[g.id]); err != nil {
			return Rebuilt{}, err
		}
	}
	boards := tx.Bucket(bucketBoards)
	boards.FillPercent = 1
	for _, prefix := range slices.Sorted(maps.Keys(rw)) {
		rows := rw[prefix]
		for _, person := range slices.Sorted(maps.Keys(rows)) {
			if err := boards.Put([]byte(prefix+person), rows[person].encode()); err != nil {
				return Rebuilt{}, err
			}
		}
	}
	if err := tx.Bucket(bucketMeta).Put(keyRatings, []byte(RatingsStamp())); err != nil {
		return Rebuilt{}, err
	}
	out.Games = len(games)
	out.Stamp = RatingsStamp()
	return out, nil
}

// getRated reads what rating a game needs of its header: getGame without
// the rules and the proof, which a rebuild need not decode.
func getRated(tx *bolt.Tx, id uint64) (Replay, error) {
	v := tx.Bucket(bucketGames).Get(u64(id))
	if v == nil {
		return Replay{}, ErrNotFound
	}
	var r struct {
		ID        string         `json:"id"`
		Table     string         `json:"table"`
		Players   []ReplayPlayer `json:"players"`
		Started   time.Time      `json:"started"`
		Ended     time.Time      `json:"ended"`
		Winner    int            `json:"winner"`
		Standings []int          `json:"standings"`
		Abandoned *Abandonment   `json:"abandoned"`
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return Replay{}, fmt.Errorf("decode game %d: %w", id, err)
	}
	return Replay{ID: r.ID, Table: r.Table, Players: r.Players, Started: r.Started, Ended: r.Ended,
		Winner: r.Winner, Standings: r.Standings, Abandoned: r.Abandoned}, nil
}

// Rating returns a person's rating on a board in a season. A person
// without a rated game there is a newcomer with no games, not an error.
func (s *Store) Rating(ctx context.Context, person string, b Board) (Rating, error) {
	if err := ctxErr(ctx, "rating"); err != nil {
		return Rating{}, err
	}
	var out Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		e, ok, err := bucketRW{tx.Bucket(bucketBoards)}.get(ratingPrefix(boardKey(b.Table), b.Season), person)
		if err != nil {
			return err
		}
		if !ok {
			e = entry{r: rating.Newcomer()}
		}
		out = e.rating(person, nameOf(tx, person))
		return nil
	})
	if err != nil {
		return Rating{}, fmt.Errorf("rating of %s: %w", person, err)
	}
	return out, nil
}

func (e entry) rating(person, name string) Rating {
	return Rating{Person: person, Name: name, Rating: e.r, Wins: e.wins, BotGames: e.botGames}
}

// Leaderboard ranks the people with a rated game on a board in a season,
// best first by rating.Compare (ties: name, then id), of the kind asked
// for; at most q.Limit of them. Names are the people's names now. This is
// the one place a board is computed: the commands, the screens and the
// web window all ask it.
func (s *Store) Leaderboard(ctx context.Context, q BoardQuery) ([]Rating, error) {
	if err := ctxErr(ctx, "leaderboard"); err != nil {
		return nil, err
	}
	var out []Rating
	err := s.db.View(func(tx *bolt.Tx) error {
		prefix := ratingPrefix(boardKey(q.Table), q.Season)
		c := tx.Bucket(bucketBoards).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("rating %q: %w", k, err)
			}
			r := e.rating(string(k[len(prefix):]), "")
			if r.Games == 0 || q.Kind == People && r.Bot() || q.Kind == Bots && !r.Bot() {
				continue
			}
			out = append(out, r)
		}
		names := map[string]string{}
		name := func(r *Rating) string {
			if r.Name == "" {
				n, ok := names[r.Person]
				if !ok {
					n = nameOf(tx, r.Person)
					names[r.Person] = n
				}
				r.Name = n
			}
			return r.Name
		}
		slices.SortFunc(out, func(a, b Rating) int {
			if c := rating.Compare(a.Rating, b.Rating); c != 0 {
				return c
			}
			return cmp.Or(cmp.Compare(fold(name(&a)), fold(name(&b))), cmp.Compare(a.Person, b.Person))
		})
		if q.Limit > 0 && len(out) > q.Limit {
			out = out[:q.Limit:q.Limit]
		}
		for i := range out {
			name(&out[i])
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	return out, nil
}

// Seasons lists the seasons of period p in which a board has rated games,
// newest first (none for rating.Off).
func (s *Store) Seasons(ctx context.Context, table *TableRecord, p rating.Period) ([]rating.Season, error) {
	if err := ctxErr(ctx, "seasons"); err != nil {
		return nil, err
	}
	var out []rating.Season
	err := s.db.View(func(tx *bolt.Tx) error {
		board := append(boardKey(table), 0)
		c := tx.Bucket(bucketBoards).Cursor()
		for k, _ := c.Seek(board); k != nil && bytes.HasPrefix(k, board); {
			name, _, ok := bytes.Cut(k[len(board):], []byte{0})
			if !ok {
				return fmt.Errorf("rating key %q: no season", k)
			}
			if season, err := rating.ParseSeason(string(name)); err == nil && season.Period() == p && !season.IsAllTime() {
				out = append(out, season)
			}
			next := append(slices.Clip(board), name...)
			k, _ = c.Seek(append(next, 1)) // past this season's rows
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seasons: %w", err)
	}
	slices.SortFunc(out, func(a, b rating.Season) int { return b.Start().Compare(a.Start()) })
	return out, nil
}

// Champion is the top of a board in a season (Leaderboard's first row);
// ok is false if nobody has a rated game there. Champions are remembered
// until a game is rated or the ratings are rebuilt.
func (s *Store) Champion(ctx context.Context, b Board) (Rating, bool, error) {
	key := string(ratingPrefix(boardKey(b.Table), b.Season))
	s.mu.Lock()
	c, known := s.champions[key]
	s.mu.Unlock()
	if known {
		if c.Person == "" {
			return Rating{}, false, nil
		}
		// the name now
		r, err := s.Rating(ctx, c.Person, b)
		return r, err == nil, err
	}
	rs, err := s.Leaderboard(ctx, BoardQuery{Board: b, Limit: 1})
	if err != nil {
		return Rating{}, false, err
	}
	var top Rating
	if len(rs) > 0 {
		top = rs[0]
	}
	s.mu.Lock()
	s.champions[key] = top
	s.mu.Unlock()
	return top, top.Person != "", nil
}

// dropChampions forgets the champions remembered.
func (s *Store) dropChampions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.champions)
}

// GameRatings returns what a finished game did to its players' ratings.
// ErrNotFound if the game is unknown or has not finished with a result.
func (s *Store) GameRatings(ctx context.Context, gameID string) (GameRatings, error) {
	if err := ctxErr(ctx, "game ratings"); err != nil {
		return GameRatings{}, err
	}
	id, err := parseID(gameID)
	if err != nil {
		return GameRatings{}, fmt.Errorf("game ratings: %w", err)
	}
	var out GameRatings
	err = s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketRatingGames).Get(u64(id))
		if v == nil {
			return ErrNotFound
		}
		out, err = decodeGameRatings(v)
		return err
	})
	if err != nil {
		return GameRatings{}, fmt.Errorf("ratings of game %s: %w", gameID, err)
	}
	return out, nil
}

// Point is a person's all-time rating on a board after one of their
// games.
type Point struct {
	Game  string
	Ended time.Time
	rating.Change
}

// trendScan bounds how many of a person's games Trend looks at.
const trendScan = 2000

// Trend is a person's all-time rating on a board (table nil: overall)
// after each of their last n rated games there, oldest first.
func (s *Store) Trend(ctx context.Context, person string, table *TableRecord, n int) ([]Point, error) {
	if err := ctxErr(ctx, "trend"); err != nil {
		return nil, err
	}
	var out []Point
	err := s.db.View(func(tx *bolt.Tx) error {
		want := boardKey(table)
		prefix := append([]byte(person), 0)
		c := tx.Bucket(bucketByPlayer).Cursor()
		k, _ := c.Seek(append(slices.Clip(prefix), u64(^uint64(0))...))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		games := tx.Bucket(bucketRatingGames)
		for scanned := 0; k != nil && bytes.HasPrefix(k, prefix) && len(out) < n && scanned < trendScan; k, _ = c.Prev() {
			scanned++
			if len(k) != len(prefix)+8 {
				continue
			}
			id := binary.BigEndian.Uint64(k[len(prefix):])
			v := games.Get(u64(id))
			if v == nil {
				continue
			}
			gr, err := decodeGameRatings(v)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			cs := gr.Overall
			if table != nil {
				cs = nil
				if bytes.Equal(gr.table, want) {
					cs = gr.Table
				}
			}
			if cs == nil {
				continue
			}
			rec, err := getGame(tx, id)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			for i, p := range rec.Players {
				if p.Person == person && i < len(cs) {
					out = append(out, Point{Game: rec.ID, Ended: rec.Ended, Change: cs[i]})
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("trend of %s: %w", person, err)
	}
	slices.Reverse(out)
	return out, nil
}

// SeatRatings is the ratings of the people about to play at a table, on
// the board their game will count on, and the model's chance that each
// finishes first.
type SeatRatings struct {
	// AtTable: the board is the table's own (a private table's games
	// count on no overall board); otherwise the overall one.
	AtTable bool
	Ratings []rating.Rating // all time, in the order asked for
	Chances []float64       // nil for fewer than two
}

// SeatRatings returns the all-time ratings of persons on the board a game
// at the open table of that name would count on (GamePublic), and their
// chances to win it. ErrNotFound if there is no such table.
func (s *Store) SeatRatings(ctx context.Context, table string, persons []string) (SeatRatings, error) {
	if err := ctxErr(ctx, "seat ratings"); err != nil {
		return SeatRatings{}, err
	}
	var out SeatRatings
	err := s.db.View(func(tx *bolt.Tx) error {
		t, err := getTable(tx, table)
		if err != nil {
			return err
		}
		var board []byte
		if t.Private {
			board, out.AtTable = boardKey(&t), true
		}
		rw := bucketRW{tx.Bucket(bucketBoards)}
		prefix := ratingPrefix(board, rating.AllTime)
		out.Ratings = make([]rating.Rating, len(persons))
		for i, p := range persons {
			e, ok, err := rw.get(prefix, p)
			if err != nil {
				return err
			}
			if !ok {
				e.r = rating.Newcomer()
			}
			out.Ratings[i] = e.r
		}
		return nil
	})
	if err != nil {
		return SeatRatings{}, fmt.Errorf("seat ratings at %s: %w", table, err)
	}
	if len(persons) >= 2 {
		out.Chances, err = rating.WinChances(out.Ratings)
		if err != nil {
			return SeatRatings{}, fmt.Errorf("seat ratings at %s: %w", table, err)
		}
	}
	return out, nil
}
