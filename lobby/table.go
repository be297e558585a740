package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/words"
)

// Table is one table: an actor goroutine that owns the table's seats, game,
// chat and subscribers. Every method sends a request to the actor and waits
// for its answer; the caller's ctx bounds the wait until the actor takes
// the request (see do), the table's SaveTimeout each write after that.
type Table struct {
	name     string
	lobby    *Lobby
	reqs     chan *Request
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
	inRequest bool   // a request runs (not what a paused one had left: late)
	pause     *pause // a write not saved yet pauses the table (pause.go)
	timers    [timerKinds]*timer
	rec       TableRecord
	sitters   []Player
	game      *gameRun
	result    *ResultInfo
	told      told // what it last told of itself (news.go)
	subs      map[*Subscription]struct{}
	watchers  map[string]int // open subscriptions by person id (addSub, removeSub)
	chat      chatLog
	deadline  time.Time // the turn clock's, zero when it does not run
	ver       uint64
	built     map[viewKey]*Snapshot // the snapshots published at ver, by view
	botSeq    int
	botTried  int        // the game seq of the last bot move tried (-1: none)
	rng       *rand.Rand // the built-in bots' randomness
	expertRng *rand.Rand // the expert bots' (expertRand)
	// solveRefused is the rule set whose solve for an expert bot the
	// solver's budget refused last (solveForBot), told once.
	solveRefused solver.Rules
	driven       bool            // games start only by Deal (driven.go)
	guests       map[string]bool // person ids seated by Deal for the running game only
	next         nextDice        // the next game's committed seed and the seeds given for it
	closed       bool            // Close closed it: no request runs any more
	abandoned    string          // the game id Close stored as abandoned
	source       string          // the source it was opened from (budget.go), "" if none or not known
	// keepPlaying: an admin opened it or filled it with bots, so its bots
	// play on with nobody there; resting: a table of bots nobody had open
	// starts no game until someone opens it (budget.go).
	keepPlaying, resting bool
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
		reqs: make(chan *Request), wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		subs: make(map[*Subscription]struct{}), watchers: make(map[string]int), next: k.next,
		source: k.from, keepPlaying: k.byAdmin, driven: rec.Event != "",
	}
	for _, c := range k.chat {
		t.chat.add(c)
	}
	t.sitters = slices.Clone(rec.Seated)
	t.knowSeats()
	t.publishInfo()
	go t.loop()
	return t
}

// seatSitters stores next as the players seated for the next game, then
// seats them and runs then (if not nil), as save does: a restart, clean
// or not, finds the table as it was.
func (t *Table) seatSitters(actx context.Context, next []Player, then func(actx context.Context) error) error {
	seated := make([]Player, 0, len(next))
	for _, p := range next {
		if !t.guests[p.ID] { // a driven table's guests sit for one game only
			seated = append(seated, p.seated())
		}
	}
	return t.update(actx, func(r *TableRecord) error { r.Seated = seated; return nil }, func(actx context.Context) error {
		t.sitters = next
		if !t.startsByItself() {
			t.cancelTimer(nextGame)
		}
		if then == nil {
			return nil
		}
		return then(actx)
	})
}

// without is ps without the player at index i, in a new slice.
func without(ps []Player, i int) []Player {
	return append(ps[:i:i], ps[i+1:]...)
}

// Name is the table's name.
func (t *Table) Name() string { return t.name }

// Info is the table as the lobby lists it, as of its last change.
func (t *Table) Info() TableInfo { return *t.info.Load() }

// Subscription delivers a table's snapshots to one viewer. Its mailbox
// keeps only the newest snapshot.
type Subscription struct {
	box    *Mailbox[*Snapshot] // its viewers' shared snapshot, not a copy each (some 650 bytes)
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
func (s *Subscription) Take() (Snapshot, bool) { return deref(s.box.Take()) }

// deref is a snapshot taken from a box, by value.
func deref(p *Snapshot, ok bool) (Snapshot, bool) {
	if !ok || p == nil {
		return Snapshot{}, false
	}
	return *p, true
}

// Notify has ready called when a snapshot comes to wait, and ended once
// the subscription ends, instead of a goroutine waiting on Ready and Done
// (see Mailbox.Notify). Neither may block: they run on the table's loop.
func (s *Subscription) Notify(ready, ended func()) { s.box.Notify(ready, ended) }

// Wait blocks for the next snapshot; ok is false when the subscription or
// ctx ended.
func (s *Subscription) Wait(ctx context.Context) (Snapshot, bool) {
	for {
		select {
		case <-s.box.Ready():
			if snap, ok := deref(s.box.Take()); ok {
				return snap, true
			}
		case <-s.box.Done():
			return deref(s.box.Take())
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
	s := &Subscription{box: NewMailbox[*Snapshot]().counted(&t.lobby.drops), table: t, player: p}
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
		if err := sitRule(t.rec.Event != "", t.seatOf(p.ID) >= 0, t.running(), t.driven, len(t.sitters), t.rec.Seats); err != nil {
			return err
		}
		return t.seatSitters(actx, append(slices.Clip(t.sitters), p), t.startIfFull)
	})
}

// startIfFull starts a game at a table whose last seat was just taken
// (unless it is driven), and shows the seats.
func (t *Table) startIfFull(actx context.Context) error {
	if len(t.sitters) == t.rec.Seats && !t.driven && !t.running() {
		if err := t.start(actx, nil); err != nil && !errors.Is(err, ErrUnsaved) {
			t.lobby.log.Error("could not start a full table", "table", t.name, "err", err)
		}
	}
	t.changed(true)
	return nil
}

// Stand gives up p's seat. In a running game this is leaving it: p is out.
func (t *Table) Stand(ctx context.Context, p Player) error {
	return t.do(ctx, func(actx context.Context) error {
		if t.running() {
			if seat := t.gameSeat(p.ID); seat >= 0 && t.game.g.Lives(seat) > 0 {
				return t.apply(actx, engine.Action{Kind: engine.Leave, Seat: seat}, nil)
			}
		}
		i := t.seatOf(p.ID)
		if i < 0 {
			return ErrNotSeated
		}
		return t.seatSitters(actx, without(t.sitters, i), t.shown)
	})
}

// shown publishes a change that opened no turn (changed(false)): a then
// of save for requests that end with it.
func (t *Table) shown(context.Context) error {
	t.changed(false)
	return nil
}

// Start begins a game with the seated players: the host starts it, or any
// seated player when the host is not at the table. After a game it is
// "play again", with the same seats.
func (t *Table) Start(ctx context.Context, p Player) error {
	return t.do(ctx, func(actx context.Context) error {
		if t.running() {
			return ErrGameRunning
		}
		if t.rec.Event != "" {
			return ErrEventSeats
		}
		if t.driven {
			return ErrDriven
		}
		if err := mayStart(p, t.rec.Host, t.lobby.Name(t.rec.Host), t.hostPresent(), t.seatOf(p.ID) >= 0); err != nil {
			return err
		}
		return t.start(actx, func(context.Context) error {
			t.changed(true)
			return nil
		})
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
	case i.Event != "":
		return ErrEventSeats
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
		return t.apply(actx, a, nil)
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
		err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.AddChat(wctx, t.rec.Name, line) }, nil)
		switch {
		case errors.Is(err, ErrPaused), errors.Is(err, ErrUnsaved):
			// Said all the same while the table waits for its storage (a
			// pause while it is kept is no error of the line's); unless it
			// is saved, a restart will not bring it back.
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
		return t.update(actx, func(r *TableRecord) error { r.Rules, r.Seats = rules, seats; return nil }, t.shown)
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
		if t.driven && t.rec.Event == "" {
			return ErrDrivenClose
		}
		now := t.lobby.cfg.Clock.Now().UTC()
		why := &EndError{Why: ErrTableClosed, Table: t.name, By: t.lobby.Name(p.ID), ByID: p.ID, Admin: p.ID != t.rec.Host}
		closing := func(actx context.Context) error {
			return t.update(actx, func(r *TableRecord) error { r.Closed, r.Seated = now, nil; return nil }, func(context.Context) error {
				t.closed = true
				t.end.Store(why)
				for s := range t.subs {
					s.end(why)
				}
				if t.late() {
					// The caller heard ErrUnsaved while a write paused the
					// table: the table leaves the lobby by itself (stop
					// waits for this actor, so not from it).
					go t.lobby.retire(t)
				}
				return nil
			})
		}
		if !t.running() {
			return closing(actx)
		}
		id := t.game.id
		why.Game = id
		if t.abandoned == id { // stored already by a close that failed after it
			return closing(actx)
		}
		err := t.save(actx, func(wctx context.Context) error { return t.lobby.cfg.Store.Abandon(wctx, id, now, p.ID) }, func(actx context.Context) error {
			t.abandoned = id
			t.lobby.log.Info("game abandoned", "table", t.name, "game", id, "by", p.ID)
			return closing(actx)
		})
		if err != nil {
			return fmt.Errorf("save the abandoned game %s: %w", id, err)
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

// update writes the table record through fn, then keeps the new record
// and runs then (if not nil), as save does.
func (t *Table) update(actx context.Context, fn func(*TableRecord) error, then func(actx context.Context) error) error {
	var next TableRecord
	return t.save(actx, func(wctx context.Context) error {
		err := t.lobby.cfg.Store.UpdateTable(wctx, t.rec.Name, func(r *TableRecord) error {
			if err := fn(r); err != nil {
				return err
			}
			next = *r
			next.Members = append([]string(nil), r.Members...)
			return nil
		})
		if err != nil {
			return fmt.Errorf("save table %s: %w", t.name, err)
		}
		return nil
	}, func(actx context.Context) error {
		t.rec = next
		if then == nil {
			return nil
		}
		return then(actx)
	})
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

// start begins a game with the sitters in a random order, then runs then
// (if not nil), as save does.
func (t *Table) start(actx context.Context, then func(actx context.Context) error) error {
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
	var (
		id   string
		late PendingGame // the write, when it answered late
	)
	for i := range evs {
		evs[i].At = now
	}
	return t.save(actx, func(wctx context.Context) error {
		var err error
		id, err = t.lobby.cfg.Store.CreateGame(wctx, GameRecord{Table: t.rec.Name, Players: players, Names: names, Rules: t.rec.Rules,
			Started: now, Fair: proof, Next: &kept})
		if err != nil {
			errors.As(err, &late)
			return fmt.Errorf("save new game: %w", err)
		}
		return nil
	}, func(actx context.Context) error {
		t.next = next // stored with the game: the dice it was dealt from are spent
		if id == "" && late != nil {
			id = late.GameID() // saved after the table paused
		}
		if id == "" {
			// Saved after the table paused, by a storage that does not
			// tell the ID then: the game, without events, is abandoned
			// when the server next starts.
			return errSavedLate
		}
		return t.save(actx, func(wctx context.Context) error {
			if err := t.lobby.cfg.Store.Append(wctx, id, evs, nil); err != nil {
				return fmt.Errorf("save new game %s: %w", id, err)
			}
			return nil
		}, func(actx context.Context) error {
			t.game = newRun(id, g, players, evs)
			t.game.proof = sealed(proof)
			t.result = nil
			t.botTried = -1 // bot moves are keyed by the game's seq, which starts again
			t.cancelTimer(nextGame)
			if then == nil {
				return nil
			}
			return then(actx)
		})
	})
}

// errSavedLate: a new game's write answered only after the table had
// paused, so the game never began (its record is abandoned at the next
// start).
var errSavedLate = NewError(Unavailable, "the server's storage answered too late: the game did not start; start it again")

// resumeGame puts a recovered game back on the table.
func (t *Table) resumeGame(ctx context.Context, rg SavedGame) error {
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
		t.botTried = -1
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
// anyone sees them), then updates the state, tells every subscriber and
// runs then (if not nil), as save does.
func (t *Table) apply(actx context.Context, a engine.Action, then func(actx context.Context) error) error {
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
	err = t.save(actx, func(wctx context.Context) error {
		if err := t.lobby.cfg.Store.Append(wctx, run.id, evs, res); err != nil {
			return fmt.Errorf("save the move: %w", err)
		}
		return nil
	}, func(actx context.Context) error {
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
			// The move is saved: the seat is given up whatever happens
			// here. (A stop in between keeps the seat until the player
			// stands again.)
			if err := t.seatSitters(actx, sitters, nil); err != nil {
				if !errors.Is(err, ErrUnsaved) {
					t.lobby.log.Error("could not save the seats", "table", t.name, "err", err)
				}
				t.sitters = sitters
			}
		}
		if next.Over() {
			t.finish()
		}
		t.changed(newTurn(a, turn, round, run.g, run.players[a.Seat].TurnClock > 0))
		if then == nil {
			return nil
		}
		return then(actx)
	})
	if err != nil && !errors.Is(err, ErrUnsaved) {
		t.lobby.log.Error("could not save a move", "table", t.name, "game", run.id, "err", err)
	}
	return err
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

// RestBetweenGames is how long a full table with a person seated waits
// after a game before it deals the next by itself: time to read the
// standings, or to stand up and leave the seat free.
const RestBetweenGames = 10 * time.Second

// scheduleRestart starts the next game by itself at a table where every
// seat is taken (startsByItself), as the first game starts when the last
// seat fills: a table of bots after 3 bot delays (a bot tournament runs
// unattended), a table with a person seated after RestBetweenGames. It is
// called when a game ends, when a table comes back after a restart and
// when a seated player comes back to the table.
func (t *Table) scheduleRestart() {
	d := RestBetweenGames
	if t.botsOnly() {
		d = 3 * t.lobby.cfg.BotDelay
	}
	t.scheduleRestartIn(d)
}

// scheduleRestartIn starts the next game of a full table after d (at once
// if d <= 0).
func (t *Table) scheduleRestartIn(d time.Duration) {
	if !t.startsByItself() {
		return
	}
	t.after(nextGame, d, t.nextFullGame)
}

// startsByItself reports whether the table deals its next game by itself:
// every seat is taken and every person seated is at the table. A person
// who went away after a game keeps the table waiting for "play again": a
// game dealt by itself would cost them lives, and rating, while they are
// gone. Event tables deal one game, driven tables what their driver says,
// and a resting table of bots waits to be opened.
func (t *Table) startsByItself() bool {
	if len(t.sitters) < t.rec.Seats || t.driven || t.resting || t.rec.Event != "" {
		return false
	}
	for _, p := range t.sitters {
		if !p.Bot && t.watchers[p.ID] == 0 {
			return false
		}
	}
	return true
}

// nextFullGame starts the next game of a full table: the nextGame timer.
func (t *Table) nextFullGame(actx context.Context) {
	// The seats may have changed meanwhile (the table handed to a
	// driver, a player gone), or a game started.
	if t.running() || !t.startsByItself() {
		return
	}
	err := t.start(actx, func(context.Context) error {
		t.changed(true)
		return nil
	})
	if err != nil && !errors.Is(err, ErrUnsaved) {
		// Try again later rather than leave the table dead.
		t.lobby.log.Error("could not start the next game", "table", t.name, "err", err)
		t.scheduleRestartIn(max(3*t.lobby.cfg.BotDelay, time.Second))
	}
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
	t.watchIdle()
	if !t.running() {
		t.cancelTimer(turnClock)
		t.deadline = time.Time{}
	}
	listed := t.publishInfo()
	t.publish()
	if listed {
		// Lives and claims are not in the lobby's list: a move at a table
		// wakes only the people at that table.
		t.lobby.notify()
	}
	t.tell()
}

// arm starts the clock of the turn now open; while the table is paused
// the clock stands still (it starts afresh as the table resumes).
func (t *Table) arm() {
	t.cancelTimer(turnClock)
	t.deadline = time.Time{}
	if !t.running() || t.pause != nil {
		return
	}
	d := time.Duration(t.game.g.Options().TurnSeconds) * time.Second
	if own := t.game.players[t.game.g.Turn()].TurnClock; own > 0 {
		d = own
	}
	t.deadline = t.lobby.cfg.Clock.Now().Add(d)
	t.after(turnClock, d, t.timeUp).seq = t.game.g.Seq()
}

// timeUp times out the player whose turn it is: the turnClock timer,
// which every new turn sets afresh.
func (t *Table) timeUp(actx context.Context) {
	seat := t.game.g.Turn()
	err := t.apply(actx, engine.Action{Kind: engine.Timeout, Seat: seat}, nil)
	if err != nil && !errors.Is(err, ErrUnsaved) {
		// The save failed: try again in a second rather than stall the table.
		t.lobby.log.Error("could not time out a turn", "table", t.name, "err", err)
		t.after(turnClock, time.Second, t.timeUp).seq = t.game.g.Seq()
	}
}

// publish sends every subscriber its own snapshot; one is built per seat
// and one for all spectators.
func (t *Table) publish() {
	t.built = make(map[viewKey]*Snapshot, 4)
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
func (t *Table) snapshotFor(s *Subscription, built map[viewKey]*Snapshot) *Snapshot {
	k := viewKey{t.viewerSeat(s.player.ID), t.seatOf(s.player.ID) >= 0}
	snap, ok := built[k]
	if !ok {
		v := t.snapshot(k.seat)
		v.Seated = k.seated
		snap = &v
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
		if !t.running() && t.seatOf(p.ID) >= 0 {
			t.restAgain()
		}
		t.changed(false)
		return
	}
	t.watchIdle()
	if t.publishInfo() {
		t.lobby.notify()
	}
	if joined != nil {
		if t.built == nil {
			t.built = make(map[viewKey]*Snapshot, 4)
		}
		joined.box.Put(t.snapshotFor(joined, t.built))
	}
}

// restAgain follows a seated player's coming or going between games: a
// full table whose seated people are all there again deals its next game
// after a rest; one that someone left waits for "play again".
func (t *Table) restAgain() {
	switch {
	case !t.startsByItself():
		t.cancelTimer(nextGame)
	case t.timers[nextGame] == nil:
		t.scheduleRestart()
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
// the lobby lists of it (anything but lives, connections and the count of
// watchers, which the lobby is told of within a second) changed.
func (t *Table) publishInfo() bool {
	name := t.lobby.Name
	info := TableInfo{
		Name: t.rec.Name, Host: name(t.rec.Host), HostID: t.rec.Host, Seats: t.rec.Seats,
		Rules: t.rec.Rules, Private: t.rec.Private, Coach: t.rec.Coach, State: "waiting", Driven: t.driven, Event: t.rec.Event,
		members: t.rec.Members, created: t.rec.Created, link: t.rec.Link,
	}
	watchers := t.watchers
	info.Watching = len(watchers)
	info.HostHere = watchers[t.rec.Host] > 0
	info.Fair = t.fairInfo()
	info.StartsByItself = t.startsByItself()
	if t.pause != nil {
		info.Paused, info.PausedFor = true, t.pause.reason()
	}
	info.source, info.botsOnly, info.keepPlaying, info.Resting = t.source, t.botsOnly() && !t.driven, t.keepPlaying, t.resting
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
	if old == nil || listedDiffers(*old, info) {
		return true
	}
	if old.Watching != info.Watching {
		t.lobby.notifyCounts() // the count alone: told within a second, with others
	}
	return false
}

// listedDiffers compares two infos as the lobby lists them, but for the
// count of watchers (see notifyCounts).
func listedDiffers(a, b TableInfo) bool {
	if a.Name != b.Name || a.Host != b.Host || a.Seats != b.Seats || a.Taken != b.Taken || a.State != b.State ||
		a.Rules != b.Rules || a.Private != b.Private || a.Coach != b.Coach || len(a.Players) != len(b.Players) ||
		a.Driven != b.Driven || a.Paused != b.Paused || a.PausedFor != b.PausedFor || a.Resting != b.Resting ||
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
