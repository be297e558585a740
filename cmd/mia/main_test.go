package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/store"
)

// logWatch is a writer of JSON log lines: it keeps them and hands over the
// "listening" line. Used as a command's Stderr, every line is in by the
// time Wait returns.
type logWatch struct {
	mu        sync.Mutex
	partial   []byte
	lines     []string
	listening chan map[string]any
	metrics   chan string   // the address of the "metrics listening" line
	added     chan struct{} // a token when a line came in
}

func newLogWatch() *logWatch {
	return &logWatch{listening: make(chan map[string]any, 1), metrics: make(chan string, 1), added: make(chan struct{}, 1)}
}

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		w.lines = append(w.lines, line)
		select {
		case w.added <- struct{}{}:
		default:
		}
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "listening" {
			select {
			case w.listening <- m:
			default:
			}
		}
		if m["msg"] == "metrics listening" {
			addr, _ := m["addr"].(string)
			select {
			case w.metrics <- addr:
			default:
			}
		}
	}
}

func (w *logWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// address waits for the listening line and returns its address and host
// key fingerprint.
func (w *logWatch) address(t *testing.T) (string, string) {
	t.Helper()
	select {
	case m := <-w.listening:
		addr, _ := m["addr"].(string)
		fp, _ := m["fingerprint"].(string)
		if addr == "" || !strings.HasPrefix(fp, "SHA256:") {
			t.Fatalf("listening line without address or fingerprint: %v", m)
		}
		return addr, fp
	case <-time.After(30 * time.Second):
		t.Fatalf("server never logged its address; logs:\n%s", w.String())
	}
	return "", ""
}

// line waits for the JSON log line whose msg is msg and returns it.
func (w *logWatch) line(t *testing.T, msg string) map[string]any {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		w.mu.Lock()
		for _, l := range w.lines {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == msg {
				w.mu.Unlock()
				return m
			}
		}
		w.mu.Unlock()
		select {
		case <-w.added:
		case <-timeout:
			t.Fatalf("no log line %q; logs:\n%s", msg, w.String())
		}
	}
}

func newKey(t *testing.T) gossh.Signer {
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

// dial connects and reports the host key the server showed.
func dial(t *testing.T, addr string, key gossh.Signer) (*gossh.Client, string) {
	t.Helper()
	var hostFP string
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "x",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			hostFP = gossh.FingerprintSHA256(k)
			return nil
		},
		Timeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c, hostFP
}

func command(t *testing.T, c *gossh.Client, cmd string) (string, int) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out syncBuffer // stdout and stderr are copied by two goroutines
	s.Stdout, s.Stderr = &out, &out
	err = s.Run(cmd)
	var ee *gossh.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitStatus()
	}
	t.Fatalf("%s: %v", cmd, err)
	return "", -1
}

// runInProcess runs the server in this process with env (MIA_*) and
// args; stop ends it and returns run's error, failing the test if it
// takes more than 5 s.
func runInProcess(t *testing.T, env map[string]string, args ...string) (logs *logWatch, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	logs = newLogWatch()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, func(k string) string { return env[k] }, io.Discard, logs)
	}()
	return logs, func() error {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("run did not return 5 s after its context ended")
		}
		return nil
	}
}

func TestRunInProcess(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	logs, stop := runInProcess(t, map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json"}, "--addr", "127.0.0.1:0")
	addr, fp := logs.address(t)
	c, hostFP := dial(t, addr, newKey(t))
	if hostFP != fp {
		t.Errorf("client saw host key %s, log says %s", hostFP, fp)
	}
	if out, code := command(t, c, "name alice"); code != 0 {
		t.Errorf("name alice: %d %s", code, out)
	}
	select {
	case a := <-logs.metrics:
		t.Errorf("metrics served at %s though --metrics-addr was not given", a)
	default:
	}
	for _, f := range []string{"host_ed25519", "mia.db"} {
		if _, err := os.Stat(filepath.Join(data, f)); err != nil {
			t.Errorf("data folder: %v", err)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
}

func TestRunRefusesBadSetup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose_key")
	if err := os.WriteFile(loose, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"loose host key", []string{"--host-key", loose}, "chmod 600"},
		{"missing allow file", []string{"--allow-keys", filepath.Join(dir, "nope")}, "allowed keys"},
		{"bad admin file", []string{"--admin-keys", loose}, "admin keys"},
		{"bad address", []string{"--addr", "nonsense"}, "listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--data", filepath.Join(dir, tt.name), "--addr", "127.0.0.1:0"}, tt.args...)
			err := run(context.Background(), args, func(string) string { return "" }, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestRunStopsWhatItStarted: whatever step of run fails, what it started
// before is stopped: no goroutine is left behind (the lobby's tables, the
// server's drawers, the gateway, the debug and metrics servers), and the
// database is closed (another server may open it at once).
func TestRunStopsWhatItStarted(t *testing.T) { // not parallel: goleak sees every test's goroutines
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenUDP, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer takenUDP.Close()
	free := "127.0.0.1:0"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"gateway", []string{"--maexchen-udp", takenUDP.LocalAddr().String()}, "address already in use"},
		{"debug server", []string{"--maexchen-udp", free, "--debug-addr", taken.Addr().String()}, "debug listen"},
		{"metrics", []string{"--maexchen-udp", free, "--debug-addr", free, "--metrics-addr", taken.Addr().String()}, "metrics"},
		{"listen", []string{"--maexchen-udp", free, "--debug-addr", free, "--metrics-addr", free, "--addr", taken.Addr().String()}, "listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			data := t.TempDir()
			args := append([]string{"--data", data, "--addr", free}, tt.args...)
			err := run(context.Background(), args, func(string) string { return "" }, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("run = %v, want an error with %q", err, tt.want)
			}
			st, err := store.Open(filepath.Join(data, "mia.db"))
			if err != nil {
				t.Fatalf("the database was left open: %v", err)
			}
			st.Close()
		})
	}
}

// buildMia builds the binary once per test binary run.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func buildMia(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mia-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mia")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binPath
}

// startMia runs the binary in dir with no flags but the log format; the
// address comes from MIA_ADDR, the data folder is the default ./mia-data.
// env adds settings (KEY=VALUE).
func startMia(t *testing.T, dir string, env ...string) (*exec.Cmd, *logWatch, string, string) {
	t.Helper()
	cmd := exec.Command(buildMia(t), "--log-format", "json")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "MIA_ADDR=127.0.0.1:0"), env...)
	logs := newLogWatch()
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	addr, fp := logs.address(t)
	return cmd, logs, addr, fp
}

func TestSignalStopsCleanly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sig  syscall.Signal
	}{
		{"SIGTERM", syscall.SIGTERM},
		{"SIGINT", syscall.SIGINT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, logs, addr, fp := startMia(t, dir)
			key := newKey(t)
			c, hostFP := dial(t, addr, key)
			if hostFP != fp {
				t.Errorf("client saw host key %s, log says %s", hostFP, fp)
			}
			if out, code := command(t, c, "name alice"); code != 0 {
				t.Fatalf("name alice: %d %s", code, out)
			}

			// A person on the screen.
			screen := openScreen(t, c)
			waitUntil(t, 5*time.Second, "the screen", func() bool { return strings.Contains(screen.String(), "you are alice") })
			// And one more connection, idle.
			dial(t, addr, newKey(t))

			begin := time.Now()
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("exit: %v; logs:\n%s", err, logs.String())
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("still running 5 s after %s; logs:\n%s", tt.name, logs.String())
			}
			t.Logf("stopped %s after the signal", time.Since(begin).Round(time.Millisecond))
			// The server sent the goodbye before it stopped; the client may
			// still be reading it.
			waitUntil(t, 5*time.Second, "the screen told", func() bool {
				return strings.Contains(screen.String(), "the server is shutting down")
			})
			if !strings.Contains(logs.String(), `"msg":"stopped"`) {
				t.Errorf("no stopped line in the logs:\n%s", logs.String())
			}

			// Restart: same host key, same player.
			_, _, addr2, fp2 := startMia(t, dir)
			if fp2 != fp {
				t.Errorf("host key changed across a restart: %s, then %s", fp, fp2)
			}
			c2, hostFP2 := dial(t, addr2, key)
			if hostFP2 != hostFP {
				t.Errorf("client saw %s, then %s", hostFP, hostFP2)
			}
			if out, _ := command(t, c2, "whoami"); !strings.Contains(out, "alice") {
				t.Errorf("whoami after a restart: %q", out)
			}
		})
	}
}

// openScreen opens the game screen on c (a "dumb" PTY, its input kept
// open) and returns what it shows.
func openScreen(t *testing.T, c *gossh.Client) *syncBuffer { return typeOnScreen(t, c).out }

// screen is an open game screen (a "dumb" PTY 80×24): what it shows,
// and its input.
type screen struct {
	out  *syncBuffer
	in   io.Writer
	from int // where in out the answer to the keys typed last begins
}

// typeOnScreen opens the game screen on c.
func typeOnScreen(t *testing.T, c *gossh.Client) *screen {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	if err := sess.RequestPty("dumb", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	sc := &screen{out: &syncBuffer{}}
	sess.Stdout = sc.out
	in, err := sess.StdinPipe() // open: the end of input would quit the screen
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	sc.in = in
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return sc
}

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

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// changed is signalled after a write (one after the first call, at
// least).
func (s *syncBuffer) changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote == nil {
		s.wrote = make(chan struct{}, 1)
	}
	return s.wrote
}

// stopRun cancels an in-process run and waits for it to return cleanly.
func stopRun(t *testing.T, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return 10 s after its context ended")
	}
}

// logValue waits until a log line with message msg is in and returns its
// field key.
func (w *logWatch) logValue(t *testing.T, msg, key string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		w.mu.Lock()
		for _, line := range w.lines {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == msg {
				w.mu.Unlock()
				v, _ := m[key].(string)
				return v
			}
		}
		w.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %q line in the logs:\n%s", msg, w.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestDebugAddrServesProfiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"flag", []string{"--debug-addr", "127.0.0.1:0"}, nil},
		{"environment", nil, map[string]string{"MIA_DEBUG_ADDR": "127.0.0.1:0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			logs := newLogWatch()
			done := make(chan error, 1)
			env := func(k string) string {
				if v, ok := tt.env[k]; ok {
					return v
				}
				return map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json"}[k]
			}
			go func() {
				done <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, tt.args...), env, io.Discard, logs)
			}()
			logs.address(t)
			dbg := logs.logValue(t, "debug listening", "addr")
			if host, _, err := net.SplitHostPort(dbg); err != nil || host != "127.0.0.1" {
				t.Fatalf("debug address %q", dbg)
			}
			for path, want := range map[string]string{
				"/debug/pprof/":                  "goroutine",
				"/debug/pprof/heap?debug=1":      "heap profile",
				"/debug/pprof/goroutine?debug=1": "goroutine profile",
				"/debug/pprof/profile?seconds=1": "", // a binary CPU profile
				"/debug/pprof/cmdline":           "",
			} {
				resp, err := http.Get("http://" + dbg + path)
				if err != nil {
					t.Fatalf("GET %s: %v", path, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || len(body) == 0 || !strings.Contains(string(body), want) {
					t.Errorf("GET %s: %d, %d bytes, want %q in it", path, resp.StatusCode, len(body), want)
				}
			}
			stopRun(t, cancel, done)
			if c, err := net.DialTimeout("tcp", dbg, time.Second); err == nil {
				c.Close()
				t.Errorf("the debug address %s still accepts after the server stopped", dbg)
			}
		})
	}
}

func TestNoDebugAddrByDefault(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	logs := newLogWatch()
	done := make(chan error, 1)
	env := func(k string) string {
		return map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json"}[k]
	}
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0"}, env, io.Discard, logs) }()
	logs.address(t)
	stopRun(t, cancel, done)
	if strings.Contains(logs.String(), "debug listening") {
		t.Errorf("a debug endpoint without --debug-addr:\n%s", logs.String())
	}
}

func TestDebugAddrRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"every interface", []string{"--debug-addr", ":0"}, "only a loopback address"},
		{"public address", []string{"--debug-addr", "8.8.8.8:6060"}, "only a loopback address"},
		{"port taken", nil, "debug listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args == nil { // a port already in use
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				args = []string{"--debug-addr", ln.Addr().String()}
			}
			args = append([]string{"--data", filepath.Join(t.TempDir(), "d"), "--addr", "127.0.0.1:0"}, args...)
			err := run(context.Background(), args, func(string) string { return "" }, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestWebWindow runs the server with its web window: it listens on
// --http-addr, the SSH side prints links with --http-url, the pages say
// where to play, and a stop closes it.
func TestWebWindow(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "data")
	logs, stop := runInProcess(t, map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json", "MIA_HTTP_URL": "https://mia.example.org"},
		"--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--bot-delay", "0", "--metrics-addr", "127.0.0.1:0")
	addr, _ := logs.address(t)
	webAddr := logs.logValue(t, "web window listening", "addr")
	if u := logs.logValue(t, "web window listening", "url"); u != "https://mia.example.org" {
		t.Errorf("the web window's url %q", u)
	}
	c, _ := dial(t, addr, newKey(t))
	if out, code := command(t, c, "name alice"); code != 0 {
		t.Fatalf("name: %d %s", code, out)
	}
	if out, code := command(t, c, "table create club --private --seats 3 --bots 3"); code != 0 {
		t.Fatalf("table create: %d %s", code, out)
	}
	out, code := command(t, c, "table link club")
	if code != 0 || !strings.Contains(out, "https://mia.example.org/tables/club?link=") {
		t.Fatalf("table link: %d %s", code, out)
	}
	token := strings.Fields(out[strings.Index(out, "?link=")+len("?link="):])[0]
	resp, err := http.Get("http://" + webAddr + "/tables/club?link=" + token)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(addr)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "ssh -p "+port+" mia.example.org") {
		t.Errorf("the table by its link: %d, where to play not said:\n%s", resp.StatusCode, body)
	}
	// A finished game's recording is the replay screen's (run gives the
	// web window the recorder, tui.WriteCast).
	ids := historyIDs(t, c)
	for deadline := time.Now().Add(time.Minute); len(ids) == 0; ids = historyIDs(t, c) {
		if time.Now().After(deadline) {
			t.Fatal("no game of the bots at club ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err = http.Get("http://" + webAddr + "/games/" + ids[0] + ".cast?link=" + token)
	if err != nil {
		t.Fatal(err)
	}
	cast, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var head struct {
		Version int `json:"version"`
	}
	first, _, _ := strings.Cut(string(cast), "\n")
	if resp.StatusCode != 200 || json.Unmarshal([]byte(first), &head) != nil || head.Version != 2 {
		t.Errorf("game %s's recording: %d, first line %q", ids[0], resp.StatusCode, first)
	}
	m := scrape(t, logs.logValue(t, "metrics listening", "addr"))
	if m["mia_web_feeds"] != 1 || m["mia_web_frames_total"] < 1 {
		t.Errorf("the web window's metrics: feeds %v, frames %v", m["mia_web_feeds"], m["mia_web_frames_total"])
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	if c, err := net.DialTimeout("tcp", webAddr, time.Second); err == nil {
		c.Close()
		t.Errorf("the web window %s still accepts after the server stopped", webAddr)
	}
}

// TestWebWindowRefused: an address the web window cannot listen on
// stops the start with an error that says so.
func TestWebWindowRefused(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"--data", filepath.Join(t.TempDir(), "d"), "--addr", "127.0.0.1:0", "--http-addr", "nonsense"},
		func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "web window: listen") {
		t.Errorf("run = %v", err)
	}
}
