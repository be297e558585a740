package lobby

import (
	"context"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
)

// Storage is what the lobby needs from durable storage, declared in the
// lobby's own types so that the lobby imports no storage package.
// store/lobbystore adapts the bbolt store to it (cmd/mia wires it); another
// implementation can sit behind it.
//
// A write (CreateTable, UpdateTable, CreateGame, Append, AddInvite,
// UseInvite, SaveNextDice, AddChat) returns once its ctx ends, whether or not storage has
// finished it: one that never began returns ctx's error and changed
// nothing; one still under way returns an error implementing
// PendingWrite, which tells how it ends. A table pauses on such an error
// until the write has ended (see Config.SaveTimeout).
type Storage interface {
	// CreateTable stores a new open table. An open table of the same name
	// (in any case) is an error matching ErrTableExists.
	CreateTable(ctx context.Context, t TableRecord) error
	// UpdateTable reads the table, lets fn change it and writes it back,
	// in one transaction; an error from fn aborts the update.
	UpdateTable(ctx context.Context, name string, fn func(*TableRecord) error) error
	// OpenTables lists the tables not closed.
	OpenTables(ctx context.Context) ([]TableRecord, error)
	// CreateGame stores a game that begins and returns its ID.
	CreateGame(ctx context.Context, g GameRecord) (string, error)
	// Append stores a game's next events, durably, before it returns; a
	// non-nil res ends the game in the same write.
	Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error
	// Abandon ends a running game without a result, because the person
	// by closed its table while it ran: no tally of games or wins and no
	// rating moves, and the game is listed as abandoned by them.
	Abandon(ctx context.Context, gameID string, at time.Time, by string) error
	// InProgress returns every unfinished game with its events, oldest
	// first. A game that cannot be recovered is left out and named in
	// the error, while the others are still returned.
	InProgress(ctx context.Context) ([]SavedGame, error)
	// PersonName is the name of a person with keys (HasKeys) now; an
	// unknown id is an error matching ErrNoPerson. (A key-less player's
	// name is in their id.)
	PersonName(ctx context.Context, id string) (string, error)
	// AddInvite stores a one-time invite code to a table, valid until
	// expires.
	AddInvite(ctx context.Context, table, code string, expires time.Time) error
	// UseInvite spends an invite code: the person becomes a member of the
	// table. A code unknown to the table, used or expired at now is an
	// error matching ErrBadInvite.
	UseInvite(ctx context.Context, table, code, person string, now time.Time) error
	// NextDice returns the dice kept for an open table's next game
	// (SaveNextDice, or CreateGame's GameRecord.Next); ok is false when
	// none are kept.
	NextDice(ctx context.Context, table string) (d fair.NextDice, ok bool, err error)
	// SaveNextDice keeps an open table's next dice, durably, before it
	// returns, where no reader of the tables finds its secret seed.
	SaveNextDice(ctx context.Context, table string, d fair.NextDice) error
	// AddChat keeps a line of an open table's chat, durably, with the
	// last ChatKeep lines before it; the older go. It keeps who said it
	// (FromID), never their name (From), which is looked up when shown.
	AddChat(ctx context.Context, table string, l ChatLine) error
	// Chat returns the lines kept of an open table's chat, oldest first,
	// without names (From is empty).
	Chat(ctx context.Context, table string) ([]ChatLine, error)
}

// TableRecord is a table as it is stored: its name, who may see it
// (Access: privacy, host, members, creation), rules and seats, when it
// was closed (zero while open), and who is seated for its next game (so
// that a restart, clean or not, finds them seated; a game in progress
// keeps its own players). It is the store's TableRecord in the lobby's
// types (Access, Player), which the store may not import; lobbystore
// converts one to the other.
type TableRecord struct {
	Name string
	Access
	Rules  engine.Options
	Seats  int
	Closed time.Time
	Seated []Player // in the order they sat: ID, Key and Bot (never a name)
	// Event is the name of the event whose table this is ("" for none):
	// the event deals its games (a driven table, also after a restart),
	// seats its entrants and closes it (CreateEventTable).
	Event string
}

// GameRecord is a game as it begins.
type GameRecord struct {
	Table   string
	Players []Player // by seat
	// Names are the names the players play under, by seat: the game's
	// record keeps them beside the players, whose names may change.
	Names   []string
	Rules   engine.Options
	Started time.Time
	// Fair is the proof of the game's dice (engine/fair), its secret
	// ServerSeed included: storage keeps the seed where no reader of a
	// running game finds it, gives it back in InProgress (to resume the
	// same dice) and reveals it with the game once the game ends.
	Fair *fair.Proof
	// Next, when set, are the table's dice for the game after this one,
	// drawn as it begins: storage keeps them in the same write as the
	// game (in place of the dice the game was dealt from), as
	// SaveNextDice would.
	Next *fair.NextDice
}

// SavedGame is an unfinished game found in storage, with its events.
type SavedGame struct {
	ID string
	GameRecord
	Events []engine.Event
}
