// Package outbox queues what a session writes for its client and hands it
// over from a goroutine of its own while there is something to hand over,
// bounded: a client that stops reading blocks only that goroutine, and owes
// at most a set number of bytes. An idle session has no goroutine and no
// buffer here.
//
// Room: inside sshapp; sshapp gives every session one, and the bot line
// protocol (sshapp/botline) writes through it. It imports the standard
// library and sshapp/internal/spare (whose goroutines hand the output
// over) only.
package outbox

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mia-game/mia/sshapp/internal/spare"
)

// ErrOwes is the error of every write to a Box past its bound.
var ErrOwes = errors.New("the client stopped reading its output")

// Box holds what a session has written and its client has not taken yet,
// and hands it to the channel from a goroutine that runs while there is
// something to hand over: a client that stops reading (a full SSH window)
// blocks only that goroutine, never the writer. What it holds is bounded:
// a write that would make it owe more than max bytes fails, as does every
// write after it, and over is called once (the server then drops the
// session).
type Box struct {
	w    io.Writer
	max  int            // <= 0: no bound
	over func(owed int) // called once, in its own goroutine, past max

	mu       sync.Mutex
	buf      []byte // written, not yet handed to w
	busy     int    // bytes in the w.Write under way
	err      error  // why writes fail: ErrOwes, or w's error
	shut     bool   // close was called
	draining bool   // the goroutine handing buf over runs
	finished bool   // done is closed

	done chan struct{} // closed once shut and flushed, or failed
	took chan struct{} // one token after each write to w
}

// New makes a Box writing to w; max <= 0 is no bound, over may be nil.
func New(w io.Writer, max int, over func(owed int)) *Box {
	return &Box{w: w, max: max, over: over, done: make(chan struct{}), took: make(chan struct{}, 1)}
}

// drain hands buf over to w until it is empty or writing failed.
func (o *Box) drain() {
	var out []byte
	for {
		o.mu.Lock()
		if len(o.buf) == 0 || o.err != nil {
			o.draining = false
			free(o.buf) // an idle session keeps no buffer
			free(out)
			o.buf = nil
			o.finishLocked()
			o.mu.Unlock()
			return
		}
		out, o.buf = o.buf, out[:0]
		o.busy = len(out)
		o.mu.Unlock()

		_, err := o.w.Write(out)

		o.mu.Lock()
		o.busy = 0
		if err != nil && o.err == nil {
			o.err, o.buf = err, nil
		}
		o.mu.Unlock()
		signal(o.took)
	}
}

// finishLocked closes done once the Box is closed with nothing left to
// hand over, or has failed. o.mu is held and nothing is being handed over.
func (o *Box) finishLocked() {
	if !o.finished && (o.err != nil || (o.shut && len(o.buf) == 0)) {
		o.finished = true
		close(o.done)
	}
}

// signal puts a token in ch unless one waits there already.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// spareBufs are buffers of Boxes that went idle, for the next to write:
// a screen's frame is written into a Box that holds no buffer between
// frames, and allocating one for each frame was a twentieth of what a
// server of spectators allocated.
var spareBufs = make(chan []byte, 256)

// maxSpareBuf is the largest buffer kept in spareBufs.
const maxSpareBuf = 4 << 10

// spareBuf is an empty buffer, one of spareBufs if one is there that
// holds n bytes, else nil (append makes one).
func spareBuf(n int) []byte {
	select {
	case b := <-spareBufs:
		if cap(b) >= n {
			return b
		}
		free(b)
	default:
	}
	return nil
}

// free keeps b, emptied, in spareBufs if it is small and there is room;
// nothing may use b afterwards.
func free(b []byte) {
	if b == nil || cap(b) > maxSpareBuf {
		return
	}
	select {
	case spareBufs <- b[:0]:
	default:
	}
}

// ErrClosed is the error of a write after Close.
var ErrClosed = errors.New("the session's output is closed")

// Write queues p whole, or fails.
func (o *Box) Write(p []byte) (int, error) {
	o.mu.Lock()
	if o.err != nil || o.shut {
		err := cmp.Or(o.err, ErrClosed)
		o.mu.Unlock()
		return 0, err
	}
	if owed := len(o.buf) + o.busy + len(p); o.max > 0 && owed > o.max {
		o.err, o.buf = ErrOwes, nil
		if !o.draining {
			o.finishLocked()
		}
		o.mu.Unlock()
		if o.over != nil {
			go o.over(owed)
		}
		return 0, fmt.Errorf("%w: %d bytes owed, at most %d", ErrOwes, owed, o.max)
	}
	if o.buf == nil {
		o.buf = spareBuf(len(p))
	}
	o.buf = append(o.buf, p...)
	start := !o.draining
	o.draining = true
	o.mu.Unlock()
	if start {
		spare.Go(o.drain)
	}
	return len(p), nil
}

// Owed is the number of bytes written and not yet taken by the client.
func (o *Box) Owed() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.buf) + o.busy
}

// Taken gets a token after the client took some of what it owed.
func (o *Box) Taken() <-chan struct{} { return o.took }

// Close refuses further writes and waits at most grace for the client to
// take what is owed; it reports whether the Box is done (everything
// taken, or writing failed), false if the client still owes.
func (o *Box) Close(grace time.Duration) bool {
	o.mu.Lock()
	o.shut = true
	if !o.draining {
		o.finishLocked()
	}
	o.mu.Unlock()
	select {
	case <-o.done:
		return true
	default:
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-o.done:
		return true
	case <-t.C:
		return false
	}
}
