// Package store keeps the server's durable state in one bbolt file:
// people (an id, a name, SSH keys), tables (config, members, invites),
// games (meta) and their events (game -> seq -> event), per-person
// tallies and ratings, bans, and the schema version.
//
// Every record that means a person holds the person's id (lobby/ident:
// "p:N" for a person with keys, "bot:LEVEL:NAME" and "KIND:NAME" for
// key-less players); a name is looked up when read, never copied, except
// the name a game's seat played under, which the game keeps beside it.
//
// Layout (all buckets are created once, by Open, and named in one place):
//
//	meta      "schema" -> big-endian uint64 schema version (5);
//	          "ratings" -> what made the ratings (RatingsStamp): a file
//	          whose stamp differs has its ratings rebuilt on open;
//	          "tallies" -> how the tallies are kept (tally.go): a file
//	          whose stamp differs has its tallies recounted on open;
//	          "names" -> how names and udp_names are keyed (names.go): a
//	          file whose stamp differs has them keyed again on open
//	people    person id -> Person (JSON: name, keys, created)
//	keys      key fingerprint -> person id
//	names     skeleton(name) (ident.Skeleton) 0x00 person id -> person id:
//	          no two people have names that look alike, but names taken
//	          before the skeleton last changed, which stay their holders'
//	key_codes sha256(code) -> the person and expiry of a one-time code
//	          that attaches a key to them (keys add / keys join)
//	tables    lower(name) -> TableRecord (JSON): the newest table of that name
//	closed_tables lower(name) 0x00 created(8) -> TableRecord (JSON): closed tables
//	          whose name was used again, so their games keep their rules of
//	          who may see them
//	invites   lower(table) 0x00 sha256(code) -> expiry (JSON)
//	games     id(8) -> game meta (JSON, the shape of PROTOCOL.md §3 without
//	          events; each seat's "name" the name it played under)
//	events    id(8) seq(8) -> engine.Event (JSON, PROTOCOL.md §3)
//	active    id(8) -> "" for every game not finished yet
//	finished  id(8) -> "" for every game listed in the history: finished,
//	          or abandoned when its table closed (Winner -1; Abandoned set)
//	by_table  lower(table) 0x00 id(8) -> "" for those games
//	by_player person id 0x00 id(8) -> "" for those games
//	tallies   person id -> Tally of the person's public games (version
//	          byte 2, 9 big-endian uint64s); person id 0x00 "private" -> of
//	          the others (GamePublic)
//	finish_order seq(8) -> id(8): every finished game's finishing number,
//	          the order the ratings fold the games in (ratings.go); an
//	          abandoned game has none
//	boards    board 0x00 season 0x00 person id -> a rating (ratings.go:
//	          entry): board "" is overall, "t" lower(table) 0x00
//	          created(8) one table's record; season "all-time", "2026-11"
//	          or "2026-W48". Derived from the games, like rating_games
//	rating_games id(8) -> what a finished game did to its players'
//	          ratings (GameRatings)
//	bans      key fingerprint, person id or "udp:"NETWORK -> Ban (JSON)
//	udp_names skeleton(name) -> UDPName (JSON): a Mäxchen bot's name taken
//	          for the address it plays from (registered, or held)
//	seeds     id(8) -> a running game's secret server seed (hex), moved into
//	          the game's "fair" proof when it ends (see engine/fair)
//	next_dice lower(table) -> keptDice (JSON): an open table's secret seed
//	          for its next game and the seeds people gave for it, by person
//	chat      lower(table) 0x00 seq(8) -> ChatRecord (JSON): the last lines
//	          of an open table's chat, by the person who said each
//	event_records lower(name) -> EventRecord (JSON): the newest event of
//	          that name (lobby/events' record, which the store keeps
//	          without reading it); lower(name) 0x00 created(8) -> an
//	          older, closed one whose name was used again
//	hooks, watches, invitations: what the alerts keep of an open table
//	          (alerts.go), made when missing, whatever the schema
//
// A file of an older schema is migrated on open, in one transaction
// (migrate.go): schema 1 (people were their keys: players, fingerprint ->
// profile), then schema 2 (no next_dice nor chat), then schema 3 (names
// keyed by the skeleton alone), then schema 4 (no event_records). The names' keys are derived from the
// people and the bots' names, the tallies and the ratings from the games:
// each is made again on open, in a transaction of its own, when its stamp
// in meta differs (a
// new or migrated file, or one an older server wrote: its "ratings"
// bucket is dropped then), without a change of schema.
//
// Integers in keys are big-endian, so a cursor walks games and events in
// order. Values handed out are always copies, never memory of a
// transaction. Transactions are short; appends go through bbolt's
// DB.Batch so that many tables appending at once share one fsync.
package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Sentinel errors; every error the store returns wraps at most one of them,
// so callers test with errors.Is.
var (
	// ErrNotFound: no such player, table or game.
	ErrNotFound = errors.New("not found")
	// ErrNameTaken: another person's name, or a Mäxchen bot's
	// (udpnames.go), looks like this one (ident.Skeleton).
	ErrNameTaken = errors.New("name taken")
	// ErrExists: an open table already has this name.
	ErrExists = errors.New("already exists")
	// ErrLocked: another process (or another Open in this one) holds the file.
	ErrLocked = errors.New("database locked")
	// ErrSchema: the file was written by a newer server, or is not a mia
	// database at all.
	ErrSchema = errors.New("unsupported schema")
	// ErrBadInvite: the invite code is unknown, already used or expired.
	ErrBadInvite = errors.New("invalid invite")
	// ErrFinished: the game is already over; nothing may be appended.
	ErrFinished = errors.New("game already finished")
	// ErrSeq: appended events do not continue the game's gap-free sequence.
	ErrSeq = errors.New("events out of sequence")
	// ErrCorrupt: the file is not a bbolt database or is damaged.
	ErrCorrupt = errors.New("unusable database file")
)

// SchemaVersion is the layout this code reads and writes.
const SchemaVersion = 5

// Bucket and key names, in one place.
var (
	bucketMeta     = []byte("meta")
	bucketPeople   = []byte("people")
	bucketKeys     = []byte("keys")
	bucketNames    = []byte("names")
	bucketCodes    = []byte("key_codes")
	bucketTables   = []byte("tables")
	bucketInvites  = []byte("invites")
	bucketGames    = []byte("games")
	bucketEvents   = []byte("events")
	bucketActive   = []byte("active")
	bucketFinished = []byte("finished")
	bucketByTable  = []byte("by_table")
	bucketByPlayer = []byte("by_player")
	bucketTallies  = []byte("tallies")
	// bucketOldRatings held the ratings of servers before the boards:
	// dropped by the first rebuild.
	bucketOldRatings  = []byte("ratings")
	bucketBoards      = []byte("boards")
	bucketRatingGames = []byte("rating_games")
	bucketFinishOrder = []byte("finish_order")
	bucketBans        = []byte("bans")
	bucketSeeds       = []byte("seeds")
	bucketClosed      = []byte("closed_tables")
	bucketUDPNames    = []byte("udp_names")
	bucketNextDice    = []byte("next_dice")
	bucketChat        = []byte("chat")
	// bucketEventRecords keeps the events' records (eventrecords.go).
	bucketEventRecords = []byte("event_records")

	allBuckets = [][]byte{
		bucketMeta, bucketPeople, bucketKeys, bucketNames, bucketCodes,
		bucketTables, bucketInvites,
		bucketGames, bucketEvents, bucketActive, bucketFinished,
		bucketByTable, bucketByPlayer, bucketTallies,
		bucketBans, bucketSeeds, bucketClosed, bucketUDPNames,
		bucketNextDice, bucketChat, bucketEventRecords,
	}
	// The ratings' buckets are made by ensureRatings (ratings.go), which
	// rebuilds them when the stamp in meta "ratings" differs.

	keySchema  = []byte("schema")
	keyRatings = []byte("ratings")
)

// lockTimeout is how long Open waits for the file lock.
const lockTimeout = time.Second

// Batch tuning: many tables appending at once share one commit (and its
// fsyncs). A batch starts at most maxBatchDelay after its first append.
const (
	maxBatchDelay = 2 * time.Millisecond
	maxBatchSize  = 1000
)

// Store is the bbolt file. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string

	// live remembers, of each game in progress, what appends need and
	// would otherwise read and decode: the seats' persons (who never
	// change). Entries are set only after a commit and dropped when a
	// game ends.
	mu   sync.Mutex
	live map[uint64]liveGame

	lat *latency // of every write, for CommitLatency
	// fault is the disk's failure of the last write, while writes fail.
	fault atomic.Pointer[Fault]

	// champions remembers the top of boards (Champion), by board and
	// season, until a game is rated or the ratings are rebuilt; under mu.
	champions map[string]Rating
}

// liveGame is what Store.live holds of a game.
type liveGame struct {
	persons []string // person ids by seat
}

func (s *Store) cachedGame(id uint64) (liveGame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.live[id]
	return g, ok
}

func (s *Store) rememberGame(id uint64, g liveGame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live[id] = g
}

func (s *Store) forgetGame(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, id)
}

// lockedError is ErrLocked with the path of the file.
type lockedError struct{ path string }

func (e *lockedError) Error() string        { return "another mia server holds " + e.path }
func (e *lockedError) Is(target error) bool { return target == ErrLocked }

// Open opens the store at path, creating the file (0600) and its parent
// directory (0700) if needed. If another server holds the file, it gives up
// after a second with an error matching ErrLocked ("another mia server
// holds PATH"). A non-empty file that does not start like a bbolt database
// is refused (ErrCorrupt) before anything opens it for writing, as is one
// whose bbolt meta pages are both damaged; a bbolt file without mia's
// schema, or of a newer schema version, is refused with ErrSchema. Refused
// files are left as they were.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := precheck(path); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db, err := openBolt(path)
	if err != nil {
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return nil, &lockedError{path: path}
		case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
			errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, errPanic):
			return nil, fmt.Errorf("open store %s: %w: %w", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db.MaxBatchDelay = maxBatchDelay
	db.MaxBatchSize = maxBatchSize
	s := &Store{db: db, path: path, live: map[uint64]liveGame{}, lat: newLatency(), champions: map[string]Rating{}}
	if err := s.initSchema(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := s.ensureNames(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: names: %w", path, err)
	}
	if err := s.ensureTallies(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: tallies: %w", path, err)
	}
	if err := s.ensureRatings(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: ratings: %w", path, err)
	}
	if err := s.ensureAlerts(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: alerts: %w", path, err)
	}
	return s, nil
}

var errPanic = errors.New("bbolt panicked")

// openBolt opens the file, turning a panic of bbolt on a damaged file
// into an error.
func openBolt(path string) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout, FreelistType: bolt.FreelistMapType})
}

// bbolt's meta page: a 16-byte page header, then the magic number.
const (
	boltMagic      = 0xED0CDAED
	boltMagicAt    = 16
	boltDefaultPgz = 4096
)

// precheck refuses a non-empty file that does not start like a bbolt file,
// before bbolt gets to open it for writing.
func precheck(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%w: is a directory", ErrCorrupt)
	}
	if st.Size() == 0 {
		return nil // bbolt initialises an empty file; nothing to lose
	}
	buf := make([]byte, boltDefaultPgz+boltMagicAt+4)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	buf = buf[:n]
	magicAt := func(off int) bool {
		return len(buf) >= off+4 && binary.LittleEndian.Uint32(buf[off:]) == boltMagic
	}
	if !magicAt(boltMagicAt) && !magicAt(boltDefaultPgz+boltMagicAt) {
		return fmt.Errorf("%w: not a bbolt database (left untouched)", ErrCorrupt)
	}
	return nil
}

// initSchema creates the buckets of a new file, migrates a file of an
// older schema (migrate.go), or checks an existing one.
func (s *Store) initSchema() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	var (
		fresh bool
		ver   uint64
	)
	err = s.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return fmt.Errorf("%w: a bbolt file without mia's meta bucket (not a mia database)", ErrSchema)
			}
			fresh = true
			return nil
		}
		v := meta.Get(keySchema)
		if len(v) != 8 {
			return fmt.Errorf("%w: no schema version", ErrSchema)
		}
		ver = binary.BigEndian.Uint64(v)
		switch {
		case ver > SchemaVersion:
			return fmt.Errorf("%w: schema version %d is newer than this server's %d; run a newer mia", ErrSchema, ver, SchemaVersion)
		case ver < 1:
			return fmt.Errorf("%w: schema version %d", ErrSchema, ver)
		case ver < SchemaVersion:
			return nil // each migration checks what it reads
		}
		for _, b := range allBuckets {
			if tx.Bucket(b) == nil {
				return fmt.Errorf("%w: bucket %q missing", ErrSchema, b)
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case !fresh && ver < SchemaVersion:
		return s.update(context.Background(), func(tx *bolt.Tx) error { return migrate(tx, ver) })
	case !fresh:
		return nil
	}
	return s.update(context.Background(), func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("create bucket %s: %w", b, err)
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, u64(SchemaVersion))
	})
}

// Close closes the file. Appends still running finish first.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// Path is the file's path as given to Open.
func (s *Store) Path() string { return s.path }

// u64 is v as an 8-byte big-endian key.
func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// eventKey is id(8) seq(8).
func eventKey(id uint64, seq int) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, id)
	binary.BigEndian.PutUint64(b[8:], uint64(seq))
	return b
}

// indexKey is prefix 0x00 id(8).
func indexKey(prefix string, id uint64) []byte {
	b := make([]byte, 0, len(prefix)+9)
	b = append(b, prefix...)
	b = append(b, 0)
	return binary.BigEndian.AppendUint64(b, id)
}

// fold is the case-insensitive key of a table's name.
func fold(name string) string { return strings.ToLower(name) }

// clone copies a value out of a transaction.
func clone(b []byte) []byte { return bytes.Clone(b) }

// ctxErr checks the context before a transaction.
func ctxErr(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// noNUL rejects text that would break the 0x00-separated index keys.
func noNUL(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%s %q contains a NUL byte", what, s)
	}
	return nil
}
