package command

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// harness runs the router as the server does, on a real lobby and store,
// without SSH: each command line runs on a callerSession.
type harness struct {
	t     *testing.T
	st    *store.Store
	lobby *lobby.Lobby
	r     *Router

	mu     sync.Mutex
	admins map[string]bool
	ended  map[string]string // EndSessions: fingerprint or person id -> reason
}

// who is a caller: the key they log in with and the person it is (ID ""
// for a key that is nobody's yet).
type who struct {
	Key string
	store.Person
}

func newHarness(t *testing.T, tweak ...func(*Config)) *harness {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), BotDelay: lobby.NoDelay})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		l.Close()
		st.Close()
	})
	h := &harness{t: t, st: st, lobby: l, admins: map[string]bool{}, ended: map[string]string{}}
	cfg := Config{
		Lobby: l, Players: st, Records: st, Backups: st,
		Log: log.New(io.Discard), Now: time.Now,
		IsAdmin: func(fp string) bool {
			h.mu.Lock()
			defer h.mu.Unlock()
			return h.admins[fp]
		},
		EndSessions: func(target, reason string, _ Session) int {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.ended[target] = reason
			return 1
		},
	}
	for _, f := range tweak {
		f(&cfg)
	}
	h.r = New(cfg)
	return h
}

// key is a fresh key, nobody's yet.
func (h *harness) key(label string) who {
	return who{Key: "SHA256:" + label + "-key"}
}

// person is a key with a name: a person.
func (h *harness) person(name string) who {
	h.t.Helper()
	fp := "SHA256:" + name + "-key"
	p, err := h.st.SetName(context.Background(), fp, name)
	if err != nil {
		h.t.Fatal(err)
	}
	return who{Key: fp, Person: p}
}

// admin is a person whose key is a server admin's.
func (h *harness) admin(name string) who {
	p := h.person(name)
	h.mu.Lock()
	h.admins[p.Key] = true
	h.mu.Unlock()
	return p
}

// result is what a command line did.
type result struct {
	code           int
	stdout, stderr string
	session        *callerSession
}

// run runs a command line (words) as p, without a terminal.
func (h *harness) run(p who, words ...string) result {
	return h.runOn(&callerSession{player: p, h: h}, words...)
}

// runPty runs a command line as p with a terminal.
func (h *harness) runPty(p who, words ...string) result {
	return h.runOn(&callerSession{player: p, h: h, pty: true}, words...)
}

func (h *harness) runOn(s *callerSession, words ...string) result {
	h.t.Helper()
	code := h.r.Run(s, words)
	return result{code: code, stdout: s.out.String(), stderr: s.errb.String(), session: s}
}

// expect checks a result's exit status, and that stdout and stderr hold
// the given texts.
func (r result) expect(t *testing.T, code int, stdout, stderr []string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range stdout {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range stderr {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
}

// finishedGame plays a game of a and b at a new table to its end, with
// the server's fair dice, and returns its ID.
func (h *harness) finishedGame(table string, a, b who) string {
	h.t.Helper()
	ctx := context.Background()
	pa, pb := lobby.Player{ID: a.ID, Key: a.Key}, lobby.Player{ID: b.ID, Key: b.Key}
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl, err := h.lobby.CreateTable(ctx, pa, lobby.TableConfig{Name: table, Rules: rules, Seats: 2})
	if err != nil {
		h.t.Fatal(err)
	}
	sa, err := tbl.Watch(ctx, pa)
	if err != nil {
		h.t.Fatal(err)
	}
	defer sa.Close()
	sb, err := tbl.Watch(ctx, pb)
	if err != nil {
		h.t.Fatal(err)
	}
	defer sb.Close()
	for _, p := range []lobby.Player{pa, pb} {
		if err := tbl.Sit(ctx, p); err != nil { // the second fills the table: the game starts
			h.t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, v := range []struct {
			p   lobby.Player
			sub *lobby.Subscription
		}{{pa, sa}, {pb, sb}} {
			snap, ok := v.sub.Take()
			if !ok {
				continue
			}
			if !snap.Playing && snap.Result != nil {
				return snap.Result.GameID
			}
			if snap.Playing && snap.Game.MyTurn() {
				if err := tbl.Act(ctx, v.p, lobbytest.Move(snap.Game, r)); err != nil && !errors.Is(err, lobby.ErrNoGame) {
					h.t.Fatal(err)
				}
			}
		}
		select {
		case <-sa.Ready():
		case <-sb.Ready():
		case <-time.After(time.Second):
		}
	}
	h.t.Fatal("the game did not end")
	return ""
}

// callerSession is the caller's session as the commands see it (Session),
// without SSH: output in buffers. It embeds a nil ssh.Session, so that a
// method of one the commands should not call panics.
type callerSession struct {
	ssh.Session
	h         *harness
	player    who
	pty       bool
	out, errb bytes.Buffer
	played    *string  // the table Play was called with
	plained   *string  // the table Plain was called with
	env       []string // the environment the client set
	source    string   // the network source it came from ("": not counted)
}

func (s *callerSession) Write(p []byte) (int, error) { return s.out.Write(p) }

func (s *callerSession) Stderr() io.ReadWriter { return &s.errb }

func (s *callerSession) Context() ssh.Context {
	return &callerContext{Context: context.Background()}
}

func (s *callerSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	if !s.pty {
		return ssh.Pty{}, nil, false
	}
	return ssh.Pty{Term: "xterm", Window: ssh.Window{Width: 80, Height: 24}}, nil, true
}

func (s *callerSession) Key() string              { return s.player.Key }
func (s *callerSession) Source() string           { return s.source }
func (s *callerSession) Person() store.Person     { return s.player.Person }
func (s *callerSession) SetPerson(p store.Person) { s.player.Person = p }
func (s *callerSession) Hint(flags string) string {
	if flags == "" {
		return "ssh -p 23234 mia.test"
	}
	return "ssh " + flags + " -p 23234 mia.test"
}
func (s *callerSession) Play(table, _ string)  { s.played = &table }
func (s *callerSession) Plain(table, _ string) { s.plained = &table }
func (s *callerSession) Environ() []string     { return s.env }
func (s *callerSession) GoodbyeReason() string { return "" }
func (s *callerSession) Touch()                {}
func (s *callerSession) Owed() int             { return 0 }
func (s *callerSession) Taken() <-chan struct{} {
	return nil
}

// Rename checks the name by the lobby's rule, stores it and tells the
// lobby, as the server's sessions do.
func (s *callerSession) Rename(ctx context.Context, name string) (store.Person, error) {
	if err := lobby.CheckName(name); err != nil {
		return store.Person{}, err
	}
	p, err := s.h.st.SetName(ctx, s.player.Key, name)
	if errors.Is(err, store.ErrNameTaken) {
		return store.Person{}, lobby.NewError(lobby.Refused, "that name is taken; choose another")
	}
	if err != nil {
		return store.Person{}, err
	}
	if err := s.h.lobby.Renamed(ctx, p.ID); err != nil {
		return store.Person{}, err
	}
	s.player.Person = p
	return p, nil
}

// callerContext is the connection's context as the commands see it.
type callerContext struct {
	context.Context
	sync.Mutex
}

func (*callerContext) User() string          { return "tester" }
func (*callerContext) SessionID() string     { return "test" }
func (*callerContext) ClientVersion() string { return "SSH-2.0-test" }
func (*callerContext) ServerVersion() string { return "SSH-2.0-mia" }
func (*callerContext) RemoteAddr() net.Addr  { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }
func (*callerContext) LocalAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 23234}
}
func (*callerContext) Permissions() *ssh.Permissions { return &ssh.Permissions{} }
func (*callerContext) SetValue(any, any)             {}
