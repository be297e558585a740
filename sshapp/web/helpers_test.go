package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// env is a real lobby on a real store and the web window on them,
// serving on 127.0.0.1.
type env struct {
	t     testing.TB
	path  string // the store's file
	dice  engine.Source
	tweak func(*Config)
	st    *store.Store
	lobby *lobby.Lobby
	clock *lobbytest.Clock
	web   *Server
	base  string // "http://127.0.0.1:PORT"
	stop  func()
}

// newEnv starts an env whose games are dealt by dice (nil: the server's
// provably fair dice); tweak adjusts the web window's config first.
func newEnv(t testing.TB, dice engine.Source, tweak func(*Config)) *env {
	t.Helper()
	e := &env{t: t, clock: lobbytest.NewClock(), path: filepath.Join(t.TempDir(), "mia.db"), dice: dice, tweak: tweak}
	e.open()
	t.Cleanup(func() { e.stop() })
	return e
}

// open opens the store, the lobby on it and the web window.
func (e *env) open() {
	t := e.t
	t.Helper()
	st, err := store.Open(e.path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Clock: e.clock, Dice: e.dice, BotDelay: lobby.NoDelay})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	e.st, e.lobby = st, l
	cfg := Config{Lobby: l, Records: st, SSHHost: "mia.test", SSHPort: 23234, Now: e.clock.Now, Cast: tui.WriteCast}
	if e.tweak != nil {
		e.tweak(&cfg)
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.web, e.base = w, "http://"+ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- w.Serve(ln) }()
	e.stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := w.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
		l.Close()
		st.Close()
	}
}

// restart stops the web window, the lobby and the store, and opens them
// again on the same file, as a server restarted.
func (e *env) restart() {
	e.t.Helper()
	e.stop()
	e.open()
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// player is a named person with one key.
func (e *env) player(name string) lobby.Player {
	e.t.Helper()
	key := "SHA256:" + name + "-key"
	p, err := e.st.SetName(ctxT(e.t), key, name)
	if err != nil {
		e.t.Fatalf("set name %s: %v", name, err)
	}
	return lobby.Player{ID: p.ID, Key: key}
}

// joinKey gives p's person a second key, as `keys add` and `keys join`
// do, and returns p playing with it.
func (e *env) joinKey(p lobby.Player, key string) lobby.Player {
	e.t.Helper()
	ctx := ctxT(e.t)
	code := "code-" + key
	if err := e.st.AddKeyCode(ctx, p.ID, code, e.clock.Now().Add(time.Hour)); err != nil {
		e.t.Fatalf("a key code for %s: %v", p.ID, err)
	}
	if _, err := e.st.JoinKey(ctx, code, key, e.clock.Now()); err != nil {
		e.t.Fatalf("join %s to %s: %v", key, p.ID, err)
	}
	return lobby.Player{ID: p.ID, Key: key}
}

// get fetches path from the web window.
func (e *env) get(path string) (*http.Response, string) {
	e.t.Helper()
	return e.do(http.MethodGet, path, nil)
}

// do sends a request with headers h and reads the whole answer.
func (e *env) do(method, path string, h http.Header) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequestWithContext(ctxT(e.t), method, e.base+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s %s: read: %v", method, path, err)
	}
	return resp, string(b)
}

// game is a table whose players play through the lobby, each from their
// own view.
type game struct {
	e    *env
	tbl  *lobby.Table
	ps   []lobby.Player
	subs []*lobby.Subscription
	last []lobby.Snapshot
	rng  *rand.Rand
}

// newGame opens a table hosted by ps[0] (private if asked), seats
// everyone and starts the game.
func (e *env) newGame(name string, rules engine.Options, private bool, ps ...lobby.Player) *game {
	e.t.Helper()
	return e.newGameSeeded(name, rules, private, nil, ps...)
}

// newGameSeeded is newGame with seeds given for the game's dice, by the
// index of the player in ps, before it starts.
func (e *env) newGameSeeded(name string, rules engine.Options, private bool, seeds map[int]string, ps ...lobby.Player) *game {
	e.t.Helper()
	ctx := ctxT(e.t)
	tbl, err := e.lobby.CreateTable(ctx, ps[0], lobby.TableConfig{Name: name, Rules: rules, Seats: len(ps) + 1, Private: private})
	if err != nil {
		e.t.Fatalf("create table: %v", err)
	}
	g := &game{e: e, tbl: tbl, ps: ps, last: make([]lobby.Snapshot, len(ps)), rng: rand.New(rand.NewPCG(3, 4))}
	for _, p := range ps {
		if private && p.ID != ps[0].ID {
			code := "invite-" + p.ID
			if err := tbl.Invite(ctx, ps[0], code, e.clock.Now().Add(time.Hour)); err != nil {
				e.t.Fatal(err)
			}
			if err := tbl.Redeem(ctx, p, code); err != nil {
				e.t.Fatal(err)
			}
		}
		sub, err := tbl.Watch(ctx, p)
		if err != nil {
			e.t.Fatalf("%s watches: %v", p.ID, err)
		}
		e.t.Cleanup(sub.Close)
		g.subs = append(g.subs, sub)
		if err := tbl.Sit(ctx, p); err != nil {
			e.t.Fatalf("%s sits: %v", p.ID, err)
		}
	}
	for i, seed := range seeds {
		if _, err := tbl.SetSeed(ctx, ps[i], seed); err != nil {
			e.t.Fatalf("%s's seed: %v", ps[i].ID, err)
		}
	}
	if err := tbl.Start(ctx, ps[0]); err != nil {
		e.t.Fatalf("start: %v", err)
	}
	g.catchUp()
	return g
}

// catchUp takes every player's newest snapshot (a move returns once the
// table has published it).
func (g *game) catchUp() {
	for i, s := range g.subs {
		if snap, ok := s.Take(); ok {
			g.last[i] = snap
		}
	}
}

// over reports whether the game has ended.
func (g *game) over() bool {
	v := g.last[0].Game
	return v != nil && v.Phase == engine.PhaseOver
}

// step plays one move of whoever's turn it is.
func (g *game) step() {
	g.e.t.Helper()
	v := g.last[0].Game
	if v == nil || v.Phase == engine.PhaseOver {
		g.e.t.Fatal("no game to play")
	}
	seat := v.Turn
	who := -1
	for i, p := range g.ps {
		if g.last[i].Game != nil && g.last[i].Game.Seat == seat {
			who = i
		}
		_ = p
	}
	if who < 0 {
		g.e.t.Fatalf("nobody sits at seat %d", seat)
	}
	a := lobbytest.Move(g.last[who].Game, g.rng)
	if err := g.tbl.Act(ctxT(g.e.t), g.ps[who], a); err != nil {
		g.e.t.Fatalf("%s plays %+v: %v", g.ps[who].ID, a, err)
	}
	g.catchUp()
}

// playOut plays the game to its end, calling each (if set) after every
// move; it returns the game's ID.
func (g *game) playOut(each func()) string {
	g.e.t.Helper()
	for n := 0; !g.over(); n++ {
		if n > 3000 {
			g.e.t.Fatal("the game does not end")
		}
		g.step()
		if each != nil {
			each()
		}
	}
	return g.last[0].GameID
}

// quickRules are two lives: short games.
func quickRules() engine.Options {
	o := engine.DefaultOptions()
	o.Lives = 2
	return o
}

// contains reports the wanted strings missing from body.
func missing(body string, want ...string) []string {
	var out []string
	for _, w := range want {
		if !strings.Contains(body, w) {
			out = append(out, w)
		}
	}
	return out
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	name, id, data string
}

// sse reads an event stream.
type sse struct {
	t      testing.TB
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
	mu     sync.Mutex
	raw    strings.Builder // every byte read
}

// stream opens an event stream and reads it in the background.
func (e *env) stream(path string) *sse {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.base+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		e.t.Fatalf("GET %s: %v", path, err)
	}
	s := &sse{t: e.t, resp: resp, events: make(chan sseEvent, 10000), cancel: cancel}
	e.t.Cleanup(s.close)
	if resp.StatusCode != http.StatusOK {
		return s
	}
	go func() {
		defer close(s.events)
		r := bufio.NewReader(resp.Body)
		var ev sseEvent
		var data []string
		for {
			line, err := r.ReadString('\n')
			s.mu.Lock()
			s.raw.WriteString(line)
			s.mu.Unlock()
			if err != nil {
				return
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case line == "":
				if ev.name != "" || len(data) > 0 {
					ev.data = strings.Join(data, "\n")
					s.events <- ev
				}
				ev, data = sseEvent{}, nil
			case strings.HasPrefix(line, "event: "):
				ev.name = line[len("event: "):]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[len("id: "):]
			case strings.HasPrefix(line, "data: "):
				data = append(data, line[len("data: "):])
			}
		}
	}()
	return s
}

// next waits for the next event for which ok is true (nil: any).
func (s *sse) next(ok func(sseEvent) bool) sseEvent {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev, open := <-s.events:
			if !open {
				s.t.Fatal("the stream ended")
			}
			if ok == nil || ok(ev) {
				return ev
			}
		case <-deadline:
			s.t.Fatal("no such event in 20 s")
		}
	}
}

// ended waits for the stream to end.
func (s *sse) ended() []sseEvent {
	s.t.Helper()
	var evs []sseEvent
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev, open := <-s.events:
			if !open {
				return evs
			}
			evs = append(evs, ev)
		case <-deadline:
			s.t.Fatal("the stream did not end in 20 s")
		}
	}
}

func (s *sse) bytes() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

func (s *sse) close() {
	s.cancel()
	s.resp.Body.Close()
}

// waitFor polls cond until it holds, for up to 20 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 20 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
