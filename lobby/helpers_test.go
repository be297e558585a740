package lobby

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/ident"

	"github.com/mia-game/mia/lobby/lobbytest"
)

type env struct {
	t     *testing.T
	st    *memStore // outlives a restart (close, then open)
	lobby *Lobby
	clock *lobbytest.Clock
	dice  *lobbytest.Dice
	// botDelay is Config.BotDelay (-1, no pause, unless a test sets it).
	botDelay time.Duration
	// gate, when set, stands between the lobby and st (pause_test.go),
	// and saveTimeout is Config.SaveTimeout.
	gate        *gatedStore
	saveTimeout time.Duration
	// maxTables is Config.MaxTables (0: the default).
	maxTables int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, st: newMemStore(), clock: lobbytest.NewClock(), dice: lobbytest.NewDice(7), botDelay: NoDelay}
	e.open()
	t.Cleanup(e.close)
	return e
}

// newFairEnv is newEnv with the server's provably fair dice instead of
// scripted ones.
func newFairEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, st: newMemStore(), clock: lobbytest.NewClock(), botDelay: NoDelay}
	e.open()
	t.Cleanup(e.close)
	return e
}

func (e *env) open() {
	e.t.Helper()
	e.st.reopen()
	cfg := Config{Store: e.st, Clock: e.clock, BotDelay: e.botDelay, SaveTimeout: e.saveTimeout, MaxTables: e.maxTables}
	if e.gate != nil {
		e.gate.Storage = e.st
		cfg.Store = e.gate
	}
	if e.dice != nil {
		cfg.Dice = e.dice
	}
	l, err := New(context.Background(), cfg)
	if err != nil {
		e.t.Fatalf("open lobby: %v", err)
	}
	e.lobby = l
}

func (e *env) close() {
	if e.lobby != nil {
		e.lobby.Close()
		e.lobby = nil
	}
	e.st.Close()
}

// restart stops the lobby and opens it again on its store, as after a
// clean stop.
func (e *env) restart() {
	e.t.Helper()
	e.close()
	e.open()
}

// crash opens a new lobby on what a process killed now would leave: a
// copy of what the store holds now (nothing the tables hold only in
// memory, no timer). The old lobby is then stopped; it writes only to the
// old store.
func (e *env) crash() {
	e.t.Helper()
	image := e.st.snapshot()
	e.close()
	e.st = image
	e.open()
}

// player is a new person with a key, named name in the store.
func (e *env) player(name string) Player {
	e.t.Helper()
	p := Player{ID: fmt.Sprintf("p:%d", personSeq.Add(1)), Key: "SHA256:" + name + "-key"}
	e.st.setName(p.ID, name)
	testNames.Store(p.ID, name)
	return p
}

// keyless is a player of a door without keys, named name.
func keyless(name string) Player { return Player{ID: "test:" + name, Bot: true} }

var (
	personSeq atomic.Uint64 // the tests' people have ids of their own
	testNames sync.Map      // person id -> the name a test gave them
)

// Name is the name a test gave p (for the tests' own words).
func (p Player) Name() string {
	if n, ok := ident.KeylessName(p.ID); ok {
		return n
	}
	n, _ := testNames.Load(p.ID)
	s, _ := n.(string)
	return s
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// next waits for a snapshot newer than after.
func next(t *testing.T, s *Subscription, after uint64) Snapshot {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case <-s.Ready():
			if snap, ok := s.Take(); ok {
				lastMu.Lock()
				lastSeen[s] = snap
				lastMu.Unlock()
				if snap.Version > after {
					return snap
				}
			}
		case <-deadline:
			t.Fatalf("no snapshot after version %d", after)
		}
	}
}

// latest waits until the table's state has settled at the newest version.
func latest(t *testing.T, s *Subscription, tbl *Table) Snapshot {
	t.Helper()
	// A no-op request makes sure every earlier change was published.
	if err := tbl.doEvenPaused(ctxT(t), func(context.Context) error { return nil }); err != nil {
		t.Fatalf("sync: %v", err)
	}
	lastMu.Lock()
	defer lastMu.Unlock()
	if v, ok := s.Take(); ok {
		lastSeen[s] = v
	}
	return lastSeen[s]
}

// lastSeen remembers the newest snapshot each subscription delivered, as a
// session keeps its last screen.
var (
	lastMu   sync.Mutex
	lastSeen = map[*Subscription]Snapshot{}
)
