// Package spare runs short functions on spare goroutines. A goroutine that
// ran one waits a moment for the next instead of ending, so a server that
// runs many (a frame handed to its client, a message posted to a screen)
// does not start a goroutine and grow its stack for each: in a profile of
// 2,000 spectators that was a tenth of the server's CPU. A function never
// waits for a goroutine to be spare: when none is, a new one starts, so a
// function that blocks (a write to a client that stopped reading) holds up
// nothing else.
//
// Room: inside sshapp; the output queues (sshapp/internal/outbox) and the
// screens' posts run on it. It imports the standard library only.
package spare

import (
	"sync/atomic"
	"time"
)

// Pool hands functions to its spare goroutines.
type Pool struct {
	jobs     chan func() // unbuffered: a send succeeds only to a spare goroutine
	idle     time.Duration
	maxSpare int32

	spare   atomic.Int32 // goroutines waiting for a function, or about to
	started atomic.Int64 // goroutines started, for the tests
	running atomic.Int32 // goroutines not ended, for the tests
}

// New makes a Pool that keeps at most maxSpare goroutines waiting, each at
// most idle.
func New(maxSpare int, idle time.Duration) *Pool {
	return &Pool{jobs: make(chan func()), idle: idle, maxSpare: int32(maxSpare)}
}

// Shared is the server's pool. Its goroutines end after 100 ms without
// work, so that a server at rest, or a test's end, holds none.
var Shared = New(64, 100*time.Millisecond)

// Go runs f on a spare goroutine, or on a new one; it never waits.
func (p *Pool) Go(f func()) {
	select {
	case p.jobs <- f:
	default:
		p.started.Add(1)
		p.running.Add(1)
		go p.run(f)
	}
}

// Go runs f on the shared pool.
func Go(f func()) { Shared.Go(f) }

func (p *Pool) run(f func()) {
	defer p.running.Add(-1)
	var t *time.Timer
	for {
		f()
		f = nil // hold nothing of it while waiting
		if p.spare.Add(1) > p.maxSpare {
			p.spare.Add(-1)
			return
		}
		if t == nil {
			t = time.NewTimer(p.idle)
		} else {
			t.Reset(p.idle)
		}
		select {
		case f = <-p.jobs:
			p.spare.Add(-1)
		case <-t.C:
			p.spare.Add(-1)
			return
		}
	}
}
