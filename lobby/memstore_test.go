package lobby

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
)

// memStore is the lobby's Storage in memory, for the lobby's tests: what
// it keeps outlives a lobby (a restart is a new lobby on the same
// memStore), and Close makes every later call fail, like a store whose
// file went away, until reopen.
type memStore struct {
	mu      sync.Mutex
	closed  bool
	tables  map[string]TableRecord   // by lower-case name
	invites map[string]time.Time     // lower(table) + "\x00" + code -> expiry
	names   map[string]string        // person id -> name
	games   []*memGame               // game i has ID i+1
	next    map[string]fair.NextDice // by lower-case table name
	chat    map[string][]ChatLine    // by lower-case table name
	// inviteAsks counts the calls of UseInvite, answered or not.
	inviteAsks int
}

// memGame is a stored game.
type memGame struct {
	GameRecord
	ID     string
	Events []engine.Event
	Ended  time.Time // zero while in progress
	Winner int       // -1 while in progress
	// AbandonedBy: the game was abandoned when this person closed its
	// table.
	AbandonedBy string
}

var errClosed = errors.New("memStore: closed")

func newMemStore() *memStore {
	return &memStore{tables: map[string]TableRecord{}, invites: map[string]time.Time{}, names: map[string]string{},
		next: map[string]fair.NextDice{}, chat: map[string][]ChatLine{}}
}

// lock takes the lock, or fails when the store is closed. A call that
// must wait for the lock first fails if its ctx has ended; one that finds
// it free goes on whatever its ctx (a test's short SaveTimeout runs out
// on a busy machine before a write that would not have waited).
func (m *memStore) lock(ctx context.Context) error {
	if !m.mu.TryLock() {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.mu.Lock()
	}
	if m.closed {
		m.mu.Unlock()
		return errClosed
	}
	return nil
}

func (m *memStore) Close() { m.mu.Lock(); m.closed = true; m.mu.Unlock() }

func (m *memStore) reopen() { m.mu.Lock(); m.closed = false; m.mu.Unlock() }

// copyTable copies a record out, so that callers never share its members
// or seats.
func copyTable(t TableRecord) TableRecord {
	t.Members = slices.Clone(t.Members)
	t.Seated = slices.Clone(t.Seated)
	return t
}

// snapshot is a copy of everything m holds now, as a crash would leave it
// (every write is whole: there is nothing half-written).
func (m *memStore) snapshot() *memStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := newMemStore()
	for k, t := range m.tables {
		c.tables[k] = copyTable(t)
	}
	maps.Copy(c.invites, m.invites)
	maps.Copy(c.names, m.names)
	for k, d := range m.next {
		d.Given = slices.Clone(d.Given)
		c.next[k] = d
	}
	for k, ls := range m.chat {
		c.chat[k] = slices.Clone(ls)
	}
	for _, g := range m.games {
		cg := *g
		cg.Players, cg.Events = slices.Clone(g.Players), slices.Clone(g.Events)
		c.games = append(c.games, &cg)
	}
	return c
}

func (m *memStore) CreateTable(ctx context.Context, t TableRecord) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	key := strings.ToLower(t.Name)
	if old, ok := m.tables[key]; ok && old.Closed.IsZero() {
		return fmt.Errorf("create table %s: %w", t.Name, ErrTableExists)
	}
	m.tables[key] = copyTable(t)
	delete(m.next, key)
	delete(m.chat, key)
	return nil
}

func (m *memStore) UpdateTable(ctx context.Context, name string, fn func(*TableRecord) error) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	t, ok := m.tables[strings.ToLower(name)]
	if !ok {
		return fmt.Errorf("update table %s: not found", name)
	}
	t = copyTable(t)
	if err := fn(&t); err != nil {
		return err
	}
	m.tables[strings.ToLower(name)] = copyTable(t)
	if !t.Closed.IsZero() {
		delete(m.next, strings.ToLower(name))
		delete(m.chat, strings.ToLower(name))
	}
	return nil
}

func (m *memStore) OpenTables(ctx context.Context) (out []TableRecord, err error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	for _, t := range m.tables {
		if t.Closed.IsZero() {
			out = append(out, copyTable(t))
		}
	}
	return out, nil
}

func (m *memStore) CreateGame(ctx context.Context, g GameRecord) (string, error) {
	if err := m.lock(ctx); err != nil {
		return "", err
	}
	defer m.mu.Unlock()
	g.Players = slices.Clone(g.Players)
	if g.Next != nil {
		m.next[strings.ToLower(g.Table)] = fair.NextDice{Seed: g.Next.Seed, Given: slices.Clone(g.Next.Given)}
		g.Next = nil
	}
	id := fmt.Sprint(len(m.games) + 1)
	m.games = append(m.games, &memGame{GameRecord: g, ID: id, Winner: -1})
	return id, nil
}

// game finds a game by ID; the lock is held.
func (m *memStore) game(id string) (*memGame, error) {
	var n int
	if _, err := fmt.Sscan(id, &n); err != nil || n < 1 || n > len(m.games) {
		return nil, fmt.Errorf("no game %q", id)
	}
	return m.games[n-1], nil
}

func (m *memStore) Append(ctx context.Context, id string, evs []engine.Event, res *engine.Result) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	g, err := m.game(id)
	switch {
	case err != nil:
		return err
	case !g.Ended.IsZero():
		return fmt.Errorf("game %s is over", id)
	}
	for i, e := range evs {
		if e.Seq != len(g.Events)+i+1 {
			return fmt.Errorf("game %s: event %d has seq %d after %d events", id, i, e.Seq, len(g.Events))
		}
	}
	g.Events = append(g.Events, evs...)
	if res != nil {
		g.Ended, g.Winner = res.Ended, res.Winner
	}
	return nil
}

func (m *memStore) Abandon(ctx context.Context, id string, at time.Time, by string) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	g, err := m.game(id)
	switch {
	case err != nil:
		return err
	case !g.Ended.IsZero():
		return fmt.Errorf("game %s is over", id)
	}
	g.Ended, g.Winner, g.AbandonedBy = at, -1, by
	return nil
}

// InProgress returns the games not ended that have events (a game created
// but never begun is not resumed).
func (m *memStore) InProgress(ctx context.Context) ([]SavedGame, error) {
	err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	saved := []SavedGame{}
	for _, g := range m.games {
		if !g.Ended.IsZero() || len(g.Events) == 0 {
			continue
		}
		saved = append(saved, SavedGame{ID: g.ID, GameRecord: g.GameRecord, Events: slices.Clone(g.Events)})
	}
	return saved, nil
}

func (m *memStore) PersonName(ctx context.Context, id string) (string, error) {
	if err := m.lock(ctx); err != nil {
		return "", err
	}
	defer m.mu.Unlock()
	name, ok := m.names[id]
	if !ok {
		return "", fmt.Errorf("person %s: %w", id, ErrNoPerson)
	}
	return name, nil
}

func (m *memStore) AddInvite(ctx context.Context, table, code string, expires time.Time) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.invites[strings.ToLower(table)+"\x00"+code] = expires
	return nil
}

func (m *memStore) UseInvite(ctx context.Context, table, code, fp string, now time.Time) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.inviteAsks++
	key := strings.ToLower(table) + "\x00" + code
	expires, ok := m.invites[key]
	delete(m.invites, key)
	t, open := m.tables[strings.ToLower(table)]
	if !ok || !now.Before(expires) || !open || !t.Closed.IsZero() {
		return fmt.Errorf("use invite for %s: %w", table, ErrBadInvite)
	}
	if !slices.Contains(t.Members, fp) {
		t.Members = append(slices.Clone(t.Members), fp)
	}
	m.tables[strings.ToLower(table)] = t
	return nil
}

func (m *memStore) NextDice(ctx context.Context, table string) (fair.NextDice, bool, error) {
	if err := m.lock(ctx); err != nil {
		return fair.NextDice{}, false, err
	}
	defer m.mu.Unlock()
	d, ok := m.next[strings.ToLower(table)]
	d.Given = slices.Clone(d.Given)
	return d, ok, nil
}

func (m *memStore) SaveNextDice(ctx context.Context, table string, d fair.NextDice) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	d.Given = slices.Clone(d.Given)
	m.next[strings.ToLower(table)] = d
	return nil
}

func (m *memStore) AddChat(ctx context.Context, table string, l ChatLine) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	l.From = "" // kept by id, as the store keeps it
	ls := append(m.chat[strings.ToLower(table)], l)
	m.chat[strings.ToLower(table)] = slices.Clone(ls[max(0, len(ls)-ChatKeep):])
	return nil
}

func (m *memStore) Chat(ctx context.Context, table string) ([]ChatLine, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return slices.Clone(m.chat[strings.ToLower(table)]), nil
}

// setName gives a person their name.
func (m *memStore) setName(id, name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.names[id] = name
}

// Game returns a copy of a stored game.
func (m *memStore) Game(id string) (memGame, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.game(id)
	if err != nil {
		return memGame{}, err
	}
	c := *g
	c.Events = slices.Clone(g.Events)
	return c, nil
}

// Table returns a copy of a stored table.
func (m *memStore) Table(name string) (TableRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[strings.ToLower(name)]
	if !ok {
		return TableRecord{}, fmt.Errorf("no table %s", name)
	}
	return copyTable(t), nil
}
