package events

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
)

// Info is an event as everyone who may see it sees it, at one moment:
// made by its actor at each change, never changed after.
type Info struct {
	Name     string
	Host     string // its host's name now
	HostID   string
	Format   Format
	Who      Who
	State    State
	Private  bool
	Night    bool
	Seats    int
	Rounds   int // Swiss: the rounds it plays
	Round    int // Swiss and knockout: the round in play
	Rules    engine.Options
	Lasts    time.Duration
	Created  time.Time
	StartsAt time.Time // zero: when its host starts it
	Started  time.Time
	Ends     time.Time // an arena's end of seating
	Ended    time.Time
	// Door is the table of the Mäxchen gateway while it is the event's
	// door (Registry.DoorGame); "" for none.
	Door string
	// DoorGames is how many games at the door count in it (not listed in
	// Games: a door deals many short ones, found in its table's history).
	DoorGames int
	// Entrants is how many are in it (not those who left).
	Entrants  int
	Standings []Standing // best first
	Tables    []TableNow // its tables open now
	Games     []Game     // every game it dealt, in the order dealt
	// Final: the event is over (or closed) and every result is counted:
	// the standings are final, and Champion is the first of them.
	Final    bool
	Champion *Standing
	Version  uint64

	access lobby.Access
}

// Access is who may see the event (lobby.Viewer.Sees). It holds its web
// link's token: never show it to whoever may not hold it.
func (i Info) Access() lobby.Access { return i.access }

// Link is the token of the event's web link ("" for none); for its host's
// eyes only.
func (i Info) Link() string { return i.access.Link }

// Standing is one entrant's line of the standings.
type Standing struct {
	Place int // 1 for the first; ties share none
	Score
	Name   string // their name now
	Bot    bool   // they sit as a bot
	Rating rating.Rating
	Rated  bool // Rating is read (overall, all time)
	// Where is what they do now: "playing" (at Table), "waiting" (free
	// and there: seated at the next table), "away" (not there: seated
	// once back), "left", "out" (a knockout put them out), or "door" (a
	// bot of the event's door, which the Mäxchen gateway seats at its
	// table, Table), "entered" (before it starts), "finished" (it seats
	// them no more: it is finishing its last games); "" once the event is
	// over.
	Where string
	Table string
}

// TableNow is one of the event's tables open now.
type TableNow struct {
	Name    string
	Round   int
	Game    string
	Players []string // the names of its players now
	Playing bool     // its game runs (else it has ended, and the table closes soon)
}

// Game is one game the event dealt.
type Game struct {
	ID      string
	Table   string
	Round   int
	Players []string // person ids, in the order dealt
	Result  *Result  // nil until read; Result.Over() once ended
}

// Seat is what an entrant who is there (Attend) is told: where they are
// dealt now, and once the event is over, their place and points.
type Seat struct {
	Event string
	Table string // the table they are dealt to now, "" between games
	State State
	// Final: the event is over and its standings final (or it was
	// closed): Place and Points are theirs.
	Final  bool
	Place  int
	Points int
	Left   bool
}

// where is what an entrant does now, and at which table.
func (e *Event) where(en Entrant, s Score, busy map[string]string) (string, string) {
	switch t, ok := busy[en.ID]; {
	case en.Left:
		return "left", ""
	case e.rec.Format == Knockout && s.Out:
		return "out", ""
	case ok:
		return "playing", t
	case e.rec.State == Over || e.rec.State == Closed:
		return "", ""
	case en.Door:
		return "door", e.rec.Door
	case e.rec.State == Scheduled:
		return "entered", ""
	case e.rec.State == Stopping || e.rec.Format == Swiss && e.rec.Round >= e.rec.Rounds:
		return "finished", "" // it seats them no more: its last games are being played
	case e.here(en):
		return "waiting", ""
	}
	return "away", ""
}

// busyShown is where each entrant at a table plays, as the standings show
// it: a game over whose result is still being read (readResults) is shown
// as played on, so that whoever is told a game of theirs is over (Seat,
// the standings) sees it counted.
func (e *Event) busyShown() map[string]string {
	busy := e.rec.busy()
	for _, t := range e.rec.Tables {
		if !t.Done || t.Game == "" || !e.pending[t.Game] {
			continue
		}
		for _, id := range t.Players {
			if _, ok := busy[id]; !ok {
				busy[id] = t.Name
			}
		}
	}
	return busy
}

// resultPending reports whether the table's game is over and its result
// still being read (busyShown), the table perhaps closed meanwhile.
func (e *Event) resultPending(table string) bool {
	for _, t := range e.rec.Tables {
		if t.Name == table && t.Done && t.Game != "" && e.pending[t.Game] {
			return true
		}
	}
	return false
}

// build makes the event's Info now.
func (e *Event) build() *Info {
	r := &e.rec
	name := e.reg.cfg.Lobby.Name
	info := &Info{
		Name: r.Name, Host: name(r.Host), HostID: r.Host, Format: r.Format, Who: r.Who, State: r.State,
		Private: r.Private, Night: r.Night, Seats: r.Seats, Rounds: r.Rounds, Round: r.Round, Rules: r.Rules, Lasts: r.Lasts,
		Created: r.Created, StartsAt: r.StartsAt, Started: r.Started, Ends: r.Ends, Ended: r.Ended,
		Door: r.Door, Version: e.ver, access: r.Access(),
	}
	info.access.Members = slices.Clone(r.Members)
	busy := e.busyShown()
	byID := make(map[string]Entrant, len(r.Entrants))
	for _, en := range r.Entrants {
		byID[en.ID] = en
		if !en.Left {
			info.Entrants++
		}
	}
	for i, s := range Tally(r, e.results) {
		en := byID[s.ID]
		st := Standing{Place: i + 1, Score: s, Name: name(s.ID), Bot: en.Bot}
		st.Rating, st.Rated = e.ratings[s.ID]
		st.Where, st.Table = e.where(en, s, busy)
		info.Standings = append(info.Standings, st)
	}
	for _, t := range r.Tables {
		g := Game{ID: t.Game, Table: t.Name, Round: t.Round, Players: t.Players}
		if res, ok := e.results[t.Game]; ok && t.Game != "" {
			res := res
			g.Result = &res
		}
		if t.Game != "" {
			info.Games = append(info.Games, g)
		}
		if _, open := e.live[t.Name]; open {
			tn := TableNow{Name: t.Name, Round: t.Round, Game: t.Game, Playing: !t.Done}
			for _, id := range t.Players {
				tn.Players = append(tn.Players, name(id))
			}
			info.Tables = append(info.Tables, tn)
		}
	}
	info.DoorGames = len(r.DoorGames)
	info.Final = (r.State == Over || r.State == Closed) && len(e.pending) == 0
	if info.Final && len(info.Standings) > 0 && r.Concluded && info.Standings[0].Games+info.Standings[0].Byes > 0 {
		c := info.Standings[0]
		info.Champion = &c
	}
	return info
}

// publish makes the event's Info and keeps it; it reports whether what
// the list of events shows of it changed.
func (e *Event) publish() bool {
	info := e.build()
	old := e.info.Swap(info)
	return old == nil || old.State != info.State || old.Entrants != info.Entrants || old.Round != info.Round ||
		len(old.Tables) != len(info.Tables) || !old.StartsAt.Equal(info.StartsAt) || old.Final != info.Final ||
		old.Private != info.Private || !slices.Equal(old.access.Members, info.access.Members)
}

// changed publishes the event to everyone who follows it: its watchers,
// the entrants who are there, and the list of events when it shows a
// change.
func (e *Event) changed() {
	e.ver++
	listed := e.publish()
	info := e.info.Load()
	e.tellEnded(info)
	for m := range e.watchers {
		m.Put(*info)
	}
	for a := range e.atts {
		a.box.Put(e.seatOf(info, a.id))
	}
	if listed {
		e.reg.notify()
	}
}

// seatOf is what the entrant id is told now.
func (e *Event) seatOf(info *Info, id string) Seat {
	s := Seat{Event: e.name, State: info.State, Final: info.Final}
	for _, st := range info.Standings {
		if st.ID == id {
			s.Place, s.Points, s.Left = st.Place, st.Points, st.Left
			if _, open := e.live[st.Table]; open || e.resultPending(st.Table) {
				s.Table = st.Table // dealt there: its game has begun (and is not counted yet)
			}
			break
		}
	}
	return s
}

// stopped ends the event's followers as its actor stops: their mailboxes
// close.
func (e *Event) stopped() {
	for m := range e.watchers {
		m.Close()
	}
	for a := range e.atts {
		a.box.Close()
	}
	for _, lt := range e.live {
		lt.sub.Close()
	}
}

// Attendance is an entrant who is there: a person with the event's
// screen open, a bot of the line protocol connected. While one is open,
// the event seats them; its mailbox tells them where (Seat), at every
// change. Close it when they go.
type Attendance struct {
	e    *Event
	id   string
	box  *lobby.Mailbox[Seat]
	once sync.Once
}

// Ready is signalled when a Seat waits; then call Take.
func (a *Attendance) Ready() <-chan struct{} { return a.box.Ready() }

// Take returns the newest Seat.
func (a *Attendance) Take() (Seat, bool) { return a.box.Take() }

// Done is closed when the event stops (the server shuts down, or it was
// put away).
func (a *Attendance) Done() <-chan struct{} { return a.box.Done() }

// Close says the entrant has gone: they are seated no more until back.
func (a *Attendance) Close() {
	a.once.Do(func() {
		a.box.Close()
		a.e.post(func(actx context.Context) {
			if _, ok := a.e.atts[a]; !ok {
				return
			}
			delete(a.e.atts, a)
			if a.e.present[a.id]--; a.e.present[a.id] <= 0 {
				delete(a.e.present, a.id)
			}
			a.e.safeSettle(actx)
		})
	})
}

// Attend marks p, an entrant, there until the Attendance is closed: the
// event seats them meanwhile. p sits as they joined, a person or a bot
// (ErrAsBot, ErrAsPerson).
func (e *Event) Attend(ctx context.Context, p lobby.Player) (*Attendance, error) {
	return doValue(ctx, e, func(actx context.Context) (*Attendance, error) {
		if !e.sees(p) {
			return nil, ErrNoEvent
		}
		i := e.rec.entrant(p.ID)
		if i < 0 || e.rec.Entrants[i].Left {
			return nil, ErrNotEntrant
		}
		switch en := e.rec.Entrants[i]; {
		case en.Bot && !p.Bot:
			return nil, ErrAsBot
		case !en.Bot && p.Bot:
			return nil, ErrAsPerson
		}
		a := &Attendance{e: e, id: p.ID, box: lobby.NewMailbox[Seat]()}
		e.atts[a] = struct{}{}
		if e.present[p.ID] == 0 {
			e.freeSince[p.ID] = e.reg.cfg.Clock.Now()
		}
		e.present[p.ID]++
		if err := e.settle(actx); err != nil {
			return a, err
		}
		a.box.Put(e.seatOf(e.info.Load(), p.ID))
		return a, nil
	})
}
