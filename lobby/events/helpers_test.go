package events_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
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
	t *testing.T
	// botDelay is the built-in bots' pause before a move (lobby.NoDelay:
	// none); on the world's manual clock, a game moves only as the test
	// moves the clock (step).
	botDelay time.Duration
	path     string
	st       *store.Store
	lob      *lobby.Lobby
	reg      *events.Registry
	clock    *lobbytest.Clock
	cfg      events.Config
	// wrap, if set, stands between the events and their storage.
	wrap func(events.Storage) events.Storage
}

func newWorld(t *testing.T, cfg events.Config) *world {
	return newWorldDelay(t, cfg, lobby.NoDelay)
}

// newWorldDelay is newWorld whose bots wait d before each move: their
// games move only as the test moves the clock.
func newWorldDelay(t *testing.T, cfg events.Config, d time.Duration) *world {
	t.Helper()
	w := &world{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), cfg: cfg, botDelay: d}
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
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Clock: w.clock, BotDelay: w.botDelay})
	if err != nil {
		w.t.Fatal(err)
	}
	w.lob = lob
	cfg := w.cfg
	cfg.Lobby, cfg.Store, cfg.Clock = lob, lobbystore.NewEvents(st), w.clock
	if w.wrap != nil {
		cfg.Store = w.wrap(cfg.Store)
	}
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

// step moves the clock on by d at a time until ok holds of the event's
// info, or fails the test after limit of it; between steps it waits for
// the event to change, for a moment at most, so that the actors follow.
func (w *world) step(e *events.Event, d, limit time.Duration, what string, ok func(events.Info) bool) events.Info {
	w.t.Helper()
	box, err := e.Watch(context.Background(), lobby.Player{Admin: true})
	if err != nil {
		w.t.Fatalf("watch %s: %v", e.Name(), err)
	}
	defer e.Unwatch(box)
	for moved := time.Duration(0); ; moved += d {
		if info := e.Info(); ok(info) {
			return info
		}
		if moved > limit {
			// The clock is past the limit: the actors may still be
			// following it on a loaded machine, and a timer they set
			// late (a rest, a bot's pause) fires only as the clock moves:
			// move it on, slowly, for a while.
			late := time.After(10 * time.Second)
			for {
				if info := e.Info(); ok(info) {
					return info
				}
				select {
				case <-box.Ready():
					box.Take()
					continue
				case <-time.After(50 * time.Millisecond):
					w.clock.AdvanceWait(d)
					continue
				case <-late:
				}
				break
			}
			info := e.Info()
			w.t.Fatalf("%s: no %s in %v; state %s, %d games, tables %+v", e.Name(), what, limit, info.State, len(info.Games), info.Tables)
		}
		w.clock.AdvanceWait(d)
		select {
		case <-box.Ready():
			box.Take()
		case <-time.After(20 * time.Millisecond): // the actors had nothing to follow
		}
	}
}

// recount counts every entrant's points again from the replays of the
// event's games in the store, by the rules of PROTOCOL.md: a game's
// points are the players who finished below (its standings), and in an
// arena a win after two wins in a row counts double.
func (w *world) recount(info events.Info) map[string]int {
	w.t.Helper()
	type game struct {
		id      uint64
		ended   time.Time
		players []string
		order   []int
	}
	var games []game
	for _, g := range info.Games {
		rec, _, err := w.st.Game(context.Background(), g.ID)
		if err != nil {
			w.t.Fatalf("game %s: %v", g.ID, err)
		}
		if !rec.Finished() {
			continue
		}
		n, _ := strconv.ParseUint(rec.ID, 10, 64)
		gm := game{id: n, ended: rec.Ended, order: rec.Standings}
		for _, seat := range rec.Seats {
			gm.players = append(gm.players, seat.Person)
		}
		games = append(games, gm)
	}
	sort.Slice(games, func(i, j int) bool {
		if !games[i].ended.Equal(games[j].ended) {
			return games[i].ended.Before(games[j].ended)
		}
		return games[i].id < games[j].id
	})
	points, streak := map[string]int{}, map[string]int{}
	for _, g := range games {
		for place, seat := range g.order {
			id := g.players[seat]
			p := len(g.order) - 1 - place
			if place == 0 {
				if info.Format == events.Arena && streak[id] >= 2 {
					p *= 2
				}
				streak[id]++
			} else {
				streak[id] = 0
			}
			points[id] += p
		}
	}
	return points
}

// sameAsRecount fails the test unless the event's standings hold the
// points a recount of its games' replays gives.
func (w *world) sameAsRecount(info events.Info) {
	w.t.Helper()
	want := w.recount(info)
	for _, s := range info.Standings {
		if s.Points != want[s.ID] {
			w.t.Errorf("%s has %d points; a recount of the replays gives %d", s.Name, s.Points, want[s.ID])
		}
	}
}
