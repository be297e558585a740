package lobby

import (
	"context"
	"runtime/debug"
	"time"
)

// The table's one loop. A table is an actor: one goroutine (loop) owns its
// state and takes, one at a time, the requests of its methods (do), the
// functions posted to it (post: a subscription's end, the actor's own
// follow-ups) and its timers (after). It has two states: playing, and
// paused while a write to storage has not been saved (pause.go). The
// state is the loop's, not a request's: a request whose write stalls is
// answered at once, and what it still had to do waits in the pause
// (save's then) until storage answers. While paused the loop refuses
// every request but watching and chat (doEvenPaused), holds the timers
// that come due, and drops the stale ones: no timer callback checks the
// pause or a counter of its own.
func (t *Table) loop() {
	defer close(t.done)
	actx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer t.closePosts()
	for {
		var settled <-chan struct{}
		if t.pause != nil {
			settled = t.pause.settled() // nil while a failed write waits for its retry
		}
		select {
		case r := <-t.reqs:
			t.run(actx, r)
		case <-t.wake:
			t.runPosted(actx)
		case <-settled:
			t.safely(actx, t.settle)
		case <-t.quit:
			for k := range t.timers {
				t.cancelTimer(timerKind(k))
			}
			for s := range t.subs {
				s.end(&EndError{Why: ErrLobbyClosed, Table: t.name}) // unless Close ended it first
			}
			return
		}
	}
}

// do runs fn in the actor and returns its error. fn gets the actor's
// context (actx), which lasts as long as the table, not the caller's:
// once the actor has taken the request it runs to its end (each store
// write in it bounded by SaveTimeout; see save) and its caller waits for
// the answer. Until then a caller whose ctx ends gets ctx.Err(), and fn
// never runs. While the table is paused, fn is refused with ErrPaused.
func (t *Table) do(ctx context.Context, fn func(actx context.Context) error) error {
	return Call(ctx, t.reqs, t.done, NewRequest(fn), ErrTableClosed)
}

// doEvenPaused is do for a request that runs while the table is paused:
// one that changes no game and needs no write to storage (watching; chat,
// said all the same when it cannot be kept; what storage changed already,
// such as a person's new name).
func (t *Table) doEvenPaused(ctx context.Context, fn func(actx context.Context) error) error {
	r := NewRequest(fn)
	r.paused = true
	return Call(ctx, t.reqs, t.done, r, ErrTableClosed)
}

// doValue is do for a request that gives a value as well as an error (the
// zero value when the table stopped before it ran).
func doValue[V any](ctx context.Context, t *Table, fn func(actx context.Context) (V, error)) (V, error) {
	return CallValue(ctx, t.do, fn)
}

// run runs one request in the actor, unless its caller gave up on it.
func (t *Table) run(actx context.Context, r *Request) {
	if !r.Take() {
		return
	}
	switch {
	case t.closed:
		r.Answer(ErrTableClosed)
		return
	case t.pause != nil && !r.paused:
		r.Answer(ErrPaused)
		return
	}
	t.inRequest = true
	err := errRequestPanicked
	defer func() {
		t.inRequest = false
		r.Answer(err)
	}()
	t.safely(actx, func(actx context.Context) { err = r.Run(actx) })
}

// errRequestPanicked answers a request that panicked (logged by safely).
var errRequestPanicked = NewError(Internal, "internal error at the table")

// safely runs fn in the actor; a panic in it is logged and the table goes
// on.
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
// order, paused or not; once the table has stopped they are dropped.
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

// timerKind is what a table's timer is for. A table has at most one timer
// of each kind: setting one replaces the last.
type timerKind int

const (
	// turnClock times out the player whose turn it is (arm). It stands
	// still while the table is paused and starts afresh when it resumes.
	turnClock timerKind = iota
	// botMove plays a built-in bot's move (scheduleBot).
	botMove
	// nextGame starts the next game of a full table (scheduleRestart).
	nextGame
	// retryWrite tries again a write that failed on a failing disk
	// (pause.go); it is the pause's own, so it runs while paused.
	retryWrite
	// idleBots lets a table of bots that nobody has open rest
	// (budget.go).
	idleBots

	timerKinds
)

var timerNames = [timerKinds]string{"turn clock", "bot move", "next game", "retry write", "idle bots"}

func (k timerKind) String() string { return timerNames[k] }

// timer is one timer of a table: what it is for (kind, and seq: the game
// seq a move is scheduled for) and what it runs, in the actor.
type timer struct {
	kind timerKind
	seq  int
	fn   func(actx context.Context)
	stop func() bool
	due  bool // came due while the table was paused: runs as it resumes
}

// after sets the table's timer of kind k: fn runs in the actor once d has
// passed (at once if d <= 0), unless the timer is replaced or cancelled
// first. A timer that comes due while the table is paused is held and
// runs once, as the table resumes (see fire). It returns the timer.
func (t *Table) after(k timerKind, d time.Duration, fn func(actx context.Context)) *timer {
	t.cancelTimer(k)
	tm := &timer{kind: k, fn: fn}
	t.timers[k] = tm
	fire := func(actx context.Context) { t.fire(actx, tm) }
	if d <= 0 {
		tm.stop = func() bool { return false }
		t.post(fire)
		return tm
	}
	tm.stop = t.lobby.cfg.Clock.AfterFunc(d, func() { t.post(fire) })
	return tm
}

// cancelTimer stops the table's timer of kind k, if one is set.
func (t *Table) cancelTimer(k timerKind) {
	if tm := t.timers[k]; tm != nil {
		tm.stop()
		t.timers[k] = nil
	}
}

// fire runs the timer tm in the actor, as it comes due: a timer replaced
// or cancelled meanwhile is stale and dropped; while the table is paused,
// held (runHeld runs it as the table resumes) unless it is the pause's
// own.
func (t *Table) fire(actx context.Context, tm *timer) {
	switch {
	case t.timers[tm.kind] != tm:
		return
	case t.pause != nil && tm.kind != retryWrite:
		tm.due = true
		return
	}
	t.timers[tm.kind] = nil
	tm.fn(actx)
}

// runHeld runs, once each, the timers that came due while the table was
// paused and are still set.
func (t *Table) runHeld(actx context.Context) {
	for k := range t.timers {
		if tm := t.timers[k]; tm != nil && tm.due && t.pause == nil {
			t.timers[k] = nil
			tm.fn(actx)
		}
	}
}
