package sshapp

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/hostkeys"

	"github.com/mia-game/mia/sshapp/command"
)

func TestIdentityIsTheAuthenticatedKey(t *testing.T) {
	t.Parallel()
	a, b := newKey(t), newKey(t)
	afp, bfp := Fingerprint(a.PublicKey()), Fingerprint(b.PublicKey())
	// The server refuses A, so the client offers A, then B, and
	// authenticates with B. (x/crypto's server closes the connection on a
	// bad signature and its client gives up when a signer fails, so a key
	// accepted by the callback but never proven is tested with OpenSSH
	// below.)
	ts := startServer(t, func(c *Config) { c.Allow = KeySet{bfp: {}} })
	cfg := clientConfig()
	cfg.User = "alice" // the user name means nothing
	cfg.Auth = []gossh.AuthMethod{gossh.PublicKeysCallback(func() ([]gossh.Signer, error) {
		return []gossh.Signer{a, b}, nil
	})}
	c, err := dialFrom(ts.addr, "", cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close()
	r := runOn(t, c, "whoami --json")
	var who command.WhoamiJSON
	if err := json.Unmarshal([]byte(r.stdout), &who); err != nil {
		t.Fatalf("whoami --json: %v: %q %q", err, r.stdout, r.stderr)
	}
	if who.Fingerprint != bfp {
		t.Errorf("session identity = %s, want B %s (A is %s)", who.Fingerprint, bfp, afp)
	}
	if ts.players.wasSeen(afp) {
		t.Error("the store was asked about key A, which never authenticated")
	}
}

// TestIdentityOpenSSHAgentRefusesFirstKey: OpenSSH offers key A from an
// agent, the server's callback accepts it, the agent refuses to sign (A
// needs a confirmation nobody can give), and OpenSSH goes on to key B. The
// session must be B's.
func TestIdentityOpenSSHAgentRefusesFirstKey(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"ssh", "ssh-agent", "ssh-add"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	a, apath := newKeyFile(t, dir, "a")
	b, bpath := newKeyFile(t, dir, "b")
	afp, bfp := Fingerprint(a.PublicKey()), Fingerprint(b.PublicKey())
	logs := &syncBuffer{}
	ts := startServer(t, func(c *Config) { c.Log = log.NewWithOptions(logs, log.Options{Level: log.DebugLevel}) })

	sock := filepath.Join(dir, "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = agent.Process.Kill()
		_ = agent.Wait()
	}()
	env := []string{"SSH_AUTH_SOCK=" + sock, "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	eventually(t, 5*time.Second, "agent listening", func() bool {
		c, err := net.Dial("unix", sock)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
	for _, args := range [][]string{{"-c", apath}, {bpath}} {
		add := exec.Command("ssh-add", args...)
		add.Env = env
		if out, err := add.CombinedOutput(); err != nil {
			t.Fatalf("ssh-add %v: %v\n%s", args, err, out)
		}
	}
	host, port, _ := net.SplitHostPort(ts.addr)
	ssh := exec.Command("ssh", "-F", "/dev/null", "-p", port,
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
		"-o", "IdentityFile=/dev/null", "-l", "alice", host, "whoami", "--json")
	ssh.Env = env
	var stderr strings.Builder
	ssh.Stderr = &stderr
	out, err := ssh.Output()
	if err != nil {
		t.Fatalf("ssh: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "agent refused operation") {
		t.Errorf("the agent did not refuse key A; ssh said:\n%s", stderr.String())
	}
	if !strings.Contains(logs.String(), "key offered fingerprint="+afp) {
		t.Errorf("the server's key callback never saw key A:\n%s", logs.String())
	}
	var who command.WhoamiJSON
	if err := json.Unmarshal(out, &who); err != nil {
		t.Fatalf("whoami --json: %v: %q", err, out)
	}
	if who.Fingerprint != bfp {
		t.Errorf("session identity = %s, want B %s (A is %s)", who.Fingerprint, bfp, afp)
	}
}

// newKeyFile is a fresh Ed25519 key and its private key file.
func newKeyFile(t *testing.T, dir, name string) (gossh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func TestPasswordRefused(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	cfg := clientConfig()
	cfg.Auth = []gossh.AuthMethod{gossh.Password("hunter2")}
	c, err := dialFrom(ts.addr, "", cfg)
	if err == nil {
		c.Close()
		t.Fatal("password login succeeded")
	}
	if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("error = %v", err)
	}
}

func TestKeylessClientIsToldToMakeAKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		allow bool
		keys  []gossh.Signer
		want  string
	}{
		{"no key", false, nil, "ssh-keygen -t ed25519"},
		{"key not allowed", true, []gossh.Signer{newKey(t)}, "not on this server's list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(c *Config) {
				if tt.allow {
					c.Allow = KeySet{}
				}
			})
			var shown []string
			cfg := clientConfig()
			cfg.Auth = []gossh.AuthMethod{
				gossh.PublicKeys(tt.keys...),
				gossh.KeyboardInteractive(func(name, instruction string, questions []string, echos []bool) ([]string, error) {
					shown = append(shown, instruction)
					if len(questions) != 0 {
						t.Errorf("keyboard-interactive asked %q", questions)
					}
					return nil, nil
				}),
			}
			c, err := dialFrom(ts.addr, "", cfg)
			if err == nil {
				c.Close()
				t.Fatal("login without an allowed key succeeded")
			}
			if len(shown) != 1 || !strings.Contains(shown[0], tt.want) {
				t.Errorf("client was shown %q, want one message with %q", shown, tt.want)
			}
		})
	}
}

func TestAllowList(t *testing.T) {
	t.Parallel()
	in, out := newKey(t), newKey(t)
	path := filepath.Join(t.TempDir(), "allow")
	text := "# players\n\n" + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(in.PublicKey()))) + " in@example\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	allow, err := ReadKeySet(path)
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) { c.Allow = allow })
	if r := ts.run(t, in, "whoami"); r.code != 0 {
		t.Errorf("allowed key: %+v", r)
	}
	if c, err := dialFrom(ts.addr, "", clientConfig(out)); err == nil {
		c.Close()
		t.Error("a key off the allow-list got in")
	}
}

func TestParseKeySet(t *testing.T) {
	t.Parallel()
	k := newKey(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey())))
	tests := []struct {
		name    string
		text    string
		n       int
		wantErr string
	}{
		{"empty", "", 0, ""},
		{"comments", "# nobody\n\n   \n", 0, ""},
		{"one key", line + " me@host\n", 1, ""},
		{"options", `from="10.0.0.1",no-pty ` + line, 1, ""},
		{"twice", line + "\n" + line + "\n", 1, ""},
		{"garbage", "# ok\nnot a key\n", 0, "line 2"},
		{"cert authority", "cert-authority " + line, 0, "cert-authority"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ks, err := ParseKeySet([]byte(tt.text))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ks == nil || len(ks) != tt.n {
				t.Fatalf("got %d keys (nil: %v), want %d", len(ks), ks == nil, tt.n)
			}
			if tt.n > 0 && !ks.Has(Fingerprint(k.PublicKey())) {
				t.Error("key missing from the set")
			}
		})
	}
}

func TestHostKeySameAcrossRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "host_ed25519")
	key := newKey(t)
	var seen []string
	for range 2 {
		hk, err := hostkeys.LoadOrCreate(path)
		if err != nil {
			t.Fatal(err)
		}
		ts := startServer(t, func(c *Config) { c.HostKey = hk.Signer })
		cfg := clientConfig(key)
		cfg.HostKeyCallback = func(_ string, _ net.Addr, k gossh.PublicKey) error {
			seen = append(seen, Fingerprint(k))
			return nil
		}
		c, err := dialFrom(ts.addr, "", cfg)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		ctxShutdown(t, ts)
		if seen[len(seen)-1] != hk.Fingerprint {
			t.Errorf("client saw %s, server reports %s", seen[len(seen)-1], hk.Fingerprint)
		}
	}
	if len(seen) != 2 || seen[0] != seen[1] {
		t.Errorf("host keys across a restart: %q", seen)
	}
}

// ctxShutdown stops a test server now (its cleanup then finds it stopped).
func ctxShutdown(t *testing.T, ts *testServer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestLastSeenNoted: a known key's visit is noted (beside the session,
// not before it), at most once a minute; a new key has nothing to note.
func TestLastSeenNoted(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	ts := startServer(t, func(c *Config) { c.Now = now })
	known, fresh := newKey(t), newKey(t)
	kfp := gossh.FingerprintSHA256(known.PublicKey())
	if _, err := ts.players.SetName(context.Background(), kfp, "alice"); err != nil {
		t.Fatal(err)
	}
	lastSeen := func() time.Time {
		p, err := ts.players.PersonByKey(context.Background(), kfp)
		if err != nil {
			t.Fatal(err)
		}
		return p.Keys[0].LastSeen
	}
	visit := func(key gossh.Signer) {
		t.Helper()
		if r := runOn(t, ts.connect(t, key), "whoami"); r.code != 0 {
			t.Fatalf("whoami %+v", r)
		}
	}
	tests := []struct {
		name  string
		after time.Duration // since the last visit
		want  time.Duration // LastSeen, after the first visit's clock
	}{
		{"first visit", 0, 0},
		{"again within the minute: not noted", 59 * time.Second, 0},
		{"a minute after the note", time.Second, time.Minute},
	}
	first := clock
	for _, tt := range tests {
		mu.Lock()
		clock = clock.Add(tt.after)
		mu.Unlock()
		visit(known)
		visit(fresh)
		want := first.Add(tt.want)
		// The note is committed beside the session: wait for it, and
		// for a note that should not come, for a later visit's.
		eventually(t, 5*time.Second, tt.name, func() bool { return lastSeen().Equal(want) })
	}
	if id := ts.players.id(gossh.FingerprintSHA256(fresh.PublicKey())); id != "" {
		t.Error("a visit by a new key made a person")
	}
}

// TestAdminTakesAReservedName: a server admin may be called by the
// server's own words ("root"), which no one else may take, nor a name
// that looks like it once the admin holds it.
func TestAdminTakesAReservedName(t *testing.T) {
	t.Parallel()
	admin, other := newKey(t), newKey(t)
	ts := startServer(t, func(c *Config) {
		c.Admins = KeySet{Fingerprint(admin.PublicKey()): {}}
	})
	if r := ts.run(t, other, "name root"); r.code != 1 || !strings.Contains(r.stderr, "root is a name the server keeps for itself") {
		t.Fatalf("name root, not an admin: %+v", r)
	}
	if r := ts.run(t, admin, "name root"); r.code != 0 {
		t.Fatalf("name root, an admin: %+v", r)
	}
	if r := ts.run(t, admin, "name ann_bot"); r.code != 1 || !strings.Contains(r.stderr, "reads as a bot's name") {
		t.Fatalf("an admin takes a bot's name: %+v", r)
	}
	if r := ts.run(t, other, "name r00t"); r.code != 1 {
		t.Fatalf("a lookalike of the admin's root: %+v", r)
	}
}
