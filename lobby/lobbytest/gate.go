package lobbytest

import (
	"context"
	"fmt"
	"sync"
)

// Gate holds storage writes, as a disk that stopped answering does: while
// it is shut, a write waits at it, and watches its ctx as lobby.Storage
// says a write must: when ctx ends first the write goes on, and its caller
// gets a *Held (a lobby.PendingWrite). Its zero value is open.
type Gate struct {
	mu      sync.Mutex
	shut    chan struct{} // nil: open
	fail    error         // how the writes held end once it opens; nil: they are done
	failing error         // every write fails with it at once (Fail); nil: none
	waiting int
	writes  int // writes begun, failed ones included
	before  func()
}

// Fail makes every write from now on fail at once with err, as a disk
// that is full or read-only does (nil: writes go through again).
func (g *Gate) Fail(err error) {
	g.mu.Lock()
	g.failing = err
	g.mu.Unlock()
}

// Writes is the number of writes begun so far, failed and held ones
// included.
func (g *Gate) Writes() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.writes
}

// Shut makes the writes from now on wait.
func (g *Gate) Shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut == nil {
		g.shut = make(chan struct{})
	}
}

// Open lets the writes held go on: done if fail is nil, else failing with
// it.
func (g *Gate) Open(fail error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut != nil {
		g.fail = fail
		close(g.shut)
		g.shut = nil
	}
}

// Waiting is the number of writes held now.
func (g *Gate) Waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}

// BeforeWrite sets a function that runs at the start of every write,
// before the gate is looked at: it may shut it for this write (nil:
// none).
func (g *Gate) BeforeWrite(f func()) {
	g.mu.Lock()
	g.before = f
	g.mu.Unlock()
}

// Held is the error of a write whose ctx ended while it waited at the
// gate: it goes on once the gate opens.
type Held struct {
	cause   error
	settled chan struct{}
	outcome error
}

func (h *Held) Error() string { return fmt.Sprintf("held at the gate: %v", h.cause) }

// Unwrap is the ctx's error.
func (h *Held) Unwrap() error { return h.cause }

// Settled is closed once the write has ended.
func (h *Held) Settled() <-chan struct{} { return h.settled }

// Outcome waits for the write to end and reports how (nil: done).
func (h *Held) Outcome() error { <-h.settled; return h.outcome }

// Write runs write through the gate.
func (g *Gate) Write(ctx context.Context, write func(context.Context) error) error {
	g.mu.Lock()
	before := g.before
	g.writes++
	g.mu.Unlock()
	if before != nil {
		before()
	}
	g.mu.Lock()
	shut, failing := g.shut, g.failing
	if shut != nil && failing == nil {
		g.waiting++
	}
	g.mu.Unlock()
	if failing != nil {
		return failing
	}
	if shut == nil {
		return write(ctx)
	}
	h := &Held{settled: make(chan struct{})}
	go func() {
		<-shut
		g.mu.Lock()
		g.waiting--
		fail := g.fail
		g.mu.Unlock()
		if h.outcome = fail; fail == nil {
			h.outcome = write(context.Background())
		}
		close(h.settled)
	}()
	select {
	case <-h.settled:
		return h.outcome
	case <-ctx.Done():
		h.cause = ctx.Err()
		return h
	}
}
