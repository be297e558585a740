package sshapp

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
)

// BenchmarkBotTables: protocol bots over SSH, four at each of 50 tables,
// play as fast as the protocol allows (the tables restart by themselves).
// b.N is the number of answers (ROLL, SEE, PASS, GIVE UP, ANNOUNCE) applied
// across all tables. actions/s is their rate; p99-ms is the 99th
// percentile, seen by a bot, from reading a prompt (YOUR TURN or ROLLED)
// through sending its answer to reading the next line, which the server
// sends once the answer is applied and saved. Every move is a bbolt commit
// (shared by concurrent tables).
//
//	go test -run '^$' -bench BotTables -benchtime 20000x ./sshapp/
func BenchmarkBotTables(b *testing.B) {
	const tables, seats = 50, 4
	e := startBotServer(b, lobby.Config{BotDelay: lobby.NoDelay}, func(c *Config) {
		c.Limits.MaxPerSource = -1
		c.Limits.MaxUnauthenticated = -1
	})
	var (
		actions atomic.Int64
		target  atomic.Int64 // stop once actions reaches it
		stop    = make(chan struct{})
		stopped sync.Once
		wg      sync.WaitGroup
		mu      sync.Mutex
		lat     []time.Duration
		errs    []error
	)
	target.Store(1 << 62)
	for i := range tables {
		var host lobby.Player
		names := make([]string, seats)
		bots := make([]*protoBot, 0, seats)
		for j := range seats {
			names[j] = fmt.Sprintf("b%d_%d", i, j)
			key, p := e.named(b, names[j])
			if j == 0 {
				host = p
				e.table(b, host, fmt.Sprintf("t%d", i), seats, fastRules(6))
			}
			bot, err := dialBot(e.addr, key, names[j], fmt.Sprintf("t%d", i))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(bot.close)
			bots = append(bots, bot)
		}
		for j, bot := range bots {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mine, err := bot.race(newSimpleMove(uint64(i*seats+j+1)), &actions, &target, stop)
				mu.Lock()
				lat = append(lat, mine...)
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
				stopped.Do(func() { close(stop) })
			}()
		}
	}
	// Every table is playing: measure b.N answers from here.
	b.ResetTimer()
	start, from := time.Now(), actions.Load()
	target.Store(from + int64(b.N))
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(errs) > 0 {
		b.Fatalf("%d bots failed, first: %v", len(errs), errs[0])
	}
	done := actions.Load() - from
	b.ReportMetric(float64(done)/elapsed.Seconds(), "actions/s")
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)*99/100])/float64(time.Millisecond), "p99-ms")
		b.ReportMetric(float64(lat[len(lat)/2])/float64(time.Millisecond), "p50-ms")
	}
}

// race plays with m until actions reaches target or stop closes, and
// returns the latency of every prompt it answered once the target was
// set.
func (b *protoBot) race(m *simpleMove, actions, target *atomic.Int64, stop <-chan struct{}) ([]time.Duration, error) {
	var lat []time.Duration
	var asked time.Time
	for {
		select {
		case <-stop:
			return lat, nil
		default:
		}
		l, err := b.line()
		if err != nil {
			return lat, err
		}
		now := time.Now()
		if !asked.IsZero() {
			if target.Load() < 1<<62 {
				lat = append(lat, now.Sub(asked))
			}
			asked = time.Time{}
		}
		if strings.HasPrefix(l, "ERROR;") {
			return lat, fmt.Errorf("%s: %s", b.name, l)
		}
		if a := m.answer(l); a != "" {
			if err := b.send(a); err != nil {
				return lat, err
			}
			asked = now
			if actions.Add(1) >= target.Load() {
				return lat, nil
			}
		}
	}
}
