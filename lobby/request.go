package lobby

import (
	"context"
	"sync/atomic"
)

// Request is one call of an actor's method (a table's, an event's), run
// by the actor. The caller may give up on it (its ctx ended) only until
// the actor takes it: from then on the caller waits for its answer, so
// that a request whose caller was told ctx.Err() never runs, and one that
// runs is answered.
type Request struct {
	fn     func(actx context.Context) error
	paused bool       // a table's: runs while the table is paused (doEvenPaused)
	reply  chan error // capacity 1
	state  atomic.Int32
}

// The states of a request: sent, then taken by the actor or dropped by a
// caller who gave up first.
const (
	reqSent int32 = iota
	reqTaken
	reqDropped
)

// NewRequest is a request to run fn in an actor, with the actor's
// context.
func NewRequest(fn func(actx context.Context) error) *Request {
	return &Request{fn: fn, reply: make(chan error, 1)}
}

// Call hands r to the actor that reads reqs and returns its answer. done
// closes as the actor stops; closed is the answer then. Until the actor
// takes r, a caller whose ctx ends gets ctx.Err() and r never runs.
func Call(ctx context.Context, reqs chan<- *Request, done <-chan struct{}, r *Request, closed error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
		return closed
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		if r.state.CompareAndSwap(reqSent, reqDropped) {
			return ctx.Err()
		}
	case <-done:
	}
	// The actor took the request: its answer comes, unless it stopped.
	select {
	case err := <-r.reply:
		return err
	case <-done:
		select {
		case err := <-r.reply:
			return err
		default:
			return closed
		}
	}
}

// Take is the actor taking r: false if its caller gave up first, and
// then r must not run. A request taken is answered once (Answer).
func (r *Request) Take() bool { return r.state.CompareAndSwap(reqSent, reqTaken) }

// Run runs r's function with the actor's context.
func (r *Request) Run(actx context.Context) error { return r.fn(actx) }

// Answer answers r's caller; once, after Take.
func (r *Request) Answer(err error) { r.reply <- err }

// CallValue is a call (do: an actor's method that runs fn in it) of a
// request that gives a value as well as an error: the zero value when
// the actor stopped before it ran.
func CallValue[V any](ctx context.Context, do func(context.Context, func(context.Context) error) error,
	fn func(actx context.Context) (V, error)) (V, error) {
	got := make(chan V, 1)
	err := do(ctx, func(actx context.Context) error {
		v, err := fn(actx)
		got <- v
		return err
	})
	select {
	case v := <-got:
		return v, err
	default:
		var zero V
		return zero, err
	}
}
