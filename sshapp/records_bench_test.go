package sshapp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// seededSource is a deterministic engine.Source.
type seededSource struct{ r *rand.Rand }

func (s seededSource) Intn(n int) int { return s.r.IntN(n) }

// fillGames stores n finished games of 2 to 4 players (one life each) at
// tables t0…t19, player 0 of pool seated in every one.
func fillGames(tb testing.TB, st *store.Store, pool []store.Seat, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := range 20 {
		rec := store.TableRecord{Name: fmt.Sprintf("t%d", i), Host: pool[0].Fingerprint, Rules: engine.DefaultOptions(),
			Seats: 4, Created: time.Unix(0, 0)}
		if err := st.CreateTable(ctx, rec); err != nil {
			tb.Fatal(err)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				opts := engine.DefaultOptions()
				opts.Lives = 1
				np := 2 + r.IntN(3)
				seats := []store.Seat{pool[0]}
				for _, p := range r.Perm(len(pool) - 1)[:np-1] {
					seats = append(seats, pool[p+1])
				}
				g, evs, err := engine.New(opts, np, seededSource{r})
				if err != nil {
					tb.Error(err)
					return
				}
				for !g.Over() {
					v := g.View(g.Turn())
					a := pickMove(&v, r)
					a.Seat = g.Turn()
					more, err := g.Apply(a)
					if err != nil {
						tb.Error(err)
						return
					}
					evs = append(evs, more...)
				}
				gm, err := st.CreateGame(ctx, store.Game{Table: fmt.Sprintf("t%d", i%20), Seats: seats, Rules: opts})
				if err != nil {
					tb.Error(err)
					return
				}
				res := &engine.Result{Winner: g.Winner(), Standings: g.Standings()}
				if err := st.Append(ctx, gm.ID, evs, res); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if tb.Failed() {
		tb.FailNow()
	}
}

// BenchmarkCommandsOver10kGames times `history --limit 20` and `stats
// PLAYER` end to end over SSH (a new connection each: TCP, key exchange,
// auth, session, command) against a store of 10,000 finished games, all
// with the player; `whoami` is the same round trip with almost no
// storage work, for comparison.
//
//	go test -run '^$' -bench CommandsOver10kGames -benchtime 200x ./sshapp/
func BenchmarkCommandsOver10kGames(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "mia.db"))
	if err != nil {
		b.Fatal(err)
	}
	lob, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(st)})
	if err != nil {
		b.Fatal(err)
	}
	key := newKey(b)
	pool := make([]store.Seat, 10)
	for i := range pool {
		fp := fmt.Sprintf("SHA256:p%d", i)
		if i == 0 {
			fp = Fingerprint(key.PublicKey())
		}
		person, err := st.SetName(context.Background(), fp, fmt.Sprintf("p%d", i))
		if err != nil {
			b.Fatal(err)
		}
		pool[i] = store.Seat{Person: person.ID, PlayedAs: person.Name, Fingerprint: fp}
	}
	t0 := time.Now()
	fillGames(b, st, pool, 10000)
	b.Logf("10,000 games stored in %v", time.Since(t0).Round(time.Millisecond))
	ts := startServer(b, func(c *Config) { c.Storage, c.Lobby = storageOf(st), lob })
	b.Cleanup(func() { lob.Close(); st.Close() })
	for _, bc := range []struct{ name, cmd, want string }{
		{"whoami", "whoami", "10000 played"},
		{"history20", "history --limit 20", "More:"},
		{"statsPlayer", "stats p3", "rating"},
		{"statsSelf", "stats", "10000 played"},
		{"leaderboard", "leaderboard", "p0"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var worst time.Duration
			for b.Loop() {
				start := time.Now()
				r := ts.run(b, key, bc.cmd)
				if r.code != 0 || !strings.Contains(r.stdout, bc.want) {
					b.Fatalf("%s: exit %d\n%s%s", bc.cmd, r.code, r.stdout, r.stderr)
				}
				worst = max(worst, time.Since(start))
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
		})
	}
}
