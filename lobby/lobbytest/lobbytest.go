// Package lobbytest holds test doubles for the lobby's injected
// dependencies: a manual clock and deterministic dice; and a simple player
// for tests that play games.
package lobbytest

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/mia-game/mia/engine"
)

// Clock is a manual clock for lobby.Config.Clock: timers fire only when
// the test advances it.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

type timer struct {
	at      time.Time
	f       func()
	stopped bool
}

// NewClock returns a clock set to a fixed moment.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f for d from now; the returned func stops it.
func (c *Clock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Advance moves the clock and runs the timers now due, each in its own
// goroutine as time.AfterFunc would.
func (c *Clock) Advance(d time.Duration) {
	for _, f := range c.move(d) {
		go f()
	}
}

// AdvanceWait is Advance that returns once the timers it ran have
// returned (each still in its own goroutine): for tests whose timers only
// hand work on, never wait.
func (c *Clock) AdvanceWait(d time.Duration) {
	var wg sync.WaitGroup
	for _, f := range c.move(d) {
		wg.Go(f)
	}
	wg.Wait()
}

// move moves the clock by d and returns the timers now due, stopped.
func (c *Clock) move(d time.Duration) []func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	var due []func()
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !t.at.After(c.now):
			t.stopped = true
			due = append(due, t.f)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	return due
}

// Skip moves the clock without firing any timer, for tests that only
// watch a countdown move.
func (c *Clock) Skip(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Dice is a deterministic engine.Source, safe for concurrent use.
type Dice struct {
	mu sync.Mutex
	r  *rand.Rand
}

// NewDice returns dice that roll the same for the same seed.
func NewDice(seed uint64) *Dice {
	return &Dice{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Intn returns a number in [0, n).
func (d *Dice) Intn(n int) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.r.IntN(n)
}

// Move picks a legal move for the seat whose view v is, at its turn: roll,
// claim the truth when it is higher, challenge high claims, now and then
// give up or pass.
func Move(v *engine.View, r *rand.Rand) engine.Action {
	switch {
	case v.Can(engine.Roll) && (v.Claim == engine.NoValue || r.IntN(3) > 0) && !v.Can(engine.Claim):
		return engine.Action{Kind: engine.Roll, Look: true}
	case v.Can(engine.Claim):
		for _, c := range v.Claims {
			if c == v.Dice {
				return engine.Action{Kind: engine.Claim, Value: c}
			}
		}
		return engine.Action{Kind: engine.Claim, Value: v.Claims[r.IntN(len(v.Claims))]}
	case v.Can(engine.GiveUp) && r.IntN(2) == 0:
		return engine.Action{Kind: engine.GiveUp}
	case v.Can(engine.Pass) && r.IntN(4) == 0:
		return engine.Action{Kind: engine.Pass, Value: v.Passes[0]}
	}
	return engine.Action{Kind: engine.Challenge}
}

// Script is an engine.Source that returns the draws pushed to it, in
// order (0 once they run out), safe for concurrent use: a test scripts
// the first opener (a draw of the number of players) and the dice (two
// draws of 6 each, a die's pips less one); a lobby draws the seats'
// shuffle first (for n players, draws of n, n-1, … 2: n-1, n-2, … 1 keep
// them in the order they sat down).
type Script struct {
	mu sync.Mutex
	q  []int
}

// Push queues draws.
func (s *Script) Push(draws ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.q = append(s.q, draws...)
}

// Intn returns the next draw; 0 when none is queued or it is not in
// [0, n).
func (s *Script) Intn(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) == 0 {
		return 0
	}
	v := s.q[0]
	s.q = s.q[1:]
	if v < 0 || v >= n {
		return 0
	}
	return v
}

// Roll queues a roll of the dice a and b (1-6).
func (s *Script) Roll(a, b int) { s.Push(a-1, b-1) }

// Left is the number of draws not yet taken.
func (s *Script) Left() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q)
}
