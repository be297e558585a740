package lobby

import (
	"context"
	"errors"
	"testing"
)

// TestCall: the request protocol every actor shares (a table's, an
// event's). A caller who gives up before the actor takes the request gets
// ctx.Err() and the request never runs; once taken it runs and its
// caller, given up or not, gets its answer; an actor stopped answers
// closed.
func TestCall(t *testing.T) {
	errClosed := errors.New("closed")
	errMine := errors.New("mine")
	t.Run("answered", func(t *testing.T) {
		reqs, done := make(chan *Request), make(chan struct{})
		go func() {
			r := <-reqs
			if r.Take() {
				r.Answer(r.Run(context.Background()))
			}
		}()
		if err := Call(context.Background(), reqs, done, NewRequest(func(context.Context) error { return errMine }), errClosed); err != errMine {
			t.Fatalf("got %v, want the request's answer", err)
		}
	})
	t.Run("given up before taken", func(t *testing.T) {
		reqs, done := make(chan *Request), make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		ran := false
		r := NewRequest(func(context.Context) error { ran = true; return nil })
		got := make(chan *Request, 1)
		go func() {
			r := <-reqs
			cancel() // the request is in the actor's hands, not taken
			got <- r
		}()
		if err := Call(ctx, reqs, done, r, errClosed); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		if r := <-got; r.Take() || ran {
			t.Fatal("the actor took a request its caller gave up")
		}
	})
	t.Run("taken, then given up: answered all the same", func(t *testing.T) {
		reqs, done := make(chan *Request), make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			r := <-reqs
			r.Take()
			cancel() // the caller gives up while the request runs
			r.Answer(r.Run(context.Background()))
		}()
		if err := Call(ctx, reqs, done, NewRequest(func(context.Context) error { return errMine }), errClosed); err != errMine {
			t.Fatalf("got %v, want the answer of the request that ran", err)
		}
	})
	t.Run("actor stopped", func(t *testing.T) {
		reqs, done := make(chan *Request), make(chan struct{})
		close(done)
		if err := Call(context.Background(), reqs, done, NewRequest(func(context.Context) error { return nil }), errClosed); err != errClosed {
			t.Fatalf("got %v, want closed", err)
		}
	})
}

// TestCallValue: a value comes with the answer; the zero value when the
// request never ran.
func TestCallValue(t *testing.T) {
	run := func(_ context.Context, fn func(context.Context) error) error { return fn(context.Background()) }
	if v, err := CallValue(context.Background(), run, func(context.Context) (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Fatalf("got %d, %v", v, err)
	}
	stopped := func(context.Context, func(context.Context) error) error { return ErrTableClosed }
	if v, err := CallValue(context.Background(), stopped, func(context.Context) (int, error) { return 7, nil }); v != 0 || err != ErrTableClosed {
		t.Fatalf("got %d, %v", v, err)
	}
}
