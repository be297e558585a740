package sshapp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// botEnv is a real server with a real lobby on a real store.
type botEnv struct {
	*testServer
	st    *store.Store
	lobby *lobby.Lobby
}

// startBotServer starts the server with a lobby of lcfg (its Store is
// filled in); tweak adjusts the server's config.
func startBotServer(t testing.TB, lcfg lobby.Config, tweak func(*Config)) *botEnv {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	lcfg.Store = lobbystore.New(st)
	l, err := lobby.New(context.Background(), lcfg)
	if err != nil {
		st.Close()
		t.Fatalf("open lobby: %v", err)
	}
	t.Cleanup(func() { // runs after the server's shutdown
		l.Close()
		st.Close()
	})
	ts := startServer(t, func(c *Config) {
		c.Storage, c.Lobby = storageOf(st), l
		if tweak != nil {
			tweak(c)
		}
	})
	return &botEnv{testServer: ts, st: st, lobby: l}
}

// named is a fresh key, the first of a person called name.
func (e *botEnv) named(t testing.TB, name string) (gossh.Signer, lobby.Player) {
	t.Helper()
	key := newKey(t)
	fp := Fingerprint(key.PublicKey())
	p, err := e.st.SetName(context.Background(), fp, name)
	if err != nil {
		t.Fatalf("set name %s: %v", name, err)
	}
	testNames.Store(fp, name)
	return key, lobby.Player{ID: p.ID, Key: fp}
}

// testNames are the names the tests gave, by key.
var testNames sync.Map

// nameOf is the name a test gave p's person (named).
func nameOf(p lobby.Player) string {
	n, _ := testNames.Load(p.Key)
	s, _ := n.(string)
	return s
}

// table opens a table hosted by host.
func (e *botEnv) table(t testing.TB, host lobby.Player, name string, seats int, rules engine.Options) *lobby.Table {
	t.Helper()
	tb, err := e.lobby.CreateTable(context.Background(), host, lobby.TableConfig{Name: name, Rules: rules, Seats: seats})
	if err != nil {
		t.Fatalf("create table %s: %v", name, err)
	}
	return tb
}

// protoBot is a protocol bot on its own SSH connection, without a PTY.
// Its methods return errors rather than fail the test, so that it can run
// in its own goroutine.
type protoBot struct {
	name  string
	conn  *gossh.Client
	sess  *gossh.Session
	stdin io.WriteCloser
	rd    *bufio.Reader
	wmu   sync.Mutex
	done  chan error // the session's end
}

// dialBot connects key and runs `bot ARGS`.
func dialBot(addr string, key gossh.Signer, name, args string) (*protoBot, error) {
	c, err := dialFrom(addr, "", clientConfig(key))
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", name, err)
	}
	s, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: session: %w", name, err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		c.Close()
		return nil, err
	}
	out, err := s.StdoutPipe()
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := s.Start(strings.TrimSpace("bot " + args)); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	b := &protoBot{name: name, conn: c, sess: s, stdin: in, rd: bufio.NewReader(out), done: make(chan error, 1)}
	go func() { b.done <- s.Wait() }()
	return b, nil
}

// line reads the next line, without its "\n".
func (b *protoBot) line() (string, error) {
	l, err := b.rd.ReadString('\n')
	if err != nil {
		return l, fmt.Errorf("%s: read: %w (after %q)", b.name, err, l)
	}
	return strings.TrimSuffix(l, "\n"), nil
}

// expect reads a line that starts with prefix.
func (b *protoBot) expect(prefix string) (string, error) {
	l, err := b.line()
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(l, prefix) {
		return l, fmt.Errorf("%s: got %q, want %s…", b.name, l, prefix)
	}
	return l, nil
}

func (b *protoBot) send(lines ...string) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	for _, l := range lines {
		if _, err := io.WriteString(b.stdin, l+"\n"); err != nil {
			return fmt.Errorf("%s: write: %w", b.name, err)
		}
	}
	return nil
}

func (b *protoBot) close() {
	b.stdin.Close()
	b.conn.Close()
}

// exitCode waits for the session's exit status.
func (b *protoBot) exitCode(within time.Duration) (int, error) {
	select {
	case err := <-b.done:
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0, nil
		case errors.As(err, &ee):
			return ee.ExitStatus(), nil
		}
		return -1, err
	case <-time.After(within):
		return -1, fmt.Errorf("%s: session still open after %s", b.name, within)
	}
}

// simpleMove is a legal, simple strategy for the classic ranking: open by
// rolling; challenge a high claim (always a Mia), otherwise roll (or now
// and then pass); announce the dice if they beat the claim, else the least
// value that does.
type simpleMove struct {
	rng   *rand.Rand
	claim engine.Value
}

func newSimpleMove(seed uint64) *simpleMove {
	return &simpleMove{rng: rand.New(rand.NewPCG(seed, seed*7+1))}
}

// answer is the reply to a prompt line, or "" for other lines.
func (m *simpleMove) answer(line string) string {
	f := strings.Split(line, ";")
	switch f[0] {
	case "YOUR TURN":
		tok := f[2]
		if f[1] == "-" {
			m.claim = engine.NoValue
			return "ROLL;" + tok
		}
		m.claim = mustDice(f[1])
		switch beat := engine.Classic.ChanceToBeat(m.claim); {
		case m.claim == engine.Mia:
			if m.rng.IntN(4) == 0 {
				return "GIVE UP;" + tok
			}
			return "SEE;" + tok
		case beat < 10 || m.rng.IntN(6) == 0:
			return "SEE;" + tok
		case m.rng.IntN(8) == 0:
			up := engine.Classic.Above(m.claim)[0]
			return "PASS;" + up.Comma() + ";" + tok // a blind raise, always legal
		}
		return "ROLL;" + tok
	case "ROLLED":
		d := mustDice(f[1])
		if m.claim == engine.NoValue || engine.Classic.Compare(d, m.claim) > 0 {
			return "ANNOUNCE;" + d.Comma() + ";" + f[2]
		}
		return "ANNOUNCE;" + engine.Classic.Above(m.claim)[0].Comma() + ";" + f[2]
	}
	return ""
}

// mustDice reads dice as the server writes them: "D1,D2".
func mustDice(s string) engine.Value {
	v, err := engine.ParseValue(s)
	if err != nil || len(s) != 3 || s[1] != ',' {
		panic(fmt.Sprintf("bad dice %q from the server", s))
	}
	return v
}

// fingerprints lists a stored game's players' keys by seat.
func fingerprints(g store.Game) []string {
	fps := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		fps[i] = s.Fingerprint // the key each sat down with
	}
	return fps
}

// referee follows the lines of PROTOCOL.md §2 as one bot sees them and
// checks that they add up: a game starts before its rounds, its
// COMMITMENT (64 hex digits) comes right after GAME STARTING, SCORE follows
// every PLAYER LOST with the lives it implies, a winner has lives left and
// everyone else none.
type referee struct {
	game   string
	lives  map[string]int
	order  []string
	over   bool
	rounds int
	last   string            // the previous line's word
	commit map[string]string // game -> its COMMITMENT
}

func (r *referee) check(line string) error {
	f := strings.Split(line, ";")
	last := r.last
	r.last = f[0]
	if (f[0] == "RULES") != (last == "GAME STARTING") {
		return fmt.Errorf("%q after a %s line: RULES follows GAME STARTING", line, last)
	}
	if (f[0] == "COMMITMENT") != (last == "RULES") {
		return fmt.Errorf("%q after a %s line: COMMITMENT follows GAME STARTING and RULES", line, last)
	}
	switch f[0] {
	case "COMMITMENT":
		if len(f) != 2 || len(f[1]) != 64 || strings.Trim(f[1], "0123456789abcdef") != "" {
			return fmt.Errorf("bad %q", line)
		}
		if r.commit == nil {
			r.commit = map[string]string{}
		}
		r.commit[r.game] = f[1]
	case "GAME STARTING":
		if len(f) != 4 {
			return fmt.Errorf("bad %q", line)
		}
		if r.game != "" && !r.over {
			return fmt.Errorf("game %s started before game %s was over", f[1], r.game)
		}
		n, err := strconv.Atoi(f[3])
		if err != nil {
			return fmt.Errorf("bad lives in %q", line)
		}
		r.game, r.over, r.rounds = f[1], false, 0
		r.order = strings.Split(f[2], ",")
		r.lives = map[string]int{}
		for _, p := range r.order {
			r.lives[p] = n
		}
	case "ROUND STARTED":
		if r.game == "" || r.over {
			return fmt.Errorf("%q outside a game", line)
		}
		r.rounds++
		if want := strconv.Itoa(r.rounds); f[1] != want {
			return fmt.Errorf("%q: want round %s", line, want)
		}
		for _, p := range strings.Split(f[2], ",") {
			if r.lives[p] <= 0 {
				return fmt.Errorf("%q lists %s, who is out", line, p)
			}
		}
	case "PLAYER LOST":
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return fmt.Errorf("bad %q", line)
		}
		r.lives[f[1]] = max(0, r.lives[f[1]]-n)
	case "SCORE":
		var parts []string
		for _, p := range r.order {
			parts = append(parts, p+":"+strconv.Itoa(r.lives[p]))
		}
		if want := "SCORE;" + strings.Join(parts, ","); line != want {
			return fmt.Errorf("%q, want %q", line, want)
		}
	case "PLAYER OUT":
		if r.lives[f[1]] != 0 {
			return fmt.Errorf("%q with %d lives", line, r.lives[f[1]])
		}
	case "GAME OVER":
		if f[2] != r.game {
			return fmt.Errorf("%q ends game %s", line, r.game)
		}
		if r.commit[r.game] == "" {
			return fmt.Errorf("game %s had no COMMITMENT", r.game)
		}
		r.over = true
		alive := 0
		for _, l := range r.lives {
			if l > 0 {
				alive++
			}
		}
		if r.lives[f[1]] <= 0 || alive != 1 {
			return fmt.Errorf("%q: lives %v", line, r.lives)
		}
	}
	return nil
}

// playGames plays with the simple strategy until the bot has seen games
// GAME OVER lines. It returns the game IDs in order, and every line the
// bot saw, prompts included.
func (b *protoBot) playGames(games int, seed uint64) (ids []string, lines []string, err error) {
	m := newSimpleMove(seed)
	var ref referee
	for len(ids) < games {
		l, err := b.line()
		if err != nil {
			return ids, lines, err
		}
		lines = append(lines, l)
		if strings.HasPrefix(l, "ERROR;") {
			return ids, lines, fmt.Errorf("%s: %q", b.name, l)
		}
		if err := ref.check(l); err != nil {
			return ids, lines, fmt.Errorf("%s: %w", b.name, err)
		}
		if strings.HasPrefix(l, "GAME OVER;") {
			ids = append(ids, strings.Split(l, ";")[2])
		}
		if a := m.answer(l); a != "" {
			if err := b.send(a); err != nil {
				return ids, lines, err
			}
		}
	}
	return ids, lines, nil
}
