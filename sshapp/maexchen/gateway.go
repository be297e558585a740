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
// server; cmd/mia starts it. It may import lobby (and lobby/ident),
// engine and sshapp/internal/netsource (what one source address is, as
// the SSH server counts it); never sshapp or its other rooms.
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
	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// Records is what the gateway reads from storage; cmd/mia adapts the
// store to it.
type Records interface {
	// Tally returns the finished games a player sat in and the lives they
	// lost in them.
	Tally(ctx context.Context, person string) (games, livesLost int, err error)
	// RecentPlayers lists the person ids of the players of the table's
	// last finished games, at most rounds of them.
	RecentPlayers(ctx context.Context, table string, rounds int) ([]string, error)
	// Bans lists the targets of every ban (people, keys and addresses
	// alike: lobby.ParseUDPBan reads the gateway's).
	Bans(ctx context.Context) ([]string, error)
	// ClaimName takes c.Name for c.Addr, in one step with the checks: ok
	// is false if an SSH person's name looks like it (lobby.Alike), or if
	// a claim of a name that looks like it is stored and taken reports
	// true of it. The claim stored is c but Held, which it keeps from a
	// stored claim of the same name.
	ClaimName(ctx context.Context, c Claim, taken func(Claim) bool) (stored Claim, ok bool, err error)
	// KeepNames stores claims again, each replacing its name's; one
	// neither held nor registered is dropped. A claim whose place a
	// person's name or another bot's has taken meanwhile is left to them.
	KeepNames(ctx context.Context, cs []Claim) error
	// SweepNames passes every stored claim to keep, and stores what it
	// returns or drops the claim if it returns false.
	SweepNames(ctx context.Context, keep func(Claim) (Claim, bool)) error
}

// Claim is a bot's name taken for the address it plays from, stored so
// that the SSH side sees it too (no person takes a name that looks like a
// bot's) and a restart keeps it: while a bot is registered under it
// (Registered), and, once the bot has played (Held), until NameHold after
// it was last heard, registered or not, so that nobody plays on under the
// record of a bot gone quiet. Only a name that has played is held.
type Claim struct {
	Name       string
	Addr       netip.Addr
	Heard      time.Time
	Held       bool
	Registered bool
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
	DefaultGiveWay       = 20 * time.Second
	DefaultNameHold      = 24 * time.Hour
	// HeartbeatEvery is how often everyone registered hears HEARTBEAT.
	HeartbeatEvery = 2 * time.Second
	// seedRounds is how many of the table's last rounds name the players
	// listed in SCORE after a restart.
	seedRounds = 200
	// holdEvery is how often the claim of a registered bot's name is
	// stored again with the time it was last heard (and when it leaves):
	// after a crash a hold ends at most this much early. The claims whose
	// holds have ended are dropped as often.
	holdEvery = 10 * time.Minute
	// callTimeout bounds one call into the lobby or the store.
	callTimeout = 5 * time.Second
	// viewWait bounds the wait for a player's own view of the table to
	// catch up with the host's (awaitRoll): microseconds, unless the
	// table is stopping.
	viewWait = time.Second
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
	// and 16). Any address may take any free place; past MaxPlayers a
	// newcomer takes the place of a bot that gives way (places.go), or
	// waits for one. A spectator past MaxSpectators takes the place of
	// the one registered longest from the address that has the most.
	MaxPlayers, MaxSpectators int
	// Idle unregisters a player that sent nothing for this long (default
	// 1 min), and ends the wait of a newcomer that has waited as long. A
	// player that does not answer a round's JOIN sits out the rounds
	// after it, which no longer wait for it, until it answers one.
	Idle time.Duration
	// GiveWay is how long a bot may go without playing (it let every
	// round pass, or let its turn time out and answered no turn since)
	// before it gives its place to a newcomer at the full gateway
	// (default 20 s).
	GiveWay time.Duration
	// Exempt lists the sources whose bots never give way for their
	// address's fair share, as the SSH side's --penalty-exempt (a NAT
	// the host's players share); loopback sources are exempt too. Their
	// bots still give way when they do not play.
	Exempt []netip.Prefix
	// NameHold is how long a bot's name stays its address's after the bot
	// was last heard, once it has played (default 24 h; Hold).
	NameHold time.Duration
	// Clock is the time of the join windows and heartbeats (the lobby's
	// runs the turn clocks); lobby.RealClock if nil.
	Clock lobby.Clock
	// Rand draws which bots play when more joined than there are seats;
	// engine.CryptoSource if nil.
	Rand engine.Source
	// Log receives the gateway's logs; a discarding logger if nil.
	Log *log.Logger
	// Finished, when set, hears each round that ended as a game at the
	// table, with the players dealt to it (mia --maexchen-event: the
	// gateway is an event's door). It is called from the gateway's loop
	// and must return at once.
	Finished func(game string, players []lobby.Player)

	// via, set by tests, is the source the gateway takes a datagram to
	// come from, and where its answers go: bots on loopback sockets play
	// from other addresses.
	via disguise
}

// disguise maps a socket's address to the source the gateway sees, and
// back.
type disguise interface {
	seen(socket netip.AddrPort) netip.AddrPort
	socket(seen netip.AddrPort) netip.AddrPort
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
	cfg        Config
	log        *log.Logger
	conn       *net.UDPConn
	table      *lobby.Table
	host       *lobby.Subscription
	filter     *filter
	stats      counters
	exemptList netsource.List

	inbox  chan datagram
	outbox chan outgoing
	reqs   chan func()
	quit   chan struct{}
	done   chan struct{}
	wg     sync.WaitGroup // reader and writer
	ctx    context.Context
	cancel context.CancelFunc

	// Owned by the actor.
	bans       []lobby.UDPBan
	sweptAt    time.Time // when the claims of names were last swept
	players    []*player // in order of registration
	spectators []*spectator
	waiting    []*waiter      // newcomers that found every place taken, in order
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
	// sittingOut: it did not answer a JOIN; rounds do not wait for it
	// until it answers one (late, its token is late).
	sittingOut bool
	late       string
	held       bool      // its name is held: it has played, or was held when it registered
	storedHeld bool      // the stored claim says held
	keptAt     time.Time // when its name's claim was last stored
	// idleSince is when it stopped playing (zero while it plays): it let
	// a round's JOIN or its turn's prompt time out. owes: a prompt of its
	// turn timed out and it has answered none since, so its JOINs do not
	// count as playing.
	idleSince time.Time
	owes      bool
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
		cfg: cfg, log: cfg.Log.WithPrefix("maexchen"), filter: newFilter(), exemptList: netsource.List(cfg.Exempt),
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
	g.readBans(ctx)
	g.sweepNames(ctx, cfg.Clock.Now())
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
	if cfg.GiveWay <= 0 {
		cfg.GiveWay = DefaultGiveWay
	}
	if cfg.NameHold == 0 {
		cfg.NameHold = DefaultNameHold
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
			g.safely(func() {
				g.dropRemoved()
				g.sync()
			})
		case <-g.host.Done():
			g.log.Error("the table ended; the gateway stops", "table", g.cfg.Table, "why", g.host.Err())
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

// stop ends the actor's timers and subscriptions; the names registered
// are registered no more (held, their claims stay).
func (g *Gateway) stop() {
	if len(g.players) > 0 {
		ctx, cancel := g.call()
		g.keepNames(ctx, g.cfg.Clock.Now(), g.players, false)
		cancel()
	}
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
// HeartbeatEvery, unregisters players silent for longer than Idle, reads
// the bans again (dropping whoever they cover), gives the newcomers
// waiting the places that free (admitWaiting), and stores the claims of
// names due and sweeps those whose holds ended (holdEvery).
func (g *Gateway) heartbeat() {
	now := g.cfg.Clock.Now()
	for _, p := range append([]*player(nil), g.players...) {
		if now.Sub(p.lastSeen) > g.cfg.Idle {
			g.log.Info("bot gone quiet, unregistered", "name", p.name, "addr", p.addr)
			g.removePlayer(p)
		}
	}
	ctx, cancel := g.call()
	g.readBans(ctx)
	cancel()
	g.dropBanned()
	g.admitWaiting(now)
	g.keepDue(now)
	if now.Sub(g.sweptAt) >= holdEvery {
		ctx, cancel := g.call()
		g.sweepNames(ctx, now)
		cancel()
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
		g.register(d.from, d.msg.name, now, false)
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
// the same IP (any port), which takes the player over. A new player
// queues behind the newcomers waiting for a place (places.go), unless
// queued: it is the one admitWaiting lets in.
func (g *Gateway) register(from netip.AddrPort, name string, now time.Time, queued bool) {
	if !validName(name) {
		g.send(from, msgRejected(rejectInvalidName))
		return
	}
	if g.banned(name, from.Addr()) {
		g.send(from, msgRejected(rejectBanned))
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
			g.unwait(from)
			g.filter.readdress(p.addr, from)
			p.addr = from
		}
		p.lastSeen = now
		p.sittingOut = false
		g.send(from, msgRegistered)
		g.log.Info("bot registered again", "name", name, "addr", from)
		return
	}
	var yields *player // the bot that gives its place to this one
	if g.playerAt(from) == nil {
		if !queued && (len(g.players) >= g.cfg.MaxPlayers || len(g.waiting) > 0) {
			g.wait(from, name, now)
			g.admitWaiting(now)
			return
		}
		if len(g.players) >= g.cfg.MaxPlayers {
			if yields = g.room(from.Addr(), now); yields == nil {
				return // (admitWaiting found it a place)
			}
		}
	}
	ctx, cancel := g.call()
	defer cancel()
	// The name, stored as the address's in the step that checks it
	// against people's names and the claims of names alike: taken while
	// held for another address, or held under another name that looks
	// like it.
	claim, ok, err := g.cfg.Records.ClaimName(ctx, Claim{Name: name, Addr: from.Addr(), Heard: now, Registered: true}, func(c Claim) bool {
		held := c.Held && now.Sub(c.Heard) < g.cfg.NameHold
		return held && (c.Addr != from.Addr() || c.Name != name)
	})
	if err != nil {
		g.log.Error("could not claim a name", "name", name, "err", err)
		return // no answer: the bot may try again
	}
	if !ok {
		// An SSH player's name, a held one, or one that looks like them.
		g.send(from, msgRejected(rejectNameTaken))
		return
	}
	lp := lobby.Player{ID: IDPrefix + name, Bot: true, TurnClock: g.cfg.Timeout}
	sub, err := g.table.Watch(ctx, lp)
	if err != nil {
		g.log.Error("could not watch the table for a bot", "name", name, "err", err)
		claim.Registered = false
		if err := g.cfg.Records.KeepNames(ctx, []Claim{claim}); err != nil {
			g.log.Warn("could not store a name's claim", "name", name, "err", err)
		}
		return
	}
	g.unwait(from)
	if yields != nil {
		g.giveWay(yields, from)
	}
	g.dropAt(from, nil)
	// A name with a record is held: from now on it is this address's.
	held := claim.Held && g.cfg.NameHold > 0
	p := &player{name: name, addr: from, lp: lp, sub: sub, lastSeen: now, held: held, storedHeld: claim.Held, keptAt: now}
	g.players = append(g.players, p)
	g.send(from, msgRegistered)
	g.log.Info("bot registered", "name", name, "addr", from)
	if g.round.phase == idle {
		g.startRound()
	}
}

// banned reports whether a ban covers the name or the address.
func (g *Gateway) banned(name string, addr netip.Addr) bool {
	for _, b := range g.bans {
		if b.Covers(name, addr) {
			return true
		}
	}
	return false
}

// readBans reads the bans of names and addresses again; on failure the
// last ones read stay.
func (g *Gateway) readBans(ctx context.Context) {
	all, err := g.cfg.Records.Bans(ctx)
	if err != nil {
		g.log.Warn("could not read the bans", "err", err)
		return
	}
	bans := g.bans[:0:0]
	for _, target := range all {
		if b, ok, err := lobby.ParseUDPBan(target); ok && err == nil {
			bans = append(bans, b)
		}
	}
	g.bans = bans
}

// dropBanned ends the registrations that a ban covers, each told
// REJECTED;BANNED.
func (g *Gateway) dropBanned() {
	for _, p := range append([]*player(nil), g.players...) {
		if g.banned(p.name, p.addr.Addr()) {
			g.log.Info("banned bot dropped", "name", p.name, "addr", p.addr)
			g.removePlayer(p)
			g.send(p.addr, msgRejected(rejectBanned))
		}
	}
	for _, s := range append([]*spectator(nil), g.spectators...) {
		if g.banned(s.name, s.addr.Addr()) {
			g.dropAt(s.addr, nil)
			g.send(s.addr, msgRejected(rejectBanned))
		}
	}
	for _, w := range append([]*waiter(nil), g.waiting...) {
		if g.banned(w.name, w.addr.Addr()) {
			g.unwait(w.addr)
			g.send(w.addr, msgRejected(rejectBanned))
		}
	}
}

// dropRemoved unregisters the players the table ended the subscription
// of: an admin removed them from it (table kick), so that they left the
// game they were in. Each is told UNREGISTERED; the table being public,
// it may register again.
func (g *Gateway) dropRemoved() {
	for _, p := range append([]*player(nil), g.players...) {
		select {
		case <-p.sub.Done():
		default:
			continue
		}
		g.log.Info("bot removed from the table, unregistered", "name", p.name, "addr", p.addr, "why", p.sub.Err())
		g.removePlayer(p)
		g.send(p.addr, msgUnregistered)
	}
}

// keepDue stores again the claims of the registered players' names last
// stored holdEvery ago or more, as of when each bot was last heard.
func (g *Gateway) keepDue(now time.Time) {
	var ps []*player
	for _, p := range g.players {
		if now.Sub(p.keptAt) >= holdEvery {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	ctx, cancel := g.call()
	defer cancel()
	g.keepNames(ctx, now, ps, true)
}

// keepNames stores the claims of the players' names as of when each was
// last heard: held if it is, registered or not.
func (g *Gateway) keepNames(ctx context.Context, now time.Time, ps []*player, registered bool) {
	cs := make([]Claim, len(ps))
	for i, p := range ps {
		cs[i] = Claim{Name: p.name, Addr: p.addr.Addr(), Heard: p.lastSeen, Held: p.held, Registered: registered}
	}
	if err := g.cfg.Records.KeepNames(ctx, cs); err != nil {
		g.log.Warn("could not store the claims of names", "err", err)
		return
	}
	for _, p := range ps {
		p.keptAt, p.storedHeld = now, p.held
	}
}

// sweepNames drops the stored claims of names whose holds have ended and
// that no bot registered here plays under, and marks the others not
// registered but for those that are (after a restart: none).
func (g *Gateway) sweepNames(ctx context.Context, now time.Time) {
	err := sweep(ctx, g.cfg.Records, now, g.cfg.NameHold, func(c Claim) bool {
		p := g.playerNamed(c.Name)
		return p != nil && p.addr.Addr() == c.Addr
	})
	if err != nil {
		g.log.Warn("could not sweep the claims of names", "err", err)
		return
	}
	g.sweptAt = now
}

// sweep drops the stored claims of names whose holds (hold after they
// were last heard; none if hold is not positive) have ended, but those
// registered reports true of, which stay as they are; the others are
// marked not registered.
func sweep(ctx context.Context, r Records, now time.Time, hold time.Duration, registered func(Claim) bool) error {
	return r.SweepNames(ctx, func(c Claim) (Claim, bool) {
		if registered(c) {
			return c, true
		}
		c.Registered = false
		return c, c.Held && now.Sub(c.Heard) < hold
	})
}

// SweepNames is the gateway's sweep of the claims of names at its start
// (no bot registered), for a server that runs without the gateway: the
// claims of bots registered when it last ran go, as do the holds that
// have ended (hold: Config.NameHold; DefaultNameHold if 0), so that they
// do not keep those names from people for ever.
func SweepNames(ctx context.Context, r Records, now time.Time, hold time.Duration) error {
	if hold == 0 {
		hold = DefaultNameHold
	}
	return sweep(ctx, r, now, hold, func(Claim) bool { return false })
}

// registerSpectator is REGISTER_SPECTATOR;name. Past perAddress
// spectators from its address, a new one takes the place of that
// address's oldest; past MaxSpectators, of the oldest of the address that
// has the most.
func (g *Gateway) registerSpectator(from netip.AddrPort, name string) {
	if !validName(name) {
		g.send(from, msgRejected(rejectInvalidName))
		return
	}
	if g.banned(name, from.Addr()) {
		g.send(from, msgRejected(rejectBanned))
		return
	}
	g.dropAt(from, nil)
	bySrc := make(map[netip.Prefix][]int) // indexes into spectators, oldest first
	for i, s := range g.spectators {
		src := netsource.Of(s.addr.Addr())
		bySrc[src] = append(bySrc[src], i)
	}
	src := netsource.Of(from.Addr())
	switch {
	case len(bySrc[src]) >= perAddress:
		g.dropSpectator(bySrc[src][0])
	case len(g.spectators) >= g.cfg.MaxSpectators:
		var most []int
		for _, is := range bySrc {
			if most == nil || len(is) > len(most) || (len(is) == len(most) && is[0] < most[0]) {
				most = is
			}
		}
		g.dropSpectator(most[0])
	}
	g.spectators = append(g.spectators, &spectator{name: name, addr: from})
	g.send(from, msgRegistered)
}

func (g *Gateway) dropSpectator(i int) {
	g.spectators = append(g.spectators[:i:i], g.spectators[i+1:]...)
}

// unregister is UNREGISTER: the address's registration, or its wait for
// a place, ends. A player in the round in play stays in it (and times
// out).
func (g *Gateway) unregister(from netip.AddrPort) {
	if !g.dropAt(from, nil) && !g.unwait(from) {
		return
	}
	g.send(from, msgUnregistered)
	g.admitWaiting(g.cfg.Clock.Now())
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

// removePlayer ends p's registration; its name's claim is stored as of
// when it was last heard, held if it is (else dropped).
func (g *Gateway) removePlayer(p *player) {
	ctx, cancel := g.call()
	g.keepNames(ctx, g.cfg.Clock.Now(), []*player{p}, false)
	cancel()
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
