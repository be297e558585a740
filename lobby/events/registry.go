package events

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
)

// Storage is what events need from durable storage, in their own types;
// store/lobbystore adapts the bbolt store to it (cmd/mia wires it).
type Storage interface {
	// CreateEvent stores a new event: an error matching ErrEventExists when
	// an event of that name (any case) is not closed.
	CreateEvent(ctx context.Context, rec Record) error
	// SaveEvent replaces the record of the event (its name and Created).
	SaveEvent(ctx context.Context, rec Record) error
	// OpenEvents lists the events not closed.
	OpenEvents(ctx context.Context) ([]Record, error)
	// Event reads the newest event of that name, closed or not: an error
	// matching ErrNoEvent when there is none.
	Event(ctx context.Context, name string) (Record, error)
	// Result reads how a game ended (Ended zero while it runs).
	Result(ctx context.Context, game string) (Result, error)
	// Rating reads a person's overall rating, all time.
	Rating(ctx context.Context, person string) (rating.Rating, error)
}

// Config wires the events.
type Config struct {
	Lobby *lobby.Lobby // required
	Store Storage      // required
	Clock lobby.Clock  // lobby.RealClock if nil
	Log   *log.Logger  // a discarding logger if nil
	// MaxPerPerson is how many events not closed one person may host
	// (0: DefaultMaxPerPerson; lobby.NoLimit: no cap); MaxPerSource how
	// many may be made from one source address, whatever the keys (0:
	// DefaultMaxPerSource). Admins are exempt.
	MaxPerPerson int
	MaxPerSource int
	// MaxBots is the most built-in bots one event seats among its
	// entrants (0: DefaultMaxBots); an admin's, up to MaxEntrants.
	MaxBots int
	// MaxEntrants is the most entrants of one event (0:
	// DefaultMaxEntrants).
	MaxEntrants int
	// Linger is how long a table stays open after its game, for its
	// players to see how it ended (0: DefaultLinger).
	Linger time.Duration
	// Gather is how long free entrants too few for a full table wait for
	// more before they sit at a smaller one, while others play (0:
	// DefaultGather).
	Gather time.Duration
	// Breather is how long a person rests after a game of an arena
	// before they are seated again, to see how it ended and the standings
	// (0: DefaultBreather; lobby.NoDelay: none). Bots are seated at once.
	Breather time.Duration
	// KeepOver is how long an event over stays listed before it is put
	// away (0: DefaultKeepOver).
	KeepOver time.Duration
	// SaveTimeout bounds one write of an event's record (0: 10 s).
	SaveTimeout time.Duration
}

// Defaults of Config.
const (
	DefaultMaxPerPerson = 3
	DefaultMaxPerSource = 3
	DefaultMaxBots      = 48
	DefaultMaxEntrants  = 256
	DefaultLinger       = 8 * time.Second
	DefaultGather       = 15 * time.Second
	DefaultKeepOver     = 24 * time.Hour
	DefaultBreather     = 8 * time.Second
)

// Registry is the events of the server: those not closed, each an actor.
type Registry struct {
	cfg Config
	log *log.Logger

	mu      sync.Mutex
	events  map[string]*Event // not closed, by lower-case name
	opening map[string]opening
	subs    map[*lobby.Mailbox[int]]struct{}
	ver     int
	closed  bool
}

// opening is an event being written (Create): its name is kept for it.
type opening struct {
	name, host, source string
}

// Open starts the events not closed in storage, each where it was: a
// running event's clock goes on, its tables and their games are found
// again.
func Open(ctx context.Context, cfg Config) (*Registry, error) {
	if cfg.Lobby == nil || cfg.Store == nil {
		return nil, errors.New("events: no lobby or no store")
	}
	if cfg.Clock == nil {
		cfg.Clock = lobby.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	for _, c := range []struct {
		v   *int
		def int
	}{{&cfg.MaxPerPerson, DefaultMaxPerPerson}, {&cfg.MaxPerSource, DefaultMaxPerSource}, {&cfg.MaxBots, DefaultMaxBots}, {&cfg.MaxEntrants, DefaultMaxEntrants}} {
		switch {
		case *c.v == 0:
			*c.v = c.def
		case *c.v < 0 && *c.v != lobby.NoLimit:
			return nil, fmt.Errorf("events: a cap of %d: 0 for the default, lobby.NoLimit for none", *c.v)
		}
	}
	if cfg.MaxEntrants < 0 {
		cfg.MaxEntrants = 1 << 20
	}
	switch {
	case cfg.Breather == 0:
		cfg.Breather = DefaultBreather
	case cfg.Breather == lobby.NoDelay:
		cfg.Breather = 0
	case cfg.Breather < 0:
		return nil, fmt.Errorf("events: a breather of %v: 0 for the default, lobby.NoDelay for none", cfg.Breather)
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&cfg.Linger, DefaultLinger}, {&cfg.Gather, DefaultGather}, {&cfg.KeepOver, DefaultKeepOver}, {&cfg.SaveTimeout, 10 * time.Second}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	r := &Registry{cfg: cfg, log: cfg.Log.WithPrefix("events"), events: map[string]*Event{}, opening: map[string]opening{},
		subs: map[*lobby.Mailbox[int]]struct{}{}}
	recs, err := cfg.Store.OpenEvents(ctx)
	if err != nil {
		return nil, fmt.Errorf("events: load: %w", err)
	}
	for _, rec := range recs {
		cfg.Lobby.Name(rec.Host)
		for _, en := range rec.Entrants {
			cfg.Lobby.Name(en.ID) // known before its actor shows them
		}
		r.events[strings.ToLower(rec.Name)] = newEvent(r, rec, "")
	}
	return r, nil
}

// Close stops every event's actor; each stays in storage as it is and
// goes on with the next Open.
func (r *Registry) Close() {
	r.mu.Lock()
	r.closed = true
	es := make([]*Event, 0, len(r.events))
	for _, e := range r.events {
		es = append(es, e)
	}
	subs := r.subs
	r.subs = map[*lobby.Mailbox[int]]struct{}{}
	r.mu.Unlock()
	for _, e := range es {
		e.stop()
	}
	for m := range subs {
		m.Close()
	}
}

// Create makes an event hosted by host, stored before it is shown. Its
// name follows lobby.CheckEventName and must not look like an event's not
// closed; a host past a cap is refused with a *lobby.LimitError
// (lobby.ErrTooManyEvents, lobby.ErrTooManyEventsHere).
func (r *Registry) Create(ctx context.Context, host lobby.Player, s Settings) (*Event, error) {
	if err := lobby.CheckEventName(s.Name); err != nil {
		return nil, err
	}
	rec, err := r.record(host, s)
	if err != nil {
		return nil, err
	}
	key := strings.ToLower(s.Name)
	r.mu.Lock()
	if err := r.mayCreateLocked(host, s.Name); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	r.opening[key] = opening{name: s.Name, host: host.ID, source: source(host)}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.opening, key)
		r.mu.Unlock()
	}()
	r.cfg.Lobby.Name(host.ID)
	for _, en := range rec.Entrants {
		r.cfg.Lobby.Name(en.ID)
	}
	sctx, cancel := context.WithTimeout(ctx, r.cfg.SaveTimeout)
	defer cancel()
	if err := r.cfg.Store.CreateEvent(sctx, rec); err != nil {
		if errors.Is(err, ErrEventExists) {
			return nil, ErrEventExists
		}
		return nil, fmt.Errorf("create event %s: %w", s.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosing // stored: it starts with the next Open
	}
	opened := newsOf(&rec, lobby.NewsEventOpened, r.cfg.Clock.Now()) // before its actor shares rec
	e := newEvent(r, rec, source(host))
	r.events[key] = e
	r.notifyLocked()
	r.cfg.Lobby.Publish(opened)
	r.log.Info("event made", "event", rec.Name, "host", host.ID, "format", rec.Format)
	return e, nil
}

// source is where p comes from, as the caps by source count it ("" for
// none).
func source(p lobby.Player) string {
	if lobby.Budgeted(p) {
		return p.Source
	}
	return ""
}

// mayCreateLocked checks a new event's name against the others and its
// host against the caps (r.mu held).
func (r *Registry) mayCreateLocked(host lobby.Player, name string) error {
	if r.closed {
		return ErrClosing
	}
	mine, here := 0, 0
	check := func(other, hostID, from string, access *lobby.Access) error {
		if lobby.Alike(other, name) {
			if strings.EqualFold(other, name) || access == nil || !host.Viewer().Sees(*access) {
				return ErrEventExists
			}
			return &lobby.LookalikeError{Rule: ErrEventExists, Name: name, Taken: other}
		}
		if hostID == host.ID {
			mine++
		}
		if from != "" && from == source(host) {
			here++
		}
		return nil
	}
	for _, e := range r.events {
		info := e.Info()
		a := info.Access()
		if err := check(e.name, e.host, e.source, &a); err != nil {
			return err
		}
	}
	for _, o := range r.opening {
		if err := check(o.name, o.host, o.source, nil); err != nil {
			return err
		}
	}
	if limit := r.cfg.MaxPerPerson; lobby.Capped(host) && limit >= 0 && mine >= limit {
		return &lobby.LimitError{Rule: lobby.ErrTooManyEvents, Limit: limit}
	}
	if limit := r.cfg.MaxPerSource; source(host) != "" && limit >= 0 && here >= limit {
		return &lobby.LimitError{Rule: lobby.ErrTooManyEventsHere, Limit: limit}
	}
	return nil
}

// record is a new event's record from the host's settings, checked.
func (r *Registry) record(host lobby.Player, s Settings) (Record, error) {
	now := r.cfg.Clock.Now().UTC()
	if s.Night {
		s = NightSettings(s)
	}
	if s.Format == "" {
		s.Format = Arena
	}
	if s.Who == "" {
		s.Who = Everyone
	}
	if s.Seats == 0 {
		s.Seats = DefaultSeats
	}
	switch {
	case !slices.Contains(Formats, s.Format):
		return Record{}, lobby.Reword(ErrBadSetting, "--format %s: one of arena, swiss, knockout", clean(string(s.Format)))
	case s.Who != Everyone && s.Who != People && s.Who != Bots:
		return Record{}, lobby.Reword(ErrBadSetting, "--who %s: one of everyone, people, bots", clean(string(s.Who)))
	case s.Seats < 2 || s.Seats > 12:
		return Record{}, lobby.ErrBadSeats
	case s.Lasts < 0 || s.Lasts > MaxLasts || s.Lasts != 0 && s.Lasts < time.Minute:
		return Record{}, lobby.Reword(ErrBadSetting, "--lasts %v: from 1m to %v", s.Lasts, MaxLasts)
	case s.Rounds < 0 || s.Rounds > MaxRounds:
		return Record{}, lobby.Reword(ErrBadSetting, "--rounds %d: from 1 to %d", s.Rounds, MaxRounds)
	case s.Rounds != 0 && s.Format != Swiss:
		return Record{}, lobby.Reword(ErrBadSetting, "--rounds is for a swiss event")
	case s.Lasts != 0 && s.Format != Arena:
		return Record{}, lobby.Reword(ErrBadSetting, "--lasts is for an arena")
	case !s.StartsAt.IsZero() && s.StartsAt.After(now.Add(MaxAhead)):
		return Record{}, lobby.Reword(ErrBadSetting, "--starts: at most %v ahead", MaxAhead)
	case s.Bots < 0:
		return Record{}, lobby.Reword(ErrBadSetting, "--bots %d: not a number of bots", s.Bots)
	case s.Bots > 0 && s.Who == People:
		return Record{}, lobby.Reword(ErrBadSetting, "an event for people only takes no bots")
	}
	if s.Rules == (engine.Options{}) {
		s.Rules = engine.DefaultOptions()
	}
	if most := r.cfg.MaxBots; !host.Admin && most >= 0 && s.Bots > most {
		return Record{}, &lobby.LimitError{Rule: ErrTooManyBots, Limit: most}
	}
	if s.Bots > r.cfg.MaxEntrants {
		return Record{}, &lobby.LimitError{Rule: ErrFull, Limit: r.cfg.MaxEntrants}
	}
	if err := s.Rules.Validate(); err != nil {
		return Record{}, err
	}
	level := ai.Normal
	if s.BotLevel != "" {
		l, err := ai.ParseLevel(s.BotLevel)
		if err != nil {
			return Record{}, lobby.Reword(ErrBadSetting, "--bot-level %s: one of %s", clean(s.BotLevel), ai.LevelNames(", "))
		}
		level = l
	}
	if s.Format == Arena && s.Lasts == 0 {
		s.Lasts = DefaultLasts
	}
	if s.Format == Swiss && s.Rounds == 0 {
		s.Rounds = DefaultRounds
	}
	rec := Record{
		Name: s.Name, Host: host.ID, Created: now, Format: s.Format, Who: s.Who, Private: s.Private,
		Rules: s.Rules, Seats: s.Seats, Rounds: s.Rounds, Lasts: s.Lasts, Night: s.Night, State: Scheduled,
		Entrants: []Entrant{},
	}
	if !s.StartsAt.IsZero() {
		rec.StartsAt = s.StartsAt.UTC()
		if !rec.StartsAt.After(now) {
			rec.StartsAt = now
		}
	}
	for i := range s.Bots {
		b := lobby.BuiltinBot(level, i)
		rec.Entrants = append(rec.Entrants, Entrant{ID: b.ID, Bot: true, Joined: now})
	}
	return rec, nil
}

// ErrTooManyBots is a LimitError's Rule: more built-in bots than one event
// takes.
var ErrTooManyBots = lobby.NewError(lobby.Refused, "too many bots for one event")

// clean is a value a person gave, as an error repeats it.
func clean(s string) string {
	if len(s) > 32 {
		s = s[:32] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// Event finds an event not closed by name (any case), whoever asks: for
// the server's own programs and tests. Every door asks For instead.
func (r *Registry) Event(name string) (*Event, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.events[strings.ToLower(name)]
	if e == nil {
		return nil, ErrNoEvent
	}
	return e, nil
}

// For finds the event not closed of that name for v: one that does not
// show itself to v (a private event that does not admit them) is not
// there, ErrNoEvent, the answer to a name no event has, by the same
// steps (lobby.Lobby.TableFor's rule).
func (r *Registry) For(v lobby.Viewer, name string) (*Event, error) {
	e, err := r.Event(name)
	if err != nil {
		return nil, err
	}
	if !v.Sees(e.Info().Access()) {
		return nil, ErrNoEvent
	}
	return e, nil
}

// List is the events not closed that v may see: running first, then
// those to start (soonest first), then those over.
func (r *Registry) List(v lobby.Viewer) []Info {
	r.mu.Lock()
	es := make([]*Event, 0, len(r.events))
	for _, e := range r.events {
		es = append(es, e)
	}
	r.mu.Unlock()
	var out []Info
	for _, e := range es {
		if info := e.Info(); v.Sees(info.Access()) && info.State != Closed {
			out = append(out, info)
		}
	}
	order := map[State]int{Running: 0, Stopping: 1, Scheduled: 2, Over: 3}
	slices.SortFunc(out, func(a, b Info) int {
		if c := order[a.State] - order[b.State]; c != 0 {
			return c
		}
		if c := startsAt(a).Compare(startsAt(b)); c != 0 {
			return c
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return out
}

// startsAt orders events to start: at a time first, then those their
// host starts.
func startsAt(i Info) time.Time {
	if i.StartsAt.IsZero() {
		return time.Unix(1<<40, 0)
	}
	return i.StartsAt
}

// Lookup is the event of that name as v may see it: one not closed as it
// is now, one put away as its record and its games' results in storage
// say (final standings, champion). ErrNoEvent for none v may see.
func (r *Registry) Lookup(ctx context.Context, v lobby.Viewer, name string) (Info, error) {
	if e, err := r.Event(name); err == nil {
		info := e.Info()
		if !v.Sees(info.Access()) {
			return Info{}, ErrNoEvent
		}
		return info, nil
	}
	rec, err := r.cfg.Store.Event(ctx, name)
	if err != nil {
		if errors.Is(err, ErrNoEvent) {
			return Info{}, ErrNoEvent
		}
		return Info{}, fmt.Errorf("read event %s: %w", name, err)
	}
	if !v.Sees(rec.Access()) {
		return Info{}, ErrNoEvent
	}
	e := &Event{reg: r, name: rec.Name, rec: rec, results: map[string]Result{}, pending: map[string]bool{},
		ratings: map[string]rating.Rating{}, present: map[string]int{}, live: map[string]*liveTable{}}
	for _, t := range rec.Tables {
		if t.Game == "" {
			continue
		}
		res, err := r.cfg.Store.Result(ctx, t.Game)
		if err != nil {
			return Info{}, fmt.Errorf("read event %s: game %s: %w", name, t.Game, err)
		}
		res.Game = t.Game
		e.results[t.Game] = res
	}
	for _, en := range rec.Entrants {
		if rt, err := r.cfg.Store.Rating(ctx, en.ID); err == nil {
			e.ratings[en.ID] = rt
		}
	}
	return *e.build(), nil
}

// retire takes an event put away out of the registry and stops its actor
// (not from the actor itself).
func (r *Registry) retire(e *Event) {
	r.mu.Lock()
	if r.events[strings.ToLower(e.name)] == e {
		delete(r.events, strings.ToLower(e.name))
	}
	r.notifyLocked()
	r.mu.Unlock()
	e.stop()
}

// Subscribe returns a mailbox that gets a new version number whenever
// the list of events changes (List).
func (r *Registry) Subscribe() *lobby.Mailbox[int] {
	m := lobby.NewMailbox[int]()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		m.Close()
		return m
	}
	r.subs[m] = struct{}{}
	m.Put(r.ver)
	return m
}

// Unsubscribe drops a mailbox of Subscribe and closes it.
func (r *Registry) Unsubscribe(m *lobby.Mailbox[int]) {
	r.mu.Lock()
	delete(r.subs, m)
	r.mu.Unlock()
	m.Close()
}

func (r *Registry) notify() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notifyLocked()
}

func (r *Registry) notifyLocked() {
	r.ver++
	for m := range r.subs {
		m.Put(r.ver)
	}
}
