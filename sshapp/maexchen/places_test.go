package maexchen

import (
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/sshapp/internal/netsource"
)

// botNames are the names of the published bots a dojo starts.
var botNames = []string{"java-simple-bot", "java-random-bot", "go-simple-bot", "ruby-simple-bot",
	"coffee-simple-bot", "rational-python-bot", "luegender-python-bot"}

// TestSevenBotsFromOneMachine: seven bots started on one machine (a dojo
// behind one NAT, an organiser's laptop, a CI job) all register with the
// default settings, from one address or from one IPv6 /64, and play
// rounds together, as at the original server.
func TestSevenBotsFromOneMachine(t *testing.T) {
	for _, tc := range []struct {
		name string
		from func(i int) string
	}{
		{"loopback", func(int) string { return "127.0.0.1:0" }},
		{"one address", func(int) string { return "127.0.1.7:0" }},
		{"one IPv6 /64", func(i int) string { return fmt.Sprintf("127.0.2.%d:0", i+1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, disguised)
			bots := make([]*client, len(botNames))
			for i, n := range botNames {
				bots[i] = e.botFrom(n, tc.from(i))
			}
			tokens := e.nextRound(bots)
			// The opener rolls and announces what it rolled; the next
			// wants to see.
			order := e.join(bots, tokens)
			if len(order) != len(botNames) {
				t.Fatalf("ROUND STARTED with %d of %d bots", len(order), len(botNames))
			}
			first, second := order[0], order[1]
			first.send("ROLL;" + first.until("YOUR TURN")[0])
			rolled := first.until("ROLLED")
			first.send("ANNOUNCE;" + rolled[0] + ";" + rolled[1])
			second.send("SEE;" + second.until("YOUR TURN")[0])
			for _, b := range bots {
				b.until("PLAYER LOST;" + second.name + ";" + lostSeeFailed)
				b.expect("SCORE")
			}
			// The next round, at once: its opener wants to see first.
			for i, b := range bots {
				tokens[i] = b.expect("ROUND STARTING")[0]
			}
			order = e.join(bots, tokens)
			order[0].send("SEE;" + order[0].until("YOUR TURN")[0])
			for _, b := range bots {
				b.until("PLAYER LOST;" + order[0].name + ";" + lostSeeFirst)
				b.expect("SCORE")
			}
			gs := e.games()
			if len(gs) != 2 || len(gs[0].Seats) != len(botNames) || len(gs[1].Seats) != len(botNames) {
				t.Fatalf("%d games in history, want 2 of %d seats", len(gs), len(botNames))
			}
		})
	}
}

// bySource counts the players registered from each source.
func (e *env) bySource() map[string]int {
	n := map[string]int{}
	e.inActor(func() {
		for _, p := range e.gw.players {
			n[netsource.Name(netsource.Of(p.addr.Addr()))]++
		}
	})
	return n
}

// TestFortyFromOneAddress: one address that registers 40 bots takes every
// free place, a few more wait and the rest are refused; a bot from
// another address still gets in, its address's fair share (half the
// places, with two addresses) taken from the first's newest bots. Bots
// from loopback or from an exempt network (--penalty-exempt) keep their
// places: the newcomer waits.
func TestFortyFromOneAddress(t *testing.T) {
	for _, tc := range []struct {
		name   string
		from   func(i int) string
		exempt []netip.Prefix
		gives  bool // the address gives way to the other
	}{
		{"one address", func(int) string { return "127.0.1.30:0" }, nil, true},
		{"one IPv6 /64", func(i int) string { return fmt.Sprintf("127.0.2.%d:0", i+1) }, nil, true},
		{"loopback", func(int) string { return "127.0.0.30:0" }, nil, false},
		{"another network exempt", func(int) string { return "127.0.1.30:0" }, []netip.Prefix{netip.MustParsePrefix("198.51.100.0/30")}, true},
		{"exempt", func(int) string { return "127.0.1.30:0" }, []netip.Prefix{netip.MustParsePrefix("198.51.100.30/32")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, disguised, func(c *Config) { c.Exempt = tc.exempt })
			var in []*client
			for i := range 40 {
				c := e.dial(fmt.Sprintf("squat%d", i), tc.from(i))
				c.send(fmt.Sprintf("REGISTER;squat%d", i))
				switch {
				case i < DefaultMaxPlayers:
					c.expect("REGISTERED")
					in = append(in, c)
				case i < DefaultMaxPlayers+perAddress: // waits
				default:
					c.expect("REJECTED;" + rejectFull)
				}
			}
			e.waitActor("the newcomers waiting", func() bool { return len(e.gw.waiting) == perAddress })
			other := e.dial("other", "127.0.1.40:0")
			other.send("REGISTER;other")
			if !tc.gives {
				e.waitActor("the other waits", func() bool { return len(e.gw.waiting) == perAddress+1 })
				if got := e.bySource(); len(got) != 1 {
					t.Errorf("registered by source: %v", got)
				}
				return
			}
			other.expect("REGISTERED")
			in[len(in)-1].until("UNREGISTERED") // the newest gave way
			// Up to the other address's share, half the places.
			for i := 1; i < DefaultMaxPlayers/2; i++ {
				e.botFrom(fmt.Sprintf("other%d", i), "127.0.1.40:0")
			}
			past := e.dial("past its share", "127.0.1.40:0")
			past.send("REGISTER;other-past")
			e.waitActor("past its share, waits", func() bool { return len(e.gw.waiting) == perAddress+1 })
			got := e.bySource()
			if len(got) != 2 || got["198.51.100.40"] != DefaultMaxPlayers/2 {
				t.Errorf("registered by source: %v", got)
			}
		})
	}
}

// TestSquattedGateway: 8 addresses × 4 names hold every place, each bot
// kept registered by a HEARTBEAT and playing no round. A newcomer from
// a ninth address gets its fair share at once; from loopback (exempt from
// the fair share), the place of a squatter once it has not played for
// GiveWay (within a heartbeat more), never that of a bot that plays.
func TestSquattedGateway(t *testing.T) {
	squat := func(e *env, addr func(a int) string, skip func(a, i int) bool) []*client {
		var cs []*client
		for a := range 8 {
			for i := range 4 {
				if skip(a, i) {
					continue
				}
				cs = append(cs, e.botFrom(fmt.Sprintf("squat%d-%d", a, i), addr(a)))
			}
		}
		for _, c := range cs {
			c.send("HEARTBEAT")
		}
		return cs
	}
	never := func(int, int) bool { return false }

	t.Run("eight addresses", func(t *testing.T) {
		e := newEnv(t, disguised)
		squatters := squat(e, func(a int) string { return fmt.Sprintf("127.0.1.%d:0", a+1) }, never)
		e.botFrom("newcomer", "127.0.1.9:0")
		squatters[len(squatters)-1].until("UNREGISTERED")
		if got := e.bySource(); len(got) != 9 || got["198.51.100.8"] != 3 {
			t.Errorf("registered by source: %v", got)
		}
	})

	t.Run("exempt addresses", func(t *testing.T) {
		e := newEnv(t)
		start := e.clock.Now()
		honest := e.botFrom("honest", "127.0.0.2:0")
		squatters := squat(e, func(a int) string { return fmt.Sprintf("127.0.0.%d:0", a+2) },
			func(a, i int) bool { return a == 0 && i == 0 })
		honest.send("JOIN;" + honest.expect("ROUND STARTING")[0])
		honest.until("SCORE")
		// The first round that asks the squatters: they let it pass.
		e.clock.Advance(e.gw.cfg.Timeout)
		honest.send("JOIN;" + honest.until("ROUND STARTING")[0])
		e.waitActor("honest joined", func() bool { return e.gw.playerNamed("honest").joined })
		e.clock.Advance(e.gw.cfg.Timeout)
		honest.until("SCORE")
		stopped := start.Add(2 * e.gw.cfg.Timeout) // when they stopped playing
		e.waitActor("the squatters sit out", func() bool { return e.gw.playerNamed("squat1-0").idleSince.Equal(stopped) })

		newcomer := e.dial("newcomer", "127.0.0.10:0")
		newcomer.send("REGISTER;newcomer")
		e.waitActor("the newcomer waits", func() bool { return len(e.gw.waiting) == 1 })
		for _, c := range squatters {
			c.send("HEARTBEAT")
		}
		// Short of GiveWay: still waiting, while the honest bot plays on.
		e.clock.Advance(stopped.Add(e.gw.cfg.GiveWay - time.Millisecond).Sub(e.clock.Now()))
		honest.heartbeat()
		e.waitActor("still waiting", func() bool { return len(e.gw.waiting) == 1 && len(e.gw.players) == DefaultMaxPlayers })
		// The next heartbeat, past GiveWay: the first squatter gives way.
		e.clock.Advance(HeartbeatEvery)
		newcomer.expect("REGISTERED")
		if waited := e.clock.Now().Sub(stopped); waited > e.gw.cfg.GiveWay+HeartbeatEvery {
			t.Errorf("the newcomer got in %s after the squatters stopped playing", waited)
		}
		squatters[0].until("UNREGISTERED")
		if names := e.registered(); !slices.Contains(names, "honest") || slices.Contains(names, squatters[0].name) {
			t.Errorf("registered: %v", names)
		}
	})
}

// TestJoinsAndNeverAnswers: a bot that joins every round but lets its
// turn time out gives its place to a newcomer GiveWay after the first
// turn it let pass, though it went on joining.
func TestJoinsAndNeverAnswers(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxPlayers = 2 })
	bots, tokens := e.table("honest", "joiner")
	honest, joiner := bots[0], bots[1]
	newcomer := e.dial("newcomer", "127.0.0.3:0")
	newcomer.send("REGISTER;newcomer")
	e.waitActor("the newcomer waits", func() bool { return len(e.gw.waiting) == 1 })

	order := e.join(bots, tokens)
	if order[0] == honest {
		honest.send("ROLL;" + honest.expect("YOUR TURN")[0])
		rolled := honest.until("ROLLED")
		honest.send("ANNOUNCE;" + rolled[0] + ";" + rolled[1])
	}
	joiner.until("YOUR TURN")
	e.clock.Advance(e.gw.cfg.Timeout)
	stopped := e.clock.Now()
	for _, b := range bots {
		b.until("PLAYER LOST;joiner")
		b.expect("SCORE")
	}
	// It joins the next round in time, and plays no more.
	for i, b := range bots {
		tokens[i] = b.expect("ROUND STARTING")[0]
	}
	e.join(bots, tokens)
	e.waitActor("the joiner joined", func() bool { return len(e.gw.round.dealt) == 2 })
	if !slices.Contains(e.registered(), "joiner") {
		t.Fatal("the joiner gave way early")
	}
	e.clock.Advance(stopped.Add(e.gw.cfg.GiveWay).Sub(e.clock.Now()))
	newcomer.expect("REGISTERED")
	joiner.until("UNREGISTERED")
	if names := e.registered(); !slices.Equal(names, []string{"honest", "newcomer"}) {
		t.Errorf("registered: %v", names)
	}
}
