package sshapp

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// fakePlayers is the people of a real store in a temporary directory,
// noting every key passed to it, with tallies a test may set.
type fakePlayers struct {
	st    *store.Store
	mu    sync.Mutex
	tally map[string]store.Tally // by person, set by tests
	seen  map[string]bool        // fingerprints passed to any method
}

func newFakePlayers(t testing.TB) *fakePlayers {
	st, err := store.Open(filepath.Join(t.TempDir(), "players.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fakePlayers{st: st, tally: map[string]store.Tally{}, seen: map[string]bool{}}
}

func (f *fakePlayers) see(fp string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen[fp] = true
}

func (f *fakePlayers) PersonByKey(ctx context.Context, fp string) (store.Person, error) {
	f.see(fp)
	return f.st.PersonByKey(ctx, fp)
}

func (f *fakePlayers) Person(ctx context.Context, id string) (store.Person, error) {
	return f.st.Person(ctx, id)
}

func (f *fakePlayers) PersonByName(ctx context.Context, name string) (store.Person, error) {
	return f.st.PersonByName(ctx, name)
}

func (f *fakePlayers) SetName(ctx context.Context, fp, name string) (store.Person, error) {
	f.see(fp)
	return f.st.SetName(ctx, fp, name)
}

func (f *fakePlayers) Touch(ctx context.Context, fp string, at time.Time) error {
	f.see(fp)
	return f.st.Touch(ctx, fp, at)
}

func (f *fakePlayers) Tally(ctx context.Context, id string) (store.Tally, error) {
	f.mu.Lock()
	t, ok := f.tally[id]
	f.mu.Unlock()
	if ok {
		return t, nil
	}
	return f.st.Tally(ctx, id)
}

func (f *fakePlayers) PublicTally(ctx context.Context, id string) (store.Tally, error) {
	f.mu.Lock()
	t, ok := f.tally[id]
	f.mu.Unlock()
	if ok {
		return t, nil
	}
	return f.st.PublicTally(ctx, id)
}

func (f *fakePlayers) AddKeyCode(ctx context.Context, person, code string, expires time.Time) error {
	return f.st.AddKeyCode(ctx, person, code, expires)
}

func (f *fakePlayers) JoinKey(ctx context.Context, code, fp string, now time.Time) (store.Joined, error) {
	f.see(fp)
	return f.st.JoinKey(ctx, code, fp, now)
}

func (f *fakePlayers) RemoveKey(ctx context.Context, person, fp string) (store.Person, error) {
	return f.st.RemoveKey(ctx, person, fp)
}

// name is the name of the person of key fp, "" for nobody.
func (f *fakePlayers) ChangeSettings(ctx context.Context, person string, change func(*store.Settings)) (store.Person, error) {
	return f.st.ChangeSettings(ctx, person, change)
}

func (f *fakePlayers) name(fp string) string {
	p, err := f.st.PersonByKey(context.Background(), fp)
	if err != nil {
		return ""
	}
	return p.Name
}

// id is the person id of key fp, "" for nobody.
func (f *fakePlayers) id(fp string) string {
	p, err := f.st.PersonByKey(context.Background(), fp)
	if err != nil {
		return ""
	}
	return p.ID
}

func (f *fakePlayers) wasSeen(fp string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[fp]
}

var (
	hostKeyOnce sync.Once
	hostSigner  gossh.Signer
)

// testHostKey is one host key for every test server of this process.
func testHostKey(t testing.TB) gossh.Signer {
	hostKeyOnce.Do(func() { hostSigner = newKey(t) })
	return hostSigner
}

// newKey is a fresh Ed25519 client key.
func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testServer is a running server on 127.0.0.1.
type testServer struct {
	*Server
	addr    string
	players *fakePlayers
	served  chan error
}

// startServer starts a server on 127.0.0.1:0 with fake storage; tweak
// adjusts its config first. It is shut down when the test ends.
func startServer(t testing.TB, tweak func(*Config)) *testServer {
	t.Helper()
	players := newFakePlayers(t)
	cfg := Config{HostKey: testHostKey(t), Storage: Storage{Players: players, Commands: players}}
	if tweak != nil {
		tweak(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: srv, addr: ln.Addr().String(), players: players, served: make(chan error, 1)}
	go func() { ts.served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-ts.served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return ts
}

// withLobby gives the server a lobby on the store of its fake players;
// *lob receives it.
func withLobby(t testing.TB, lob **lobby.Lobby) func(*Config) {
	return func(c *Config) {
		players := c.Storage.Players.(*fakePlayers)
		l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(players.st)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close) // registered first: runs after the server's shutdown
		c.Lobby, *lob = l, l
	}
}

// storageOf is a real store in every role, as cmd/mia wires it.
func storageOf(st *store.Store) Storage {
	return Storage{Players: st, Bans: st, Commands: st, Records: st, Screens: st, Games: st, UDPNames: st}
}

func clientConfig(signers ...gossh.Signer) *gossh.ClientConfig {
	return &gossh.ClientConfig{
		User:            "someone",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(signers...)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         5 * time.Second,
	}
}

// dial connects with cfg, from the local address from if not "".
func dialFrom(addr, from string, cfg *gossh.ClientConfig) (*gossh.Client, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	c, chans, reqs, err := gossh.NewClientConn(nc, addr, cfg)
	if err != nil {
		nc.Close()
		return nil, err
	}
	_ = nc.SetDeadline(time.Time{})
	return gossh.NewClient(c, chans, reqs), nil
}

// connect is a client holding key, closed when the test ends.
func (ts *testServer) connect(t testing.TB, key gossh.Signer) *gossh.Client {
	t.Helper()
	c, err := dialFrom(ts.addr, "", clientConfig(key))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// result is what a command printed and its exit status.
type result struct {
	stdout, stderr string
	code           int
}

// run runs one command without a PTY on a fresh connection.
func (ts *testServer) run(t testing.TB, key gossh.Signer, cmd string) result {
	t.Helper()
	c := ts.connect(t, key)
	defer c.Close()
	return runOn(t, c, cmd)
}

func runOn(t testing.TB, c *gossh.Client, cmd string) result {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr = &out, &errb
	var code int
	if err := s.Run(cmd); err != nil {
		var ee *gossh.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("run %q: %v", cmd, err)
		}
		code = ee.ExitStatus()
	}
	return result{out.String(), errb.String(), code}
}

// syncBuffer collects a session's output for polling.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // a token after a write, for changed; made when first asked for
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote != nil {
		select {
		case s.wrote <- struct{}{}:
		default:
		}
	}
	return s.b.Write(p)
}

// changed is signalled after a write (one that came after the first
// call, at least).
func (s *syncBuffer) changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote == nil {
		s.wrote = make(chan struct{}, 1)
	}
	return s.wrote
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// screen is an interactive session on a PTY (startScreen).
type screen struct {
	sess *gossh.Session
	in   interface{ Write([]byte) (int, error) }
	out  *syncBuffer
	done chan error
}

// openScreen is the lobby on a "dumb" PTY of w×h (which skips the
// terminal colour query).
func openScreen(t testing.TB, c *gossh.Client, w, h int) *screen {
	t.Helper()
	return startScreen(t, c, "dumb", w, h, "")
}

// startScreen is an interactive session on a PTY of type term, w×h,
// running cmd ("" for none: the shell, that is the lobby).
func startScreen(t testing.TB, c *gossh.Client, term string, w, h int, cmd string) *screen {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.RequestPty(term, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatalf("pty: %v", err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	s.Stdout, s.Stderr = out, out
	if cmd == "" {
		err = s.Shell()
	} else {
		err = s.Start(cmd)
	}
	if err != nil {
		t.Fatalf("start %q: %v", cmd, err)
	}
	sc := &screen{sess: s, in: in, out: out, done: make(chan error, 1)}
	go func() { sc.done <- s.Wait() }()
	return sc
}

func (sc *screen) send(t testing.TB, keys string) {
	t.Helper()
	if _, err := sc.in.Write([]byte(keys)); err != nil {
		t.Fatalf("send %q: %v", keys, err)
	}
}

// waitFor waits until the output holds want, looking again after each
// write to it.
func (sc *screen) waitFor(t testing.TB, want string, within time.Duration) {
	t.Helper()
	changed := sc.out.changed()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for !strings.Contains(sc.out.String(), want) {
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("screen never showed %q; it shows:\n%q", want, sc.out.String())
		}
	}
}

// wait waits for the session to end and returns its exit status.
func (sc *screen) wait(t testing.TB, within time.Duration) int {
	t.Helper()
	select {
	case err := <-sc.done:
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.ExitStatus()
		default:
			t.Fatalf("session ended with %v", err)
		}
	case <-time.After(within):
		t.Fatalf("session still open after %s; it shows:\n%q", within, sc.out.String())
	}
	return -1
}

// eventually polls cond until it holds.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// connCount is the number of tracked TCP connections.
func (srv *Server) connCount() int { return srv.gate.Stats().Connections }
