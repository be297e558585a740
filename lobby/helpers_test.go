package lobby

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

type env struct {
	t     *testing.T
	path  string
	st    *store.Store
	lobby *Lobby
	clock *lobbytest.Clock
	dice  *lobbytest.Dice
	// botDelay is Config.BotDelay (-1, no pause, unless a test sets it).
	botDelay time.Duration
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), dice: lobbytest.NewDice(7), botDelay: -1}
	e.open()
	t.Cleanup(e.close)
	return e
}

func (e *env) open() {
	e.t.Helper()
	st, err := store.Open(e.path)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	l, err := New(context.Background(), Config{Store: st, Clock: e.clock, Dice: e.dice, BotDelay: e.botDelay})
	if err != nil {
		st.Close()
		e.t.Fatalf("open lobby: %v", err)
	}
	e.st, e.lobby = st, l
}

func (e *env) close() {
	if e.lobby != nil {
		e.lobby.Close()
		e.lobby = nil
	}
	if e.st != nil {
		e.st.Close()
		e.st = nil
	}
}

// restart stops the lobby and opens it again on its file, as after a
// clean stop.
func (e *env) restart() {
	e.t.Helper()
	e.close()
	e.open()
}

// crash opens a new lobby on what a process killed now would leave: a
// consistent copy of the file as of its last commit (nothing the tables
// hold only in memory, no timer). The old lobby is then stopped; it
// writes only to the old file.
func (e *env) crash() {
	e.t.Helper()
	image := filepath.Join(e.t.TempDir(), "crashed.db")
	f, err := os.Create(image)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.st.Backup(context.Background(), f); err != nil {
		e.t.Fatalf("copy the file: %v", err)
	}
	if err := f.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.close()
	e.path = image
	e.open()
}

func (e *env) player(name string) Player {
	e.t.Helper()
	p := Player{Fingerprint: "SHA256:" + name + "-key", Name: name}
	if _, err := e.st.SetName(context.Background(), p.Fingerprint, name, false); err != nil {
		e.t.Fatalf("set name %s: %v", name, err)
	}
	return p
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
	if err := tbl.do(ctxT(t), func(context.Context) error { return nil }); err != nil {
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

// move picks a legal move for the seat whose turn it is: roll, claim the
// truth when it is higher, challenge high claims.
func move(v *engine.View, r *rand.Rand) engine.Action {
	switch {
	case v.Can(engine.Roll) && (v.Claim == engine.NoValue || r.IntN(3) > 0) && !v.Can(engine.Claim):
		return engine.Action{Kind: engine.Roll, Look: true}
	case v.Can(engine.Claim):
		for _, c := range v.Claims {
			if c == v.Dice {
				return engine.Action{Kind: engine.Claim, Value: c}
			}
		}
		return engine.Action{Kind: engine.Claim, Value: v.Claims[r.IntN(len(v.Claims))]}
	case v.Can(engine.GiveUp) && r.IntN(2) == 0:
		return engine.Action{Kind: engine.GiveUp}
	case v.Can(engine.Pass) && r.IntN(4) == 0:
		return engine.Action{Kind: engine.Pass, Value: v.Passes[0]}
	}
	return engine.Action{Kind: engine.Challenge}
}
