package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/words"
)

// Table is one table: an actor goroutine that owns the table's seats, game,
// chat and subscribers. Every method sends a request to the actor and waits
// for its answer; the caller's ctx bounds the wait until the actor takes
// the request (see do), the table's SaveTimeout each write after that.
type Table struct {
	name     string
	lobby    *Lobby
	reqs     chan *request
	wake     chan struct{} // capacity 1: something was posted
	quit     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
	info     atomic.Pointer[TableInfo]
	end      atomic.Pointer[EndError] // why Close closed it

	postMu     sync.Mutex
	posted     []func(actx context.Context) // for the actor, in order (post)
	postClosed bool                         // the actor has stopped: posts are dropped

	// Owned by the actor goroutine.
	current   *request // the request running, nil for a posted function
	paused    bool     // a store write did not answer in time (pause)
	rec       TableRecord
	sitters   []Player
	game      *gameRun
	result    *ResultInfo
	subs      map[*Subscription]struct{}
	watchers  map[string]int // open subscriptions by person id (addSub, removeSub)
	chat      chatLog
	deadline  time.Time
	stopTick  func() bool
	tickGen   int
	ver       uint64
	built     map[viewKey]Snapshot // the snapshots published at ver, by view
	botSeq    int
	botGen    int
	botFor    int             // the game seq a bot move is scheduled for
	rng       *rand.Rand      // the built-in bots' randomness
	nextGen   int             // names the bot table's next game scheduled; a new game voids it
	driven    bool            // games start only by Deal (driven.go)
	guests    map[string]bool // person ids seated by Deal for the running game only
	next      nextDice        // the next game's committed seed and the seeds given for it
	closed    bool            // Close closed it: no request runs any more
	abandoned string          // the game id Close stored as abandoned
}

// gameRun is the game being played, or the one just finished.
type gameRun struct {
	id      string
	g       *engine.Game
	players []Player         // by game seat
	events  []engine.Event   // with the hidden dice; handed out only once the game is over
	seen    [][]engine.Event // seen[seat+1]: the events as seat may see them (seen[0] for spectators)
	proof   *fair.Proof      // sealed: the commitment and the players' seeds, never the server seed
}

func newRun(id string, g *engine.Game, players []Player, evs []engine.Event) *gameRun {
	run := &gameRun{id: id, g: g, players: players, seen: make([][]engine.Event, len(players)+1)}
	run.record(evs)
	return run
}

// record appends evs to the log and to every seat's redacted copy. The
// copies only grow, so snapshots can share them.
func (r *gameRun) record(evs []engine.Event) {
	r.events = append(r.events, evs...)
	for i := range r.seen {
		for _, e := range evs {
			r.seen[i] = append(r.seen[i], e.Redacted(i-1))
		}
	}
}

// log returns the events as seat may see them; the slice is shared and
// must not be modified.
func (r *gameRun) log(seat int) []engine.Event {
	evs := r.events
	if !r.g.Over() {
		evs = r.seen[seat+1]
	}
	return evs[:len(evs):len(evs)]
}

// ResultInfo is how the last game at a table ended, in the players' names
// now.
type ResultInfo struct {
	GameID    string
	Winner    string   // as words.Label shows it: a bot marked "[bot]"
	Standings []string // first to last, each as words.Label shows it
}

func startTable(l *Lobby, rec TableRecord, k kept) *Table {
	t := &Table{
		name: rec.Name, lobby: l, rec: rec,
		reqs: make(chan *request), wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		subs: make(map[*Subscription]struct{}), watchers: make(map[string]int), next: k.next,
	}
	for _, c := range k.chat {
		t.chat.add(c)
	}
	t.sitters = slices.Clone(rec.Seated)
	t.publishInfo()
	go t.loop()
	return t
}

// seatSitters stores next as the players seated for the next game, then
// seats them: a restart, clean or not, finds the table as it was.
func (t *Table) seatSitters(actx context.Context, next []Player) error {
	seated := make([]Player, 0, len(next))
	for _, p := range next {
		if !t.guests[p.ID] { // a driven table's guests sit for one game only
			seated = append(seated, p.seated())
		}
	}
	if err := t.update(actx, func(r *TableRecord) error { r.Seated = seated; return nil }); err != nil {
		return err
	}
	t.sitters = next
	return nil
}

// without is ps without the player at index i, in a new slice.
func without(ps []Player, i int) []Player {
	return append(ps[:i:i], ps[i+1:]...)
}

// Name is the table's name.
func (t *Table) Name() string { return t.name }

// Info is the table as the lobby lists it, as of its last change.
func (t *Table) Info() TableInfo { return *t.info.Load() }

func (t *Table) loop() {
	defer close(t.done)
	actx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer t.closePosts()
	for {
		select {
		case r := <-t.reqs:
			t.run(actx, r)
		case <-t.wake:
			t.runPosted(actx)
		case <-t.quit:
			if t.stopTick != nil {
				t.stopTick()
			}
			for s := range t.subs {
				s.end(&EndError{Why: ErrLobbyClosed, Table: t.name}) // unless Close ended it first
			}
			return
		}
	}
}

// request is one call of a Table method, run by the actor. The caller may
// give up on it (its ctx ended) only until the actor takes it: from then
// on the caller waits for its answer, so that a request whose caller was
// told ctx.Err() never runs, and one that runs is answered.
type request struct {
	fn     func(actx context.Context) error
	paused bool       // runs while the table is paused (watching, chat): see Table.pause
	reply  chan error // capacity 1
	state  atomic.Int32
	// answered is set once the caller was given an answer (by the actor
	// only): the one when the request paused the table, or its result.
	answered bool
	// said: what the request does is shown already, and a write that
	// pauses the table only keeps it (a chat line): the pause answers nil,
	// not ErrUnsaved.
	said bool
}

// The states of a request: sent, then taken by the actor or dropped by a
// caller who gave up first.
const (
	reqSent int32 = iota
	reqTaken
	reqDropped
)

// answer gives the caller err, unless it was answered already.
func (r *request) answer(err error) {
	if r.answered {
		return
	}
	r.answered = true
	r.reply <- err
}

// do runs fn in the actor and returns its error. fn gets the actor's
// context (actx), which lasts as long as the table, not the caller's:
// once the actor has taken the request it runs to its end (each store
// write in it bounded by SaveTimeout; see save) and its caller waits for
// the answer. Until then a caller whose ctx ends gets ctx.Err(), and fn
// never runs. While the table is paused (pause), fn is refused with
// ErrPaused.
func (t *Table) do(ctx context.Context, fn func(actx context.Context) error) error {
	return t.send(ctx, &request{fn: fn, reply: make(chan error, 1)})
}

// doEvenPaused is do for a request that runs while the table is paused:
// one that changes no game and needs no write to storage (watching; chat,
// said all the same when it cannot be kept; what storage changed already,
// such as a person's new name).
func (t *Table) doEvenPaused(ctx context.Context, fn func(actx context.Context) error) error {
	return t.send(ctx, &request{fn: fn, paused: true, reply: make(chan error, 1)})
}

// doValue is do for a request that gives a value as well as an error. The
// value goes through a channel, not a variable the caller reads: a
// request that pauses the table is answered (ErrUnsaved) while fn still
// runs, and a value it sets later must not race with its caller. With
// such an early answer the value is the zero value.
func doValue[V any](ctx context.Context, t *Table, fn func(actx context.Context) (V, error)) (V, error) {
	got := make(chan V, 1)
	err := t.do(ctx, func(actx context.Context) error {
		v, err := fn(actx)
		got <- v
		return err
	})
	select {
	case v := <-got:
		return v, err
	default:
		var zero V
		return zero, err
	}
}

func (t *Table) send(ctx context.Context, r *request) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case t.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.done:
		return ErrTableClosed
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		if r.state.CompareAndSwap(reqSent, reqDropped) {
			return ctx.Err()
		}
	case <-t.done:
	}
	// The actor took the request: its answer comes, unless the table
	// stopped.
	select {
	case err := <-r.reply:
		return err
	case <-t.done:
		select {
		case err := <-r.reply:
			return err
		default:
			return ErrTableClosed
		}
	}
}

// run runs one request in the actor, unless its caller gave up on it.
func (t *Table) run(actx context.Context, r *request) {
	if !r.state.CompareAndSwap(reqSent, reqTaken) {
		return
	}
	if t.closed {
		r.answer(ErrTableClosed)
		return
	}
	if t.paused && !r.paused {
		r.answer(ErrPaused)
		return
	}
	outer := t.current
	t.current = r
	err := errRequestPanicked
	defer func() {
		t.current = outer
		r.answer(err)
	}()
	t.safely(actx, func(actx context.Context) { err = r.fn(actx) })
}

// errRequestPanicked answers a request that panicked (logged by safely).
var errRequestPanicked = NewError(Internal, "internal error at the table")

// safely runs one request; a panic in it is logged and the table goes on.
func (t *Table) safely(actx context.Context, fn func(context.Context)) {
	defer func() {
		if r := recover(); r != nil {
			t.lobby.log.Error("table request panicked", "table", t.name, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn(actx)
}

// post queues fn for the actor and returns at once: timers, the end of a
// subscription and the actor itself use it. Posted functions run in
// order; once the table has stopped they are dropped.
func (t *Table) post(fn func(actx context.Context)) {
	t.postMu.Lock()
	if t.postClosed {
		t.postMu.Unlock()
		return
	}
	t.posted = append(t.posted, fn)
	t.postMu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// runPosted runs the functions posted so far.
func (t *Table) runPosted(actx context.Context) {
	t.postMu.Lock()
	fns := t.posted
	t.posted = nil
	t.postMu.Unlock()
	for i, fn := range fns {
		if !t.closed {
			t.safely(actx, fn)
		}
		fns[i] = nil
	}
}

func (t *Table) closePosts() {
	t.postMu.Lock()
	t.postClosed, t.posted = true, nil
	t.postMu.Unlock()
}

// stop ends the actor and waits for it; safe to call more than once, at
// once from many goroutines, but not from the actor itself.
func (t *Table) stop() {
	t.stopOnce.Do(func() { close(t.quit) })
	<-t.done
}

// Subscription delivers a table's snapshots to one viewer. Its mailbox
// keeps only the newest snapshot.
type Subscription struct {
	box    *Mailbox[Snapshot]
	table  *Table
	player Player
	viewer *Viewer               // Spectate's: who is let in by a link, not as a player; nil for Watch
	why    atomic.Pointer[error] // why the table ended it (Err)
}

// Ready is signalled when a snapshot waits; then call Take.
func (s *Subscription) Ready() <-chan struct{} { return s.box.Ready() }

// Done is closed when the subscription ends (closed, or the table closed).
func (s *Subscription) Done() <-chan struct{} { return s.box.Done() }

// Take returns the newest snapshot.
func (s *Subscription) Take() (Snapshot, bool) { return s.box.Take() }

// Wait blocks for the next snapshot; ok is false when the subscription or
// ctx ended.
func (s *Subscription) Wait(ctx context.Context) (Snapshot, bool) {
	for {
		select {
		case <-s.box.Ready():
			if snap, ok := s.box.Take(); ok {
				return snap, true
			}
		case <-s.box.Done():
			snap, ok := s.box.Take()
			return snap, ok
		case <-ctx.Done():
			return Snapshot{}, false
		}
	}
}

// Close ends the subscription. The viewer keeps any seat they have.
func (s *Subscription) Close() {
	s.box.Close()
	s.table.post(func(context.Context) {
		if s.table.removeSub(s) {
			s.table.watchersChanged(s.player, nil)
		}
	})
}

// addSub adds a subscription, and its key to the watchers.
func (t *Table) addSub(s *Subscription) {
	t.subs[s] = struct{}{}
	t.watchers[s.player.ID]++
}

// removeSub removes a subscription, reporting whether it was there.
func (t *Table) removeSub(s *Subscription) bool {
	if _, ok := t.subs[s]; !ok {
		return false
	}
	delete(t.subs, s)
	id := s.player.ID
	if t.watchers[id]--; t.watchers[id] <= 0 {
		delete(t.watchers, id)
	}
	return true
}

// Watch subscribes p to the table: a seated player sees their seat's view,
// anyone else a spectator's. A private table admits only its host and
// members (and server admins); to anyone else it is ErrNoTable, as at
// every door (Lobby.TableFor).
func (t *Table) Watch(ctx context.Context, p Player) (*Subscription, error) {
	t.lobby.learn(ctx, p.ID)
	s := &Subscription{box: NewMailbox[Snapshot]().counted(&t.lobby.drops), table: t, player: p}
	err := t.doEvenPaused(ctx, func(context.Context) error {
		if !t.mayEnter(p) {
			return ErrNoTable
		}
		t.addSub(s)
		t.watchersChanged(p, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (t *Table) mayEnter(p Player) bool { return p.Viewer().Sees(t.rec.Access) }

// Sit takes a free seat for the next game. When the last seat fills, the
// game starts.
func (t *Table) Sit(ctx context.Context, p Player) error {
	t.lobby.learn(ctx, p.ID)
	return t.do(ctx, func(actx context.Context) error {
		if !t.mayEnter(p) {
			return ErrNoTable
		}
		if t.seatOf(p.ID) >= 0 {
			return ErrSeated
		}
		if t.running() && !t.driven {
			return ErrGameRunning
		}
		if len(t.sitters) >= t.rec.Seats {
			return ErrTableFull
		}
		if err := t.seatSitters(actx, append(slices.Clip(t.sitters), p)); err != nil {
			return err
		}
		if len(t.sitters) == t.rec.Seats && !t.driven {
			if err := t.start(actx); err != nil {
				t.lobby.log.Error("could not start a full table", "table", t.name, "err", err)
			}
		}
		t.changed(true)
		return nil
	})
}

// Stand gives up p's seat. In a running game this is leaving it: p is out.
func (t *Table) Stand(ctx context.Context, p Player) error {
	return t.do(ctx, func(actx context.Context) error {
		if t.running() {
			if seat := t.gameSeat(p.ID); seat >= 0 && t.game.g.Lives(seat) > 0 {
				return t.apply(actx, engine.Action{Kind: engine.Leave, Seat: seat})
			}
		}
		i := t.seatOf(p.ID)
		if i < 0 {
			return ErrNotSeated
		}
		if err := t.seatSitters(actx, without(t.sitters, i)); err != nil {
			return err
		}
		t.changed(false)
		return nil
	})
}

// Start begins a game with the seated players: the host starts it, or any
// seated player when the host is not at the table. After a game it is
// "play again", with the same seats.
func (t *Table) Start(ctx context.Context, p Player) error {
	return t.do(ctx, func(actx context.Context) error {
		if t.running() {
			return ErrGameRunning
		}
		if t.driven {
			return ErrDriven
		}
		if err := mayStart(p, t.rec.Host, t.lobby.Name(t.rec.Host), t.hostPresent(), t.seatOf(p.ID) >= 0); err != nil {
			return err
		}
		if err := t.start(actx); err != nil {
			return err
		}
		t.changed(true)
		return nil
	})
}

// mayStart is who may start a game: the host (or an admin), or a seated
// player while the host is not at the table. The refusal names the host
// (hostName, their name now), so that whoever asks learns who may.
func mayStart(p Player, host, hostName string, hostHere, seated bool) error {
	if p.ID == host || p.Admin || (seated && !hostHere) {
		return nil
	}
	return &HostStartsError{Host: hostName, Seated: seated}
}

// HostStartsError is a start refused to someone other than the host
// while the host is at the table: it names the host, and says that anyone
// seated may start while the host is away. It matches ErrNotHost, and is
// Refused.
type HostStartsError struct {
	Host   string // the host's name
	Seated bool   // the one refused is seated
}

func (e *HostStartsError) Error() string {
	if e.Seated {
		return words.Clean(e.Host, MaxNameLen) + ", the host, starts the game (anyone seated may while the host is away)"
	}
	return words.Clean(e.Host, MaxNameLen) + ", the host, starts the game (or anyone seated while the host is away)"
}

// Kind is Refused.
func (e *HostStartsError) Kind() ErrorKind { return Refused }

// Is reports whether target is ErrNotHost.
func (e *HostStartsError) Is(target error) bool { return target == ErrNotHost }

// MayStart reports why p may not start a game at the table as the info
// shows it (nil: Start would be taken now), by the rule Start applies: the
// help bar offers enter only to those it returns nil for.
func (i TableInfo) MayStart(p Player) error {
	switch {
	case i.State == "playing":
		return ErrGameRunning
	case i.Driven:
		return ErrDriven
	}
	seated := slices.ContainsFunc(i.Players, func(s SeatInfo) bool { return s.ID == p.ID })
	if err := mayStart(p, i.HostID, i.Host, i.HostHere, seated); err != nil {
		return err
	}
	if i.Taken < engine.MinSeats {
		return ErrTooFewPlayers
	}
	return nil
}

func (t *Table) hostPresent() bool { return t.watchers[t.rec.Host] > 0 }

// Act plays one move for p; the seat is p's.
func (t *Table) Act(ctx context.Context, p Player, a engine.Action) error {
	return t.do(ctx, func(actx context.Context) error {
		if !t.running() {
			return ErrNoGame
		}
		seat := t.gameSeat(p.ID)
		if seat < 0 {
			return ErrNotYourGameAct
		}
		if a.Kind == engine.Timeout {
			return &engine.RuleError{Rule: engine.ErrUnknownAction, Action: a}
		}
		a.Seat = seat
		return t.apply(actx, a)
	})
}

// Say posts a chat line at the table.
func (t *Table) Say(ctx context.Context, p Player, text string) error {
	text = words.Clean(text, MaxChatRunes)
	if text == "" {
		return ErrEmptyMessage
	}
	t.lobby.learn(ctx, p.ID)
	return t.doEvenPaused(ctx, func(actx context.Context) error {
		if !t.mayEnter(p) {
			return ErrNoTable
		}
		now := t.lobby.cfg.Clock.Now()
		if err := t.chat.take(p.ID, text, now); err != nil {
			return err
		}
		line := ChatLine{At: now, FromID: p.ID, From: t.lobby.Name(p.ID), Bot: p.Bot, Text: text}
		t.chat.add(line)
		t.changed(false)
		// Said: a pause while it is kept is no error of the line's.
		t.current.said = true
		err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.AddChat(wctx, t.rec.Name, line) })
		switch {
		case errors.Is(err, ErrPaused):
			// Said all the same while the table waits for its storage; a
			// restart will not bring it back.
		case err != nil:
			// Said all the same; a restart will not bring it back.
			t.lobby.log.Error("could not save a chat line", "table", t.name, "err", err)
		}
		return nil
	})
}

func (t *Table) notice(text string) {
	t.post(func(context.Context) {
		t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: text})
		t.changed(false)
	})
}

// SetRules changes the rules (and seat count) between games; host only.
func (t *Table) SetRules(ctx context.Context, p Player, rules engine.Options, seats int) error {
	if err := rules.Validate(); err != nil {
		return err
	}
	if seats < engine.MinSeats || seats > engine.MaxSeats {
		return ErrBadSeats
	}
	return t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if t.running() {
			return ErrGameRunning
		}
		if seats < len(t.sitters) {
			return Errorf(Refused, "%d players are seated: ask some to stand first", len(t.sitters))
		}
		if err := t.update(actx, func(r *TableRecord) error { r.Rules, r.Seats = rules, seats; return nil }); err != nil {
			return err
		}
		t.changed(false)
		return nil
	})
}

// Close closes the table for good, at once (host or admin). A game
// running there ends without a result, abandoned: stored as such before
// the table closes (no tally of games or wins, no rating moves), so that
// a stop in between leaves a closable table and no game to resume. Every
// viewer's subscription ends, and Err tells them why (an *EndError
// naming who closed it and the game abandoned). A driven table is not
// closed (ErrDrivenClose): its host's program runs it. Its writes go
// through save: one that does not answer in time pauses the table, the
// caller hears ErrUnsaved, and the table closes by itself once the
// writes are saved after all.
func (t *Table) Close(ctx context.Context, p Player) error {
	t.lobby.learn(ctx, p.ID)
	err := t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if t.driven {
			return ErrDrivenClose
		}
		now := t.lobby.cfg.Clock.Now().UTC()
		why := &EndError{Why: ErrTableClosed, Table: t.name, By: t.lobby.Name(p.ID), ByID: p.ID, Admin: p.ID != t.rec.Host}
		if t.running() {
			id := t.game.id
			if t.abandoned != id { // stored already by a close that failed after it
				err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.Abandon(wctx, id, now, p.ID) })
				if err != nil {
					return fmt.Errorf("save the abandoned game %s: %w", id, err)
				}
				t.abandoned = id
				t.lobby.log.Info("game abandoned", "table", t.name, "game", id, "by", p.ID)
			}
			why.Game = id
		}
		if err := t.update(actx, func(r *TableRecord) error { r.Closed, r.Seated = now, nil; return nil }); err != nil {
			return err
		}
		t.closed = true
		t.end.Store(why)
		for s := range t.subs {
			s.end(why)
		}
		if t.current.answered {
			// The caller heard ErrUnsaved while a write paused the table:
			// the table leaves the lobby by itself (stop waits for this
			// actor, so not from it).
			go t.lobby.retire(t)
		}
		return nil
	})
	if err != nil {
		return err
	}
	t.lobby.retire(t)
	return nil
}

// Closed says who closed the table and which game that abandoned, once
// Close closed it; nil while it is open.
func (t *Table) Closed() *EndError { return t.end.Load() }

// update writes the table record through fn, then keeps the new record.
func (t *Table) update(actx context.Context, fn func(*TableRecord) error) error {
	var next TableRecord
	err := t.save(actx, func(wctx context.Context) error {
		return t.lobby.cfg.Store.UpdateTable(wctx, t.rec.Name, func(r *TableRecord) error {
			if err := fn(r); err != nil {
				return err
			}
			next = *r
			next.Members = append([]string(nil), r.Members...)
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("save table %s: %w", t.name, err)
	}
	t.rec = next
	return nil
}

func (t *Table) running() bool { return t.game != nil && !t.game.g.Over() }

// seatOf is the person id's index among the sitters, or -1.
func (t *Table) seatOf(id string) int {
	for i, p := range t.sitters {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// gameSeat is the person id's seat in the current game, or -1.
func (t *Table) gameSeat(id string) int {
	if t.game == nil {
		return -1
	}
	for i, p := range t.game.players {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// start begins a game with the sitters in a random order.
func (t *Table) start(actx context.Context) error {
	if len(t.sitters) < engine.MinSeats {
		return ErrTooFewPlayers
	}
	players, dice, proof, err := t.deal()
	if err != nil {
		return err
	}
	g, evs, err := engine.New(t.rec.Rules, len(players), dice)
	if err != nil {
		return err
	}
	now := t.lobby.cfg.Clock.Now().UTC()
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = t.lobby.Name(p.ID)
	}
	next := newNextDice() // the next game's seed, committed before anyone gives one
	kept := next.kept()
	var id string
	err = t.save(actx, func(wctx context.Context) error {
		id, err = t.lobby.cfg.Store.CreateGame(wctx, GameRecord{Table: t.rec.Name, Players: players, Names: names, Rules: t.rec.Rules,
			Started: now, Fair: proof, Next: &kept})
		return err
	})
	if err == nil {
		t.next = next // stored with the game: the dice it was dealt from are spent
	}
	if err == nil && id == "" {
		// Saved after the table paused: the ID never came back. The game,
		// without events, is abandoned when the server next starts.
		err = errSavedLate
	}
	if err != nil {
		return fmt.Errorf("save new game: %w", err)
	}
	for i := range evs {
		evs[i].At = now
	}
	if err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.Append(wctx, id, evs, nil) }); err != nil {
		return fmt.Errorf("save new game: %w", err)
	}
	t.game = newRun(id, g, players, evs)
	t.game.proof = sealed(proof)
	t.result = nil
	t.botFor = -1 // bot moves are keyed by the game's seq, which starts again
	t.nextGen++
	return nil
}

// errSavedLate: a new game's write answered only after the table had
// paused, so the game never began (its record is abandoned at the next
// start).
var errSavedLate = NewError(Unavailable, "the server's storage answered too late: the game did not start; start it again")

// resume puts a recovered game back on the table.
func (t *Table) resume(ctx context.Context, rg SavedGame) error {
	return t.do(ctx, func(context.Context) error {
		dice, err := t.resumeDice(rg.Fair)
		if err != nil {
			return fmt.Errorf("resume the dice of game %s: %w", rg.ID, err)
		}
		g, err := engine.Replay(rg.Rules, len(rg.Players), rg.Events, dice)
		if err != nil {
			return fmt.Errorf("replay game %s: %w", rg.ID, err)
		}
		players := slices.Clone(rg.Players)
		t.game = newRun(rg.ID, g, players, rg.Events)
		t.game.proof = sealed(rg.Fair)
		t.botFor = -1
		t.sitters = t.sitters[:0]
		for i, p := range players {
			if !hasLeft(rg.Events, i) {
				t.sitters = append(t.sitters, p)
			}
		}
		t.changed(true)
		return nil
	})
}

func hasLeft(evs []engine.Event, seat int) bool {
	for _, e := range evs {
		if e.Type == engine.EvLeave && e.Seat == seat {
			return true
		}
	}
	return false
}

// apply plays a through the engine, saves its events (committed before
// anyone sees them), then updates the state and tells every subscriber.
func (t *Table) apply(actx context.Context, a engine.Action) error {
	run := t.game
	turn, round := run.g.Turn(), run.g.Round()
	next := run.g.Clone()
	evs, err := next.Apply(a)
	if err != nil {
		return err
	}
	now := t.lobby.cfg.Clock.Now().UTC()
	for i := range evs {
		evs[i].At = now
	}
	var res *engine.Result
	if next.Over() {
		res = &engine.Result{Ended: now, Winner: next.Winner(), Standings: next.Standings()}
	}
	if err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.Append(wctx, run.id, evs, res) }); err != nil {
		t.lobby.log.Error("could not save a move", "table", t.name, "game", run.id, "err", err)
		return fmt.Errorf("save the move: %w", err)
	}
	run.g = next
	run.record(evs)
	if int(a.Kind) < len(t.lobby.moves) {
		t.lobby.moves[a.Kind].Add(1)
	}
	sitters := t.sitters
	for _, e := range evs {
		if e.Type == engine.EvLeave || (e.Type == engine.EvTimeout && t.driven && !run.players[e.Seat].Bot) {
			// (A person who lets the clock run out at a driven table
			// stands up, so that the next deal does not wait on them.)
			if i := slices.IndexFunc(sitters, func(p Player) bool { return p.ID == run.players[e.Seat].ID }); i >= 0 {
				sitters = without(sitters, i)
			}
		}
	}
	if len(sitters) != len(t.sitters) {
		// The move is saved: the seat is given up whatever happens here. (A
		// stop in between keeps the seat until the player stands again.)
		if err := t.seatSitters(actx, sitters); err != nil {
			t.lobby.log.Error("could not save the seats", "table", t.name, "err", err)
			t.sitters = sitters
		}
	}
	if next.Over() {
		t.finish()
	}
	t.changed(newTurn(a, turn, round, run.g, run.players[a.Seat].TurnClock > 0))
	return nil
}

// newTurn reports whether a, played when it was turn's turn in round,
// opened a new turn in g, whose clock starts again: the turn passed on or
// a round began, or the player whose turn it was moved (but for a roll,
// which leaves them the announce, unless they have a clock of their own
// for each move). Someone else leaving the game leaves the clock running.
func newTurn(a engine.Action, turn, round int, g *engine.Game, ownClock bool) bool {
	if g.Turn() != turn || g.Round() != round {
		return true
	}
	return a.Seat == turn && (a.Kind != engine.Roll || ownClock)
}

func (t *Table) finish() {
	t.result = t.resultOf(t.game)
	if t.driven {
		t.dismissGuests()
		return
	}
	t.scheduleRestart()
}

// scheduleRestart starts the next game by itself at a table where every
// seat is taken by a bot (a bot tournament runs unattended). A table with a
// person seated waits for someone to press "play again". It is called when
// a game ends and when a table comes back after a restart.
func (t *Table) scheduleRestart() {
	t.scheduleRestartIn(3 * t.lobby.cfg.BotDelay)
}

// scheduleRestartIn starts the next game of a bot table after d (at once
// if d <= 0).
func (t *Table) scheduleRestartIn(d time.Duration) {
	if !t.botsOnly() || t.driven {
		return
	}
	t.nextGen++
	gen := t.nextGen
	restart := func() {
		t.post(func(actx context.Context) {
			// The seats may have changed meanwhile (a bot removed, the
			// table handed to a driver), or a game started.
			if gen != t.nextGen || t.running() || t.driven || !t.botsOnly() {
				return
			}
			if t.paused {
				t.scheduleRestartIn(max(3*t.lobby.cfg.BotDelay, time.Second))
				return
			}
			if err := t.start(actx); err != nil {
				// Try again later rather than leave the table dead.
				t.lobby.log.Error("could not restart a bot table", "table", t.name, "err", err)
				t.scheduleRestartIn(max(3*t.lobby.cfg.BotDelay, time.Second))
				return
			}
			t.changed(true)
		})
	}
	if d <= 0 {
		go restart()
		return
	}
	t.lobby.cfg.Clock.AfterFunc(d, restart)
}

// botsOnly reports whether every seat is taken by a bot.
func (t *Table) botsOnly() bool {
	if len(t.sitters) < t.rec.Seats {
		return false
	}
	for _, p := range t.sitters {
		if !p.Bot {
			return false
		}
	}
	return true
}

// changed re-arms the turn clock (a new turn when newTurn), then publishes
// the new state to every subscriber and to the lobby list.
func (t *Table) changed(newTurn bool) {
	t.ver++
	if newTurn || (t.running() && t.deadline.IsZero()) {
		t.arm()
	}
	t.scheduleBot()
	if !t.running() && t.stopTick != nil {
		t.stopTick()
		t.stopTick, t.deadline = nil, time.Time{}
	}
	listed := t.publishInfo()
	t.publish()
	if listed {
		// Lives and claims are not in the lobby's list: a move at a table
		// wakes only the people at that table.
		t.lobby.notify()
	}
}

// arm starts the clock of the turn now open.
func (t *Table) arm() {
	if t.stopTick != nil {
		t.stopTick()
		t.stopTick = nil
	}
	t.deadline = time.Time{}
	if !t.running() || t.paused {
		return
	}
	d := time.Duration(t.game.g.Options().TurnSeconds) * time.Second
	if own := t.game.players[t.game.g.Turn()].TurnClock; own > 0 {
		d = own
	}
	clock := t.lobby.cfg.Clock
	t.deadline = clock.Now().Add(d)
	t.tickGen++
	gen := t.tickGen
	t.stopTick = clock.AfterFunc(d, func() {
		t.post(func(actx context.Context) { t.timeUp(actx, gen) })
	})
}

// timeUp times out the player whose turn it is, if the turn is still the
// one the clock was started for.
func (t *Table) timeUp(actx context.Context, gen int) {
	if gen != t.tickGen || !t.running() {
		return
	}
	seat := t.game.g.Turn()
	if err := t.apply(actx, engine.Action{Kind: engine.Timeout, Seat: seat}); err != nil {
		// The save failed: try again in a second rather than stall the table.
		t.lobby.log.Error("could not time out a turn", "table", t.name, "err", err)
		t.stopTick = t.lobby.cfg.Clock.AfterFunc(time.Second, func() {
			t.post(func(actx context.Context) { t.timeUp(actx, gen) })
		})
	}
}

// publish sends every subscriber its own snapshot; one is built per seat
// and one for all spectators.
func (t *Table) publish() {
	t.built = make(map[viewKey]Snapshot, 4)
	for s := range t.subs {
		s.box.Put(t.snapshotFor(s, t.built))
	}
}

// viewKey is what a viewer's snapshot depends on: viewers alike share one.
type viewKey struct {
	seat   int
	seated bool
}

// snapshotFor is s's snapshot, taken from built or made and kept there.
func (t *Table) snapshotFor(s *Subscription, built map[viewKey]Snapshot) Snapshot {
	k := viewKey{t.viewerSeat(s.player.ID), t.seatOf(s.player.ID) >= 0}
	snap, ok := built[k]
	if !ok {
		snap = t.snapshot(k.seat)
		snap.Seated = k.seated
		built[k] = snap
	}
	return snap
}

// watchersChanged follows a subscription of p opened (joined) or closed
// (joined nil). A player's presence shows at the table (the "away" mark
// of their seat), so everyone there is sent the table again. A
// spectator's shows nowhere but in the count of watchers (Info), so only a
// new spectator is sent the table: the snapshot the other spectators hold,
// whose frame they share (ten people opening a busy table caused 55
// redraws there, now none but the first).
func (t *Table) watchersChanged(p Player, joined *Subscription) {
	if t.seatOf(p.ID) >= 0 || t.gameSeat(p.ID) >= 0 {
		t.changed(false)
		return
	}
	if t.publishInfo() {
		t.lobby.notify()
	}
	if joined != nil {
		if t.built == nil {
			t.built = make(map[viewKey]Snapshot, 4)
		}
		joined.box.Put(t.snapshotFor(joined, t.built))
	}
}

// viewerSeat is the seat a viewer sees from: their game seat while a game
// is shown, else their place among the sitters; -1 for a spectator.
func (t *Table) viewerSeat(id string) int {
	if t.game != nil {
		return t.gameSeat(id)
	}
	return t.seatOf(id)
}

// publishInfo stores the table's new TableInfo and reports whether what
// the lobby lists of it (anything but lives and connections) changed.
func (t *Table) publishInfo() bool {
	name := t.lobby.Name
	info := TableInfo{
		Name: t.rec.Name, Host: name(t.rec.Host), HostID: t.rec.Host, Seats: t.rec.Seats,
		Rules: t.rec.Rules, Private: t.rec.Private, State: "waiting", Driven: t.driven,
		members: t.rec.Members, created: t.rec.Created, link: t.rec.Link,
	}
	watchers := t.watchers
	info.Watching = len(watchers)
	info.HostHere = watchers[t.rec.Host] > 0
	info.Fair = t.fairInfo()
	info.Paused = t.paused
	if t.running() {
		info.State = "playing"
		for i, p := range t.game.players {
			info.Players = append(info.Players, SeatInfo{Name: name(p.ID), ID: p.ID, Bot: p.Bot,
				Lives: t.game.g.Lives(i), Connected: watchers[p.ID] > 0})
		}
	} else {
		for _, p := range t.sitters {
			info.Players = append(info.Players, SeatInfo{Name: name(p.ID), ID: p.ID, Bot: p.Bot,
				Lives: t.rec.Rules.Lives, Connected: watchers[p.ID] > 0})
		}
	}
	info.Taken = len(info.Players)
	if strings.TrimSpace(info.Host) == "" {
		info.Host = "?"
	}
	old := t.info.Swap(&info)
	return old == nil || listedDiffers(*old, info)
}

// listedDiffers compares two infos as the lobby lists them.
func listedDiffers(a, b TableInfo) bool {
	if a.Name != b.Name || a.Host != b.Host || a.Seats != b.Seats || a.Taken != b.Taken || a.State != b.State ||
		a.Rules != b.Rules || a.Private != b.Private || a.Watching != b.Watching || len(a.Players) != len(b.Players) ||
		a.Driven != b.Driven || a.Paused != b.Paused ||
		!slices.Equal(a.members, b.members) {
		return true
	}
	for i := range a.Players {
		if a.Players[i].ID != b.Players[i].ID || a.Players[i].Name != b.Players[i].Name {
			return true
		}
	}
	return false
}
