// Package lobby runs the tables: a registry of tables, one actor goroutine
// per table that owns its game, its seats and its subscribers, the turn
// clocks and the chats. A table's one loop, its timers and its two states,
// playing and paused on a write its storage has not saved, are loop.go
// and pause.go. It is also the one home of the rules of who may do and see
// what: names (names.go), who may see a table and its games (access.go),
// what one person may hold (limits.go), what one source address may make
// (budget.go), who may start a game (table.go). The words every door
// shows, the narration of a game's events among them, are lobby/words'.
//
// Its room: it knows nothing of SSH or terminals, and reaches storage only
// through Storage, declared here in the lobby's own types (store/lobbystore
// adapts the bbolt store to it). It may import engine (and engine/fair,
// the provably fair dice, engine/rating, and engine/solver, whose solves
// it budgets) and its own subpackages
// (lobby/ai, lobby/ident, lobby/words), never store or sshapp.
package lobby

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/words"
)

// Player is someone at the lobby's doors: a person (ID, the kinds of
// lobby/ident) who came with a key (Key; "" for a key-less player), as a
// program or not (Bot: a fact of the seat they take, never of the person),
// with their key's admin rights. Their name is not here: it is looked up
// when shown (Lobby.Name).
type Player struct {
	ID    string
	Key   string
	Bot   bool
	Admin bool
	// Source is the network source the player came from, for the caps
	// counted by address (budget.go): an IPv4 address or an IPv6 /64, as
	// the door names it; "" for one the caps do not count (a loopback or
	// exempt source, the server's own programs). Never stored.
	Source string
	// TurnClock, when set, is how long each of this player's prompts lasts
	// (a turn, and the announcement after a roll, each get it afresh)
	// instead of the table's turn-seconds: the Mäxchen gateway's bots
	// answer within milliseconds, people keep the table's clock.
	TurnClock time.Duration
}

// Viewer is the player as the access rule sees them.
func (p Player) Viewer() Viewer { return Viewer{ID: p.ID, Admin: p.Admin} }

// seatKey is what the fair seating hashes for p (engine/fair), the
// "fingerprint" of their seat in the game's record: the key they sat down
// with, or a key-less player's id.
func (p Player) seatKey() string {
	if p.Key != "" {
		return p.Key
	}
	return p.ID
}

// seated is p as a table keeps them seated: not Admin (that is the
// session's) nor TurnClock (the door's).
func (p Player) seated() Player { return Player{ID: p.ID, Key: p.Key, Bot: p.Bot} }

// Errors returned to the people using the tables (their kinds: errors.go).
var (
	ErrNoTable        = NewError(NotFound, "no such table")
	ErrTableExists    = NewError(Refused, "a table with that name is open already")
	ErrBadSeats       = NewError(Refused, fmt.Sprintf("a table has %d to %d seats", engine.MinSeats, engine.MaxSeats))
	ErrTableFull      = NewError(Refused, "every seat is taken")
	ErrSeated         = NewError(Refused, "you are seated at this table already")
	ErrNotSeated      = NewError(Refused, "you are not seated at this table")
	ErrNotHost        = NewError(Refused, "only the table's host may do that")
	ErrGameRunning    = NewError(Refused, "a game is running at this table")
	ErrNoGame         = NewError(Refused, "no game is running at this table")
	ErrTooFewPlayers  = NewError(Refused, "a game needs at least 2 seated players")
	ErrTableClosed    = NewError(NotFound, "the table is closed")
	ErrChatFlood      = NewError(Refused, "slow down: too many messages")
	ErrEmptyMessage   = NewError(Refused, "nothing to say")
	ErrLobbyClosed    = NewError(Unavailable, "the server is shutting down")
	ErrNotYourGameAct = NewError(Refused, "you are not playing in this game")
	// ErrNoPerson: storage knows no person of that id.
	ErrNoPerson = NewError(NotFound, "no such person")
)

// Config wires a lobby.
type Config struct {
	Store Storage // required
	Clock Clock   // RealClock if nil
	// Dice, when set, deals every game (seating, openers, dice) without a
	// proof: for tests that script their games. Nil (the server): games
	// are dealt provably fair (engine/fair), and crypto/rand draws the rest.
	Dice engine.Source
	Log  *log.Logger // a discarding logger if nil
	// SaveTimeout bounds the wait for one store write (default 10 s). A
	// table whose write has not answered by then pauses until it does
	// (TableInfo.Paused); see Storage for what storage does with the
	// write's ctx.
	SaveTimeout time.Duration
	// BotDelay is a built-in bot's least pause before it moves; it waits up
	// to twice as long (0: DefaultBotDelay; NoDelay: no pause).
	BotDelay time.Duration
	// MaxTables is how many open tables one person may host at once
	// (0: DefaultMaxTables; NoLimit: no cap). Server admins and the
	// server's own programs are exempt.
	MaxTables int
	// MaxTablesPerSource is how many open tables may be opened from one
	// source (Player.Source), whatever the keys (0:
	// DefaultMaxTablesPerSource; NoLimit: no cap); MaxBotTablesPerSource
	// how many of them may be filled with built-in bots only (0:
	// DefaultMaxBotTablesPerSource); MaxBotTables how many tables of bots
	// only the server runs at once (0: DefaultMaxBotTables). Admins are
	// exempt.
	MaxTablesPerSource    int
	MaxBotTablesPerSource int
	MaxBotTables          int
	// BotTableIdle is how long a table of bots only plays on while nobody
	// has it open, its host neither, before it rests until someone opens
	// it (0: DefaultBotTableIdle; NoRest: it never rests). An admin's
	// table of bots plays on.
	BotTableIdle time.Duration
	// Solves is the solver's budget by source, shared with the verdicts'
	// (sshapp/verdict): an expert bot's strategy not solved yet is solved
	// only if it admits the solve, counted by the table's source
	// (TableInfo.SolveSource); meanwhile, and when refused, the expert
	// plays as hard. Nil: every solve is admitted.
	Solves *Solves
}

// What Config says for "none", where its zero is a default: any other
// negative value is refused.
const (
	// NoDelay, as Config.BotDelay: built-in bots move at once.
	NoDelay time.Duration = -1
	// NoLimit, as Config.MaxTables and the other caps: no cap.
	NoLimit = -1
	// NoRest, as Config.BotTableIdle: tables of bots never rest.
	NoRest time.Duration = -1
)

// DefaultBotDelay is Config.BotDelay's default.
const DefaultBotDelay = time.Second

// Lobby is the registry of open tables and the lobby chat.
type Lobby struct {
	cfg      Config
	log      *log.Logger
	scripted bool // cfg.Dice deals the games: no proof of fair dice

	moves [engine.Leave + 1]atomic.Uint64 // actions applied, by kind
	drops atomic.Uint64                   // snapshots and lobby versions replaced unread in a mailbox

	dir  directory // who is called what
	news newsroom  // who follows the lobby's news (news.go)

	mu     sync.Mutex
	tables map[string]*Table // by lower-case name
	subs   map[*Mailbox[int]]struct{}
	chat   chatLog
	ver    int
	closed bool
	// counted is set while a change of the watchers' counts alone waits
	// to be told (notifyCounts).
	counted bool
	// opening keeps the tables being written (CreateTable), by lower-case
	// name.
	opening map[string]TableRecord
	// openingFrom is the source each table being written is opened from.
	openingFrom map[string]string
	// aside counts the solves running off the tables' goroutines
	// (solveAside), and solving names them, so that one runs a key.
	aside   sync.WaitGroup
	solving map[solver.Rules]bool
}

// New opens the lobby: it starts an actor for every open table in the store
// with the players seated at it, puts every unfinished game back on its
// table, its turn clock restarted, and schedules the next game of every
// table of bots between games.
func New(ctx context.Context, cfg Config) (*Lobby, error) {
	if cfg.Store == nil {
		return nil, errors.New("lobby: no store")
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	scripted := cfg.Dice != nil
	if cfg.Dice == nil {
		cfg.Dice = engine.CryptoSource{}
	}
	if cfg.Log == nil {
		cfg.Log = log.New(discard{})
	}
	switch {
	case cfg.BotDelay == 0:
		cfg.BotDelay = DefaultBotDelay
	case cfg.BotDelay == NoDelay:
		cfg.BotDelay = 0
	case cfg.BotDelay < 0:
		return nil, fmt.Errorf("lobby: bot delay %v: 0 for the default, NoDelay for none", cfg.BotDelay)
	}
	if cfg.SaveTimeout == 0 {
		cfg.SaveTimeout = 10 * time.Second
	}
	for _, c := range []struct {
		name string
		v    *int
		def  int
	}{
		{"max tables", &cfg.MaxTables, DefaultMaxTables},
		{"max tables per source", &cfg.MaxTablesPerSource, DefaultMaxTablesPerSource},
		{"max bot tables per source", &cfg.MaxBotTablesPerSource, DefaultMaxBotTablesPerSource},
		{"max bot tables", &cfg.MaxBotTables, DefaultMaxBotTables},
	} {
		switch {
		case *c.v == 0:
			*c.v = c.def
		case *c.v < 0 && *c.v != NoLimit:
			return nil, fmt.Errorf("lobby: %s %d: 0 for the default, NoLimit for none", c.name, *c.v)
		}
	}
	switch {
	case cfg.BotTableIdle == 0:
		cfg.BotTableIdle = DefaultBotTableIdle
	case cfg.BotTableIdle < 0 && cfg.BotTableIdle != NoRest:
		return nil, fmt.Errorf("lobby: bot table idle %v: 0 for the default, NoRest for never", cfg.BotTableIdle)
	}
	l := &Lobby{cfg: cfg, log: cfg.Log.WithPrefix("lobby"), tables: make(map[string]*Table), opening: make(map[string]TableRecord), openingFrom: make(map[string]string),
		subs: make(map[*Mailbox[int]]struct{}), scripted: scripted, dir: directory{names: make(map[string]string)}}
	recs, err := cfg.Store.OpenTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("lobby: load tables: %w", err)
	}
	games, err := cfg.Store.InProgress(ctx)
	// The names shown at the tables, read before their actors need them.
	for _, rec := range recs {
		l.learn(ctx, rec.Host)
		for _, p := range rec.Seated {
			l.learn(ctx, p.ID)
		}
	}
	for _, rg := range games {
		for _, p := range rg.Players {
			l.learn(ctx, p.ID)
		}
	}
	for _, rec := range recs {
		l.tables[strings.ToLower(rec.Name)] = startTable(l, rec, l.keptOf(ctx, rec.Name))
	}
	if err != nil {
		// A game whose log does not replay is left in the store as it is,
		// for an admin to look at; every other game comes back.
		l.log.Error("some unfinished games could not be recovered", "err", err)
	}
	for _, rg := range games {
		t := l.tables[strings.ToLower(rg.Table)]
		if t == nil {
			l.log.Warn("unfinished game of a closed table left as it is", "game", rg.ID, "table", rg.Table)
			continue
		}
		if err := t.resumeGame(ctx, rg); err != nil {
			l.log.Error("could not resume game", "game", rg.ID, "err", err)
		}
	}
	// A table of bots between games schedules its next game again: the
	// timer of the last run did not survive the stop.
	for _, t := range l.tables {
		t.post(func(context.Context) {
			if !t.running() {
				t.scheduleRestart()
			}
		})
	}
	return l, nil
}

// kept is what a table finds again when it starts: its next dice and its
// chat; and, for a table opened now, the source it was opened from and
// whether by an admin (neither is stored).
type kept struct {
	next    nextDice
	chat    []ChatLine
	from    string
	byAdmin bool
}

// keptOf reads what storage kept of an open table: its next game's dice
// (drawn, and stored, if none were kept) and its chat, each line's
// speaker named as they are called now. What cannot be read is logged and
// started afresh: the table opens all the same.
func (l *Lobby) keptOf(ctx context.Context, table string) kept {
	var k kept
	d, ok, err := l.cfg.Store.NextDice(ctx, table)
	switch {
	case err != nil:
		l.log.Error("could not read a table's next dice: new ones are drawn", "table", table, "err", err)
		fallthrough
	case !ok:
		k.next = newNextDice()
		l.saveNext(ctx, table, k.next)
	default:
		k.next = nextDice(d)
		for _, g := range d.Given {
			l.learn(ctx, g.Person)
		}
	}
	if k.chat, err = l.cfg.Store.Chat(ctx, table); err != nil {
		l.log.Error("could not read a table's chat", "table", table, "err", err)
	}
	for i, c := range k.chat {
		if c.FromID != "" {
			l.learn(ctx, c.FromID)
			k.chat[i].From = l.Name(c.FromID)
		}
	}
	return k
}

// saveNext stores the next dice of a table whose actor has not started
// (a new table, or one whose kept dice are missing), bounded by
// SaveTimeout. A failure is logged: the table plays on, and its
// commitment changes if the server stops before its first game.
func (l *Lobby) saveNext(ctx context.Context, table string, next nextDice) {
	wctx, cancel := context.WithTimeout(ctx, l.cfg.SaveTimeout)
	defer cancel()
	if err := l.cfg.Store.SaveNextDice(wctx, table, next.kept()); err != nil {
		l.log.Error("could not save a table's next dice", "table", table, "err", err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TableConfig is what a host chooses when creating a table.
type TableConfig struct {
	Name    string
	Rules   engine.Options
	Seats   int // engine.MinSeats..engine.MaxSeats; 0 means 6
	Private bool
	// Coach: a practice table, its games not rated, where each player's
	// screen judges their own moves as they make them (PROTOCOL.md).
	Coach bool
}

// CreateTable opens a new table hosted by host, stored before it is
// shown. Its name must not look like an open table's (Alike): the error
// then matches ErrTableExists, and names that table when host may see
// it. A table's name is public even when the table is not: a private
// table's name is taken like any other (so that every door may name a
// table by its name alone), and nothing else of it is told. A host who
// hosts Config.MaxTables open tables already (those being written
// counted) is refused with a *LimitError (ErrTooManyTables). The lobby's
// lock is not held while the table is written: its name is kept for it
// meanwhile. A write that does not answer within SaveTimeout returns
// ErrUnsaved, and the table opens by itself if it is saved after all.
func (l *Lobby) CreateTable(ctx context.Context, host Player, tc TableConfig) (*Table, error) {
	if err := CheckTableName(tc.Name); err != nil {
		return nil, err
	}
	l.learn(ctx, host.ID)
	if tc.Seats == 0 {
		tc.Seats = 6
	}
	if tc.Seats < engine.MinSeats || tc.Seats > engine.MaxSeats {
		return nil, ErrBadSeats
	}
	if err := tc.Rules.Validate(); err != nil {
		return nil, err
	}
	rec := TableRecord{Name: tc.Name, Rules: tc.Rules, Seats: tc.Seats, Coach: tc.Coach,
		Access: Access{Private: tc.Private, Host: host.ID, Created: l.cfg.Clock.Now().UTC()}}
	return l.create(ctx, host, rec)
}

// create stores rec, a new table hosted by host, and starts it: the
// steps of CreateTable after its checks of the name, seats and rules.
func (l *Lobby) create(ctx context.Context, host Player, rec TableRecord) (*Table, error) {
	key := strings.ToLower(rec.Name)
	tc := TableConfig{Name: rec.Name}
	l.mu.Lock()
	_, writing := l.opening[key]
	switch {
	case l.closed:
		l.mu.Unlock()
		return nil, ErrLobbyClosed
	case l.tables[key] != nil || writing:
		l.mu.Unlock()
		return nil, ErrTableExists
	}
	for _, other := range l.tables {
		if Alike(other.name, tc.Name) {
			l.mu.Unlock()
			if !host.Viewer().Sees(other.Info().Access()) {
				return nil, ErrTableExists // taken, and not a word more of it
			}
			return nil, &LookalikeError{Rule: ErrTableExists, Name: tc.Name, Taken: other.name}
		}
	}
	for _, other := range l.opening {
		if Alike(other.Name, tc.Name) {
			l.mu.Unlock()
			if !host.Viewer().Sees(other.Access) {
				return nil, ErrTableExists
			}
			return nil, &LookalikeError{Rule: ErrTableExists, Name: tc.Name, Taken: other.Name}
		}
	}
	if err := l.checkTablesLocked(host); err != nil {
		l.mu.Unlock()
		return nil, err
	}
	if err := l.checkSourceLocked(host); err != nil {
		l.mu.Unlock()
		return nil, err
	}
	l.opening[key] = rec
	l.openingFrom[key] = host.Source
	l.mu.Unlock()

	sctx, cancel := context.WithTimeout(ctx, l.cfg.SaveTimeout)
	defer cancel()
	err := l.cfg.Store.CreateTable(sctx, rec)
	var pw PendingWrite
	if errors.As(err, &pw) {
		go func() {
			<-pw.Settled()
			if err := pw.Outcome(); err != nil {
				l.log.Warn("a table was not created", "table", rec.Name, "err", err)
				l.opened(key, rec, host, false)
				return
			}
			l.opened(key, rec, host, true)
		}()
		return nil, ErrUnsaved
	}
	if err != nil {
		l.opened(key, rec, host, false)
		if errors.Is(err, ErrTableExists) {
			return nil, ErrTableExists
		}
		return nil, fmt.Errorf("create table %s: %w", rec.Name, err)
	}
	t := l.opened(key, rec, host, true)
	if t == nil {
		return nil, ErrLobbyClosed // stored: it opens with the next lobby
	}
	return t, nil
}

// opened gives back the name CreateTable kept, and starts the table if it
// was stored (nil if the lobby closed meanwhile), with its next dice
// drawn and stored.
func (l *Lobby) opened(key string, rec TableRecord, host Player, stored bool) *Table {
	var next nextDice
	if stored {
		next = newNextDice()
		l.saveNext(context.Background(), rec.Name, next)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.opening, key)
	delete(l.openingFrom, key)
	if !stored || l.closed {
		return nil
	}
	from := ""
	if budgeted(host) {
		from = host.Source
	}
	t := startTable(l, rec, kept{next: next, from: from, byAdmin: host.Admin})
	l.tables[key] = t
	l.notifyLocked()
	t.post(func(context.Context) { t.tellOpened() })
	return t
}

// Table finds an open table by name (any case), whoever asks: for the
// server's own programs (the Mäxchen gateway finding the table it drives)
// and tests. Every door a person or a bot reaches a table by asks
// TableFor instead.
func (l *Lobby) Table(name string) (*Table, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tables[strings.ToLower(name)]
	if t == nil {
		return nil, ErrNoTable
	}
	return t, nil
}

// TableFor finds the open table of that name (any case) for v: the one
// lookup of a table by name at every door (commands, screens, the bot
// protocol, the web window). A table that does not show itself to v
// (Viewer.Sees: a private table that does not admit them) is not there
// for them: the answer is ErrNoTable, the very error of a name no table
// has, reached by the same steps (a lookup and a check in memory, never a
// call to the table's actor nor to storage), so that neither the words
// nor the time of the answer tell that a private table has that name.
func (l *Lobby) TableFor(v Viewer, name string) (*Table, error) {
	t, err := l.Table(name)
	if err != nil {
		return nil, err
	}
	if !v.Sees(t.Info().Access()) {
		return nil, ErrNoTable
	}
	return t, nil
}

// Tables lists the open tables that v may see (Viewer.Sees), by name.
func (l *Lobby) Tables(v Viewer) []TableInfo {
	l.mu.Lock()
	ts := make([]*Table, 0, len(l.tables))
	for _, t := range l.tables {
		ts = append(ts, t)
	}
	l.mu.Unlock()
	var out []TableInfo
	for _, t := range ts {
		if info := t.Info(); v.Sees(info.Access()) {
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// SeatedAt lists the tables where the person id has a seat, so that a
// returning player goes straight back to their game.
func (l *Lobby) SeatedAt(id string) []TableInfo {
	var out []TableInfo
	for _, info := range l.Tables(Viewer{ID: id}) {
		if info.HasSeat(id) {
			out = append(out, info)
		}
	}
	return out
}

// Subscribe returns a mailbox that receives a new version number whenever
// the table list or the lobby chat changes.
func (l *Lobby) Subscribe() *Mailbox[int] {
	m := NewMailbox[int]().counted(&l.drops)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		m.Close()
		return m
	}
	l.subs[m] = struct{}{}
	m.Put(l.ver)
	return m
}

// Unsubscribe drops a mailbox from Subscribe and closes it.
func (l *Lobby) Unsubscribe(m *Mailbox[int]) {
	l.mu.Lock()
	delete(l.subs, m)
	l.mu.Unlock()
	m.Close()
}

// Say posts a line to the lobby chat.
func (l *Lobby) Say(p Player, text string) error {
	text = words.Clean(text, MaxChatRunes)
	if text == "" {
		return ErrEmptyMessage
	}
	name := l.Name(p.ID)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Clock.Now()
	if err := l.chat.take(p.ID, text, now); err != nil {
		return err
	}
	l.chat.add(ChatLine{At: now, FromID: p.ID, From: name, Bot: p.Bot, Text: text})
	l.notifyLocked()
	return nil
}

// Chat returns the recent lobby chat, oldest first.
func (l *Lobby) Chat() []ChatLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.chat.recent()
}

// Broadcast tells everyone at every table, and in the lobby, a notice from
// the server (such as a shutdown).
func (l *Lobby) Broadcast(text string) {
	l.mu.Lock()
	l.chat.add(ChatLine{At: l.cfg.Clock.Now(), Text: text})
	l.notifyLocked()
	ts := make([]*Table, 0, len(l.tables))
	for _, t := range l.tables {
		ts = append(ts, t)
	}
	l.mu.Unlock()
	for _, t := range ts {
		t.notice(text)
	}
}

func (l *Lobby) notify() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notifyLocked()
}

// countsEvery is how often at most the lobby's screens are woken for
// changes of the watchers' counts alone: 2,000 spectators opening tables
// would otherwise wake every lobby screen 2,000 times.
const countsEvery = time.Second

// notifyCounts tells the lobby's screens of a change of the watchers'
// counts within countsEvery, with every other such change until then.
func (l *Lobby) notifyCounts() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counted || l.closed {
		return
	}
	l.counted = true
	l.cfg.Clock.AfterFunc(countsEvery, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.counted = false
		if !l.closed {
			l.notifyLocked()
		}
	})
}

func (l *Lobby) notifyLocked() {
	l.ver++
	for m := range l.subs {
		m.Put(l.ver)
	}
}

// retire takes a table Close closed out of the lobby and stops its actor
// (not from the actor itself).
func (l *Lobby) retire(t *Table) {
	l.remove(t)
	t.stop()
}

func (l *Lobby) remove(t *Table) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tables[strings.ToLower(t.name)] == t {
		delete(l.tables, strings.ToLower(t.name))
	}
	l.notifyLocked()
}

// Stats is what the lobby counts, for the server's metrics.
type Stats struct {
	// Tables is the open tables by state ("waiting", "playing").
	Tables map[string]int
	// Moves is the actions applied since the lobby started, by kind
	// ("roll", "claim", "pass", "challenge", "give up", "timeout",
	// "leave").
	Moves map[string]uint64
	// MailboxDrops is the snapshots (and lobby list versions) a
	// subscriber's mailbox replaced before they were read: a viewer too
	// slow for the table saw only the newest.
	MailboxDrops uint64
	// Paused is the open tables paused on a write their storage has not
	// saved, and PausedFor why one of them is, in words ("" when none
	// is).
	Paused    int
	PausedFor string
}

// Stats reports what the lobby counts now.
func (l *Lobby) Stats() Stats {
	st := Stats{Tables: map[string]int{"waiting": 0, "playing": 0}, Moves: map[string]uint64{}, MailboxDrops: l.drops.Load()}
	for k := engine.Roll; k <= engine.Leave; k++ {
		st.Moves[k.String()] = l.moves[k].Load()
	}
	for _, info := range l.tableInfos() {
		st.Tables[info.State]++
		if info.Paused {
			st.Paused++
			st.PausedFor = info.PausedFor
		}
	}
	return st
}

// Close stops every table actor. Games stay in the store as they are and
// come back with the next New.
func (l *Lobby) Close() {
	l.mu.Lock()
	l.closed = true
	ts := make([]*Table, 0, len(l.tables))
	for _, t := range l.tables {
		ts = append(ts, t)
	}
	subs := l.subs
	l.subs = map[*Mailbox[int]]struct{}{}
	l.mu.Unlock()
	for _, t := range ts {
		t.stop()
	}
	for m := range subs {
		m.Close()
	}
	l.news.close()
	l.aside.Wait()
}

// solveAside runs work (an expert bot's strategy r to solve: seconds of
// a core) on a goroutine of its own, once for r however many tables ask,
// none once the lobby closes, if the solver's budget admits it asked
// from source (Solves.Admit; its refusal is returned); Close waits for
// it.
func (l *Lobby) solveAside(source string, r solver.Rules, work func()) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.solving[r] {
		return nil
	}
	done, err := l.cfg.Solves.Admit(source, r)
	if err != nil {
		return err
	}
	if l.solving == nil {
		l.solving = map[solver.Rules]bool{}
	}
	l.solving[r] = true
	l.aside.Go(func() {
		defer done()
		work()
		l.mu.Lock()
		delete(l.solving, r)
		l.mu.Unlock()
	})
	return nil
}
