package sshapp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/sshapp/command"
)

// named is a key whose player is called name.
func (ts *testServer) named(t *testing.T, name string) gossh.Signer {
	t.Helper()
	key := newKey(t)
	if _, err := ts.players.SetName(context.Background(), Fingerprint(key.PublicKey()), name); err != nil {
		t.Fatal(err)
	}
	return key
}

func TestNamePrompt(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	ts.named(t, "taken")
	key := newKey(t)
	sc := openScreen(t, ts.connect(t, key), 80, 24)
	sc.waitFor(t, "Choose a display name", 5*time.Second)

	sc.send(t, "TAKEN\r")
	sc.waitFor(t, "that name is taken", 5*time.Second)
	sc.send(t, strings.Repeat("\x7f", 5)+"b@d\r")
	sc.waitFor(t, "1 to 16 of the characters", 5*time.Second)
	sc.send(t, strings.Repeat("\x7f", 3)+"alice\r")
	sc.waitFor(t, "Hello, alice", 5*time.Second)
	sc.waitFor(t, Fingerprint(key.PublicKey()), time.Second)
	if got := ts.players.name(Fingerprint(key.PublicKey())); got != "alice" {
		t.Errorf("stored name = %q, want alice", got)
	}
	sc.send(t, "q")
	if code := sc.wait(t, 5*time.Second); code != 0 {
		t.Errorf("exit %d", code)
	}
	// Commands now know the name.
	if r := ts.run(t, key, "whoami"); !strings.Contains(r.stdout, "alice") {
		t.Errorf("whoami after the prompt: %q", r.stdout)
	}
}

func TestWindowSizes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		w, h    int
		changes [][2]int
	}{
		{"zero", 0, 0, [][2]int{{0, 0}, {100000, 100000}, {80, 24}}},
		{"huge", 100000, 100000, [][2]int{{100000, 100000}, {0, 0}, {1, 1}, {4294967295, 4294967295}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, nil)
			key := ts.named(t, "wanda")
			sc := openScreen(t, ts.connect(t, key), tt.w, tt.h)
			sc.waitFor(t, "\x1b[?1049h", 5*time.Second) // the screen is up
			// Each change of the size the screen gets (clamped) draws the
			// frame again: wait for it before the next.
			clamped := func(w, h int) ssh.Window {
				return ts.lim.clampWindow(ssh.Window{Width: w, Height: h})
			}
			was := clamped(tt.w, tt.h)
			for _, c := range append(tt.changes, [2]int{80, 24}) {
				mark := len(sc.out.String())
				if err := sc.sess.WindowChange(c[1], c[0]); err != nil {
					t.Fatalf("window-change %v: %v", c, err)
				}
				if now := clamped(c[0], c[1]); now != was {
					eventually(t, 5*time.Second, fmt.Sprintf("the frame drawn at %v", c), func() bool { return len(sc.out.String()) > mark })
					was = now
				}
			}
			// At 1x1 the frame is cut to one cell; at 80x24 it shows.
			sc.waitFor(t, "Hello, wanda", 5*time.Second)
			sc.send(t, "q")
			if code := sc.wait(t, 5*time.Second); code != 0 {
				t.Errorf("exit %d", code)
			}
			if r := ts.run(t, key, "whoami"); r.code != 0 {
				t.Errorf("server unwell afterwards: %+v", r)
			}
		})
	}
}

func TestIdleTimeoutCountsInputOnly(t *testing.T) {
	t.Parallel()
	const idle = 500 * time.Millisecond
	ts := startServer(t, func(c *Config) { c.Limits.IdleTimeout = idle })
	key := ts.named(t, "ida")

	quiet := openScreen(t, ts.connect(t, key), 80, 24)
	busy := openScreen(t, ts.connect(t, key), 80, 24)
	quiet.waitFor(t, "Hello, ida", 5*time.Second)
	busy.waitFor(t, "Hello, ida", 5*time.Second)

	// busy types a key the screen ignores five times an idle timeout
	// until quiet is closed as idle, and for one timeout more: it has
	// been open longer than a timeout, and never quiet for one.
	var closedAt time.Time
	for start := time.Now(); closedAt.IsZero() || time.Since(closedAt) < idle; {
		if closedAt.IsZero() && strings.Contains(quiet.out.String(), "closed after 500ms without input") {
			closedAt = time.Now()
		}
		if time.Since(start) > 20*idle {
			t.Fatalf("quiet was not closed as idle; it shows:\n%q", quiet.out.String())
		}
		select {
		case err := <-busy.done:
			t.Fatalf("a typing person was closed as idle: %v\n%q", err, busy.out.String())
		default:
		}
		busy.send(t, "x")
		time.Sleep(idle / 5) // the typist's pace
	}
	quiet.wait(t, 2*time.Second)
	busy.waitFor(t, "without input", 3*idle)
	busy.wait(t, 2*time.Second)

	// A command session idles out too, with the reason on stderr.
	ts.Handle(command.Command{Name: "wait", Anonymous: true, Run: func(ctx context.Context, c *command.Call) int {
		<-ctx.Done()
		return 0
	}})
	r := ts.run(t, key, "wait")
	if r.code != command.ExitRefused || !strings.Contains(r.stderr, "without input") {
		t.Errorf("idle command: %+v", r)
	}
}

func TestShutdownTellsEveryone(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	started := make(chan struct{}, 1)
	ts.Handle(command.Command{Name: "wait", Anonymous: true, Run: func(ctx context.Context, c *command.Call) int {
		started <- struct{}{}
		<-ctx.Done()
		return 0
	}})
	key := ts.named(t, "sam")
	sc := openScreen(t, ts.connect(t, key), 80, 24)
	sc.waitFor(t, "Hello, sam", 5*time.Second)

	cmdConn := ts.connect(t, key)
	cmdSess, err := cmdConn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	cmdOut := &syncBuffer{}
	cmdSess.Stderr = cmdOut
	if err := cmdSess.Start("wait"); err != nil {
		t.Fatal(err)
	}
	<-started
	idle := ts.connect(t, key) // a connection without a session
	_ = idle

	// One connection stuck in its handshake.
	raw, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	begin := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if took := time.Since(begin); took > 3*time.Second {
		t.Errorf("shutdown took %s", took)
	}
	sc.waitFor(t, "the server is shutting down", time.Second)
	sc.wait(t, 2*time.Second)
	if !strings.Contains(cmdOut.String(), "the server is shutting down") {
		t.Errorf("command session was not told: %q", cmdOut.String())
	}
	if _, closed := readAll(raw, 2*time.Second); !closed {
		t.Error("a connection in its handshake survived shutdown")
	}
	if err := <-ts.served; !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve returned %v", err)
	}
	ts.served <- ErrServerClosed // for the cleanup
	if c, err := dialFrom(ts.addr, "", clientConfig(key)); err == nil {
		c.Close()
		t.Error("a connection was accepted after shutdown")
	}
}

// TestShutdownGivenUpStopsTheDrawers: a Shutdown whose ctx ends before a
// session does (its command does not return) still stops the drawers,
// and a second Shutdown finishes the job once it has.
func TestShutdownGivenUpStopsTheDrawers(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	started, release := make(chan struct{}, 1), make(chan struct{})
	ts.Handle(command.Command{Name: "stuck", Anonymous: true, Run: func(context.Context, *command.Call) int {
		started <- struct{}{}
		<-release
		return 0
	}})
	key := ts.named(t, "sam")
	sc := openScreen(t, ts.connect(t, key), 80, 24)
	sc.waitFor(t, "Hello, sam", 5*time.Second)
	sess, err := ts.connect(t, key).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("stuck"); err != nil {
		t.Fatal(err)
	}
	<-started

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := ts.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a Shutdown given up: %v", err)
	}
	select {
	case <-ts.drawers.quit:
	default:
		t.Fatal("the drawers run on after Shutdown returned")
	}
	close(release)
	eventually(t, 5*time.Second, "the sessions end", func() bool { return ts.sessionCount() == 0 })
}
