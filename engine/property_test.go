package engine

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// randomGames is how many random games TestRandomGames plays: a tenth of
// CI's run by default, which .ci/run plays in full (-random-games 100000,
// without the race detector).
var randomGames = flag.Int("random-games", 10_000, "how many random games TestRandomGames plays")

// TestRandomGames plays random games under random option sets (every
// option of RULES.md: randomOptions; lives 1..9, 2..12 players), with
// random legal and illegal actions, and holds the engine to the referee
// after every step: lives never negative and as the rules say, claims
// rising within a round, the events of each action exactly those of the
// rules, refused actions changing nothing, a sampled seat's view never
// showing dice it has not seen and, on its turn, offering exactly the
// moves the referee allows. At each game's end: one winner under
// last-standing, standings, and Replay of the events (through JSON for
// some games) rebuilding the same views for every seat.
func TestRandomGames(t *testing.T) {
	start := time.Now()
	propertyGames := *randomGames
	workers := runtime.GOMAXPROCS(0)
	var (
		failed atomic.Bool
		mu     sync.Mutex
		errs   []error
		steps  atomic.Int64
		wg     sync.WaitGroup
		seen   [nPaths]int
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			var mine [nPaths]int
			buf := make([]Event, 0, 1024)
			for i := w; i < propertyGames && !failed.Load(); i += workers {
				var err error
				var c *checker
				c, buf, err = playRandomGame(uint64(i), buf)
				if c != nil {
					n += c.steps
					for p, k := range c.ref.seen {
						mine[p] += k
					}
				}
				if err != nil {
					failed.Store(true)
					mu.Lock()
					errs = append(errs, fmt.Errorf("game %d: %w", i, err))
					mu.Unlock()
				}
			}
			steps.Add(int64(n))
			mu.Lock()
			for p, k := range mine {
				seen[p] += k
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	t.Logf("%d games, %d actions tried, %v", propertyGames, steps.Load(), time.Since(start))
	if failed.Load() {
		return
	}
	for p, k := range seen {
		t.Logf("%-34s %d", pathNames[p], k)
		if k < 10 {
			t.Errorf("the random games reached %q only %d times", pathNames[p], k)
		}
	}
}

// playRandomGame plays game number i to its end and returns its checker
// and buf, which holds the game's events and may have grown.
func playRandomGame(i uint64, buf []Event) (*checker, []Event, error) {
	r := newPCG(i)
	o := randomOptions(r)
	o.Lives = 1 + r.Intn(9)
	players := 2 + r.Intn(MaxSeats-1)
	c, err := newChecker(o, players, r)
	if err != nil {
		return nil, buf, fmt.Errorf("%+v: %w", o, err)
	}
	_, evs, err := c.play(r, players, buf)
	if err != nil {
		err = fmt.Errorf("%d players, %+v: %w", players, o, err)
	}
	return c, evs, err
}

// play plays c's game to its end with random actions.
func (c *checker) play(r pcg, players int, buf []Event) (int, []Event, error) {
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
	return c.steps, c.events, c.finish(r.Intn(500) == 0)
}
