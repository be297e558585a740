package alerts

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// TestMain fails the package's tests if a goroutine they started outlives
// them (go.uber.org/goleak).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// env is a real lobby on a real store, and the alerts on them.
type env struct {
	t      testing.TB
	st     *store.Store
	lob    *lobby.Lobby
	alerts *Alerts
	now    *fakeNow
}

// fakeNow is a clock the test moves (Config.Now).
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeNow) Add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

// newEnv starts a lobby and the alerts, configured by cfg (its Lobby,
// Storage and Now filled in).
func newEnv(t testing.TB, cfg Config) *env {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Dice: lobbytest.NewDice(3), BotDelay: lobby.NoDelay})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, lob: lob, now: &fakeNow{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}}
	cfg.Lobby, cfg.Storage, cfg.Now = lob, st, e.now.Now
	if cfg.Play == "" {
		cfg.Play = "ssh -t -p 23234 mia.example.org play"
	}
	a, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.alerts = a
	t.Cleanup(func() {
		a.Close()
		lob.Close()
		st.Close()
	})
	return e
}

// person is a new person named name.
func (e *env) person(name string) lobby.Player {
	e.t.Helper()
	p, err := e.st.SetName(context.Background(), "SHA256:"+name, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return lobby.Player{ID: p.ID, Key: "SHA256:" + name}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// table opens a table of seats seats hosted by host, nobody seated.
func (e *env) table(name string, private bool, seats int, host lobby.Player) *lobby.Table {
	e.t.Helper()
	rules := engine.DefaultOptions()
	rules.Lives = 2
	t, err := e.lob.CreateTable(ctxT(e.t), host, lobby.TableConfig{Name: name, Rules: rules, Seats: seats, Private: private})
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

// bots fills the table's free seats with built-in bots: its games start
// and play by themselves, one after another.
func (e *env) bots(t *lobby.Table, host lobby.Player) {
	e.t.Helper()
	for t.Info().Taken < t.Info().Seats {
		if _, err := t.AddBot(ctxT(e.t), host, ai.Easy); err != nil {
			e.t.Fatal(err)
		}
	}
}

// receiver is an HTTP receiver of hooks that keeps what it is sent.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	arrive chan struct{}
	answer func(w http.ResponseWriter, r *http.Request) // nil: 200 "ok"
}

// received is one request a receiver was sent.
type received struct {
	path   string
	header http.Header
	body   []byte
}

func newReceiver(t testing.TB, answer func(w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{arrive: make(chan struct{}, 1<<16), answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		rc.mu.Lock()
		rc.got = append(rc.got, received{path: r.URL.Path, header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		rc.arrive <- struct{}{}
		if rc.answer != nil {
			rc.answer(w, r)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(rc.Close)
	return rc
}

// wait waits until the receiver was sent a request of type kind, and
// returns it.
func (rc *receiver) wait(t *testing.T, kind string) received {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		rc.mu.Lock()
		for _, g := range rc.got {
			if g.header.Get(HeaderEvent) == kind {
				rc.mu.Unlock()
				return g
			}
		}
		rc.mu.Unlock()
		select {
		case <-rc.arrive:
		case <-deadline:
			t.Fatalf("%s was sent no %s", rc.URL, kind)
		}
	}
}

// count is how many requests of type kind ("": any) the receiver was sent.
func (rc *receiver) count(kind string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for _, g := range rc.got {
		if kind == "" || g.header.Get(HeaderEvent) == kind {
			n++
		}
	}
	return n
}

func netipAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// all is every request of type kind the receiver was sent.
func (rc *receiver) all(kind string) []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []received
	for _, g := range rc.got {
		if g.header.Get(HeaderEvent) == kind {
			out = append(out, g)
		}
	}
	return out
}

// eventually polls cond until it holds, for 10 seconds at most.
func eventually(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("not within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
