package lobby

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/lobby/words"
)

// The server's budget that fresh keys cannot multiply: caps counted by
// the network source a table was opened from (Player.Source: an IPv4
// address or an IPv6 /64), whatever the keys, besides the caps per person
// (limits.go); and how long a table of bots plays on with nobody there.
const (
	// DefaultMaxTablesPerSource is how many open tables may be opened
	// from one source (Config.MaxTablesPerSource).
	DefaultMaxTablesPerSource = 10
	// DefaultMaxBotTablesPerSource is how many tables whose every seat
	// is a built-in bot may be filled from one source
	// (Config.MaxBotTablesPerSource).
	DefaultMaxBotTablesPerSource = 2
	// DefaultMaxBotTables is how many tables of built-in bots only the
	// server runs at once, admins' aside (Config.MaxBotTables).
	DefaultMaxBotTables = 8
	// DefaultBotTableIdle is how long a table of bots plays on while
	// nobody has it open (Config.BotTableIdle).
	DefaultBotTableIdle = 5 * time.Minute
)

// The rules of the budget: LimitError's Rule.
var (
	ErrTooManyTablesHere    = NewError(Refused, "too many open tables from one address")
	ErrTooManyBotTablesHere = NewError(Refused, "too many tables of bots only from one address")
	ErrTooManyBotTables     = NewError(Refused, "too many tables of bots only on the server")
	// ErrTooManyEventsHere: as many events not closed were made from the
	// source as one may (lobby/events counts them).
	ErrTooManyEventsHere = NewError(Refused, "too many events from one address")
)

// Budgeted reports whether the caps by source hold for p (budgeted): the
// rule lobby/events counts the events made from a source by.
func Budgeted(p Player) bool { return budgeted(p) }

// budgeted reports whether the caps by source hold for p: not an
// admin, and from a source that counts ("" is none: a loopback or exempt
// source, or the server's own programs).
func budgeted(p Player) bool { return !p.Admin && p.Source != "" }

// checkSourceLocked refuses a new table to host when
// cfg.MaxTablesPerSource open tables were opened from host's source
// already, those being written counted (l.mu held).
func (l *Lobby) checkSourceLocked(host Player) error {
	limit := l.cfg.MaxTablesPerSource
	if limit < 0 || !budgeted(host) {
		return nil
	}
	n := 0
	for _, t := range l.tables {
		if t.Info().source == host.Source {
			n++
		}
	}
	for _, from := range l.openingFrom {
		if from == host.Source {
			n++
		}
	}
	if n >= limit {
		return &LimitError{Rule: ErrTooManyTablesHere, Limit: limit}
	}
	return nil
}

// mayFillWithBots refuses the bot that would fill t's last seat, making it
// a table of bots only, when p (who adds it) is past a cap: the tables of
// bots only filled from the table's source, or on the whole server.
// Admins and sources the caps do not count (budgeted) are exempt, and
// admins' tables are not counted (keepPlaying).
func (t *Table) mayFillWithBots(p Player) error {
	if !budgeted(p) {
		return nil
	}
	perSource, all := t.lobby.cfg.MaxBotTablesPerSource, t.lobby.cfg.MaxBotTables
	here, n := 0, 0
	for _, info := range t.lobby.tableInfos() {
		if info.Name == t.name || !info.botsOnly || info.keepPlaying {
			continue
		}
		n++
		if info.source != "" && info.source == t.source {
			here++
		}
	}
	switch {
	case t.source != "" && perSource >= 0 && here >= perSource:
		return &LimitError{Rule: ErrTooManyBotTablesHere, Limit: perSource}
	case all >= 0 && n >= all:
		return &LimitError{Rule: ErrTooManyBotTables, Limit: all}
	}
	return nil
}

// tableInfos is every open table's info now.
func (l *Lobby) tableInfos() []TableInfo {
	l.mu.Lock()
	ts := l.tablesLocked()
	l.mu.Unlock()
	out := make([]TableInfo, len(ts))
	for i, t := range ts {
		out[i] = t.Info()
	}
	return out
}

// unattended reports whether t is a table of bots only that nobody has
// open (not its host either), and not an admin's: it rests after
// BotTableIdle.
func (t *Table) unattended() bool {
	return t.botsOnly() && !t.driven && !t.keepPlaying && len(t.subs) == 0
}

// watchIdle sets the idleBots timer while the table is unattended, and
// wakes a resting table as soon as it is not.
func (t *Table) watchIdle() {
	switch {
	case t.unattended():
		if t.timers[idleBots] == nil && !t.resting && t.lobby.cfg.BotTableIdle > 0 {
			t.after(idleBots, t.lobby.cfg.BotTableIdle, t.rest)
		}
	default:
		t.cancelTimer(idleBots)
		if t.resting {
			t.resting = false
			t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: words.WokenLine})
			if !t.running() {
				t.scheduleRestart()
			}
		}
	}
}

// rest lets an unattended table of bots finish its game and start no
// other until someone opens it: the idleBots timer.
func (t *Table) rest(context.Context) {
	t.resting = true
	t.cancelTimer(nextGame)
	t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: words.RestingLine(t.lobby.cfg.BotTableIdle)})
	t.lobby.log.Info("a table of bots nobody watches rests", "table", t.name, "idle", t.lobby.cfg.BotTableIdle)
	t.changed(false)
}

// The solver's work, budgeted by source: the verdicts on a game's moves
// (sshapp/verdict) need its rule set solved, which takes a core for 2.5 s
// to 6 min, one solve at a time, and the server keeps few solved. A new
// solve (a rule set neither solved nor being solved) is admitted by
// Solves.Solve: at most perSource an hour from one source, and at most
// waiting asked for and not done on the whole server, the queue of the
// solves one after another.
const (
	// DefaultMaxSolvesPerSource is how many new solves one source may
	// cause in SolveWindow (--max-solves-per-address).
	DefaultMaxSolvesPerSource = 4
	// DefaultMaxSolvesWaiting is how many new solves may be asked for and
	// not done at once, on the whole server.
	DefaultMaxSolvesWaiting = 4
	// SolveWindow is the time over which a source's solves count.
	SolveWindow = time.Hour
)

// The rules of the solver's budget: LimitError's Rule.
var (
	ErrTooManySolvesHere = NewError(Refused, "too many new rule sets solved for one address this hour")
	ErrTooManySolves     = NewError(Refused, "too many rule sets waiting to be solved on the server")
)

// Solves counts the new solves by source (Solve); many goroutines may
// use one. A source's count is forgotten SolveWindow after its last
// solve, so the map holds no more sources than solves began in an hour.
type Solves struct {
	perSource, waiting int
	now                func() time.Time

	mu   sync.Mutex
	by   map[string][]time.Time // the starts of each source's solves in the window, oldest first
	busy int                    // solves admitted and not done
	// solving are the rule sets admitted (Admit) and not done: others
	// asking for them wait for that solve, uncharged.
	solving map[solver.Rules]bool
}

// NewSolves is the budget of at most perSource new solves per source in
// SolveWindow and waiting at once (NoLimit: no cap; 0: the default), by
// now's clock (nil: time.Now).
func NewSolves(perSource, waiting int, now func() time.Time) *Solves {
	if perSource == 0 {
		perSource = DefaultMaxSolvesPerSource
	}
	if waiting == 0 {
		waiting = DefaultMaxSolvesWaiting
	}
	if now == nil {
		now = time.Now
	}
	return &Solves{perSource: perSource, waiting: waiting, now: now, by: map[string][]time.Time{}, solving: map[solver.Rules]bool{}}
}

// Admit is the one door to the solver's work for every asker (the
// verdicts, the coach, the expert bots): the work that solves r, asked
// from source, is free when r is solved (solver.Ready) or being solved
// under an earlier admission, and otherwise a new solve (Solve), counted
// and refused as Solve says. done, called once the work ends, gives back
// what it took. A nil Solves admits everything.
func (b *Solves) Admit(source string, r solver.Rules) (done func(), err error) {
	if b == nil {
		return func() {}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.solving[r] || solver.Ready(r) {
		return func() {}, nil
	}
	solved, err := b.solveLocked(source)
	if err != nil {
		return nil, err
	}
	b.solving[r] = true
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.solving, r)
			b.mu.Unlock()
			solved()
		})
	}, nil
}

// SolveSource is the source a table's solves (its coach's verdicts, its
// expert bots' strategies) are counted by: the source it was opened
// from, as the caps on tables of bots count it ("" for an admin's
// table, or one whose source is not known: one opened before the
// server's last start).
func (i TableInfo) SolveSource() string {
	if i.keepPlaying {
		return ""
	}
	return i.source
}

// SolveSource is the source p's solves are counted by: "" (no cap by
// source, the queue's aside) for whom the caps by source do not count
// (Budgeted).
func SolveSource(p Player) string {
	if !budgeted(p) {
		return ""
	}
	return p.Source
}

// Solve admits a new solve asked from source ("" counts in the queue
// only: SolveSource), or refuses it with a LimitError (ErrTooManySolves,
// ErrTooManySolvesHere); done, called once the solve ends, gives its
// place in the queue back.
func (b *Solves) Solve(source string) (done func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.solveLocked(source)
}

// solveLocked is Solve under b.mu.
func (b *Solves) solveLocked(source string) (done func(), err error) {
	if b.waiting >= 0 && b.busy >= b.waiting {
		return nil, &LimitError{Rule: ErrTooManySolves, Limit: b.waiting}
	}
	now := b.now()
	for src, starts := range b.by { // few: a source is kept an hour at most, after a solve
		k := 0
		for k < len(starts) && now.Sub(starts[k]) >= SolveWindow {
			k++
		}
		if k == len(starts) {
			delete(b.by, src)
		} else if k > 0 {
			b.by[src] = starts[k:]
		}
	}
	if source != "" && b.perSource >= 0 {
		if len(b.by[source]) >= b.perSource {
			return nil, &LimitError{Rule: ErrTooManySolvesHere, Limit: b.perSource}
		}
		b.by[source] = append(b.by[source], now)
	}
	b.busy++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.busy--
			b.mu.Unlock()
		})
	}, nil
}

// UnsolvedSaid is what a table says when the solver's budget refused
// err, a solve for the table (its coach's, its expert bots'): say's
// sentence (lobby/words: CoachUnsolved, ExpertUnsolved) for the limit
// refused, by the table's source or on the whole server.
func UnsolvedSaid(err error, say func(limit int, server bool) string) string {
	var le *LimitError
	if !errors.As(err, &le) { // Admit refuses with a LimitError only
		le = &LimitError{Rule: ErrTooManySolves, Limit: DefaultMaxSolvesWaiting}
	}
	return say(le.Limit, errors.Is(le, ErrTooManySolves))
}
