package lobby

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/words"
)

// The lobby's news: what happened at its tables, published through one
// door (Lobby.Publish) that never blocks whoever publishes. Two kinds of
// reader follow it: followers of all the news (Follow: the server's
// webhooks, sshapp/alerts), and a person's own notices (Notices: their
// screens), which hear only the news addressed to them (News.To). Each
// reader has a bounded queue (Queue): a reader that stops reading loses
// its oldest news, counted, and slows no table. A table publishes from its
// actor (tell), comparing what it shows now with what it last told;
// the other rooms publish their own (an invitation, a hook paused, the
// events' news) through Publish.

// NewsKind names a piece of news: the "type" of the webhooks' json and
// their X-Mia-Event header (sshapp/PROTOCOL.md §6).
type NewsKind string

// The kinds of news. The first are the lobby's public news, for its
// followers (and, of a public table, the server's webhooks); the personal
// ones are only for the people they are addressed to.
const (
	// NewsTableOpened: a table was opened (Table, Host, Seats, Rules).
	NewsTableOpened NewsKind = "table.opened"
	// NewsTableWaiting: a table between games has seats free and someone
	// seated (Taken of Seats), once per change of those.
	NewsTableWaiting NewsKind = "table.waiting"
	// NewsGameStarted: a game began (Game, Players by seat).
	NewsGameStarted NewsKind = "game.started"
	// NewsGameEnded: a game ended (Game, Players, Standings first to
	// last with who bluffed and who was caught).
	NewsGameEnded NewsKind = "game.ended"
	// NewsSeasonEnded: a season of the boards ended (Season).
	NewsSeasonEnded NewsKind = "season.ended"
	// NewsEventOpened: an event was made (Event; Host, Seats: of its
	// tables, Rules).
	NewsEventOpened NewsKind = "event.opened"
	// NewsEventStarted: an event began (Event).
	NewsEventStarted NewsKind = "event.started"
	// NewsEventEnded: an event came to its end and its standings are
	// final (Event; Winner: the champion's person id, "" for none).
	NewsEventEnded NewsKind = "event.ended"

	// NewsTurn: it is the person's turn at a table they do not have open
	// (Deadline: when it times out).
	NewsTurn NewsKind = "turn"
	// NewsInvited: By invited the person to a private table (Code,
	// Expires).
	NewsInvited NewsKind = "invited"
	// NewsSeatFree: a table the person asked to be told about has a seat
	// free (Taken of Seats).
	NewsSeatFree NewsKind = "seat.free"
	// NewsEventCalls: an event the person entered began while they are
	// not at it: it seats them once they are (Event); or a round of a
	// Swiss event began without them, and the next seats them once they
	// are (Event.Round).
	NewsEventCalls NewsKind = "event.calls"
	// NewsHookPaused: a webhook of the person's table failed for an hour
	// and is paused (Detail: its host).
	NewsHookPaused NewsKind = "hook.paused"
)

// Personal reports whether news of kind k is only for the people it is
// addressed to: followers of all the news never hear it.
func (k NewsKind) Personal() bool {
	switch k {
	case NewsTurn, NewsInvited, NewsSeatFree, NewsHookPaused, NewsEventCalls:
		return true
	}
	return false
}

// News is one piece of the lobby's news. It refers to people by their
// person ids (their names are looked up when shown) and to a table by its
// name, with the rule of who may see it (Access): whoever passes it on
// passes a private table's news only to those it admits.
type News struct {
	Kind NewsKind
	At   time.Time
	// To are the people it is addressed to (their notices), by person id.
	To []string

	Table  string // the table's name; "" for the season's news
	Access Access // who may see the table (holds its web link: never shown)
	Host   string // the table's host, by person id
	Seats  int
	Taken  int
	Rules  engine.Options

	Game      string     // the game's id
	Players   []NewsSeat // by seat
	Standings []NewsSeat // game.ended: first to last
	Winner    string     // game.ended: the winner's person id; season.ended, event.ended: the champion's
	Deadline  time.Time  // turn: when the turn times out
	Season    rating.Season
	By        string     // invited: who invites, by person id
	Code      string     // invited: the invite code (join TABLE CODE)
	Expires   time.Time  // invited: when the code stops working
	Event     *NewsEvent // event.*: the event (Table is "")
	Detail    string     // hook.paused: the hook's host; season.ended: the champion's rating, as shown (sshapp/alerts reads it); other rooms' news: a word of their own
}

// Public reports whether the news is of a public table (or of no table).
func (n News) Public() bool { return !n.Access.Private }

// NewsEvent is the event of an event's news (lobby/events tells them).
type NewsEvent struct {
	Name     string
	Format   string        // arena, swiss or knockout
	Rounds   int           // swiss: its rounds
	Lasts    time.Duration // arena: how long it seats
	StartsAt time.Time     // when it starts; zero when its host starts it
	Ends     time.Time     // a running arena's end of seating
	Entrants int           // how many entered (not those who left)
	Points   int           // event.ended: the champion's points
	Bot      bool          // event.ended: the champion is a bot
	// Round is, in event.calls, the Swiss round that began without them
	// (they sit it out; the next seats them once they are there); 0 when
	// the event began.
	Round int
}

// NewsSeat is a seat in a game's news.
type NewsSeat struct {
	ID     string // person id
	Bot    bool
	Lives  int
	Bluffs int // claims above the dice their player saw (engine.Bluffed)
	Caught int // bluffs a challenge caught (engine.Caught)
}

// newsroom is the lobby's readers of its news.
type newsroom struct {
	mu        sync.Mutex
	followers map[*Queue[News]]struct{}
	notices   map[string]map[*Queue[News]]struct{} // by person id
	noticeOf  map[*Queue[News]]string              // the person id of each queue in notices
	drops     atomic.Uint64                        // news dropped unread, by every reader
	published atomic.Uint64
}

// FollowBound and NoticeBound are how much news a follower of all the news
// and a person's notices hold unread; past it the oldest goes.
const (
	FollowBound = 1024
	NoticeBound = 8
)

// Publish tells the news to whoever follows it: followers of all the news
// unless it is personal, and the notices of the people it is addressed to
// (of a private table, those it admits; an invitation to it is for the
// person invited, whom it does not admit yet). News published together
// reach each reader together. It never blocks; it is the one door every
// room publishes through (a table's actor, the commands, sshapp/alerts,
// the events). A zero At is now.
func (l *Lobby) Publish(ns ...News) {
	now := l.cfg.Clock.Now().UTC()
	for i := range ns {
		if ns[i].At.IsZero() {
			ns[i].At = now
		}
	}
	r := &l.news
	r.published.Add(uint64(len(ns)))
	r.mu.Lock()
	defer r.mu.Unlock()
	var public []News
	for _, n := range ns {
		if !n.Kind.Personal() {
			public = append(public, n)
		}
	}
	if len(public) > 0 {
		for q := range r.followers {
			q.PutAll(public...)
		}
	}
	var to map[*Queue[News]][]News
	for _, n := range ns {
		for _, id := range n.To {
			if n.Kind != NewsInvited && !n.Access.Admits(id) {
				continue
			}
			for q := range r.notices[id] {
				if to == nil {
					to = make(map[*Queue[News]][]News, 2)
				}
				to[q] = append(to[q], n)
			}
		}
	}
	for q, ns := range to {
		q.PutAll(ns...)
	}
}

// Follow returns a queue of all the lobby's news but the personal, from
// now on, holding FollowBound unread. Unfollow it when done.
func (l *Lobby) Follow() *Queue[News] {
	q := NewQueue[News](FollowBound).countedIn(&l.news.drops)
	l.news.mu.Lock()
	defer l.news.mu.Unlock()
	if l.news.followers == nil {
		l.news.followers = make(map[*Queue[News]]struct{})
	}
	l.news.followers[q] = struct{}{}
	return q
}

// Notices returns a queue of the news addressed to the person id, from
// now on, holding NoticeBound unread: one for each of their screens.
// Unfollow it when done.
func (l *Lobby) Notices(id string) *Queue[News] {
	q := NewQueue[News](NoticeBound).countedIn(&l.news.drops)
	l.news.mu.Lock()
	defer l.news.mu.Unlock()
	if l.news.notices == nil {
		l.news.notices = make(map[string]map[*Queue[News]]struct{})
		l.news.noticeOf = make(map[*Queue[News]]string)
	}
	l.news.noticeOf[q] = id
	qs := l.news.notices[id]
	if qs == nil {
		qs = make(map[*Queue[News]]struct{}, 1)
		l.news.notices[id] = qs
	}
	qs[q] = struct{}{}
	return q
}

// Unfollow drops a queue from Follow or Notices and closes it.
func (l *Lobby) Unfollow(q *Queue[News]) {
	l.news.mu.Lock()
	delete(l.news.followers, q)
	if id, ok := l.news.noticeOf[q]; ok { // not a walk over everyone's: sessions end by the thousand
		delete(l.news.noticeOf, q)
		qs := l.news.notices[id]
		delete(qs, q)
		if len(qs) == 0 {
			delete(l.news.notices, id)
		}
	}
	l.news.mu.Unlock()
	q.Close()
}

// close closes every reader's queue: the lobby is closing.
func (r *newsroom) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for q := range r.followers {
		q.Close()
	}
	for _, qs := range r.notices {
		for q := range qs {
			q.Close()
		}
	}
}

// NewsStats is what the lobby counts of its news.
type NewsStats struct {
	Published uint64 // news published
	Dropped   uint64 // news a reader's queue dropped unread
	Followers int    // followers of all the news
	Noticed   int    // people whose screens hear their notices
}

// Now is the time on the lobby's clock, as News.At reads it: what
// follows the news takes it to tell the news before a moment from the
// news after it.
func (l *Lobby) Now() time.Time { return l.cfg.Clock.Now().UTC() }

// NewsStats reports the counts of the lobby's news now.
func (l *Lobby) NewsStats() NewsStats {
	l.news.mu.Lock()
	defer l.news.mu.Unlock()
	return NewsStats{Published: l.news.published.Load(), Dropped: l.news.drops.Load(),
		Followers: len(l.news.followers), Noticed: len(l.news.notices)}
}

// TellSeasons publishes season.ended as each season of p ends, from now
// on, until stop is called. Off (rating.Off) tells nothing.
func (l *Lobby) TellSeasons(p rating.Period) (stop func()) {
	if p == rating.Off {
		return func() {}
	}
	var (
		mu      sync.Mutex
		stopped bool
		cancel  func() bool
	)
	var arm func(s rating.Season)
	arm = func(s rating.Season) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		cancel = l.cfg.Clock.AfterFunc(s.End().Sub(l.cfg.Clock.Now()), func() {
			mu.Lock()
			over := stopped
			mu.Unlock()
			if !over {
				l.Publish(News{Kind: NewsSeasonEnded, Season: s})
				arm(s.Next())
			}
		})
	}
	arm(p.Of(l.cfg.Clock.Now()))
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if cancel != nil {
			cancel()
		}
	}
}

// told is what a table last told of itself (tell), owned by its actor.
type told struct {
	game      string // the game whose start was told
	over      bool   // its end was told
	turn      *timer // the turn clock of the turn told
	waitTaken int    // the seats taken and free when waiting was last told
	waitSeats int
}

// tell publishes what changed at the table since it last told: a game
// begun or ended, a new turn (to its player, unless they have the table
// open), seats free between games. It runs in the actor, after every
// change (changed).
func (t *Table) tell() {
	var news []News
	defer func() {
		if len(news) > 0 {
			t.lobby.Publish(news...)
		}
	}()
	run := t.game
	if run != nil && run.id != t.told.game {
		t.told = told{game: run.id, waitTaken: t.told.waitTaken, waitSeats: t.told.waitSeats}
		n := t.newsOf(NewsGameStarted)
		n.Players = seatsOf(run)
		n.To = t.away(run.players)
		news = append(news, n)
	}
	if run != nil && run.g.Over() && !t.told.over {
		t.told.over = true
		n := t.newsOf(NewsGameEnded)
		n.Players = seatsOf(run)
		for _, s := range run.g.Standings() {
			n.Standings = append(n.Standings, n.Players[s])
		}
		if w := run.g.Winner(); w >= 0 && w < len(run.players) {
			n.Winner = run.players[w].ID
		}
		news = append(news, n)
	}
	if tm := t.timers[turnClock]; t.running() && tm != nil && tm != t.told.turn {
		t.told.turn = tm
		p := run.players[run.g.Turn()]
		if !p.Bot && t.watchers[p.ID] == 0 {
			n := t.newsOf(NewsTurn)
			n.To, n.Deadline = []string{p.ID}, t.deadline
			news = append(news, n)
		}
	}
	taken := len(t.sitters)
	if !t.running() && taken > 0 && taken < t.rec.Seats && (taken != t.told.waitTaken || t.rec.Seats != t.told.waitSeats) {
		t.told.waitTaken, t.told.waitSeats = taken, t.rec.Seats
		news = append(news, t.newsOf(NewsTableWaiting))
	}
}

// knowSeats marks the seats as they are as told: a table that starts again
// after a restart tells only what changes from then on.
func (t *Table) knowSeats() { t.told.waitTaken, t.told.waitSeats = len(t.sitters), t.rec.Seats }

// tellOpened publishes that the table opened, at the moment it was
// created (its actor tells it a moment later: a hook set meanwhile was
// set after it, and is not told it).
func (t *Table) tellOpened() {
	n := t.newsOf(NewsTableOpened)
	n.At = t.rec.Access.Created
	t.lobby.Publish(n)
}

// newsOf is a piece of news of kind k about the table as it is now.
func (t *Table) newsOf(k NewsKind) News {
	n := News{Kind: k, Table: t.rec.Name, Access: t.rec.Access, Host: t.rec.Host, Seats: t.rec.Seats,
		Taken: len(t.sitters), Rules: t.rec.Rules}
	n.Access.Members = append([]string(nil), t.rec.Members...)
	if t.game != nil {
		n.Game = t.game.id
		if t.running() {
			n.Taken = len(t.game.players)
		}
	}
	return n
}

// away is the people among ps (never a bot) who do not have the table
// open: those its news is told to.
func (t *Table) away(ps []Player) []string {
	var out []string
	for _, p := range ps {
		if !p.Bot && t.watchers[p.ID] == 0 {
			out = append(out, p.ID)
		}
	}
	return out
}

// seatsOf is the seats of a game, with their lives and, once it is over,
// who bluffed and who was caught, by the one bluff rule (engine.JudgeAfter,
// as the stats count them: a bluff is a claim of the player's own dice
// above them, caught when a challenge or a reveal lifts it).
func seatsOf(run *gameRun) []NewsSeat {
	out := make([]NewsSeat, len(run.players))
	for i, p := range run.players {
		out[i] = NewsSeat{ID: p.ID, Bot: p.Bot, Lives: run.g.Lives(i)}
	}
	if !run.g.Over() {
		return out
	}
	seat := func(s int) *NewsSeat {
		if s >= 0 && s < len(out) {
			return &out[s]
		}
		return &NewsSeat{}
	}
	rk := run.g.Options().Ranking
	var (
		roll   engine.Event
		rolled bool
	)
	for _, e := range run.events {
		switch e.Type {
		case engine.EvRound:
			rolled = false
		case engine.EvRoll:
			roll, rolled = e, true
		}
		switch v := engine.JudgeAfter(rk, roll, rolled, e); {
		case v == engine.Bluffed && engine.Announces(roll, rolled, e):
			seat(e.Seat).Bluffs++
		case v == engine.Caught && e.Type == engine.EvChallenge:
			seat(e.Claimant).Caught++
		case v == engine.Caught && e.Type == engine.EvReveal:
			seat(e.Seat).Caught++
		}
	}
	return out
}

// Noticed is the sentence of a notice, as every door says it (the
// screens' notice line, the plain mode's line): started says a game of
// the person's started and n is its start, or its first turn told with
// it; now times the turn's clock.
func (l *Lobby) Noticed(n News, started bool, now time.Time) string {
	switch {
	case started:
		return words.YourGameStarted(n.Table, n.Kind == NewsTurn)
	case n.Kind == NewsTurn:
		return words.YourTurn(n.Table, n.Deadline.Sub(now))
	case n.Kind == NewsInvited:
		return words.InvitedYou(l.Name(n.By), n.Table)
	case n.Kind == NewsSeatFree:
		return words.SeatFree(n.Table, n.Taken, n.Seats)
	case n.Kind == NewsHookPaused:
		return words.HookPaused(n.Table, n.Detail)
	case n.Kind == NewsEventCalls && n.Event != nil && n.Event.Round > 0:
		return words.EventRoundCalls(n.Event.Name, n.Event.Round)
	case n.Kind == NewsEventCalls && n.Event != nil:
		return words.EventCalls(n.Event.Name)
	}
	return string(n.Kind) + " · " + words.Clean(n.Table, MaxNameLen)
}
