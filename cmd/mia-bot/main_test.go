package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	mrand "math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/hostkeys"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/sshapp"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// server is the Mia server in this process, on 127.0.0.1.
type server struct {
	host, port string
	st         *store.Store
	lobby      *lobby.Lobby
}

func startServer(t *testing.T, hostKey string) *server {
	t.Helper()
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st), BotDelay: lobby.NoDelay})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sshapp.New(sshapp.Config{HostKey: key.Signer, Lobby: l,
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
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-served
		l.Close()
		st.Close()
	})
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	return &server{host: host, port: port, st: st, lobby: l}
}

// keyFile writes a fresh Ed25519 private key in OpenSSH format.
func keyFile(t *testing.T) string {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bot_key")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestBotPlaysGames: the example bot names itself, sits at a table with a
// built-in bot, plays three games (the table of bots restarts by itself)
// and hangs up; the second run keeps its name and trusts the host key it
// stored the first time.
func TestBotPlaysGames(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "host_key"))
	ctx := context.Background()
	hp, err := srv.st.SetName(ctx, "SHA256:host", "host")
	if err != nil {
		t.Fatal(err)
	}
	host := lobby.Player{ID: hp.ID, Key: "SHA256:host"}
	rules := engine.DefaultOptions()
	rules.TurnSeconds, rules.Lives = engine.MinTurnSeconds, 2
	tb, err := srv.lobby.CreateTable(ctx, host, lobby.TableConfig{Name: "arena", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.AddBot(ctx, host, ai.Normal); err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(srv.port)
	o := options{key: keyFile(t), host: srv.host, port: port, table: "arena", name: "robo",
		knownHosts: filepath.Join(t.TempDir(), "known_hosts"), games: 3, verbose: true}
	var logs syncWriter
	done := make(chan error, 1)
	go func() { done <- run(ctx, o, &logs) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v\n%s", err, logs.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("three games took too long:\n%s", logs.String())
	}
	out := logs.String()
	if n := strings.Count(out, " won by "); n != 3 || !strings.Contains(out, "named robo") {
		t.Errorf("log:\n%s", out)
	}
	if strings.Contains(out, "server: ERROR") {
		t.Errorf("the bot made a refused move:\n%s", out)
	}
	p, err := srv.st.PersonByName(ctx, "robo")
	if err != nil {
		t.Fatalf("robo: %+v %v", p, err)
	}
	if r, err := srv.st.Rating(ctx, p.ID, store.Board{}); err != nil || r.Games < 3 || !r.Bot() {
		t.Errorf("robo's games are not a bot's: %+v %v", r, err)
	}
	known, err := os.ReadFile(o.knownHosts)
	if err != nil || !strings.Contains(string(known), "ssh-ed25519") {
		t.Errorf("known_hosts: %q %v", known, err)
	}

	// Again, a single game: no renaming, the stored host key checks out.
	o.games = 1
	logs = syncWriter{}
	if err := run(ctx, o, &logs); err != nil {
		t.Fatalf("second run: %v\n%s", err, logs.String())
	}
	if strings.Contains(logs.String(), "named") {
		t.Errorf("renamed on the second run:\n%s", logs.String())
	}
}

// TestHostKeyChanged: a server whose key differs from the stored one is
// refused.
func TestHostKeyChanged(t *testing.T) {
	known := filepath.Join(t.TempDir(), "known_hosts")
	srv := startServer(t, filepath.Join(t.TempDir(), "host_key"))
	port, _ := strconv.Atoi(srv.port)
	o := options{key: keyFile(t), host: srv.host, port: port, knownHosts: known}
	c, err := dial(o)
	if err != nil {
		t.Fatalf("first use: %v", err)
	}
	c.Close()
	if c, err = dial(o); err != nil {
		t.Fatalf("known host: %v", err)
	}
	c.Close()
	other := startServer(t, filepath.Join(t.TempDir(), "other_key"))
	// The same host:port in known_hosts with another key.
	data, _ := os.ReadFile(known)
	fixed := strings.Replace(string(data), "127.0.0.1]:"+srv.port, "127.0.0.1]:"+other.port, 1)
	if err := os.WriteFile(known, []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
	o.port, _ = strconv.Atoi(other.port)
	_, err = dial(o)
	if err == nil || !strings.Contains(err.Error(), "key mismatch") {
		t.Errorf("changed host key: %v", err)
	}
	o.insecure = true
	if c, err = dial(o); err != nil {
		t.Errorf("-insecure: %v", err)
	} else {
		c.Close()
	}
}

// TestStrategyIsLegal: every answer of the strategy is legal under the
// classic rules: its order is the classic ranking, it opens by rolling,
// and it always announces above the claim.
func TestStrategyIsLegal(t *testing.T) {
	want := engine.Classic.Order() // highest first
	for i, v := range order {
		if w := want[len(want)-1-i].String(); v != w {
			t.Fatalf("order[%d] = %s, want %s", i, v, w)
		}
	}
	for _, v := range order {
		want := float64(engine.Classic.ChanceToBeat(engine.Value(v[0]-'0')*10+engine.Value(v[1]-'0'))) / 36
		if got := chanceToBeat(v); got != want {
			t.Errorf("chanceToBeat(%s) = %v, want %v", v, got, want)
		}
	}
	p := &player{rng: mrand.New(mrand.NewPCG(1, 2))}
	claims := append([]string{"-"}, order...)
	for _, c := range claims {
		claim := "-"
		if c != "-" {
			claim = value(c)
		}
		a := p.answer([]string{"YOUR TURN", claim, "tk"})
		switch {
		case c == "-" && a != "ROLL;tk":
			t.Errorf("opening: %q", a)
		case c == "21" && a != "SEE;tk":
			t.Errorf("against Mia: %q", a)
		case a != "ROLL;tk" && a != "SEE;tk":
			t.Errorf("against %s: %q", c, a)
		}
		if c == "21" {
			continue
		}
		for _, d := range order {
			a := p.answer([]string{"ROLLED", value(d), "tk"})
			f := strings.Split(a, ";")
			if len(f) != 3 || f[0] != "ANNOUNCE" || f[2] != "tk" {
				t.Fatalf("after %s rolled %s: %q", c, d, a)
			}
			if c != "-" && rank(dice(f[1])) <= rank(c) {
				t.Errorf("after %s rolled %s: announced %s, not higher", c, d, f[1])
			}
			if (c == "-" || rank(d) > rank(c)) && dice(f[1]) != d {
				t.Errorf("after %s rolled %s: announced %s, not the truth", c, d, f[1])
			}
		}
	}
}
