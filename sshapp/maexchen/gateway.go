// Package maexchen is the Mäxchen gateway: the UDP wire of the Mäxchen
// bot-competition server (one message a datagram), so that the bots
// written for it play at a mia table unchanged, beside people over SSH.
//
// The gateway drives one lobby table (lobby.Table.Drive): each round it
// asks the registered bots to join, deals a game (one round, rules preset
// "maexchen") to those who joined and to whoever sits at the table, plays
// each bot's moves with Act like any seat's, and tells the bots what the
// table's snapshots show. The game itself is the engine's, run by the
// table's actor; the gateway keeps no game of its own.
//
// Room: under sshapp, the home of the outside interfaces beside the SSH
// server; cmd/mia starts it. It may import lobby (and lobby/ident) and
// engine; never sshapp or its other rooms.
package maexchen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
)

// Records is what the gateway reads from storage; cmd/mia adapts the
// store to it.
type Records interface {
	// NameTaken reports whether an SSH player's name looks like name
	// (lobby.Alike).
	NameTaken(ctx context.Context, name string) (bool, error)
	// Tally returns the finished games a player sat in and the lives they
	// lost in them.
	Tally(ctx context.Context, person string) (games, livesLost int, err error)
	// RecentPlayers lists the person ids of the players of the table's
	// last finished games, at most rounds of them.
	RecentPlayers(ctx context.Context, table string, rounds int) ([]string, error)
}

// Defaults of Config.
const (
	DefaultTable         = "maexchen"
	DefaultTimeout       = 250 * time.Millisecond
	DefaultTurnSeconds   = 20
	DefaultPause         = 2 * time.Second
	DefaultMaxPlayers    = 32
	DefaultMaxSpectators = 16
	DefaultIdle          = time.Minute
	// HeartbeatEvery is how often everyone registered hears HEARTBEAT.
	HeartbeatEvery = 2 * time.Second
	// seedRounds is how many of the table's last rounds name the players
	// listed in SCORE after a restart.
	seedRounds = 200
	// callTimeout bounds one call into the lobby or the store.
	callTimeout = 5 * time.Second
)

// Config configures a Gateway. Addr, Lobby and Records are required.
type Config struct {
	// Addr is the UDP address to bind, such as "127.0.0.1:9000".
	Addr    string
	Lobby   *lobby.Lobby
	Records Records
	// Table is the name of the table the gateway drives (default
	// "maexchen"); it is created if missing, and must be the gateway's.
	Table string
	// Timeout is how long a bot has to answer a prompt: JOIN, ROLL or SEE,
	// ANNOUNCE (default 250 ms, as the original server).
	Timeout time.Duration
	// TurnSeconds is the turn clock of people (and SSH bots) who sit at the
	// table (default 20 s: a bot that hears nothing for 30 s may quit).
	TurnSeconds int
	// Pause is the wait after a round a person played in, so that they
	// see how it ended (default 2 s; bots alone go straight on).
	Pause time.Duration
	// MaxPlayers and MaxSpectators bound the registrations (defaults 32
	// and 16). A player past the limit gets REJECTED;SERVER_FULL; a
	// spectator past it takes the place of the one registered longest.
	MaxPlayers, MaxSpectators int
	// Idle unregisters a player that sent nothing for this long (default
	// 1 min): a bot that vanished stops holding up every round's JOIN.
	Idle time.Duration
	// Clock is the time of the join windows and heartbeats (the lobby's
	// runs the turn clocks); lobby.RealClock if nil.
	Clock lobby.Clock
	// Rand draws which bots play when more joined than there are seats;
	// engine.CryptoSource if nil.
	Rand engine.Source
	// Log receives the gateway's logs; a discarding logger if nil.
	Log *log.Logger
}

// Rules are the table's rules: the preset "maexchen" with turnSeconds as
// the turn clock of people.
func Rules(turnSeconds int) (engine.Options, error) {
	o, err := engine.Preset(engine.PresetMaexchen)
	o.TurnSeconds = turnSeconds
	if err == nil {
		err = o.Validate()
	}
	return o, err
}

// host is the identity that hosts and drives the gateway's table: a
// key-less player named maexchen (ident.GatewayHost).
func host() lobby.Player {
	return lobby.Player{ID: ident.GatewayHost, Bot: true}
}

// Stats counts datagrams; tests and logs read it.
type Stats struct {
	Received, Ignored, Sent, Dropped int64
}

type counters struct {
	received, ignored, sent, dropped atomic.Int64
}

// Gateway is the running gateway: a reader and a writer goroutine on the
// socket, and an actor that owns the registrations and the round.
type Gateway struct {
	cfg    Config
	log    *log.Logger
	conn   *net.UDPConn
	table  *lobby.Table
	host   *lobby.Subscription
	filter *filter
	stats  counters

	inbox  chan datagram
	outbox chan outgoing
	reqs   chan func()
	quit   chan struct{}
	done   chan struct{}
	wg     sync.WaitGroup // reader and writer
	ctx    context.Context
	cancel context.CancelFunc

	// Owned by the actor.
	players    []*player // in order of registration
	spectators []*spectator
	known      map[string]int // points by UDP name, of everyone who ever played
	knownOrder []string
	round      round
	snap       lobby.Snapshot
	beat       func() bool
}

// player is a registered UDP player.
type player struct {
	name     string
	addr     netip.AddrPort
	lp       lobby.Player
	sub      *lobby.Subscription // the player's own view of the table
	lastSeen time.Time
	join     string // the token of this round's ROUND STARTING
	joined   bool
}

type spectator struct {
	name string
	addr netip.AddrPort
}

// New binds cfg.Addr, takes the table (creating it if needed) and starts
// the round loop.
func New(ctx context.Context, cfg Config) (*Gateway, error) {
	if cfg.Lobby == nil || cfg.Records == nil {
		return nil, errors.New("maexchen: no lobby or no records")
	}
	cfg = withDefaults(cfg)
	g := &Gateway{
		cfg: cfg, log: cfg.Log.WithPrefix("maexchen"), filter: newFilter(),
		inbox: make(chan datagram, inboxSize), outbox: make(chan outgoing, outboxSize),
		reqs: make(chan func()), quit: make(chan struct{}), done: make(chan struct{}),
		known: make(map[string]int),
	}
	t, err := g.takeTable(ctx)
	if err != nil {
		return nil, err
	}
	g.table = t
	g.host, err = t.Watch(ctx, host())
	if err != nil {
		return nil, fmt.Errorf("maexchen: watch table %s: %w", cfg.Table, err)
	}
	g.seedKnown(ctx)
	ua, err := net.ResolveUDPAddr("udp", cfg.Addr)
	if err != nil {
		g.host.Close()
		return nil, fmt.Errorf("maexchen: address %q: %w", cfg.Addr, err)
	}
	g.conn, err = net.ListenUDP("udp", ua)
	if err != nil {
		g.host.Close()
		return nil, fmt.Errorf("maexchen: listen: %w", err)
	}
	// A deep socket buffer absorbs bursts while the reader drops them.
	if err := g.conn.SetReadBuffer(readBuffer); err != nil {
		g.log.Debug("socket buffer", "err", err)
	}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	g.wg.Add(2)
	go g.read()
	go g.write()
	go g.loop()
	g.post(g.heartbeat)
	return g, nil
}

func withDefaults(cfg Config) Config {
	if cfg.Table == "" {
		cfg.Table = DefaultTable
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.TurnSeconds == 0 {
		cfg.TurnSeconds = DefaultTurnSeconds
	}
	if cfg.Pause == 0 {
		cfg.Pause = DefaultPause
	}
	if cfg.Pause < 0 {
		cfg.Pause = 0
	}
	if cfg.MaxPlayers <= 0 {
		cfg.MaxPlayers = DefaultMaxPlayers
	}
	if cfg.MaxSpectators <= 0 {
		cfg.MaxSpectators = DefaultMaxSpectators
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.Clock == nil {
		cfg.Clock = lobby.RealClock{}
	}
	if cfg.Rand == nil {
		cfg.Rand = engine.CryptoSource{}
	}
	if cfg.Log == nil {
		cfg.Log = log.New(discard{})
	}
	return cfg
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// takeTable finds or creates the table, drives it, and clears it of UDP
// players left from before a restart (a round cut by the restart ends:
// its bots leave it).
func (g *Gateway) takeTable(ctx context.Context) (*lobby.Table, error) {
	rules, err := Rules(g.cfg.TurnSeconds)
	if err != nil {
		return nil, fmt.Errorf("maexchen: %w", err)
	}
	l := g.cfg.Lobby
	t, err := l.Table(g.cfg.Table)
	if errors.Is(err, lobby.ErrNoTable) {
		t, err = l.CreateTable(ctx, host(), lobby.TableConfig{Name: g.cfg.Table, Rules: rules, Seats: engine.MaxSeats})
	}
	if err != nil {
		return nil, fmt.Errorf("maexchen: table %s: %w", g.cfg.Table, err)
	}
	if t.Info().HostID != host().ID {
		return nil, fmt.Errorf("maexchen: table %s is a table of SSH players; choose another name for the gateway's", g.cfg.Table)
	}
	if err := t.Drive(ctx, host(), true); err != nil {
		return nil, fmt.Errorf("maexchen: drive table %s: %w", g.cfg.Table, err)
	}
	for _, s := range t.Info().Players {
		if strings.HasPrefix(s.ID, IDPrefix) {
			if err := t.Kick(ctx, host(), s.ID); err != nil && !errors.Is(err, lobby.ErrNotMember) {
				return nil, fmt.Errorf("maexchen: clear table %s: %w", g.cfg.Table, err)
			}
		}
	}
	if info := t.Info(); info.Rules != rules || info.Seats != engine.MaxSeats {
		if err := t.SetRules(ctx, host(), rules, engine.MaxSeats); err != nil {
			return nil, fmt.Errorf("maexchen: rules of table %s: %w", g.cfg.Table, err)
		}
	}
	return t, nil
}

// seedKnown lists in SCORE the UDP players of the table's last rounds.
func (g *Gateway) seedKnown(ctx context.Context) {
	fps, err := g.cfg.Records.RecentPlayers(ctx, g.cfg.Table, seedRounds)
	if err != nil {
		g.log.Warn("could not read the last rounds", "err", err)
		return
	}
	for _, fp := range fps {
		if name, ok := strings.CutPrefix(fp, IDPrefix); ok {
			g.refreshPoints(ctx, name)
		}
	}
}

// Addr is the address the gateway listens on.
func (g *Gateway) Addr() netip.AddrPort { return g.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// Table is the table the gateway drives.
func (g *Gateway) Table() *lobby.Table { return g.table }

// Stats returns the datagram counters.
func (g *Gateway) Stats() Stats {
	return Stats{Received: g.stats.received.Load(), Ignored: g.stats.ignored.Load(),
		Sent: g.stats.sent.Load(), Dropped: g.stats.dropped.Load()}
}

// Close stops the gateway: the socket closes and the round loop ends. A
// round in play stays at the table as it is (the next start clears it).
func (g *Gateway) Close() {
	select {
	case <-g.quit:
		return
	default:
		close(g.quit)
	}
	<-g.done
	g.conn.Close()
	close(g.outbox)
	g.wg.Wait()
}

// post runs fn in the actor, unless the gateway stopped.
func (g *Gateway) post(fn func()) {
	select {
	case g.reqs <- fn:
	case <-g.done:
	}
}

// after runs fn in the actor once d has passed on the clock.
func (g *Gateway) after(d time.Duration, fn func()) func() bool {
	return g.cfg.Clock.AfterFunc(d, func() { g.post(fn) })
}

func (g *Gateway) loop() {
	defer close(g.done)
	defer g.cancel()
	defer g.stop()
	for {
		select {
		case d := <-g.inbox:
			g.safely(func() { g.handle(d) })
		case fn := <-g.reqs:
			g.safely(fn)
		case <-g.host.Ready():
			g.safely(g.sync)
		case <-g.host.Done():
			g.log.Error("the table closed; the gateway stops", "table", g.cfg.Table)
			return
		case <-g.quit:
			return
		}
	}
}

// safely runs one step of the actor; a panic is logged and the gateway
// goes on.
func (g *Gateway) safely(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("gateway step panicked", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn()
}

// stop ends the actor's timers and subscriptions.
func (g *Gateway) stop() {
	g.round.gen++
	if g.beat != nil {
		g.beat()
	}
	if g.round.stopJoin != nil {
		g.round.stopJoin()
	}
	for _, p := range g.players {
		p.sub.Close()
	}
	g.host.Close()
}

// call is a context for one call into the lobby or the store.
func (g *Gateway) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(g.ctx, callTimeout)
}

// heartbeat tells everyone registered that the server is alive, every
// HeartbeatEvery, and unregisters players silent for longer than Idle.
func (g *Gateway) heartbeat() {
	now := g.cfg.Clock.Now()
	for _, p := range append([]*player(nil), g.players...) {
		if now.Sub(p.lastSeen) > g.cfg.Idle {
			g.log.Info("bot gone quiet, unregistered", "name", p.name, "addr", p.addr)
			g.removePlayer(p)
		}
	}
	g.everyone(msgHeartbeat)
	g.beat = g.after(HeartbeatEvery, g.heartbeat)
}

// everyone sends msg to every registered player and spectator.
func (g *Gateway) everyone(msg string) {
	for _, p := range g.players {
		g.send(p.addr, msg)
	}
	for _, s := range g.spectators {
		g.send(s.addr, msg)
	}
}

// handle is one datagram let through by the filter.
func (g *Gateway) handle(d datagram) {
	now := g.cfg.Clock.Now()
	if p := g.playerAt(d.from); p != nil {
		p.lastSeen = now
	}
	switch d.msg.cmd {
	case cmdRegister:
		g.register(d.from, d.msg.name, now)
	case cmdSpectator:
		g.registerSpectator(d.from, d.msg.name)
	case cmdUnregister:
		g.unregister(d.from)
	case cmdHeartbeat:
	case cmdJoin:
		g.joinRound(d.from, d.msg.token)
	case cmdRoll, cmdSee, cmdAnnounce:
		g.move(d.from, d.msg)
	}
}

func (g *Gateway) playerAt(addr netip.AddrPort) *player {
	for _, p := range g.players {
		if p.addr == addr {
			return p
		}
	}
	return nil
}

func (g *Gateway) playerNamed(name string) *player {
	for _, p := range g.players {
		if p.name == name {
			return p
		}
	}
	return nil
}

// playerLike is a registered player whose name looks like name
// (lobby.Alike) without being it.
func (g *Gateway) playerLike(name string) *player {
	for _, p := range g.players {
		if p.name != name && lobby.Alike(p.name, name) {
			return p
		}
	}
	return nil
}

// register is REGISTER;name: a new player, or the same name again from
// the same IP (any port), which takes the player over.
func (g *Gateway) register(from netip.AddrPort, name string, now time.Time) {
	if !validName(name) {
		g.send(from, msgRejected(rejectInvalidName))
		return
	}
	if checkName(name) != nil || g.playerLike(name) != nil {
		// A built-in bot's name, the gateway's own, or one that looks like
		// another bot's here: two seats never look alike.
		g.send(from, msgRejected(rejectNameTaken))
		return
	}
	if p := g.playerNamed(name); p != nil {
		if p.addr.Addr() != from.Addr() {
			g.send(from, msgRejected(rejectNameTaken))
			return
		}
		if p.addr != from {
			g.dropAt(from, p)
			g.filter.readdress(p.addr, from)
			p.addr = from
		}
		p.lastSeen = now
		g.send(from, msgRegistered)
		g.log.Info("bot registered again", "name", name, "addr", from)
		return
	}
	ctx, cancel := g.call()
	defer cancel()
	taken, err := g.cfg.Records.NameTaken(ctx, name)
	if err != nil {
		g.log.Error("could not check a name", "name", name, "err", err)
		return // no answer: the bot may try again
	}
	if taken {
		// An SSH player's name, or one that looks like it.
		g.send(from, msgRejected(rejectNameTaken))
		return
	}
	if len(g.players) >= g.cfg.MaxPlayers && g.playerAt(from) == nil {
		g.send(from, msgRejected(rejectFull))
		return
	}
	lp := lobby.Player{ID: IDPrefix + name, Bot: true, TurnClock: g.cfg.Timeout}
	sub, err := g.table.Watch(ctx, lp)
	if err != nil {
		g.log.Error("could not watch the table for a bot", "name", name, "err", err)
		return
	}
	g.dropAt(from, nil)
	p := &player{name: name, addr: from, lp: lp, sub: sub, lastSeen: now}
	g.players = append(g.players, p)
	g.send(from, msgRegistered)
	g.log.Info("bot registered", "name", name, "addr", from)
	if g.round.phase == idle {
		g.startRound()
	}
}

// registerSpectator is REGISTER_SPECTATOR;name.
func (g *Gateway) registerSpectator(from netip.AddrPort, name string) {
	if !validName(name) {
		g.send(from, msgRejected(rejectInvalidName))
		return
	}
	g.dropAt(from, nil)
	if len(g.spectators) >= g.cfg.MaxSpectators {
		g.spectators = g.spectators[1:]
	}
	g.spectators = append(g.spectators, &spectator{name: name, addr: from})
	g.send(from, msgRegistered)
}

// unregister is UNREGISTER: the address's registration ends. A player in
// the round in play stays in it (and times out).
func (g *Gateway) unregister(from netip.AddrPort) {
	if !g.dropAt(from, nil) {
		return
	}
	g.send(from, msgUnregistered)
}

// dropAt ends the registration at addr, unless it is keep's; it reports
// whether there was one.
func (g *Gateway) dropAt(addr netip.AddrPort, keep *player) bool {
	if p := g.playerAt(addr); p != nil && p != keep {
		g.removePlayer(p)
		return true
	}
	for i, s := range g.spectators {
		if s.addr == addr {
			g.spectators = append(g.spectators[:i:i], g.spectators[i+1:]...)
			return true
		}
	}
	return false
}

func (g *Gateway) removePlayer(p *player) {
	for i, q := range g.players {
		if q == p {
			g.players = append(g.players[:i:i], g.players[i+1:]...)
			break
		}
	}
	g.filter.forget(p.addr)
	p.sub.Close()
	if g.round.phase == joining && g.allJoined() {
		g.closeJoin(g.round.gen)
	}
}
