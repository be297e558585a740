package events_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// world is a server's lobby and events on a real store, in a test's
// folder: restart stops them and opens them again on the same file.
type world struct {
	t     *testing.T
	path  string
	st    *store.Store
	lob   *lobby.Lobby
	reg   *events.Registry
	clock *lobbytest.Clock
	cfg   events.Config
}

func newWorld(t *testing.T, cfg events.Config) *world {
	t.Helper()
	w := &world{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), cfg: cfg}
	w.open()
	t.Cleanup(w.close)
	return w
}

func (w *world) open() {
	w.t.Helper()
	st, err := store.Open(w.path)
	if err != nil {
		w.t.Fatal(err)
	}
	w.st = st
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Clock: w.clock, BotDelay: lobby.NoDelay})
	if err != nil {
		w.t.Fatal(err)
	}
	w.lob = lob
	cfg := w.cfg
	cfg.Lobby, cfg.Store, cfg.Clock = lob, lobbystore.NewEvents(st), w.clock
	reg, err := events.Open(context.Background(), cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.reg = reg
}

func (w *world) close() {
	if w.reg == nil {
		return
	}
	w.reg.Close()
	w.lob.Close()
	_ = w.st.Close()
	w.reg = nil
}

// restart stops the server's lobby and events, as a crash between two
// writes would, and opens them again on the same file.
func (w *world) restart() {
	w.close()
	w.open()
}

// person makes a person with a key, named name.
func (w *world) person(name string) lobby.Player {
	w.t.Helper()
	key := "SHA256:" + fmt.Sprintf("%043s", name)
	p, err := w.st.SetName(context.Background(), key, name)
	if err != nil {
		w.t.Fatal(err)
	}
	return lobby.Player{ID: p.ID, Key: key, Source: "203.0.113.9"}
}

// quick are rules of short games: one life.
func quick() engine.Options {
	o := engine.DefaultOptions()
	o.Lives = 1
	return o
}

// waitFor waits until the event's info satisfies ok, or fails the test.
func waitFor(t *testing.T, e *events.Event, what string, ok func(events.Info) bool) events.Info {
	t.Helper()
	box, err := e.Watch(context.Background(), lobby.Player{Admin: true})
	if err != nil {
		t.Fatalf("watch %s: %v", e.Name(), err)
	}
	defer e.Unwatch(box)
	deadline := time.After(30 * time.Second)
	var last events.Info
	for {
		select {
		case <-box.Ready():
			info, _ := box.Take()
			last = info
			if ok(info) {
				return info
			}
		case <-box.Done():
			info := e.Info()
			if ok(info) {
				return info
			}
			t.Fatalf("%s: the event stopped before %s (state %s)", e.Name(), what, info.State)
		case <-deadline:
			t.Fatalf("%s: no %s in 30 s; last: state %s, %d games, tables %+v", e.Name(), what, last.State, len(last.Games), last.Tables)
		}
	}
}

// ended counts the games of info that have ended, and those with a
// result.
func ended(info events.Info) (over, scored int) {
	for _, g := range info.Games {
		if g.Result != nil && g.Result.Over() {
			over++
			if g.Result.Scored() {
				scored++
			}
		}
	}
	return over, scored
}
