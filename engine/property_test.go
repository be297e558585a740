package engine

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// propertyGames is how many random games TestRandomGames plays.
const propertyGames = 100_000

// TestRandomGames plays random games under every option set (192
// combinations, lives 1..9, 2..10 players), with random legal and illegal
// actions, and holds the engine to the referee after every step: lives
// never negative and as the rules say, claims rising within a round, the
// events of each action exactly those of the rules, refused actions
// changing nothing, a sampled seat's view never showing dice it has not
// seen. At each game's end: one winner under last-standing, standings, and
// Replay of the events (through JSON for some games) rebuilding the same
// views for every seat.
func TestRandomGames(t *testing.T) {
	start := time.Now()
	combos := optionCombos()
	workers := runtime.GOMAXPROCS(0)
	var (
		failed atomic.Bool
		mu     sync.Mutex
		errs   []error
		steps  atomic.Int64
		wg     sync.WaitGroup
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			buf := make([]Event, 0, 1024)
			for i := w; i < propertyGames && !failed.Load(); i += workers {
				var k int
				var err error
				k, buf, err = playRandomGame(uint64(i), combos[i%len(combos)], buf)
				n += k
				if err != nil {
					failed.Store(true)
					mu.Lock()
					errs = append(errs, fmt.Errorf("game %d (%+v): %w", i, combos[i%len(combos)], err))
					mu.Unlock()
				}
			}
			steps.Add(int64(n))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	t.Logf("%d games, %d actions tried, %v", propertyGames, steps.Load(), time.Since(start))
}

// playRandomGame plays game number i to its end and returns the number of
// actions tried and buf, which holds the game's events and may have grown.
func playRandomGame(i uint64, o Options, buf []Event) (int, []Event, error) {
	r := newPCG(i)
	o.Lives = 1 + r.Intn(9)
	players := 2 + r.Intn(9)
	c, err := newChecker(o, players, r)
	if err != nil {
		return 0, buf, err
	}
	c.events = append(buf[:0], c.events...)
	for !c.g.Over() {
		if c.steps > 100_000 {
			return c.steps, c.events, fmt.Errorf("no end after %d actions", c.steps)
		}
		seat := r.Intn(players+1) - 1 // whose view to check, Spectator included
		if err := c.apply(randomAction(r, c.g, 15), seat); err != nil {
			return c.steps, c.events, err
		}
	}
	// Once over, everything is refused.
	for range 3 {
		if err := c.apply(randomAction(r, c.g, 50), r.Intn(players+1)-1); err != nil {
			return c.steps, c.events, err
		}
	}
	return c.steps, c.events, c.finish(i%500 == 0)
}
