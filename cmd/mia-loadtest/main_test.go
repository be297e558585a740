package main

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/hostkeys"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/sshapp/web"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// startServer runs a real mia server (store, lobby, SSH) on 127.0.0.1:0
// for the test and returns its address.
func startServer(t *testing.T) string {
	t.Helper()
	addr, _ := startServerWeb(t)
	return addr
}

// startServerWeb is startServer with the web window beside it, and
// returns its address too.
func startServerWeb(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(filepath.Join(dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lob, err := lobby.New(ctx, lobby.Config{Store: lobbystore.New(st), BotDelay: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sshapp.New(sshapp.Config{HostKey: key.Signer, Lobby: lob,
		Storage: sshapp.Storage{Players: st, Bans: st, Commands: st, Records: st, Screens: st, Games: st}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	ws, err := web.New(web.Config{Lobby: lob, Records: st})
	if err != nil {
		t.Fatal(err)
	}
	wln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = ws.Serve(wln) }()
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		if err := ws.Shutdown(sctx); err != nil {
			t.Errorf("web shutdown: %v", err)
		}
		if err := srv.Shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; !errors.Is(err, sshapp.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
		cancel()
		lob.Close()
		st.Close()
	})
	return ln.Addr().String(), wln.Addr().String()
}

// number is the integer that pattern captures in out.
func number(t *testing.T, out, pattern string) int {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q in the output:\n%s", pattern, out)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScenarios(t *testing.T) {
	addr := startServer(t)
	tests := []struct {
		scenario string
		args     []string
		want     []string
	}{
		{"prompt", nil, []string{"scenario prompt"}},
		{"lobby", nil, []string{"scenario lobby"}},
		{"watch", []string{"-tables", "2"}, []string{"scenario watch: 2 tables of 4 built-in bots (2 playing), 3 watchers a table"}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			t.Parallel()
			ready := filepath.Join(t.TempDir(), "ready")
			var out strings.Builder
			args := append([]string{"-addr", addr, "-scenario", tt.scenario, "-n", "6", "-hold", "5s",
				"-pid", strconv.Itoa(os.Getpid()), "-ready", ready}, tt.args...)
			if err := run(args, &out); err != nil {
				t.Fatalf("run: %v\n%s", err, out.String())
			}
			got := out.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in the output:\n%s", w, got)
				}
			}
			if n := number(t, got, `connected (\d+) failed 0 `); n != 6 {
				t.Errorf("%d sessions connected, want 6:\n%s", n, got)
			}
			if !strings.Contains(got, "KiB per session; server CPU while holding:") {
				t.Errorf("no memory and CPU line:\n%s", got)
			}
			if _, err := os.Stat(ready); err != nil {
				t.Errorf("the ready file: %v", err)
			}
			if tt.scenario == "watch" {
				// Busy tables redraw every watcher's screen.
				if n := number(t, got, `held 5s: (\d+) of 6 sessions received output`); n != 6 {
					t.Errorf("%d of 6 watchers received output while held:\n%s", n, got)
				}
			}
		})
	}
}

// TestWebScenario holds browsers' event streams of busy tables.
func TestWebScenario(t *testing.T) {
	addr, httpAddr := startServerWeb(t)
	var out strings.Builder
	args := []string{"-addr", addr, "-http", httpAddr, "-scenario", "web", "-n", "6", "-tables", "2", "-hold", "5s",
		"-pid", strconv.Itoa(os.Getpid())}
	if err := run(args, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	got := out.String()
	if !strings.Contains(got, "scenario web: 2 tables of 4 built-in bots (2 playing), 3 browsers' event streams a table") {
		t.Errorf("no scenario line:\n%s", got)
	}
	if n := number(t, got, `connected (\d+) failed 0 `); n != 6 {
		t.Errorf("%d streams connected, want 6:\n%s", n, got)
	}
	if n := number(t, got, `held 5s: (\d+) of 6 watchers received events`); n != 6 {
		t.Errorf("%d of 6 watchers received events while held:\n%s", n, got)
	}
	if !strings.Contains(got, "KiB per watcher; server CPU while holding:") {
		t.Errorf("no memory and CPU line:\n%s", got)
	}
}

func TestHandshakes(t *testing.T) {
	addr := startServer(t)
	var out strings.Builder
	if err := run([]string{"-addr", addr, "-c", "2", "-d", "1s", "-cmd", "whoami", "-pid", strconv.Itoa(os.Getpid())}, &out); err != nil {
		t.Fatal(err)
	}
	if n := number(t, out.String(), `(\d+) handshakes in`); n == 0 {
		t.Errorf("no handshake:\n%s", out.String())
	}
	if strings.Contains(out.String(), "first failure") {
		t.Errorf("failures:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "µs per handshake") {
		t.Errorf("no CPU figure:\n%s", out.String())
	}
}

func TestRefusedArguments(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a remote server", []string{"-addr", "192.0.2.1:22", "-scenario", "lobby"}, "only a loopback server"},
		{"every interface", []string{"-addr", ":22"}, "only a loopback server"},
		{"a host name", []string{"-addr", "example.com:22"}, "only a loopback server"},
		{"no port", []string{"-addr", "127.0.0.1"}, "address"},
		{"unknown scenario", []string{"-scenario", "storm"}, "want prompt, lobby, watch, web or event"},
		{"web without its address", []string{"-scenario", "web"}, "-http ADDR"},
		{"web elsewhere", []string{"-scenario", "web", "-http", "192.0.2.1:80"}, "only a loopback server"},
		{"short hold", []string{"-scenario", "lobby", "-hold", "1s"}, "at least 5s"},
		{"no sessions", []string{"-scenario", "lobby", "-n", "0"}, "at least 1"},
		{"more tables than watchers", []string{"-scenario", "watch", "-n", "4", "-tables", "5"}, "-tables 5"},
		{"stray argument", []string{"lobby"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			err := run(tt.args, &out)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
