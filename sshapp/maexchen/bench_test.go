package maexchen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// BenchmarkGateway plays 200 lobby tables of 4 simulated players (each
// move through Act, each snapshot waited for, on a real store with fsync)
// without and with the gateway beside them, its table played by 8
// simulated Mäxchen bots over UDP on loopback. It reports the tables'
// actions/s and p99 (a move to its snapshot at every player), and with the
// gateway its rounds/s and turn p99 (a bot's answer sent to the next
// prompt received by any bot: the table, the store and the gateway both
// ways), and the gateway alone for comparison. Run it with
// -benchtime=20000x (100 moves a table).
func BenchmarkGateway(b *testing.B) {
	for _, c := range []struct {
		name    string
		tables  int
		gateway bool
	}{{"tables-only", 200, false}, {"tables-and-gateway", 200, true}, {"gateway-only", 0, true}} {
		b.Run(c.name, func(b *testing.B) { benchGateway(b, c.tables, c.gateway) })
	}
}

func benchGateway(b *testing.B, tables int, withGateway bool) {
	const players, bots = 4, 8
	ctx := context.Background()
	st, err := store.Open(filepath.Join(b.TempDir(), "mia.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	l, err := lobby.New(ctx, lobby.Config{Store: lobbystore.New(st), Dice: lobbytest.NewDice(3)})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	loads := make([]*tableLoad, tables)
	for i := range loads {
		if loads[i], err = newTableLoad(ctx, l, i, players); err != nil {
			b.Fatal(err)
		}
	}
	var gw *Gateway
	var sim *botSim
	if withGateway {
		gw, err = New(ctx, Config{Addr: "127.0.0.1:0", Lobby: l, Records: records{st}})
		if err != nil {
			b.Fatal(err)
		}
		defer gw.Close()
		if sim, err = startBots(gw.Addr().String(), bots); err != nil {
			b.Fatal(err)
		}
		defer sim.stop()
		// Every bot registered and rounds going before the clock starts.
		deadline := time.Now().Add(10 * time.Second)
		for sim.roundsPlayed() < 3 {
			if time.Now().After(deadline) {
				b.Fatal("the gateway's bots play no round")
			}
			time.Sleep(10 * time.Millisecond)
		}
		sim.latencies() // the warm-up's are dropped
	}

	moves := b.N/max(tables, 1) + 1
	lat := make([][]time.Duration, tables)
	errs := make(chan error, tables)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	rounds0 := sim.roundsPlayed()
	for i, tl := range loads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			lat[i], err = tl.play(ctx, moves, uint64(i))
			if err != nil {
				errs <- err
			}
		}()
	}
	for tables == 0 && sim.roundsPlayed()-rounds0 < int64(b.N/1000+20) {
		time.Sleep(time.Millisecond) // the gateway alone: some rounds
	}
	wg.Wait()
	elapsed := time.Since(start)
	rounds := sim.roundsPlayed() - rounds0
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	if all := slices.Concat(lat...); len(all) > 0 {
		slices.Sort(all)
		b.ReportMetric(float64(len(all))/elapsed.Seconds(), "actions/s")
		b.ReportMetric(ms(all[len(all)*99/100]), "tables-p99-ms")
	}
	if sim != nil {
		// (The framework's first run, of one move a table, may be too
		// short for a round.)
		b.ReportMetric(float64(rounds)/elapsed.Seconds(), "rounds/s")
		if turns := sim.latencies(); len(turns) > 0 {
			b.ReportMetric(ms(turns[len(turns)*99/100]), "turn-p99-ms")
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// tableLoad is one lobby table of simulated players.
type tableLoad struct {
	tbl  *lobby.Table
	ps   []lobby.Player
	subs []*lobby.Subscription
	last []lobby.Snapshot
}

func newTableLoad(ctx context.Context, l *lobby.Lobby, n, players int) (*tableLoad, error) {
	rules := engine.DefaultOptions()
	rules.Lives = 2
	tl := &tableLoad{last: make([]lobby.Snapshot, players)}
	for j := range players {
		tl.ps = append(tl.ps, lobby.Player{ID: fmt.Sprintf("load:l%dp%d", n, j)}) // key-less: the name is in the id
	}
	var err error
	if tl.tbl, err = l.CreateTable(ctx, tl.ps[0], lobby.TableConfig{Name: fmt.Sprintf("load-%d", n), Rules: rules, Seats: players}); err != nil {
		return nil, err
	}
	for _, p := range tl.ps {
		s, err := tl.tbl.Watch(ctx, p)
		if err != nil {
			return nil, err
		}
		tl.subs = append(tl.subs, s)
	}
	for _, p := range tl.ps {
		if err := tl.tbl.Sit(ctx, p); err != nil { // the last one starts the game
			return nil, err
		}
	}
	return tl, nil
}

// play makes moves moves (a new game when one ends) and returns how long
// each took to reach every player.
func (tl *tableLoad) play(ctx context.Context, moves int, seed uint64) ([]time.Duration, error) {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]time.Duration, 0, moves)
	for len(out) < moves {
		for j, s := range tl.subs {
			if snap, ok := s.Take(); ok {
				tl.last[j] = snap
			}
		}
		t0 := time.Now()
		if tl.last[0].Playing {
			seat := tl.last[0].Game.Turn
			who := slices.IndexFunc(tl.ps, func(p lobby.Player) bool { return p.ID == tl.last[0].Table.Players[seat].ID })
			if err := tl.tbl.Act(ctx, tl.ps[who], lobbytest.Move(tl.last[who].Game, r)); err != nil {
				return nil, err
			}
		} else if err := tl.tbl.Start(ctx, tl.ps[0]); err != nil {
			return nil, err
		}
		for j, s := range tl.subs {
			tl.last[j], _ = s.Wait(ctx)
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}

// botSim is simulated Mäxchen bots over UDP: they join every round, roll
// or (against a high claim) see, and announce their roll or a bluff.
type botSim struct {
	conns  []*net.UDPConn
	sent   atomic.Int64 // the time of the last answer, in ns
	rounds atomic.Int64
	mu     sync.Mutex
	lat    []time.Duration
	wg     sync.WaitGroup
}

func startBots(addr string, n int) (*botSim, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	s := &botSim{}
	for i := range n {
		c, err := net.DialUDP("udp", nil, ua)
		if err != nil {
			s.stop()
			return nil, err
		}
		s.conns = append(s.conns, c)
		s.wg.Add(1)
		go s.run(c, fmt.Sprintf("sim-%d", i), i == 0)
	}
	return s, nil
}

func (s *botSim) run(c *net.UDPConn, name string, counter bool) {
	defer s.wg.Done()
	r := rand.New(rand.NewPCG(uint64(len(name)), 9))
	answer := func(msg string) {
		s.sent.Store(time.Now().UnixNano())
		c.Write([]byte(msg))
	}
	c.Write([]byte("REGISTER;" + name))
	buf := make([]byte, 1024)
	claim := engine.NoValue
	for {
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		f := strings.Split(string(buf[:n]), ";")
		switch f[0] {
		case "ROUND STARTING", "YOUR TURN", "ROLLED":
			if at := s.sent.Load(); at > 0 {
				s.mu.Lock()
				s.lat = append(s.lat, time.Since(time.Unix(0, at)))
				s.mu.Unlock()
			}
		case "ROUND STARTED":
			claim = engine.NoValue
		case "ANNOUNCED":
			claim, _ = engine.ParseValue(f[2])
		case "PLAYER LOST": // a round played
			if counter {
				s.rounds.Add(1)
			}
		}
		switch f[0] {
		case "ROUND STARTING":
			answer("JOIN;" + f[1])
		case "YOUR TURN":
			if claim != engine.NoValue && engine.Classic.Compare(claim, 64) >= 0 {
				answer("SEE;" + f[1])
			} else {
				answer("ROLL;" + f[1])
			}
		case "ROLLED":
			v, _ := engine.ParseValue(f[1])
			if claim != engine.NoValue && engine.Classic.Compare(v, claim) <= 0 {
				above := engine.Classic.Above(claim)
				v = above[r.IntN(len(above))]
			}
			answer("ANNOUNCE;" + v.Comma() + ";" + f[2])
		}
	}
}

func (s *botSim) roundsPlayed() int64 {
	if s == nil {
		return 0
	}
	return s.rounds.Load()
}

// latencies returns the turn latencies since the last call, sorted.
func (s *botSim) latencies() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.lat
	s.lat = nil
	slices.Sort(out)
	return out
}

func (s *botSim) stop() {
	for _, c := range s.conns {
		c.Close()
	}
	s.wg.Wait()
}
