// Package lobbystore adapts the bbolt store to the storage the lobby
// declares in its own types (lobby.Storage), so that neither package
// imports the other: the lobby's interface in the lobby's types, the
// adapter beside the store (as raft-boltdb implements raft's LogStore).
// cmd/mia wires it; tests that run a lobby on a real store use it too.
// It also puts the lobby's access rule in the store's terms (Access,
// GameAccess, Shows, Visible): the doors that read the store's history
// and boards (sshapp/command, sshapp/tui, sshapp/web) filter by it.
//
// Its room: the seam between lobby and store. It may import lobby, store
// and engine (and engine/fair); cmd/mia, the doors above and tests
// import it, never lobby or store.
package lobbystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// Storage is a *store.Store as lobby.Storage.
type Storage struct{ st *store.Store }

var _ lobby.Storage = Storage{}

// New adapts st to the lobby.
func New(st *store.Store) Storage { return Storage{st: st} }

// Access is a stored table's record as the lobby's access rule reads it.
func Access(t store.TableRecord) lobby.Access {
	return lobby.Access{Private: t.Private, Host: t.Host, Members: append([]string(nil), t.Members...), Created: t.Created,
		Link: t.Link}
}

// GameAccess is a stored game, and its table's record (nil if none), as
// the lobby's access rule reads them.
func GameAccess(g store.Game, t *store.TableRecord) lobby.GameAccess {
	ga := lobby.GameAccess{Started: g.Started, Players: make([]string, len(g.Seats))}
	for i, s := range g.Seats {
		ga.Players[i] = s.Person
	}
	if t != nil {
		a := Access(*t)
		ga.Table = &a
	}
	return ga
}

// Shows is the store's filter of the games v may see, by the lobby's
// rule (lobby.Viewer.SeesGame), for store.History and store.GameShown.
func Shows(v lobby.Viewer) store.GameFilter {
	return func(g store.Game, t *store.TableRecord) bool { return v.SeesGame(GameAccess(g, t)) }
}

// Visible is, of a name's table records oldest first
// (store.Store.TableRecords), the newest v may see (lobby.Viewer.Sees):
// the table a `--table NAME` means to v, whose board and games are its
// own. Nil if v may see none of them, as if there were no such table.
func Visible(records []store.TableRecord, v lobby.Viewer) *store.TableRecord {
	for i := len(records) - 1; i >= 0; i-- {
		if v.Sees(Access(records[i])) {
			t := records[i]
			return &t
		}
	}
	return nil
}

// Player is a stored seat as the lobby knows who sits: the person, the
// key they sat down with (none for a key-less player, whose seat's
// fingerprint is their id), and whether as a bot.
func Player(s store.Seat) lobby.Player {
	p := lobby.Player{ID: s.Person, Bot: s.Bot}
	if s.Fingerprint != s.Person {
		p.Key = s.Fingerprint
	}
	return p
}

// seat is p as the store keeps a seat, under the name played.
func seat(p lobby.Player, name string) store.Seat {
	fp := p.Key
	if fp == "" {
		fp = p.ID
	}
	return store.Seat{Person: p.ID, PlayedAs: name, Fingerprint: fp, Bot: p.Bot}
}

func toTable(t store.TableRecord) lobby.TableRecord {
	rec := lobby.TableRecord{Name: t.Name, Access: Access(t), Rules: t.Rules, Seats: t.Seats, Closed: t.Closed, Event: t.Event}
	for _, s := range t.Seated {
		rec.Seated = append(rec.Seated, Player(s))
	}
	return rec
}

func fromTable(t lobby.TableRecord) store.TableRecord {
	st := store.TableRecord{Name: t.Name, Host: t.Host, Rules: t.Rules, Seats: t.Seats, Private: t.Private,
		Members: append([]string(nil), t.Members...), Created: t.Created, Closed: t.Closed, Link: t.Link, Event: t.Event}
	for _, p := range t.Seated {
		st.Seated = append(st.Seated, seat(p, ""))
	}
	return st
}

// CreateTable stores a new table; store.ErrExists is lobby.ErrTableExists.
func (s Storage) CreateTable(ctx context.Context, t lobby.TableRecord) error {
	return inLobbyTerms(s.st.CreateTable(ctx, fromTable(t)), func(err error) error {
		if errors.Is(err, store.ErrExists) {
			return fmt.Errorf("%w: %w", lobby.ErrTableExists, err)
		}
		return err
	})
}

// inLobbyTerms is err of a store write as the lobby knows it: terms maps
// the store's error kinds to the lobby's, and a disk's failure of the
// write (store.DiskError) is a *lobby.StorageFault; those of a write
// still under way (a store.StalledError) too, once it has ended.
func inLobbyTerms(err error, terms func(error) error) error {
	all := func(err error) error { return terms(faulted(err)) }
	var stalled *store.StalledError
	if errors.As(err, &stalled) {
		pw := pendingWrite{err: err, stalled: stalled, terms: all}
		var game *store.StalledGame
		if errors.As(err, &game) {
			return pendingGame{pendingWrite: pw, game: game}
		}
		return pw
	}
	return all(err)
}

// written is err of a store write as the lobby knows it, with no terms
// of its own (inLobbyTerms).
func written(err error) error { return inLobbyTerms(err, func(err error) error { return err }) }

// faulted is err as a *lobby.StorageFault when the disk failed the write.
func faulted(err error) error {
	var de *store.DiskError
	if errors.As(err, &de) {
		return &lobby.StorageFault{Reason: de.Reason(), Err: err}
	}
	return err
}

// pendingWrite is a lobby.PendingWrite: a store write still under way,
// its outcome in the lobby's terms.
type pendingWrite struct {
	err     error // as the store returned it
	stalled *store.StalledError
	terms   func(error) error
}

var _ lobby.PendingWrite = pendingWrite{}

func (p pendingWrite) Error() string            { return p.err.Error() }
func (p pendingWrite) Unwrap() error            { return p.err }
func (p pendingWrite) Settled() <-chan struct{} { return p.stalled.Settled() }
func (p pendingWrite) Outcome() error           { return p.terms(p.stalled.Outcome()) }

// pendingGame is a lobby.PendingGame: a new game's write still under
// way, which tells the game's ID once it is saved.
type pendingGame struct {
	pendingWrite
	game *store.StalledGame
}

var _ lobby.PendingGame = pendingGame{}

func (p pendingGame) GameID() string { return p.game.GameID() }

// UpdateTable changes a table's record through fn, in one transaction.
func (s Storage) UpdateTable(ctx context.Context, name string, fn func(*lobby.TableRecord) error) error {
	return written(s.st.UpdateTable(ctx, name, func(t *store.TableRecord) error {
		rec := toTable(*t)
		if err := fn(&rec); err != nil {
			return err
		}
		*t = fromTable(rec)
		return nil
	}))
}

// OpenTables lists the tables not closed.
func (s Storage) OpenTables(ctx context.Context) ([]lobby.TableRecord, error) {
	ts, err := s.st.OpenTables(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]lobby.TableRecord, len(ts))
	for i, t := range ts {
		out[i] = toTable(t)
	}
	return out, nil
}

// CreateGame stores a game that begins.
func (s Storage) CreateGame(ctx context.Context, g lobby.GameRecord) (string, error) {
	seats := make([]store.Seat, len(g.Players))
	for i, p := range g.Players {
		name := ""
		if i < len(g.Names) {
			name = g.Names[i]
		}
		seats[i] = seat(p, name)
	}
	sg := store.Game{Table: g.Table, Seats: seats, Rules: g.Rules, Started: g.Started, Winner: -1, Fair: g.Fair}
	var (
		rec store.Game
		err error
	)
	if g.Next != nil {
		rec, err = s.st.CreateGameWithNext(ctx, sg, *g.Next)
	} else {
		rec, err = s.st.CreateGame(ctx, sg)
	}
	if err != nil {
		return "", written(err)
	}
	return rec.ID, nil
}

// NextDice reads a table's next dice; none kept is ok false.
func (s Storage) NextDice(ctx context.Context, table string) (fair.NextDice, bool, error) {
	d, err := s.st.NextDice(ctx, table)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fair.NextDice{}, false, nil
	case err != nil:
		return fair.NextDice{}, false, err
	}
	return d, true, nil
}

// SaveNextDice keeps a table's next dice.
func (s Storage) SaveNextDice(ctx context.Context, table string, d fair.NextDice) error {
	return written(s.st.SetNextDice(ctx, table, d))
}

// AddChat keeps a line of a table's chat, and the last lobby.ChatKeep.
func (s Storage) AddChat(ctx context.Context, table string, l lobby.ChatLine) error {
	return written(s.st.AddChat(ctx, table, store.ChatRecord{At: l.At, Person: l.FromID, Bot: l.Bot, Text: l.Text},
		lobby.ChatKeep))
}

// Chat reads the lines kept of a table's chat.
func (s Storage) Chat(ctx context.Context, table string) ([]lobby.ChatLine, error) {
	ls, err := s.st.Chat(ctx, table)
	if err != nil {
		return nil, err
	}
	out := make([]lobby.ChatLine, len(ls))
	for i, l := range ls {
		out[i] = lobby.ChatLine{At: l.At, FromID: l.Person, Bot: l.Bot, Text: l.Text}
	}
	return out, nil
}

// Append stores a game's next events, and its result when res is given.
func (s Storage) Append(ctx context.Context, gameID string, evs []engine.Event, res *engine.Result) error {
	return written(s.st.Append(ctx, gameID, evs, res))
}

// Abandon ends a running game whose table the person by closed
// (store.Store.Abandon, store.AbandonClosed).
func (s Storage) Abandon(ctx context.Context, gameID string, at time.Time, by string) error {
	return written(s.st.Abandon(ctx, gameID, at, &store.Abandonment{Reason: store.AbandonClosed, By: by}))
}

// InProgress returns the unfinished games (store.Store.InProgress).
func (s Storage) InProgress(ctx context.Context) ([]lobby.SavedGame, error) {
	games, err := s.st.InProgress(ctx)
	out := make([]lobby.SavedGame, len(games))
	for i, rg := range games {
		g := rg.Game
		players := make([]lobby.Player, len(g.Seats))
		names := make([]string, len(g.Seats))
		for j, st := range g.Seats {
			players[j], names[j] = Player(st), st.PlayedAs
		}
		out[i] = lobby.SavedGame{ID: g.ID, Events: rg.Events,
			GameRecord: lobby.GameRecord{Table: g.Table, Players: players, Names: names, Rules: g.Rules, Started: g.Started, Fair: g.Fair}}
	}
	return out, err
}

// PersonName is the name of a person with keys now;
// store.ErrNotFound is lobby.ErrNoPerson.
func (s Storage) PersonName(ctx context.Context, id string) (string, error) {
	p, err := s.st.Person(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("%w: %w", lobby.ErrNoPerson, err)
	}
	if err != nil {
		return "", err
	}
	return p.Name, nil
}

// AddInvite stores a one-time invite code.
func (s Storage) AddInvite(ctx context.Context, table, code string, expires time.Time) error {
	return written(s.st.AddInvite(ctx, table, code, expires))
}

// UseInvite spends an invite code; store.ErrBadInvite is
// lobby.ErrBadInvite.
func (s Storage) UseInvite(ctx context.Context, table, code, person string, now time.Time) error {
	return inLobbyTerms(s.st.UseInvite(ctx, table, code, person, now), func(err error) error {
		if errors.Is(err, store.ErrBadInvite) {
			return fmt.Errorf("%w: %w", lobby.ErrBadInvite, err)
		}
		return err
	})
}
