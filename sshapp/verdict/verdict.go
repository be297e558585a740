// Package verdict is the one home of the verdicts on a game's moves at
// the doors (engine/solver judges them): whether a game's verdicts may be
// shown at all (only once it has ended: Of refuses a game still played),
// the verdicts kept once worked out (Judge), and their JSON in the replay
// document (PROTOCOL.md §3). The coach of a practice table (Coach) is the
// one exception, and shows a player only the verdict on their own move.
//
// Its room: the doors' side of the solver. It may import engine,
// engine/solver, lobby/words and store; the doors (sshapp/command,
// sshapp/tui, sshapp/web, sshapp/plain) import it.
package verdict

import (
	"context"
	"errors"
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
var ErrRunning = errors.New("the game is still being played: its verdicts wait until it ends")

// ErrNotReady is a verdict not worked out before the caller's context
// ended: the work goes on and is kept, so asking again soon answers.
var ErrNotReady = errors.New("the verdicts are still being worked out; ask again in a few seconds")

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
var ErrOff = errors.New("this server gives no verdicts on moves")

// Judge works out the verdicts on finished games' moves and keeps them
// (Kept): a finished game never changes. A nil Judge gives none
// (ErrOff): the doors of a server, or of a test, without one show the
// games as before. Many goroutines may use one.
type Judge struct {
	mu   sync.Mutex
	m    map[key]*job
	tick uint64
	wg   sync.WaitGroup
}

// New is a Judge with nothing kept yet.
func New() *Judge { return &Judge{m: map[key]*job{}} }

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

// Of is the verdict on every move of g, whose events are evs: refused
// with ErrRunning while g has not ended, ErrNotReady if ctx ends first
// (the work goes on, and is kept).
func (jd *Judge) Of(ctx context.Context, g store.Game, evs []engine.Event) (Analysis, error) {
	if jd == nil {
		return Analysis{}, ErrOff
	}
	if !Shown(g) {
		return Analysis{}, ErrRunning
	}
	k := key{id: g.ID, sum: sum(g, evs)}
	jd.mu.Lock()
	jd.tick++
	j, ok := jd.m[k]
	if !ok {
		j = &job{done: make(chan struct{})}
		jd.m[k] = j
		jd.forget()
		rules, seats, evs := g.Rules, len(g.Seats), append([]engine.Event(nil), evs...)
		jd.wg.Add(1)
		go func() {
			defer jd.wg.Done()
			defer close(j.done)
			defer func() {
				if r := recover(); r != nil {
					j.err = fmt.Errorf("verdict: game %s: %v", k.id, r)
				}
			}()
			j.a, j.err = solver.Analyse(rules, seats, evs)
		}()
	}
	j.used = jd.tick
	jd.mu.Unlock()
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
