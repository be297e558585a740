package events

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/mia-game/mia/lobby"
)

// The event's one loop, in the house style of a table's (lobby/loop.go):
// one goroutine owns the event's state and takes, one at a time, the
// requests of its methods (do), the functions posted to it (post: what
// its tables and storage answer, off the loop) and its timers (after).
// It never waits on a table or on a read of storage: those run on
// goroutines of their own and post their answers back. Its writes of
// its record are bounded by the registry's SaveTimeout (save).
func (e *Event) loop() {
	defer close(e.done)
	defer e.closePosts()
	actx := e.ctx
	e.safely(actx, e.resume) // first, before any request
	for {
		select {
		case r := <-e.reqs:
			e.run(actx, r)
		case <-e.wake:
			e.runPosted(actx)
		case <-e.quit:
			for k := range e.timers {
				e.cancel(k)
			}
			e.stopped()
			return
		}
	}
}

// do runs fn in the actor and returns its error (a table's request:
// lobby.Call).
func (e *Event) do(ctx context.Context, fn func(actx context.Context) error) error {
	return lobby.Call(ctx, e.reqs, e.done, lobby.NewRequest(fn), ErrClosing)
}

// doValue is do for a request that gives a value too.
func doValue[V any](ctx context.Context, e *Event, fn func(actx context.Context) (V, error)) (V, error) {
	return lobby.CallValue(ctx, e.do, fn)
}

func (e *Event) run(actx context.Context, r *lobby.Request) {
	if !r.Take() {
		return
	}
	err := errPanicked
	defer func() { r.Answer(err) }()
	e.safely(actx, func(actx context.Context) { err = r.Run(actx) })
}

// errPanicked answers a request that panicked (logged by safely).
var errPanicked = lobby.NewError(lobby.Internal, "internal error at the event")

// safely runs fn in the actor; a panic in it is logged and the event
// goes on.
func (e *Event) safely(actx context.Context, fn func(context.Context)) {
	defer func() {
		if r := recover(); r != nil {
			e.reg.log.Error("event request panicked", "event", e.name, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn(actx)
}

// post queues fn for the actor and returns at once; once the event has
// stopped, it is dropped.
func (e *Event) post(fn func(actx context.Context)) {
	e.postMu.Lock()
	if e.postClosed {
		e.postMu.Unlock()
		return
	}
	e.posted = append(e.posted, fn)
	e.postMu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

func (e *Event) runPosted(actx context.Context) {
	e.postMu.Lock()
	fns := e.posted
	e.posted = nil
	e.postMu.Unlock()
	for i, fn := range fns {
		e.safely(actx, fn)
		fns[i] = nil
	}
}

func (e *Event) closePosts() {
	e.postMu.Lock()
	e.postClosed, e.posted = true, nil
	e.postMu.Unlock()
}

// stop ends the actor and waits for it; safe to call more than once, not
// from the actor itself.
func (e *Event) stop() {
	e.stopOnce.Do(func() {
		close(e.quit)
		e.cancelCtx()
	})
	<-e.done
}

// timer is one of the event's timers, by key: one timer a key, setting
// one replaces the last.
type timer struct {
	key  string
	fn   func(actx context.Context)
	stop func() bool
}

// The keys of the event's timers; a table's are keyed by its name too.
const (
	timerStart  = "start"  // a scheduled event starts
	timerEnd    = "end"    // an arena's time is up
	timerGather = "gather" // free entrants too few for a full table have waited enough
	timerSave   = "save"   // the record is saved again after a failed write
	timerKeep   = "keep"   // an event over is put away
	timerRetry  = "retry"  // seat again after a table could not open
	timerClose  = "close:" // + a table's name: close it after its game
	timerResult = "result:"
	timerRest   = "rest" // a person's breather after a game is over
	timerDoor   = "door" // the games counted at the door are saved and shown, at most once a second
)

// after sets the timer of key: fn runs in the actor once d has passed (at
// once if d <= 0), unless the timer is replaced or cancelled first.
func (e *Event) after(key string, d time.Duration, fn func(actx context.Context)) {
	e.cancel(key)
	tm := &timer{key: key, fn: fn}
	e.timers[key] = tm
	fire := func(actx context.Context) {
		if e.timers[key] != tm {
			return // replaced or cancelled meanwhile
		}
		delete(e.timers, key)
		tm.fn(actx)
	}
	if d <= 0 {
		tm.stop = func() bool { return false }
		e.post(fire)
		return
	}
	tm.stop = e.reg.cfg.Clock.AfterFunc(d, func() { e.post(fire) })
}

// cancel stops the timer of key, if one is set.
func (e *Event) cancel(key string) {
	if tm := e.timers[key]; tm != nil {
		tm.stop()
		delete(e.timers, key)
	}
}
