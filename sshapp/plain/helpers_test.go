package plain

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// env is a real lobby on a real store in a temporary folder, on a manual
// clock shared with the doors, its bots moving at once.
type env struct {
	t     testing.TB
	st    *store.Store
	lobby *lobby.Lobby
	clock *lobbytest.Clock
}

func newEnv(t testing.TB, dice engine.Source) *env {
	t.Helper()
	e := &env{t: t, clock: lobbytest.NewClock()}
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), Clock: e.clock, Dice: dice,
		BotDelay: lobby.NoDelay})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	e.st, e.lobby = st, l
	t.Cleanup(func() {
		l.Close()
		st.Close()
	})
	return e
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// player is a new person named name, with the key "SHA256:NAME-key".
func (e *env) player(name string) lobby.Player {
	e.t.Helper()
	key := "SHA256:" + name + "-key"
	p, err := e.st.SetName(ctxT(e.t), key, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return lobby.Player{ID: p.ID, Key: key}
}

// table opens a table hosted by host, of seats seats.
func (e *env) table(host lobby.Player, name string, seats int, rules engine.Options) *lobby.Table {
	e.t.Helper()
	t, err := e.lobby.CreateTable(ctxT(e.t), host, lobby.TableConfig{Name: name, Rules: rules, Seats: seats})
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

// syncBuffer holds every byte a door wrote.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{wrote: make(chan struct{}, 1)} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// client is a plain session on pipes: the lines the test types and every
// byte the door wrote, read from pos on by next.
type client struct {
	t      testing.TB
	in     *io.PipeWriter
	out    *syncBuffer
	term   bool
	pos    int
	done   chan struct{}
	cancel context.CancelFunc
}

// open runs a door for p (on a terminal, as ssh -t gives one, when term
// is set), with cfg's other fields as tweak sets them.
func (e *env) open(p lobby.Player, term bool, tweak func(*Config)) *client {
	e.t.Helper()
	pr, pw := io.Pipe()
	d := &client{t: e.t, in: pw, out: newSyncBuffer(), term: term, done: make(chan struct{})}
	cfg := Config{Lobby: e.lobby, Player: p, Clock: e.clock, Terminal: term}
	if tweak != nil {
		tweak(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	go func() {
		defer close(d.done)
		Run(ctx, cfg, struct {
			io.Reader
			io.Writer
		}{pr, d.out})
		pr.Close()
	}()
	e.t.Cleanup(d.close)
	return d
}

// close ends the door as a hang-up does, and waits for it.
func (d *client) close() {
	d.in.Close()
	select {
	case <-d.done:
	case <-time.After(5 * time.Second):
		d.cancel()
		<-d.done
	}
}

// ended reports whether the door has returned within a second.
func (d *client) ended() bool {
	select {
	case <-d.done:
		return true
	case <-time.After(time.Second):
		return false
	}
}

// send types a line and presses enter.
func (d *client) send(line string) {
	d.t.Helper()
	end := "\n"
	if d.term {
		end = "\r"
	}
	if _, err := io.WriteString(d.in, line+end); err != nil {
		d.t.Fatalf("send %q: %v", line, err)
	}
}

// text is what the door wrote, its line ends as \n.
func (d *client) text() string {
	return strings.ReplaceAll(string(d.out.Bytes()), "\r\n", "\n")
}

// until waits until cond holds of everything the door wrote.
func (d *client) until(what string, cond func(text string) bool) {
	d.t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for !cond(d.text()) {
		select {
		case <-d.out.wrote:
		case <-deadline.C:
			d.t.Fatalf("%s: never said, after:\n%s", what, d.text())
		}
	}
}

// next waits until the text after the last thing found holds want, and
// moves past it; it returns the text from the old position to the end
// of want.
func (d *client) next(want string) string {
	d.t.Helper()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		text := d.text()
		if i := strings.Index(text[d.pos:], want); i >= 0 {
			from := d.pos
			d.pos += i + len(want)
			return text[from:d.pos]
		}
		select {
		case <-d.out.wrote:
		case <-deadline.C:
			d.t.Fatalf("the door never said %q after:\n%s", want, text[d.pos:])
		}
	}
}
