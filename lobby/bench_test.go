package lobby_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// BenchmarkTables runs 200 tables of 5 simulated players acting as fast as
// the tables allow, on a real store (fsync on). It reports the actions per
// second and the p99 time from an action to its snapshot reaching the last
// of the table's subscribers.
func BenchmarkTables(b *testing.B) {
	const tables, players = 200, 5
	stored, err := store.Open(filepath.Join(b.TempDir(), "mia.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer stored.Close()
	l, err := lobby.New(context.Background(), lobby.Config{Store: lobbystore.New(stored), Dice: lobbytest.NewDice(1)})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	rules := engine.DefaultOptions()
	rules.Lives = 3

	type seatTable struct {
		tbl  *lobby.Table
		ps   []lobby.Player
		subs []*lobby.Subscription
	}
	all := make([]seatTable, tables)
	for i := range all {
		st := seatTable{}
		for j := 0; j < players; j++ {
			fp := fmt.Sprintf("SHA256:t%dp%d", i, j)
			person, err := stored.SetName(ctx, fp, fmt.Sprintf("t%dp%d", i, j))
			if err != nil {
				b.Fatal(err)
			}
			st.ps = append(st.ps, lobby.Player{ID: person.ID, Key: fp})
		}
		st.tbl, err = l.CreateTable(ctx, st.ps[0], lobby.TableConfig{Name: fmt.Sprintf("bench-%d", i), Rules: rules, Seats: players})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range st.ps {
			s, err := st.tbl.Watch(ctx, p)
			if err != nil {
				b.Fatal(err)
			}
			st.subs = append(st.subs, s)
		}
		for _, p := range st.ps {
			if err := st.tbl.Sit(ctx, p); err != nil { // the fifth starts the game
				b.Fatal(err)
			}
		}
		all[i] = st
	}

	perTable := b.N/tables + 1
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range all {
		wg.Add(1)
		go func(st seatTable, seed uint64) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, 1))
			last := make([]lobby.Snapshot, players)
			mine := make([]time.Duration, 0, perTable)
			for n := 0; n < perTable; n++ {
				for j, s := range st.subs {
					if snap, ok := s.Take(); ok {
						last[j] = snap
					}
				}
				if !last[0].Playing {
					if err := st.tbl.Start(ctx, st.ps[0]); err != nil {
						b.Error(err)
						return
					}
					for j, s := range st.subs {
						last[j], _ = s.Wait(ctx)
					}
					continue
				}
				turn := slices.IndexFunc(st.ps, func(p lobby.Player) bool { return p.ID == last[0].Table.Players[last[0].Game.Turn].ID })
				t0 := time.Now()
				if err := st.tbl.Act(ctx, st.ps[turn], lobbytest.Move(last[turn].Game, r)); err != nil {
					b.Error(err)
					return
				}
				for j, s := range st.subs {
					last[j], _ = s.Wait(ctx)
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}(all[i], uint64(i))
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no actions")
	}
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "actions/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}
