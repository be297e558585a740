package events

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
)

// Event is one event: an actor goroutine (loop.go) that owns its record,
// its entrants' presence, the results of its games and its tables, and
// seats its entrants at tables it opens, through the tables' public
// methods (lobby.CreateEventTable, Watch, Deal, Close), as a player would.
type Event struct {
	reg       *Registry
	name      string
	source    string // where it was made from (the caps by source), never stored
	host      string // its host's person id
	reqs      chan *lobby.Request
	wake      chan struct{}
	quit      chan struct{}
	stopOnce  sync.Once
	done      chan struct{}
	ctx       context.Context // ends when the event stops: its goroutines' calls
	cancelCtx context.CancelFunc
	info      atomic.Pointer[Info]

	postMu     sync.Mutex
	posted     []func(actx context.Context)
	postClosed bool

	// Owned by the actor.
	rec       Record
	results   map[string]Result
	pending   map[string]bool // games whose result is being read
	ratings   map[string]rating.Rating
	present   map[string]int // attendances open, by entrant id
	atts      map[*Attendance]struct{}
	watchers  map[*lobby.Mailbox[Info]]struct{}
	live      map[string]*liveTable // its tables open now, by name
	timers    map[string]*timer
	freeSince map[string]time.Time // when each entrant was last free
	last      map[string][]string  // the players of each entrant's last table
	rest      map[string]time.Time // a person is not seated before this, after a game (Breather)
	door      map[string]bool      // the games counted at its door (DoorGames)
	doorRate  map[string]bool      // players at the door whose rating is read with the next batch
	opening   int                  // tables being opened
	unsaved   int                  // failed saves in a row (0: saved)
	ver       uint64
}

// liveTable is a table of the event, open now.
type liveTable struct {
	t   *lobby.Table
	sub *lobby.Subscription
	// here are the people who have it open among its players: they are
	// at the event (here), whichever way they came to the table.
	here []string
}

func newEvent(r *Registry, rec Record, source string) *Event {
	ctx, cancel := context.WithCancel(context.Background())
	e := &Event{
		reg: r, name: rec.Name, source: source, host: rec.Host,
		reqs: make(chan *lobby.Request), wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		ctx: ctx, cancelCtx: cancel,
		rec: rec, results: map[string]Result{}, pending: map[string]bool{}, ratings: map[string]rating.Rating{},
		present: map[string]int{}, atts: map[*Attendance]struct{}{}, watchers: map[*lobby.Mailbox[Info]]struct{}{},
		live: map[string]*liveTable{}, timers: map[string]*timer{}, freeSince: map[string]time.Time{}, last: map[string][]string{},
		door: map[string]bool{}, doorRate: map[string]bool{}, rest: map[string]time.Time{},
	}
	now := r.cfg.Clock.Now()
	for _, en := range rec.Entrants {
		e.freeSince[en.ID] = now
	}
	for _, t := range rec.Tables {
		for _, id := range t.Players {
			e.last[id] = t.Players
		}
		if t.Game != "" {
			e.pending[t.Game] = true // read as it resumes: its standings are not final before
		}
	}
	for _, g := range rec.DoorGames {
		e.pending[g], e.door[g] = true, true
	}
	e.publish()
	go e.loop()
	return e
}

// Name is the event's name.
func (e *Event) Name() string { return e.name }

// Info is the event as of its last change.
func (e *Event) Info() Info { return *e.info.Load() }

// host is the event as its tables' host.
func (e *Event) tableHost() lobby.Player { return lobby.EventHost(e.name) }

// mayRun reports whether p may run the event: its host or an admin.
func (e *Event) mayRun(p lobby.Player) error {
	if p.ID != e.rec.Host && !p.Admin {
		return ErrNotHost
	}
	return nil
}

// runBy checks that p may run the event: one it does not show itself to
// is not there (ErrNoEvent), then its host or an admin.
func (e *Event) runBy(p lobby.Player) error {
	if !e.sees(p) {
		return ErrNoEvent
	}
	return e.mayRun(p)
}

// sees reports whether p may see the event (the lobby's rule of tables).
func (e *Event) sees(p lobby.Player) bool { return p.Viewer().Sees(e.rec.Access()) }

// Start starts a scheduled event now (its host or an admin).
func (e *Event) Start(ctx context.Context, p lobby.Player) error {
	return e.do(ctx, func(actx context.Context) error {
		if err := e.runBy(p); err != nil {
			return err
		}
		switch e.rec.State {
		case Running, Stopping:
			return ErrRunning
		case Over, Closed:
			return ErrOver
		}
		e.begin(actx)
		return e.settle(actx)
	})
}

// Stop ends the seating (its host or an admin): the games running finish
// and count, then the event is over. A scheduled event is over at once.
func (e *Event) Stop(ctx context.Context, p lobby.Player) error {
	return e.do(ctx, func(actx context.Context) error {
		if err := e.runBy(p); err != nil {
			return err
		}
		switch e.rec.State {
		case Over, Closed:
			return ErrOver
		case Stopping:
			return nil
		}
		e.cancel(timerStart)
		e.rec.State = Stopping
		if err := e.saved(actx); err != nil {
			return err
		}
		return e.settle(actx)
	})
}

// Close puts the event away (its host or an admin): its tables close (a
// game running there ends abandoned, without a result), it is listed no
// more, and its record and games stay (event NAME, history --event).
func (e *Event) Close(ctx context.Context, p lobby.Player) error {
	err := e.do(ctx, func(actx context.Context) error {
		if err := e.runBy(p); err != nil {
			return err
		}
		if e.rec.State == Closed {
			return ErrOver
		}
		e.closeNow(actx)
		return e.saved(actx)
	})
	if err == nil || errors.Is(err, ErrUnsaved) {
		e.reg.retire(e)
	}
	return err
}

// closeNow closes the event: the tables, then the record.
func (e *Event) closeNow(actx context.Context) {
	now := e.reg.cfg.Clock.Now().UTC()
	if e.rec.State != Over {
		e.rec.Ended = now
	}
	e.rec.State, e.rec.Closed = Closed, now
	for name := range e.live {
		e.closeTable(name)
	}
	for i := range e.rec.Tables {
		e.rec.Tables[i].Done = true
	}
	for k := range e.timers {
		e.cancel(k)
	}
	e.changed()
}

// Join enters p into the event: as a bot when p.Bot (a bot of the line
// protocol, seated through its session), else as a person, seated while
// they have the event's screen open (Attend). code, when given, is an
// invite code of a private event (Invite), which makes them a member.
func (e *Event) Join(ctx context.Context, p lobby.Player, code string) error {
	e.reg.cfg.Lobby.Name(p.ID) // known before the actor shows it
	return e.do(ctx, func(actx context.Context) error {
		if err := e.admit(p, code); err != nil {
			return err
		}
		i := e.rec.entrant(p.ID)
		if i >= 0 && !e.rec.Entrants[i].Left {
			return ErrJoined
		}
		if err := e.mayJoin(p); err != nil {
			return err
		}
		if i >= 0 {
			e.rec.Entrants[i].Left = false
		} else {
			e.rec.Entrants = append(e.rec.Entrants, Entrant{ID: p.ID, Key: p.Key, Bot: p.Bot, Joined: e.reg.cfg.Clock.Now().UTC()})
		}
		e.freeSince[p.ID] = e.reg.cfg.Clock.Now()
		e.loadRatings([]string{p.ID})
		if err := e.saved(actx); err != nil {
			return err
		}
		return e.settle(actx)
	})
}

// admit checks that p may see the event, or spends an invite code that
// makes them a member of it.
func (e *Event) admit(p lobby.Player, code string) error {
	if code == "" {
		if !e.sees(p) {
			return ErrNoEvent
		}
		return nil
	}
	if !e.rec.Private {
		return ErrPublic
	}
	now := e.reg.cfg.Clock.Now()
	h := hashCode(code)
	for i, in := range e.rec.Invites {
		if in.Hash == h && now.Before(in.Expires) {
			e.rec.Invites = slices.Delete(e.rec.Invites, i, i+1)
			if p.ID != e.rec.Host && !slices.Contains(e.rec.Members, p.ID) {
				e.rec.Members = append(e.rec.Members, p.ID)
			}
			return nil
		}
	}
	return ErrBadInvite
}

// mayJoin checks the event's state and who it is for.
func (e *Event) mayJoin(p lobby.Player) error {
	switch {
	case e.rec.State == Over || e.rec.State == Closed || e.rec.State == Stopping:
		return ErrOver
	case e.rec.Format == Knockout && e.rec.State != Scheduled:
		return ErrBegun
	case e.rec.Who == Bots && !p.Bot:
		return ErrBotsOnly
	case e.rec.Who == People && p.Bot:
		return ErrPeopleOnly
	}
	n := 0
	for _, en := range e.rec.Entrants {
		if !en.Left {
			n++
		}
	}
	if n >= e.reg.cfg.MaxEntrants {
		return &lobby.LimitError{Rule: ErrFull, Limit: e.reg.cfg.MaxEntrants}
	}
	return nil
}

// Leave takes p out of the event: before it starts, as if they had never
// joined; while it runs, they are seated no more (a game they play goes
// on) and their points stay in the standings.
func (e *Event) Leave(ctx context.Context, p lobby.Player) error {
	return e.do(ctx, func(actx context.Context) error {
		if !e.sees(p) {
			return ErrNoEvent
		}
		i := e.rec.entrant(p.ID)
		if i < 0 || e.rec.Entrants[i].Left {
			return ErrNotEntrant
		}
		switch e.rec.State {
		case Over, Closed:
			return ErrOver
		case Scheduled:
			e.rec.Entrants = slices.Delete(e.rec.Entrants, i, i+1)
		default:
			e.rec.Entrants[i].Left = true
		}
		if err := e.saved(actx); err != nil {
			return err
		}
		return e.settle(actx)
	})
}

// InviteTTL is how long an invite code to a private event lasts.
const InviteTTL = 7 * 24 * time.Hour

// maxInvites is the most invite codes an event keeps at once: past it,
// the oldest goes.
const maxInvites = 64

// Invite stores a one-time invite code to a private event (its host or
// an admin), valid until expires.
func (e *Event) Invite(ctx context.Context, p lobby.Player, code string, expires time.Time) error {
	return e.do(ctx, func(actx context.Context) error {
		if err := e.runBy(p); err != nil {
			return err
		}
		if !e.rec.Private {
			return ErrPublic
		}
		now := e.reg.cfg.Clock.Now()
		e.rec.Invites = slices.DeleteFunc(e.rec.Invites, func(in Invite) bool { return !now.Before(in.Expires) })
		if len(e.rec.Invites) >= maxInvites {
			e.rec.Invites = e.rec.Invites[1:]
		}
		e.rec.Invites = append(e.rec.Invites, Invite{Hash: hashCode(code), Expires: expires.UTC()})
		return e.saved(actx)
	})
}

// hashCode is how an invite code is kept: its SHA-256.
func hashCode(code string) string {
	h := sha256.Sum256([]byte(code))
	return hex.EncodeToString(h[:])
}

// Link returns the token of a private event's web link, made on first
// use (its host or an admin); revoke ends it. The tables it opens from
// then on open to the same link.
func (e *Event) Link(ctx context.Context, p lobby.Player, revoke bool) (string, error) {
	return doValue(ctx, e, func(actx context.Context) (string, error) {
		if err := e.runBy(p); err != nil {
			return "", err
		}
		if !e.rec.Private {
			return "", ErrPublic
		}
		switch {
		case revoke:
			e.rec.Link = ""
		case e.rec.Link == "":
			e.rec.Link = lobby.NewLinkToken()
		}
		e.changed()
		return e.rec.Link, e.saved(actx)
	})
}

// Watch follows the event: its mailbox gets the event's Info at every
// change, the first at once. It is closed when the event is put away or
// stops.
func (e *Event) Watch(ctx context.Context, p lobby.Player) (*lobby.Mailbox[Info], error) {
	return doValue(ctx, e, func(context.Context) (*lobby.Mailbox[Info], error) {
		if !e.sees(p) {
			return nil, ErrNoEvent
		}
		return e.addWatcher(), nil
	})
}

// Spectate follows the event for someone who is no player (the web
// window, whose reader holds at most its link), as Watch.
func (e *Event) Spectate(ctx context.Context, v lobby.Viewer) (*lobby.Mailbox[Info], error) {
	return doValue(ctx, e, func(context.Context) (*lobby.Mailbox[Info], error) {
		if !v.Sees(e.rec.Access()) {
			return nil, ErrNoEvent
		}
		return e.addWatcher(), nil
	})
}

func (e *Event) addWatcher() *lobby.Mailbox[Info] {
	m := lobby.NewMailbox[Info]()
	e.watchers[m] = struct{}{}
	m.Put(*e.info.Load())
	return m
}

// Unwatch stops following the event.
func (e *Event) Unwatch(m *lobby.Mailbox[Info]) {
	m.Close()
	e.post(func(context.Context) { delete(e.watchers, m) })
}

// begin starts the event: an arena's clock runs from now.
func (e *Event) begin(actx context.Context) {
	now := e.reg.cfg.Clock.Now().UTC()
	e.cancel(timerStart)
	e.rec.State, e.rec.Started = Running, now
	if e.rec.Format == Arena {
		e.rec.Ends = now.Add(e.rec.Lasts)
		e.after(timerEnd, e.rec.Lasts, e.timeUp)
	}
	for id := range e.freeSince {
		e.freeSince[id] = e.reg.cfg.Clock.Now()
	}
	e.reg.log.Info("event started", "event", e.name, "format", e.rec.Format, "entrants", len(e.rec.Entrants))
	e.tellStarted()
	e.save(actx)
}

// timeUp ends an arena's seating: the timerEnd timer.
func (e *Event) timeUp(actx context.Context) {
	if e.rec.State == Running {
		e.rec.State = Stopping
		e.save(actx)
	}
	e.safeSettle(actx)
}

// resume is the event's first step, as it starts (a restart too): its
// clock set again from the record, its tables found again (a game still
// running there goes on and counts; a table made but not dealt is dealt
// now), the results of its games read.
func (e *Event) resume(actx context.Context) {
	now := e.reg.cfg.Clock.Now()
	switch e.rec.State {
	case Scheduled:
		if !e.rec.StartsAt.IsZero() {
			e.after(timerStart, e.rec.StartsAt.Sub(now), e.startAt)
		}
	case Running:
		if e.rec.Format == Arena {
			e.after(timerEnd, e.rec.Ends.Sub(now), e.timeUp)
		}
	case Over:
		e.after(timerKeep, e.rec.Ended.Add(e.reg.cfg.KeepOver).Sub(now), e.putAway)
	}
	known := map[string]bool{}
	var games []string
	for g := range e.pending {
		games = append(games, g)
	}
	for i := range e.rec.Tables {
		tr := &e.rec.Tables[i]
		known[strings.ToLower(tr.Name)] = true
		t, err := e.reg.cfg.Lobby.Table(tr.Name)
		found := err == nil && t.Info().Event == e.name
		switch {
		case found && (tr.Done || e.rec.State == Closed):
			tr.Done = true
			go e.closeGone(t)
		case found:
			e.opening++
			go e.adopt(t, *tr, e.guests(tr.Players))
		case !tr.Done:
			tr.Done = true // its table never opened, or closed while the server was down
			e.freed(tr.Players)
		}
	}
	// A table opened and not recorded: the server stopped before the
	// record was saved.
	for _, info := range e.reg.cfg.Lobby.Tables(lobby.Viewer{Admin: true}) {
		if info.Event != e.name || known[strings.ToLower(info.Name)] {
			continue
		}
		t, err := e.reg.cfg.Lobby.Table(info.Name)
		if err != nil {
			continue
		}
		if e.rec.State == Closed {
			go e.closeGone(t)
			continue
		}
		tr := TableRec{Name: info.Name, Made: now.UTC(), Round: e.rec.Round}
		for _, s := range info.Players {
			tr.Players = append(tr.Players, s.ID)
		}
		e.rec.Tables = append(e.rec.Tables, tr)
		e.opening++
		go e.adopt(t, tr, e.guests(tr.Players))
	}
	e.fetch(games)
	var ids []string
	for _, en := range e.rec.Entrants {
		ids = append(ids, en.ID)
	}
	e.loadRatings(ids)
	e.save(actx)
	e.safeSettle(actx)
}

// startAt starts a scheduled event at its time: the timerStart timer.
func (e *Event) startAt(actx context.Context) {
	if e.rec.State == Scheduled {
		e.begin(actx)
	}
	e.safeSettle(actx)
}

// putAway closes an event over for KeepOver: the timerKeep timer.
func (e *Event) putAway(actx context.Context) {
	if e.rec.State != Over {
		return
	}
	e.closeNow(actx)
	e.save(actx)
	go e.reg.retire(e)
}

// safeSettle is settle for a timer or a post, whose error nobody hears.
func (e *Event) safeSettle(actx context.Context) {
	if err := e.settle(actx); err != nil && !errors.Is(err, ErrUnsaved) {
		e.reg.log.Error("event", "event", e.name, "err", err)
	}
}

// settle follows a change: it moves the event on (a round over, the
// stopping done), seats whoever may be seated now, and publishes it.
func (e *Event) settle(actx context.Context) error {
	defer e.changed()
	if e.rec.State == Closed || e.rec.State == Over || e.rec.State == Scheduled {
		return nil
	}
	idle := !e.rec.open() && e.opening == 0
	switch {
	case e.rec.State == Stopping && idle:
		e.finish(actx)
		return nil
	case e.rec.State != Running:
		return nil
	}
	switch e.rec.Format {
	case Arena:
		e.seatArena(actx)
	case Swiss:
		if idle {
			e.nextSwissRound(actx)
		}
	case Knockout:
		if idle && len(e.pending) == 0 {
			e.nextKnockoutRound(actx)
		}
	}
	return nil
}

// finish ends the event: its standings are final.
func (e *Event) finish(actx context.Context) {
	e.rec.State, e.rec.Ended, e.rec.Concluded, e.rec.Untold = Over, e.reg.cfg.Clock.Now().UTC(), true, true
	e.cancel(timerEnd)
	e.cancel(timerGather)
	e.after(timerKeep, e.reg.cfg.KeepOver, e.putAway)
	e.reg.log.Info("event over", "event", e.name, "games", len(e.rec.Tables))
	e.save(actx)
}

// present reports whether the entrant may be seated now: not left, and a
// built-in bot or there (Attend).
func (e *Event) here(en Entrant) bool {
	return !en.Left && (en.builtin() || e.present[en.ID] > 0 || e.atTable(en.ID))
}

// atTable reports whether the person id has one of the event's tables
// open, as a player of it: opened from the event's screen or from the
// lobby, they are at the event.
func (e *Event) atTable(id string) bool {
	for _, lt := range e.live {
		if slices.Contains(lt.here, id) {
			return true
		}
	}
	return false
}

// free are the entrants who may be seated now and sit at no table,
// longest free first. One whose last game's result is still being read
// is not free (busyShown): a new game would tell them the last is over
// before the standings count it.
func (e *Event) free() []string {
	busy := e.busyShown()
	now := e.reg.cfg.Clock.Now()
	var out []Entrant
	var wake time.Time // the end of the first rest that ends later
	for _, en := range e.rec.Entrants {
		if _, ok := busy[en.ID]; ok || !e.here(en) {
			continue
		}
		if until, ok := e.rest[en.ID]; ok {
			if now.Before(until) {
				if wake.IsZero() || until.Before(wake) {
					wake = until
				}
				continue
			}
			delete(e.rest, en.ID)
		}
		out = append(out, en)
	}
	if !wake.IsZero() && e.timers[timerRest] == nil {
		e.after(timerRest, wake.Sub(now), e.safeSettle)
	}
	slices.SortStableFunc(out, func(a, b Entrant) int { return e.freeSince[a.ID].Compare(e.freeSince[b.ID]) })
	ids := make([]string, len(out))
	for i, en := range out {
		ids[i] = en.ID
	}
	return ids
}

// seatArena seats the free entrants of a running arena (arenaTables):
// full tables at once; fewer at a smaller table when nobody else will be
// free soon (no table of the event plays), or once the first of them has
// waited Gather.
func (e *Event) seatArena(actx context.Context) {
	free := e.free()
	lastMet := func(a, b string) bool { return slices.Contains(e.last[a], b) || slices.Contains(e.last[b], a) }
	gather := !e.rec.open() && e.opening == 0
	if !gather && len(free) >= 2 && len(free)%e.rec.Seats >= 2 {
		waited := e.reg.cfg.Clock.Now().Sub(e.freeSince[free[len(free)-len(free)%e.rec.Seats]])
		if waited >= e.reg.cfg.Gather {
			gather = true
		} else if e.timers[timerGather] == nil {
			e.after(timerGather, e.reg.cfg.Gather-waited, e.safeSettle)
		}
	}
	tables, _ := arenaTables(free, e.rec.Seats, lastMet, gather)
	for _, t := range tables {
		e.deal(actx, t, 0, false)
	}
}

// nextSwissRound seats the next round of a Swiss event whose tables have
// all ended, or ends it after its last round.
func (e *Event) nextSwissRound(actx context.Context) {
	if e.rec.Round >= e.rec.Rounds {
		e.finish(actx)
		return
	}
	if len(e.pending) > 0 {
		return // a result still being read ranks them
	}
	e.rec.Round++
	var ranked []string
	for _, s := range Tally(&e.rec, e.results) {
		if i := e.rec.entrant(s.ID); i >= 0 && e.here(e.rec.Entrants[i]) {
			ranked = append(ranked, s.ID)
		}
	}
	metAt := map[[2]string]bool{}
	for _, t := range e.rec.Tables {
		for _, a := range t.Players {
			for _, b := range t.Players {
				metAt[[2]string{a, b}] = true
			}
		}
	}
	byed := map[string]bool{}
	for _, b := range e.rec.Byes {
		byed[b.ID] = true
	}
	tables, bye := swissTables(ranked, e.rec.Seats, func(a, b string) bool { return metAt[[2]string{a, b}] }, func(id string) bool { return byed[id] })
	if bye != "" {
		e.rec.Byes = append(e.rec.Byes, Bye{Round: e.rec.Round, ID: bye})
	}
	e.reg.log.Info("swiss round", "event", e.name, "round", e.rec.Round, "tables", len(tables))
	if len(tables) == 0 {
		e.finish(actx) // nobody to play
		return
	}
	for _, t := range tables {
		e.deal(actx, t, e.rec.Round, false)
	}
	e.tellRound()
	e.save(actx)
}

// nextKnockoutRound seats the next round of a knockout whose tables have
// all ended: the first seeded by rating, each next with those who went on
// (Advancing), until a final table's winner.
func (e *Event) nextKnockoutRound(actx context.Context) {
	var in []string
	if e.rec.Round == 0 {
		for _, en := range e.rec.Entrants {
			if e.here(en) {
				in = append(in, en.ID)
			}
		}
	} else {
		adv, final := Advancing(&e.rec, e.results)
		if final || len(adv) <= 1 {
			e.finish(actx)
			return
		}
		for _, id := range adv {
			if i := e.rec.entrant(id); i >= 0 && !e.rec.Entrants[i].Left {
				in = append(in, id)
			}
		}
	}
	e.rec.Round++
	slices.SortStableFunc(in, func(a, b string) int { return e.ordinal(b) - e.ordinal(a) })
	tables, bye, final := knockoutTables(in, e.rec.Seats)
	if bye != "" {
		e.rec.Byes = append(e.rec.Byes, Bye{Round: e.rec.Round, ID: bye})
	}
	e.reg.log.Info("knockout round", "event", e.name, "round", e.rec.Round, "tables", len(tables), "final", final)
	if len(tables) == 0 {
		e.finish(actx)
		return
	}
	for _, t := range tables {
		e.deal(actx, t, e.rec.Round, final)
	}
	e.save(actx)
}

// ordinal is an entrant's rating as a number to seed by.
func (e *Event) ordinal(id string) int {
	r, ok := e.ratings[id]
	if !ok {
		r = rating.Newcomer()
	}
	return r.Points()
}

// deal opens a table for players and deals them a game there, off the
// loop (open): they are busy from now on.
func (e *Event) deal(actx context.Context, players []string, round int, final bool) {
	e.rec.Next++
	tr := TableRec{Name: tableName(e.name, e.rec.Next), Round: round, Players: players, Made: e.reg.cfg.Clock.Now().UTC(), Final: final}
	e.rec.Tables = append(e.rec.Tables, tr)
	for _, id := range players {
		e.last[id] = players
	}
	e.opening++
	guests := e.guests(players)
	et := lobby.EventTable{Event: e.name, Name: tr.Name, Rules: e.rec.Rules, Seats: len(players),
		Private: e.rec.Private, Members: e.members(), Link: e.rec.Link}
	e.save(actx)
	go e.open(et, guests)
}

// guests are the entrants of ids as a table seats them.
func (e *Event) guests(ids []string) []lobby.Player {
	out := make([]lobby.Player, 0, len(ids))
	for _, id := range ids {
		if i := e.rec.entrant(id); i >= 0 {
			out = append(out, e.rec.Entrants[i].Player())
		}
	}
	return out
}

// members are who a private event's tables admit: its host and members.
func (e *Event) members() []string {
	return append([]string{e.rec.Host}, e.rec.Members...)
}

// callTimeout bounds one call of the event's into a table or storage.
const callTimeout = 10 * time.Second

// open makes a table of the event and deals its game, off the loop, and
// posts the answer back (opened).
func (e *Event) open(et lobby.EventTable, guests []lobby.Player) {
	ctx, cancel := context.WithTimeout(e.ctx, callTimeout)
	defer cancel()
	t, err := e.reg.cfg.Lobby.CreateEventTable(ctx, et)
	var sub *lobby.Subscription
	if err == nil {
		sub, err = t.Watch(ctx, e.tableHost())
	}
	if err == nil {
		_, err = t.Deal(ctx, e.tableHost(), guests)
		if errors.Is(err, lobby.ErrUnsaved) {
			err = nil // the game starts once storage saves it
		}
	}
	e.post(func(actx context.Context) { e.opened(actx, et.Name, t, sub, err) })
}

// adopt follows a table of the event found again after a restart, and
// deals it the game it was made for if none was dealt there.
func (e *Event) adopt(t *lobby.Table, tr TableRec, guests []lobby.Player) {
	ctx, cancel := context.WithTimeout(e.ctx, callTimeout)
	defer cancel()
	sub, err := t.Watch(ctx, e.tableHost())
	if err == nil && tr.Game == "" && t.Info().State != "playing" {
		snap, ok := sub.Take()
		if !ok || snap.GameID == "" {
			_, err = t.Deal(ctx, e.tableHost(), guests)
			if errors.Is(err, lobby.ErrUnsaved) {
				err = nil
			}
		} else {
			sub.Close()
			sub, err = t.Watch(ctx, e.tableHost()) // its game shows again
		}
	}
	e.post(func(actx context.Context) { e.opened(actx, tr.Name, t, sub, err) })
}

// opened follows a table opened (or found again) and dealt: from now on
// its games' news come from its subscription (follow). A table that
// could not open or be dealt frees its players, who are seated again
// after a while.
func (e *Event) opened(actx context.Context, name string, t *lobby.Table, sub *lobby.Subscription, err error) {
	e.opening--
	tr := e.table(name)
	if err != nil || tr == nil || tr.Done || e.rec.State == Closed {
		if err != nil {
			lobby.LogHidden(e.reg.log, err, "an event's table did not open", "event", e.name, "table", name)
			if !lobby.Hides(err) {
				e.reg.log.Warn("an event's table did not open", "event", e.name, "table", name, "err", err)
			}
		}
		if sub != nil {
			sub.Close()
		}
		if t != nil {
			go e.closeGone(t)
		}
		if tr != nil && !tr.Done {
			tr.Done = true
			e.freed(tr.Players)
			e.after(timerRetry, time.Second, e.safeSettle)
		}
		e.save(actx)
		e.safeSettle(actx)
		return
	}
	e.live[name] = &liveTable{t: t, sub: sub}
	go e.follow(name, sub)
	e.safeSettle(actx)
}

// table is the record of the event's table of that name, or nil.
func (e *Event) table(name string) *TableRec {
	for i := range e.rec.Tables {
		if strings.EqualFold(e.rec.Tables[i].Name, name) {
			return &e.rec.Tables[i]
		}
	}
	return nil
}

// follow reads a table's snapshots, off the loop, and posts to the event
// what matters: the game dealt there, and its end; then that the table
// has gone.
func (e *Event) follow(name string, sub *lobby.Subscription) {
	lastGame, lastPlaying := "", false
	var lastHere []string
	for {
		snap, ok := sub.Wait(e.ctx)
		if !ok {
			if e.ctx.Err() == nil {
				e.post(func(actx context.Context) { e.gone(actx, name) })
			}
			return
		}
		// Who has it open shows among its players while its game runs;
		// after, the table lists no players: who had it open as the
		// game ended is there until it closes.
		if here := openedBy(snap.Table.Players); snap.Playing && !slices.Equal(here, lastHere) {
			lastHere = here
			e.post(func(actx context.Context) { e.there(actx, name, here) })
		}
		if snap.GameID == lastGame && snap.Playing == lastPlaying {
			continue
		}
		lastGame, lastPlaying = snap.GameID, snap.Playing
		game, playing := snap.GameID, snap.Playing
		e.post(func(actx context.Context) { e.seen(actx, name, game, playing) })
	}
}

// openedBy are the people among a table's players who have it open, in
// order of their ids.
func openedBy(players []lobby.SeatInfo) []string {
	var ids []string
	for _, p := range players {
		if p.Connected && !p.Bot {
			ids = append(ids, p.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// there follows who has a table of the event open among its players
// while its game runs: they are at the event until it closes (atTable),
// and may be seated again after its game.
func (e *Event) there(actx context.Context, name string, here []string) {
	lt := e.live[name]
	if lt == nil {
		return
	}
	lt.here = here
	e.safeSettle(actx)
}

// seen follows a table's game: dealt (its id is recorded), and over (its
// players are free; its result is read; the table closes after Linger,
// so that its players see how it ended).
func (e *Event) seen(actx context.Context, name, game string, playing bool) {
	tr := e.table(name)
	if tr == nil || game == "" {
		return
	}
	if tr.Game == "" {
		tr.Game = game
		e.save(actx)
	}
	if playing || tr.Done || tr.Game != game {
		e.changed()
		return
	}
	tr.Done = true
	e.freed(tr.Players)
	e.rested(tr.Players)
	e.readResults([]string{game})
	e.after(timerClose+name, e.reg.cfg.Linger, func(actx context.Context) {
		// Who still has it open is at the event till then: seated again
		// first where they may be.
		e.safeSettle(actx)
		e.closeTable(name)
	})
	e.save(actx)
	e.safeSettle(actx)
}

// gone follows a table of the event that closed: by the event after its
// game, or by an admin (a game running there is abandoned, and counts
// nothing).
func (e *Event) gone(actx context.Context, name string) {
	if lt := e.live[name]; lt != nil {
		lt.sub.Close()
		delete(e.live, name)
	}
	e.cancel(timerClose + name)
	tr := e.table(name)
	if tr != nil && !tr.Done {
		tr.Done = true
		e.freed(tr.Players)
		if tr.Game != "" {
			e.readResults([]string{tr.Game})
		}
		e.save(actx)
	}
	e.safeSettle(actx)
}

// closeTable closes a table of the event, off the loop.
func (e *Event) closeTable(name string) {
	lt := e.live[name]
	if lt == nil {
		return
	}
	go e.closeGone(lt.t)
}

// closeGone closes t, off the loop.
func (e *Event) closeGone(t *lobby.Table) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := t.Close(ctx, e.tableHost()); err != nil && !errors.Is(err, lobby.ErrTableClosed) && !errors.Is(err, lobby.ErrUnsaved) {
		e.reg.log.Warn("could not close an event's table", "event", e.name, "table", t.Name(), "err", err)
	}
}

// freed marks players free from now.
func (e *Event) freed(players []string) {
	now := e.reg.cfg.Clock.Now()
	for _, id := range players {
		e.freeSince[id] = now
	}
}

// rested gives the people among players who have just played a game of an
// arena their breather: they see how it ended, and the standings, before
// they are seated again.
func (e *Event) rested(players []string) {
	if e.reg.cfg.Breather <= 0 || e.rec.Format != Arena {
		return
	}
	until := e.reg.cfg.Clock.Now().Add(e.reg.cfg.Breather)
	for _, id := range players {
		if i := e.rec.entrant(id); i >= 0 && !e.rec.Entrants[i].Bot {
			e.rest[id] = until
		}
	}
}

// readResults reads the results of games, off the loop, and posts them
// back; a read that fails is tried again.
func (e *Event) readResults(games []string) {
	var ids []string
	for _, g := range games {
		if g != "" && !e.pending[g] {
			if r, ok := e.results[g]; ok && r.Over() {
				continue
			}
			e.pending[g] = true
			ids = append(ids, g)
		}
	}
	e.fetch(ids)
}

// fetch reads the results of the games ids, marked pending, off the
// loop, and posts them back (got).
func (e *Event) fetch(ids []string) {
	if len(ids) == 0 {
		return
	}
	go func() {
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(e.ctx, callTimeout)
			r, err := e.reg.cfg.Store.Result(ctx, id)
			cancel()
			e.post(func(actx context.Context) { e.got(actx, id, r, err) })
		}
	}()
}

// got takes a game's result, read from storage.
func (e *Event) got(actx context.Context, id string, r Result, err error) {
	delete(e.pending, id)
	if err != nil {
		e.reg.log.Warn("could not read an event's game", "event", e.name, "game", id, "err", err)
		e.after(timerResult+id, 2*time.Second, func(context.Context) { e.readResults([]string{id}) })
		return
	}
	r.Game = id
	e.results[id] = r
	if !r.Over() {
		return // still running: its end comes from its table
	}
	if e.door[id] {
		e.doorGot(r)
		return
	}
	e.loadRatings(r.Players)
	e.safeSettle(actx)
}

// loadRatings reads the overall ratings of ids, off the loop.
func (e *Event) loadRatings(ids []string) {
	ids = slices.Clone(ids)
	go func() {
		got := make(map[string]rating.Rating, len(ids))
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(e.ctx, callTimeout)
			r, err := e.reg.cfg.Store.Rating(ctx, id)
			cancel()
			if err == nil {
				got[id] = r
			}
		}
		e.post(func(context.Context) {
			for id, r := range got {
				e.ratings[id] = r
			}
			e.changed()
		})
	}()
}

// saved saves the record for a request, which hears ErrUnsaved when it
// was not saved (it is tried again).
func (e *Event) saved(actx context.Context) error {
	if !e.save(actx) {
		return ErrUnsaved
	}
	return nil
}

// save writes the record, bounded by SaveTimeout; a failed write is tried
// again after a while (1 s, twice as long each next time, at most 30 s)
// until one is saved. It reports whether this one was.
func (e *Event) save(actx context.Context) bool {
	ctx, cancel := context.WithTimeout(actx, e.reg.cfg.SaveTimeout)
	defer cancel()
	err := e.reg.cfg.Store.SaveEvent(ctx, e.rec)
	if err == nil {
		e.unsaved = 0
		e.cancel(timerSave)
		return true
	}
	e.reg.log.Warn("could not save an event", "event", e.name, "err", err)
	d := min(time.Second<<min(e.unsaved, 5), 30*time.Second)
	e.unsaved++
	e.after(timerSave, d, func(actx context.Context) { e.save(actx) })
	return false
}
