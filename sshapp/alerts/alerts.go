// Package alerts calls people when something happens at the tables:
// outgoing webhooks (the server's, and a table's own), fed by the lobby's
// news (lobby.Lobby.Follow), and the news it addresses to people besides
// the lobby's own: an invitation, a seat free at a table they watch, a
// hook of theirs paused. The notices a person's screens show of it are
// the screens' (sshapp/tui); the commands that set it are sshapp/command's
// (table hook, table watch, table invite … PERSON).
//
// Delivery never holds up a table: the lobby's news reach this package
// through a bounded queue, and each hook has its own bounded queue (the
// oldest dropped, counted) and a goroutine that runs only while its queue
// holds deliveries. A request has a timeout, is retried with backoff after
// a 5xx or a timeout, follows no redirect and reads at most MaxBody of the
// answer. A hook that fails for PauseAfter (an hour) is paused and its
// owner told. The formats (json, slack, ntfy) and the signature are
// sshapp/PROTOCOL.md §6; the README beside this file has a receiver's
// check of the signature.
//
// Room: under sshapp, beside the doors. It may import lobby (and
// lobby/words) and store (record types: its storage comes through
// Storage, declared here); never the other rooms of sshapp. The commands
// and the screens reach it through interfaces of their own.
package alerts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// Storage is what the alerts keep: a table's own hooks, the watches and
// the invitations (store.Store implements it), and the boards' champion of
// a season that ended.
type Storage interface {
	SetHook(ctx context.Context, table string, h store.Hook) error
	RemoveHook(ctx context.Context, table, url string) error
	Hooks(ctx context.Context) ([]store.Hook, error)
	AddWatch(ctx context.Context, person, table string, at time.Time, max int) error
	RemoveWatch(ctx context.Context, person, table string) error
	WatchesOf(ctx context.Context, person string) ([]string, error)
	Watchers(ctx context.Context, table string) ([]string, error)
	AddInvitation(ctx context.Context, inv store.Invitation, max int) error
	InvitationsOf(ctx context.Context, person string, now time.Time) ([]store.Invitation, error)
	RemoveInvitation(ctx context.Context, person, table string) error
	Champion(ctx context.Context, b store.Board) (store.Rating, bool, error)
}

// Links are the web window's addresses (sshapp/web's Links).
type Links interface {
	Game(id string, g lobby.GameAccess) string
	Event(name string, a lobby.Access) string
}

// ServerHook is one of the operator's hooks (--webhook, --webhook-format).
type ServerHook struct {
	URL    string
	Format Format
}

// Config configures the alerts.
type Config struct {
	// Lobby is the lobby whose news it follows. Required.
	Lobby *lobby.Lobby
	// Storage keeps a table's hooks, the watches and the invitations;
	// nil: only the server's hooks (the rest is refused).
	Storage Storage
	// Hooks are the server's own hooks, told the news of public tables.
	Hooks []ServerHook
	// Secret signs the server's hooks' deliveries ("": unsigned).
	Secret string
	// Allow is where a table's hook may go (--webhook-allow); none:
	// tables may have no hooks.
	Allow Allow
	// Play is the ssh command line that opens a table, without its name:
	// "ssh -t -p 23234 mia.example.org play".
	Play string
	// Links are the web window's addresses; nil: no links.
	Links Links
	// Log receives what the hooks do; a discarding logger if nil.
	Log *log.Logger
	// Now is the clock; time.Now if nil.
	Now func() time.Time

	// The bounds of delivery; zero takes the default.
	Timeout      time.Duration // one request (DefaultTimeout)
	Retries      int           // tries after the first, after a 5xx or a timeout (DefaultRetries; -1: none)
	Backoff      time.Duration // the wait before the first retry, doubled for each next (DefaultBackoff)
	QueueBound   int           // deliveries a hook holds waiting (DefaultQueueBound)
	PauseAfter   time.Duration // a hook failing this long is paused (DefaultPauseAfter)
	WaitingEvery time.Duration // table.waiting at most this often a table (DefaultWaitingEvery)
}

// The defaults of Config, and the caps that fresh keys cannot multiply.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultRetries      = 3
	DefaultBackoff      = 2 * time.Second
	DefaultQueueBound   = 64
	DefaultPauseAfter   = time.Hour
	DefaultWaitingEvery = time.Minute
	// MaxBody is how much of an answer is read: the rest is left unread.
	MaxBody = 4 << 10
	// MaxHooksPerTable is how many hooks a table has at most.
	MaxHooksPerTable = 3
	// MaxWatches is how many tables one person watches at most.
	MaxWatches = 20
	// MaxInvitations is how many invitations one person holds; a new one
	// past it drops their oldest.
	MaxInvitations = 20
	// MaxURL is the longest hook address.
	MaxURL = 2048
)

// Alerts follows the lobby's news and calls the hooks. Make it with New;
// Close it once.
type Alerts struct {
	cfg    Config
	log    *log.Logger
	lob    *lobby.Lobby
	feed   *lobby.Queue[lobby.News] // the lobby's news
	later  *lobby.Queue[lobby.News] // news held back, ready now
	cancel context.CancelFunc       // ends run's context: every request and wait
	done   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup // the hooks' goroutines

	server, guarded *http.Client // the clients of the server's and the tables' hooks

	hookMu sync.Mutex // one change of a table's hooks at a time

	mu      sync.Mutex
	servers []*hook
	tables  map[string][]*hook   // a table's hooks, by lower-case name
	waiting map[string]*throttle // table.waiting, held to once every WaitingEvery, by table

	stats counts
}

// New starts following the lobby's news, with the tables' hooks read from
// Storage.
func New(ctx context.Context, cfg Config) (*Alerts, error) {
	if cfg.Lobby == nil {
		return nil, errors.New("alerts: no lobby")
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&cfg.Timeout, DefaultTimeout}, {&cfg.Backoff, DefaultBackoff}, {&cfg.PauseAfter, DefaultPauseAfter}, {&cfg.WaitingEvery, DefaultWaitingEvery}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = DefaultRetries
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.QueueBound <= 0 {
		cfg.QueueBound = DefaultQueueBound
	}
	a := &Alerts{cfg: cfg, log: cfg.Log.WithPrefix("alerts"), lob: cfg.Lobby, done: make(chan struct{}),
		tables: make(map[string][]*hook), waiting: make(map[string]*throttle), stats: newCounts()}
	a.server, a.guarded = newClient(cfg.Timeout, nil), newClient(cfg.Timeout, &cfg.Allow)
	for _, sh := range cfg.Hooks {
		h, err := a.newHook("", sh.URL, sh.Format, cfg.Secret)
		if err != nil {
			return nil, fmt.Errorf("alerts: --webhook %s: %w", sh.URL, err)
		}
		a.servers = append(a.servers, h)
	}
	if len(cfg.Hooks) > 0 && cfg.Secret == "" {
		a.log.Warn("the server's webhooks are not signed: set --webhook-secret so that receivers can check them")
	}
	if cfg.Storage != nil {
		hs, err := cfg.Storage.Hooks(ctx)
		if err != nil {
			return nil, fmt.Errorf("alerts: read the tables' hooks: %w", err)
		}
		for _, sh := range hs {
			h, err := a.newHook(sh.Table, sh.URL, Format(sh.Format), sh.Secret)
			if err != nil {
				a.log.Warn("a table's hook no longer parses: left off", "table", sh.Table, "err", err)
				continue
			}
			t, err := a.lob.Table(sh.Table)
			if err != nil {
				continue // not open in the lobby: the store drops it as the table closes
			}
			h.by, h.created, h.tableCreated = sh.By, sh.Created, t.Info().Access().Created
			k := strings.ToLower(sh.Table)
			a.tables[k] = append(a.tables[k], h)
		}
	}
	a.later = lobby.NewQueue[lobby.News](lobby.FollowBound)
	a.feed = a.lob.Follow()
	actx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	go a.run(actx)
	return a, nil
}

// Close stops following the news and every hook: requests under way are
// cancelled, deliveries waiting are dropped. It returns once every
// goroutine of the alerts has.
func (a *Alerts) Close() {
	a.once.Do(func() {
		a.lob.Unfollow(a.feed)
		a.later.Close()
		a.cancel()
		<-a.done
		a.mu.Lock()
		for _, t := range a.waiting {
			t.stop()
		}
		a.mu.Unlock()
		a.wg.Wait()
		a.server.CloseIdleConnections()
		a.guarded.CloseIdleConnections()
	})
}

// run takes the lobby's news, one at a time, and the news held back that
// are ready now (later), until Close ends actx, which every request and
// wait of the hooks' goroutines it starts holds.
func (a *Alerts) run(actx context.Context) {
	defer close(a.done)
	for {
		select {
		case <-a.feed.Ready():
			for _, n := range a.feed.Take() {
				a.safely(func() { a.news(actx, n) })
			}
		case <-a.later.Ready():
			for _, n := range a.later.Take() {
				a.safely(func() { a.tell(actx, n) })
			}
		case <-actx.Done():
			return
		}
	}
}

// safely runs fn; a panic in it is logged and the alerts go on.
func (a *Alerts) safely(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("alerts panicked", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn()
}

// news hands one piece of news on (tell), in run: table.waiting at most
// once every WaitingEvery a table (the newest kept meanwhile, told when
// the time has come, unless the table's game started since), a season's
// end once its champion is read.
func (a *Alerts) news(actx context.Context, n lobby.News) {
	switch n.Kind {
	case lobby.NewsTableWaiting:
		k := strings.ToLower(n.Table)
		a.mu.Lock()
		th := a.waiting[k]
		if th == nil {
			if len(a.waiting) >= maxThrottles {
				for k, t := range a.waiting {
					if t.idle() {
						delete(a.waiting, k)
					}
				}
			}
			th = &throttle{every: a.cfg.WaitingEvery, now: a.cfg.Now, ready: a.later}
			a.waiting[k] = th
		}
		a.mu.Unlock()
		if th.pass(n) {
			a.tell(actx, n)
		}
	case lobby.NewsGameStarted:
		a.mu.Lock()
		th := a.waiting[strings.ToLower(n.Table)]
		a.mu.Unlock()
		if th != nil {
			th.forget() // its seats are no longer free
		}
		a.tell(actx, n)
	case lobby.NewsSeasonEnded:
		a.wg.Add(1) // a read of the boards: not on the news' way
		go func() {
			defer a.wg.Done()
			a.later.Put(a.withChampion(actx, n))
		}()
	default:
		a.tell(actx, n)
	}
}

// tell hands a piece of news to the hooks it is for, and a free seat to
// the people watching its table.
func (a *Alerts) tell(actx context.Context, n lobby.News) {
	a.mu.Lock()
	var hs []*hook
	if n.Public() {
		hs = append(hs, a.servers...)
	}
	if n.Table != "" {
		for _, h := range a.tables[strings.ToLower(n.Table)] {
			// not an earlier table's of its name, nor what happened before
			// the hook was set (news reach the alerts a moment late)
			if h.tableCreated.Equal(n.Access.Created) && !n.At.Before(h.since) {
				hs = append(hs, h)
			}
		}
	}
	a.mu.Unlock()
	if len(hs) > 0 {
		bodies := make(map[Format]delivery, 3)
		for _, h := range hs {
			d, ok := bodies[h.format]
			if !ok {
				d = a.render(n, h.format)
				bodies[h.format] = d
			}
			d.id = newID()
			h.put(actx, d)
		}
	}
	if n.Kind == lobby.NewsTableWaiting && a.cfg.Storage != nil {
		a.tellWatchers(actx, n)
	}
}

// tellWatchers tells the people who watch the table that a seat is free
// there (those it admits, and not seated at it).
func (a *Alerts) tellWatchers(actx context.Context, n lobby.News) {
	ctx, cancel := context.WithTimeout(actx, a.cfg.Timeout)
	defer cancel()
	ids, err := a.cfg.Storage.Watchers(ctx, n.Table)
	if err != nil {
		a.log.Warn("could not read who watches a table", "table", n.Table, "err", err)
		return
	}
	seated := map[string]bool{}
	if t, err := a.lob.Table(n.Table); err == nil {
		for _, s := range t.Info().Players {
			seated[s.ID] = true
		}
	}
	free := n
	free.Kind, free.To = lobby.NewsSeatFree, nil
	for _, id := range ids {
		if !seated[id] {
			free.To = append(free.To, id)
		}
	}
	if len(free.To) > 0 {
		a.lob.Publish(free)
	}
}

// withChampion is a season's news with its champion looked up (Detail:
// the champion's person id).
func (a *Alerts) withChampion(actx context.Context, n lobby.News) lobby.News {
	if a.cfg.Storage == nil {
		return n
	}
	ctx, cancel := context.WithTimeout(actx, a.cfg.Timeout)
	defer cancel()
	r, ok, err := a.cfg.Storage.Champion(ctx, store.Board{Season: n.Season})
	if err != nil {
		a.log.Warn("could not read a season's champion", "season", n.Season.String(), "err", err)
		return n
	}
	if ok {
		n.Winner = r.Person
		n.Detail = figure(r)
	}
	return n
}

// throttle holds a table's table.waiting to once every every: the first
// passes at once, and the newest of those after it goes to ready when
// every has passed since.
type throttle struct {
	every time.Duration
	now   func() time.Time
	ready *lobby.Queue[lobby.News]

	mu      sync.Mutex
	last    time.Time
	held    *lobby.News
	timer   *time.Timer
	stopped bool
}

// pass reports whether n may be told now; else it is held.
func (t *throttle) pass(n lobby.News) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.held == nil && t.timer == nil && !now.Before(t.last.Add(t.every)) {
		t.last = now
		return true
	}
	t.held = &n
	if t.timer != nil || t.stopped {
		return false
	}
	t.timer = time.AfterFunc(t.last.Add(t.every).Sub(now), func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.held != nil && !t.stopped {
			t.ready.Put(*t.held)
		}
		t.held, t.timer, t.last = nil, nil, t.now()
	})
	return false
}

// maxThrottles is how many tables' throttles are kept before the idle ones
// are dropped.
const maxThrottles = 256

// idle reports whether the throttle holds nothing and would let the next
// news pass at once: it may be dropped.
func (t *throttle) idle() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.held == nil && t.timer == nil && !t.now().Before(t.last.Add(t.every))
}

// forget drops the news held: it is out of date.
func (t *throttle) forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.held = nil
}

func (t *throttle) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	if t.timer != nil {
		t.timer.Stop()
	}
}

// counts is what the alerts count, for the metrics.
type counts struct {
	mu          sync.Mutex
	deliveries  map[string]map[string]uint64 // by type, then result
	dropped     atomic.Uint64                // deliveries a full queue dropped
	pausedDrops atomic.Uint64                // deliveries to a paused hook, dropped
}

func newCounts() counts { return counts{deliveries: make(map[string]map[string]uint64)} }

func (c *counts) delivered(kind, result string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.deliveries[kind]
	if m == nil {
		m = make(map[string]uint64, 4)
		c.deliveries[kind] = m
	}
	m[result]++
}

// The results of a delivery, as the metrics count them.
const (
	resultOK      = "ok"      // answered 2xx
	resultFailed  = "failed"  // answered otherwise, or not at all, after its retries
	resultRefused = "refused" // not sent: its address is refused, or it answered with a redirect
	resultDropped = "dropped" // dropped unsent: its queue was full, or its hook paused
)

// Stats is what the alerts count now.
type Stats struct {
	// Deliveries by news type ("game.ended"), then by result: ok, failed,
	// refused, dropped.
	Deliveries map[string]map[string]uint64
	// Queued is the deliveries waiting, and Hooks the hooks, active and
	// paused, each by owner: "server" or "table".
	Queued map[string]int
	Hooks  map[string]map[string]int
}

// Stats reports the counts now.
func (a *Alerts) Stats() Stats {
	st := Stats{Deliveries: map[string]map[string]uint64{}, Queued: map[string]int{"server": 0, "table": 0},
		Hooks: map[string]map[string]int{"server": {"active": 0, "paused": 0}, "table": {"active": 0, "paused": 0}}}
	a.stats.mu.Lock()
	for k, m := range a.stats.deliveries {
		st.Deliveries[k] = make(map[string]uint64, len(m))
		for r, n := range m {
			st.Deliveries[k][r] = n
		}
	}
	a.stats.mu.Unlock()
	a.mu.Lock()
	hs := append([]*hook(nil), a.servers...)
	for _, ths := range a.tables {
		hs = append(hs, ths...)
	}
	a.mu.Unlock()
	for _, h := range hs {
		owner, state := "server", "active"
		if h.table != "" {
			owner = "table"
		}
		if h.State().Paused {
			state = "paused"
		}
		st.Queued[owner] += h.queue.Len()
		st.Hooks[owner][state]++
	}
	return st
}
