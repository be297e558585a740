package maexchen

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// waitFor bounds every wait of a test for a datagram.
const waitFor = 5 * time.Second

// script is an engine.Source that plays back the draws a test pushed, and
// 0 once they run out: the seating, the opener, then two draws a roll.
type script struct{ lobbytest.Script }

func (s *script) push(v ...int) { s.Push(v...) }

// roll queues a roll of the dice a and b (1-6).
func (s *script) roll(a, b int) { s.Roll(a, b) }

// records adapts the store for the tests, as cmd/mia does for the server.
type records struct{ st *store.Store }

func (r records) Tally(ctx context.Context, fp string) (int, int, error) {
	t, err := r.st.Tally(ctx, fp)
	return t.Games, t.LivesLost, err
}

func (r records) RecentPlayers(ctx context.Context, table string, n int) ([]string, error) {
	gs, err := r.st.Games(ctx, store.Query{Table: table, Limit: n})
	var fps []string
	for _, g := range gs {
		for _, s := range g.Seats {
			fps = append(fps, s.Person)
		}
	}
	return fps, err
}

func (r records) Bans(ctx context.Context) ([]string, error) {
	bs, err := r.st.Bans(ctx)
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Target()
	}
	return out, err
}

func (r records) ClaimName(ctx context.Context, c Claim, taken func(Claim) bool) (Claim, bool, error) {
	n, err := r.st.ClaimUDPName(ctx, udpName(c), func(n store.UDPName) bool { return taken(claimOf(n)) })
	if errors.Is(err, store.ErrNameTaken) {
		return Claim{}, false, nil
	}
	return claimOf(n), err == nil, err
}

func (r records) KeepNames(ctx context.Context, cs []Claim) error {
	ns := make([]store.UDPName, len(cs))
	for i, c := range cs {
		ns[i] = udpName(c)
	}
	return r.st.KeepUDPNames(ctx, ns...)
}

func (r records) SweepNames(ctx context.Context, keep func(Claim) (Claim, bool)) error {
	return r.st.SweepUDPNames(ctx, func(n store.UDPName) (store.UDPName, bool) {
		c, ok := keep(claimOf(n))
		return udpName(c), ok
	})
}

func udpName(c Claim) store.UDPName {
	return store.UDPName{Name: c.Name, Addr: c.Addr.String(), Heard: c.Heard, Held: c.Held, Registered: c.Registered}
}

func claimOf(n store.UDPName) Claim {
	a, _ := netip.ParseAddr(n.Addr)
	return Claim{Name: n.Name, Addr: a, Heard: n.Heard, Held: n.Held, Registered: n.Registered}
}

// env is a store, a lobby on a manual clock with scripted dice, and a
// gateway on 127.0.0.1.
type env struct {
	t     *testing.T
	path  string
	st    *store.Store
	lobby *lobby.Lobby
	clock *lobbytest.Clock
	dice  *script
	gw    *Gateway
	cfg   Config
	// gate, when set, holds the table's writes (pause_test.go), and
	// saveTimeout is the lobby's SaveTimeout.
	gate        *lobbytest.Gate
	saveTimeout time.Duration
}

func newEnv(t *testing.T, mods ...func(*Config)) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), dice: &script{}}
	e.cfg = Config{Addr: "127.0.0.1:0", Clock: e.clock, Rand: &script{}, Pause: -1}
	for _, m := range mods {
		m(&e.cfg)
	}
	e.open()
	t.Cleanup(e.close)
	return e
}

func (e *env) open() {
	e.t.Helper()
	st, err := store.Open(e.path)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	var storage lobby.Storage = lobbystore.New(st)
	if e.gate != nil {
		storage = gated{storage, e.gate}
	}
	l, err := lobby.New(context.Background(), lobby.Config{Store: storage, Clock: e.clock, Dice: e.dice, BotDelay: lobby.NoDelay,
		SaveTimeout: e.saveTimeout})
	if err != nil {
		st.Close()
		e.t.Fatalf("open lobby: %v", err)
	}
	e.st, e.lobby = st, l
	cfg := e.cfg
	cfg.Lobby, cfg.Records = l, records{st}
	gw, err := New(context.Background(), cfg)
	if err != nil {
		e.close()
		e.t.Fatalf("start gateway: %v", err)
	}
	e.gw = gw
}

func (e *env) close() {
	if e.gw != nil {
		e.gw.Close()
		e.gw = nil
	}
	if e.lobby != nil {
		e.lobby.Close()
		e.lobby = nil
	}
	if e.st != nil {
		e.st.Close()
		e.st = nil
	}
}

// client is a Mäxchen bot written in the test: a UDP socket connected to
// the gateway, as most published bots use.
type client struct {
	t    *testing.T
	name string
	conn *net.UDPConn
	in   chan string
}

// dial opens a client socket from the local address from (":0" for
// 127.0.0.1 on any port).
func (e *env) dial(name, from string) *client {
	e.t.Helper()
	la, err := net.ResolveUDPAddr("udp", from)
	if err != nil {
		e.t.Fatal(err)
	}
	conn, err := net.DialUDP("udp", la, net.UDPAddrFromAddrPort(e.gw.Addr()))
	if err != nil {
		e.t.Fatalf("dial: %v", err)
	}
	c := &client{t: e.t, name: name, conn: conn, in: make(chan string, 4096)}
	go func() {
		defer close(c.in)
		buf := make([]byte, 2048)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue // ICMP refusals and the like
			}
			c.in <- string(buf[:n])
		}
	}()
	e.t.Cleanup(func() { conn.Close() })
	return c
}

// bot dials from 127.0.0.1 and registers.
func (e *env) bot(name string) *client {
	e.t.Helper()
	c := e.dial(name, "127.0.0.1:0")
	c.send("REGISTER;" + name)
	c.expect("REGISTERED")
	return c
}

func (c *client) send(msg string) {
	c.t.Helper()
	if _, err := c.conn.Write([]byte(msg)); err != nil {
		c.t.Fatalf("%s sends: %v", c.name, err)
	}
}

// next is the next message, HEARTBEAT skipped. Every message is checked
// for a line terminator, which the gateway never sends.
func (c *client) next() string {
	c.t.Helper()
	timeout := time.After(waitFor)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("%s: socket closed", c.name)
			}
			if strings.ContainsAny(m, "\r\n") {
				c.t.Fatalf("%s got a line terminator: %q", c.name, m)
			}
			if len(m) > MaxDatagram {
				c.t.Fatalf("%s got %d bytes", c.name, len(m))
			}
			if m == msgHeartbeat {
				continue
			}
			return m
		case <-timeout:
			c.t.Fatalf("%s heard nothing for %v", c.name, waitFor)
		}
	}
}

// expect reads the next message and checks that it starts with want; it
// returns the fields after want.
func (c *client) expect(want string) []string {
	c.t.Helper()
	m := c.next()
	if m != want && !strings.HasPrefix(m, want+";") {
		c.t.Fatalf("%s got %q, want %q", c.name, m, want)
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(m, want), ";")
	if rest == "" {
		return nil
	}
	return strings.Split(rest, ";")
}

// until skips messages up to one that starts with want.
func (c *client) until(want string) []string {
	c.t.Helper()
	for {
		m := c.next()
		if m == want || strings.HasPrefix(m, want+";") {
			rest := strings.TrimPrefix(strings.TrimPrefix(m, want), ";")
			if rest == "" {
				return nil
			}
			return strings.Split(rest, ";")
		}
	}
}

// table registers bots and brings them to the start of a round that asks
// them all: the first round, which only the first of them heard of, is
// left to run out (NO_PLAYERS). It returns the clients and their JOIN
// tokens.
func (e *env) table(names ...string) ([]*client, []string) {
	e.t.Helper()
	bots := make([]*client, len(names))
	for i, n := range names {
		bots[i] = e.bot(n)
	}
	bots[0].expect("ROUND STARTING")
	e.clock.Advance(e.gw.cfg.Timeout)
	for _, b := range bots {
		b.until("ROUND CANCELED")
		b.expect("SCORE")
	}
	e.clock.Advance(e.gw.cfg.Timeout)
	tokens := make([]string, len(bots))
	for i, b := range bots {
		tokens[i] = b.expect("ROUND STARTING")[0]
	}
	return bots, tokens
}

// join has every bot join and returns them in the order of ROUND STARTED.
func (e *env) join(bots []*client, tokens []string) []*client {
	e.t.Helper()
	for i, b := range bots {
		b.send("JOIN;" + tokens[i])
	}
	var order []string
	for _, b := range bots {
		f := b.expect("ROUND STARTED")
		order = strings.Split(f[1], ",")
	}
	byName := map[string]*client{}
	for _, b := range bots {
		byName[b.name] = b
	}
	out := make([]*client, len(order))
	for i, n := range order {
		out[i] = byName[n]
		if out[i] == nil {
			e.t.Fatalf("ROUND STARTED lists %q", n)
		}
	}
	return out
}

// all expects the same message at every client.
func all(want string, cs ...*client) {
	for _, c := range cs {
		c.t.Helper()
		if got := c.next(); got != want {
			c.t.Fatalf("%s got %q, want %q", c.name, got, want)
		}
	}
}

// games returns the finished games at the gateway's table, newest first.
func (e *env) games() []store.Game {
	e.t.Helper()
	gs, err := e.st.Games(context.Background(), store.Query{Table: DefaultTable})
	if err != nil {
		e.t.Fatal(err)
	}
	return gs
}

func mustAddr(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }

// heartbeat waits for the next HEARTBEAT, skipping anything else.
func (c *client) heartbeat() {
	c.t.Helper()
	timeout := time.After(waitFor)
	for {
		select {
		case m := <-c.in:
			if m == msgHeartbeat {
				return
			}
		case <-timeout:
			c.t.Fatalf("%s heard no heartbeat", c.name)
		}
	}
}
