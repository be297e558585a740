package tui

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// env is a real lobby on a real store in a temporary folder.
type env struct {
	t     testing.TB
	st    *store.Store
	lobby *lobby.Lobby
	clock *lobbytest.Clock
	done  chan struct{} // every screen's Config.Done: closed as the test ends
}

func newEnv(t testing.TB) *env { t.Helper(); return newEnvDice(t, lobbytest.NewDice(7)) }

// newFairEnv is newEnv with the server's provably fair dice instead of
// scripted ones.
func newFairEnv(t testing.TB) *env { t.Helper(); return newEnvDice(t, nil) }

func newEnvDice(t testing.TB, dice engine.Source) *env {
	t.Helper()
	e := &env{t: t, clock: lobbytest.NewClock()}
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Clock: e.clock, Dice: dice})
	if err != nil {
		st.Close()
		t.Fatalf("open lobby: %v", err)
	}
	e.st, e.lobby = st, l
	t.Cleanup(func() {
		l.Close()
		st.Close()
	})
	e.done = make(chan struct{})
	t.Cleanup(func() { close(e.done) }) // the sessions end first
	return e
}

// player is a new person named name, with the key "SHA256:NAME-key".
func (e *env) player(name string) lobby.Player {
	e.t.Helper()
	key := "SHA256:" + name + "-key"
	p, err := e.st.SetName(ctxT(e.t), key, name)
	if err != nil {
		e.t.Fatalf("set name %s: %v", name, err)
	}
	return lobby.Player{ID: p.ID, Key: key}
}

// nameOf is the name a test's player was given (player), read from their
// key.
func nameOf(p lobby.Player) string {
	return strings.TrimSuffix(strings.TrimPrefix(p.Key, "SHA256:"), "-key")
}

// game opens a table hosted by the first player, seats everyone and
// starts the game.
func (e *env) game(name string, rules engine.Options, ps ...lobby.Player) *lobby.Table {
	e.t.Helper()
	ctx := ctxT(e.t)
	tbl, err := e.lobby.CreateTable(ctx, ps[0], lobby.TableConfig{Name: name, Rules: rules, Seats: len(ps) + 1})
	if err != nil {
		e.t.Fatalf("create table: %v", err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil {
			e.t.Fatalf("%s sits: %v", nameOf(p), err)
		}
	}
	if err := tbl.Start(ctx, ps[0]); err != nil {
		e.t.Fatalf("start: %v", err)
	}
	return tbl
}

// snapshot returns p's newest view of the table, after every earlier change.
func (e *env) snapshot(tbl *lobby.Table, p lobby.Player) lobby.Snapshot {
	e.t.Helper()
	sub, err := tbl.Watch(ctxT(e.t), p)
	if err != nil {
		e.t.Fatalf("watch: %v", err)
	}
	defer sub.Close()
	snap, ok := sub.Wait(ctxT(e.t))
	if !ok {
		e.t.Fatal("no snapshot")
	}
	return snap
}

// until polls the table as p until cond holds, or fails after 5 s.
func (e *env) until(tbl *lobby.Table, p lobby.Player, what string, cond func(lobby.Snapshot) bool) lobby.Snapshot {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		snap := e.snapshot(tbl, p)
		if cond(snap) {
			return snap
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not seen; last snapshot %+v", what, snap.Game)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// infoUntil polls the table's listing, which (unlike a snapshot) needs no
// subscription that would count as someone at the table.
func (e *env) infoUntil(tbl *lobby.Table, what string, cond func(lobby.TableInfo) bool) lobby.TableInfo {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		info := tbl.Info()
		if cond(info) {
			return info
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not seen; last %+v", what, info)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// asciiRenderer renders without colours or escape codes.
func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	r.SetHasDarkBackground(true)
	return r
}

// config is a session's config for p in e.
func (e *env) config(p lobby.Player, w, h int) Config {
	return Config{Lobby: e.lobby, Player: p, Renderer: asciiRenderer(), Width: w, Height: h, Now: e.clock.Now, Done: e.done}
}

// common is the shared state of p's screens in e, with the store's records.
func (e *env) common(p lobby.Player) *common {
	cfg := e.config(p, 80, 24)
	cfg.Records = e.st
	s := NewStyles(cfg.Renderer)
	return &common{cfg: cfg, s: s}
}

// answer runs a screen's command and returns the message it brings back
// to the screen.
func answer(cmd tea.Cmd) tea.Msg {
	msg := cmd()
	if r, ok := msg.(reply); ok {
		return r.msg
	}
	return msg
}

// showTable shows tbl on a table screen of m at snap, without a
// subscription (the test moves the table itself).
func showTable(m *Model, tbl *lobby.Table, snap lobby.Snapshot) *tableScreen {
	ts := newTableScreen(m.c, tbl.Name(), false)
	ts.table = tbl
	m.show(ts)
	ts.setSnapshot(snap)
	return ts
}

// bluffing opens a game of a and b at the table name whose opener rolls,
// looks and claims the value just above the dice: a bluff the other may
// catch. It returns the table, the opener, the other, the dice and the
// claim.
func (e *env) bluffing(name string, a, b lobby.Player) (tbl *lobby.Table, opener, other lobby.Player, dice, claim engine.Value) {
	e.t.Helper()
	tbl = e.game(name, engine.DefaultOptions(), a, b)
	opener, rest := whoseTurn(e.t, e.snapshot(tbl, a), a, b)
	ctx := ctxT(e.t)
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		e.t.Fatal(err)
	}
	dice = e.snapshot(tbl, opener).Game.Dice
	claim = engine.Classic.Above(dice)[0]
	if err := tbl.Act(ctx, opener, engine.Action{Kind: engine.Claim, Value: claim}); err != nil {
		e.t.Fatal(err)
	}
	return tbl, opener, rest[0], dice, claim
}
