// Package verdict is the one home of the verdicts on a game's moves at
// the doors (engine/solver judges them): whether a game's verdicts may be
// shown at all (only once it has ended: Of refuses a game still played),
// the verdicts kept once worked out (Judge), the solves they start
// budgeted by the asker's network source (Budget, lobby.Solves: a rule
// set's first solve takes a core for seconds to minutes), and their JSON
// in the replay document (PROTOCOL.md §3). The coach of a practice
// table (Coach) is the one exception, and shows a player only the
// verdict on their own move; its solves (Judge.Coach) are budgeted by
// the table's source.
//
// Its room: the doors' side of the solver. It may import engine,
// engine/solver, lobby/words and store; the doors (sshapp/command,
// sshapp/tui, sshapp/web, sshapp/plain) import it.
package verdict

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
	"github.com/mia-game/mia/store"
)

// ErrRunning refuses the verdicts of a game that has not ended: its
// players' dice are still hidden, and a verdict would tell of them.
var ErrRunning error = &Error{refused, "the game is still being played: its verdicts wait until it ends"}

// ErrNotReady is a verdict not worked out before the caller's context
// ended: the work goes on and is kept, so asking again soon answers.
var ErrNotReady error = &Error{unavailable, "the verdicts are still being worked out; ask again in a few seconds"}

// ErrUnsolved matches the budget's refusal of a new solve (Budget): the
// game's rule set is not solved, and is not solved now for the asker.
// The error matches the budget's own error too, whose sentence a door
// shows (lobby.Shown).
var ErrUnsolved error = &Error{unavailable, "verdicts for these rules are not computed yet; try later"}

// Analysis is the verdict on every move of a game (engine/solver): the
// doors name it by this package, their one way to the solver.
type Analysis = solver.Analysis

// Mark is a move's mark (engine/solver): Good, or an inaccuracy, a
// mistake or a blunder by the lives it gave away.
type Mark = solver.Mark

// The marks.
const (
	Good       = solver.Good
	Inaccuracy = solver.Inaccuracy
	Mistake    = solver.Mistake
	Blunder    = solver.Blunder
)

// Shown reports whether a door may show g's verdicts: g has ended
// (finished or abandoned).
func Shown(g store.Game) bool { return !g.Ended.IsZero() }

// Kept is how many games' verdicts a Judge keeps in memory, the one
// used longest ago dropped first.
const Kept = 64

// Wait is how long a door waits for verdicts before it shows the game
// without them (a rule set solved for the first time takes seconds;
// once solved, a game takes milliseconds).
const Wait = 15 * time.Second

// ErrOff is the answer of a server without verdicts (a nil Judge).
var ErrOff error = &Error{refused, "this server gives no verdicts on moves"}

// Judge works out the verdicts on finished games' moves and keeps them
// (Kept): a finished game never changes. A nil Judge gives none
// (ErrOff): the doors of a server, or of a test, without one show the
// games as before. Many goroutines may use one.
type Judge struct {
	budget  Budget
	mu      sync.Mutex
	m       map[key]*job
	tick    uint64
	pending int // jobs not done
	wg      sync.WaitGroup
}

// Budget admits the work that solves a rule set asked from a source
// (lobby.Solves.Admit: free when it is solved or being solved, else a
// new solve, counted): done gives back what it took once the work ends;
// err, a refusal, is the door's to say.
type Budget interface {
	Admit(source string, r solver.Rules) (done func(), err error)
}

// Pending is how many games' verdicts a Judge works out at once, the
// ones waiting for a solve counted; past it Of answers ErrNotReady.
const Pending = 256

// New is a Judge with nothing kept yet, whose solves no budget counts.
func New() *Judge { return NewBudgeted(nil) }

// NewBudgeted is a Judge whose new solves b admits (nil: all).
func NewBudgeted(b Budget) *Judge {
	return &Judge{budget: b, m: map[key]*job{}}
}

// key tells one game's verdicts apart: games of different stores (tests)
// may share an id, never their events.
type key struct {
	id  string
	sum uint64
}

type job struct {
	done chan struct{}
	a    Analysis
	err  error
	used uint64
}

// Of is the verdict on every move of g, whose events are evs, asked from
// source (the network source the budget counts, "" for none): refused
// with ErrRunning while g has not ended, with the budget's error when
// g's rule set is not solved and the budget admits no new solve from
// source, ErrNotReady if ctx ends first (the work goes on, and is
// kept) or Pending games are being worked out already.
func (jd *Judge) Of(ctx context.Context, source string, g store.Game, evs []engine.Event) (Analysis, error) {
	if jd == nil {
		return Analysis{}, ErrOff
	}
	if !Shown(g) {
		return Analysis{}, ErrRunning
	}
	j, err := jd.start(source, g, evs)
	if err != nil {
		return Analysis{}, err
	}
	return j.wait(ctx, g)
}

// start is the job of g's verdicts: the one kept or under way, else a
// new one, if the budget and Pending let it begin.
func (jd *Judge) start(source string, g store.Game, evs []engine.Event) (*job, error) {
	k := key{id: g.ID, sum: sum(g, evs)}
	jd.mu.Lock()
	defer jd.mu.Unlock()
	jd.tick++
	if j, ok := jd.m[k]; ok {
		j.used = jd.tick
		return j, nil
	}
	if jd.pending >= Pending {
		return nil, ErrNotReady
	}
	solved, err := jd.admit(source, g.Rules)
	if err != nil {
		return nil, fmt.Errorf("verdict of game %s: %w: %w", g.ID, ErrUnsolved, err)
	}
	j := &job{done: make(chan struct{}), used: jd.tick}
	jd.m[k] = j
	jd.pending++
	jd.forget()
	rules, seats, evs := g.Rules, len(g.Seats), append([]engine.Event(nil), evs...)
	jd.wg.Add(1)
	go func() {
		defer jd.wg.Done()
		defer close(j.done)
		defer func() {
			jd.mu.Lock()
			jd.pending--
			solved()
			jd.mu.Unlock()
		}()
		defer func() {
			if r := recover(); r != nil {
				j.err = fmt.Errorf("verdict: game %s: %v", k.id, r)
			}
		}()
		j.a, j.err = solver.Analyse(rules, seats, evs)
	}()
	return j, nil
}

// wait is the job's verdicts on g, or ErrNotReady if ctx ends first.
func (j *job) wait(ctx context.Context, g store.Game) (Analysis, error) {
	select {
	case <-j.done:
		if j.err != nil {
			return Analysis{}, fmt.Errorf("verdict of game %s: %w", g.ID, j.err)
		}
		return j.a, nil
	case <-ctx.Done():
		return Analysis{}, ErrNotReady
	}
}

// Solved reports whether the verdicts on a game of rules would start no
// new solve: its rule set (both players' lives at most the penalty) is
// solved and kept.
func Solved(rules engine.Options) bool {
	main, err := solver.Of(rules, 0, 0)
	return err == nil && solver.Ready(main)
}

// admit asks the budget for the solve of a game of opts: its main rule
// set, both players' lives at most the penalty (every game's first round
// plays it; a game's later rounds may need a variant with fewer lives,
// solved on the same admission). solved, called once the work is done,
// frees what it took.
func (jd *Judge) admit(source string, opts engine.Options) (solved func(), err error) {
	main, err := solver.Of(opts, 0, 0)
	if jd.budget == nil || err != nil {
		return func() {}, nil // a bad rule set fails in Analyse, and says why
	}
	return jd.budget.Admit(source, main)
}

// Drain waits until every verdict begun is worked out (a server's end,
// a test's).
func (jd *Judge) Drain() {
	if jd != nil {
		jd.wg.Wait()
	}
}

// forget drops the finished verdict used longest ago past Kept; under
// jd.mu.
func (jd *Judge) forget() {
	for len(jd.m) > Kept {
		var old key
		var oldest *job
		for k, j := range jd.m {
			select {
			case <-j.done:
			default:
				continue // still being worked out: someone waits for it
			}
			if oldest == nil || j.used < oldest.used {
				old, oldest = k, j
			}
		}
		if oldest == nil {
			return
		}
		delete(jd.m, old)
	}
}

// sum tells a game's events apart from another's of the same id.
func sum(g store.Game, evs []engine.Event) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, g.Started.UnixNano(), g.Rules, len(g.Seats))
	for _, e := range evs {
		fmt.Fprint(h, e.Seq, e.Type, e.Seat, e.Dice, e.Value, e.Looked, e.LivesLost, ";")
	}
	return h.Sum64()
}
