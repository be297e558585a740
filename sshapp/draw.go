package sshapp

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// drawers run the screens' Init, Update and View for every session, on a
// few goroutines of their own.
//
// Drawing a screen goes deep: lipgloss styles and bubbles' help are passed
// by value, several KB a frame. A goroutine's stack grows to the deepest
// call it made and shrinks only at a garbage collection, so when each
// session drew on its own goroutine, each of those goroutines held 16 to
// 64 KiB of stack (a census of 2,000 spectators: 27.5 KiB on average, a
// third of the server's memory). The session's goroutine now only hands
// the work over and waits; the deep stacks are the drawers' alone.
//
// Each session has at most one call under way, so a call waits only for a
// free drawer; a session's calls run in its order, one after the other,
// as on its own goroutine. A panic in a call is raised again on the
// session's goroutine (as a drawPanic, which keeps the drawer's stack),
// where Bubble Tea and the session's recover catch it.
type drawers struct {
	jobs chan drawJob
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

type drawJob struct {
	fn   func()
	done chan *drawPanic // the call's panic, or nil
}

// drawPanic is a panic of a call on a drawer, raised again on the
// session's goroutine: the value, and the stack where it happened.
type drawPanic struct {
	value any
	stack []byte
}

func (p *drawPanic) String() string { return fmt.Sprintf("%v\n\non a drawer:\n%s", p.value, p.stack) }

// newDrawers starts n drawers.
func newDrawers(n int) *drawers {
	d := &drawers{jobs: make(chan drawJob), quit: make(chan struct{})}
	d.wg.Add(n)
	for range n {
		go d.run()
	}
	return d
}

// drawersFor is how many drawers a server runs: two for each CPU, so
// that a long frame (a 500×200 window) holds up no one.
func drawersFor() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

func (d *drawers) run() {
	defer d.wg.Done()
	for {
		select {
		case j := <-d.jobs:
			j.run()
		case <-d.quit:
			return
		}
	}
}

func (j drawJob) run() {
	var p *drawPanic
	defer func() { j.done <- p }()
	defer func() {
		if r := recover(); r != nil {
			p = &drawPanic{value: r, stack: debug.Stack()}
		}
	}()
	j.fn()
}

// do runs fn on a drawer and returns when it has; done is the caller's
// own channel (capacity 1), reused for each of its calls. Once the
// drawers are stopped, fn runs on the caller's goroutine.
func (d *drawers) do(done chan *drawPanic, fn func()) {
	select {
	case d.jobs <- drawJob{fn: fn, done: done}:
	case <-d.quit:
		fn()
		return
	}
	if p := <-done; p != nil {
		panic(p)
	}
}

// stop ends the drawers once the calls under way are done.
func (d *drawers) stop() {
	d.once.Do(func() { close(d.quit) })
	d.wg.Wait()
}
