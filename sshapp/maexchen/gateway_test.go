package maexchen

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

func TestRegistration(t *testing.T) {
	e := newEnv(t)
	if _, err := e.st.SetName(context.Background(), "SHA256:bobby-key", "bobby"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, msg, want string
	}{
		{"no name", "REGISTER", "REJECTED;INVALID_NAME"},
		{"empty name", "REGISTER;", "REJECTED;INVALID_NAME"},
		{"white space", "REGISTER;a b", "REJECTED;INVALID_NAME"},
		{"comma", "REGISTER;a,b", "REJECTED;INVALID_NAME"},
		{"colon", "REGISTER;a:b", "REJECTED;INVALID_NAME"},
		{"21 characters", "REGISTER;" + strings.Repeat("x", 21), "REJECTED;INVALID_NAME"},
		{"an escape code", "REGISTER;red\x1b[31m", "REJECTED;INVALID_NAME"},
		{"a bidi override", "REGISTER;ab\u202ecd", "REJECTED;INVALID_NAME"},
		{"20 characters", "REGISTER;" + strings.Repeat("y", 20), "REGISTERED"},
		{"not ASCII", "REGISTER;" + strings.Repeat("ä", 5), "REJECTED;INVALID_NAME"},
		{"a Cyrillic a", "REGISTER;\u0430da", "REJECTED;INVALID_NAME"},
		{"fullwidth", "REGISTER;\uff41\uff44\uff41", "REJECTED;INVALID_NAME"},
		{"blank on screen", "REGISTER;\u115f", "REJECTED;INVALID_NAME"},
		{"a dash first", "REGISTER;-bot", "REJECTED;INVALID_NAME"},
		{"trailing newline", "REGISTER;newline\n", "REGISTERED"},
		{"trailing CRLF", "REGISTER;crlf\r\n", "REGISTERED"},
		{"fields past the name ignored", "REGISTER;extra;fields", "REGISTERED"},
		{"an SSH player's name", "REGISTER;BOBBY", "REJECTED;NAME_ALREADY_TAKEN"},
		{"looks like an SSH player's name", "REGISTER;b0bby", "REJECTED;NAME_ALREADY_TAKEN"},
		{"looks like a bot's here", "REGISTER;CRLF", "REJECTED;NAME_ALREADY_TAKEN"},
		{"the gateway's own name", "REGISTER;maexchen", "REJECTED;NAME_ALREADY_TAKEN"},
		{"looks like a built-in bot's", "REGISTER;lnes", "REJECTED;NAME_ALREADY_TAKEN"},
		{"a built-in bot's name", "REGISTER;Ada2", "REJECTED;NAME_ALREADY_TAKEN"},
		{"a spectator", "REGISTER_SPECTATOR;watcher", "REGISTERED"},
		{"a spectator's bad name", "REGISTER_SPECTATOR;a;b", "REGISTERED"},
		{"a spectator without a name", "REGISTER_SPECTATOR", "REJECTED;INVALID_NAME"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Each from an address of its own: an address registers at
			// most a few players.
			c := e.dial(tc.name, fmt.Sprintf("127.0.1.%d:0", i+1))
			c.send(tc.msg)
			if got := c.next(); got != tc.want {
				t.Fatalf("%q: got %q, want %q", tc.msg, got, tc.want)
			}
		})
	}
}

func TestTakeoverFromTheSameIPOnly(t *testing.T) {
	e := newEnv(t)
	old := e.bot("taker")
	token := old.expect("ROUND STARTING")[0]
	// A move from another IP, with a live token, is not the bot's.
	spoof := e.dial("spoof", "127.0.0.2:0")
	spoof.send("JOIN;" + token)
	spoof.send("REGISTER;taker")
	spoof.expect("REJECTED;NAME_ALREADY_TAKEN")
	// The same name from the same IP, another port, takes the player over.
	newer := e.dial("taker", "127.0.0.1:0")
	newer.send("REGISTER;taker")
	newer.expect("REGISTERED")
	old.send("JOIN;" + token) // from the old port: no longer the bot's
	e.clock.Advance(e.gw.cfg.Timeout)
	newer.expect("ROUND CANCELED;NO_PLAYERS")
	newer.expect("SCORE")
	e.clock.Advance(e.gw.cfg.Timeout)
	token = newer.expect("ROUND STARTING")[0]
	newer.send("JOIN;" + token)
	newer.expect("ROUND STARTED;2;taker")
	newer.expect("ROUND CANCELED;ONLY_ONE_PLAYER")
	// The old port heard none of it: its next message answers its own
	// registration, which takes the player back.
	old.send("REGISTER;taker")
	old.expect("REGISTERED")
	if got := e.gw.Stats(); got.Ignored < 2 {
		t.Errorf("stats %+v: the spoofed and the stale JOIN were ignored", got)
	}
}

// TestServerFull: a newcomer that finds every place taken by bots that
// play waits, hearing nothing (published bots quit on a REJECTED), and
// gets the first place that frees; at most a few wait from one address,
// and a wait ends after Idle.
func TestServerFull(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxPlayers, c.MaxSpectators = 2, 1 })
	e.bot("a")
	b := e.bot("b")
	c := e.dial("c", "127.0.0.1:0")
	c.send("REGISTER;c")
	e.waitActor("c waits", func() bool { return len(e.gw.waiting) == 1 })
	d := e.dial("d", "127.0.0.5:0")
	d.send("REGISTER;d")
	e.waitActor("d waits", func() bool { return len(e.gw.waiting) == 2 })
	// A registered player still takes itself over when the server is full.
	a2 := e.dial("a", "127.0.0.1:0")
	a2.send("REGISTER;a")
	a2.expect("REGISTERED")
	// A place frees: the first newcomer waiting gets it.
	b.send("UNREGISTER")
	b.until("UNREGISTERED")
	c.expect("REGISTERED")
	if names := e.registered(); !slices.Equal(names, []string{"a", "c"}) {
		t.Fatalf("registered: %v", names)
	}
	// perAddress newcomers wait from one address; the next is refused.
	waiting := []*client{d}
	for i := range perAddress + 1 {
		w := e.dial("w", "127.0.0.1:0")
		w.send(fmt.Sprintf("REGISTER;w%d", i))
		waiting = append(waiting, w)
	}
	waiting[perAddress+1].expect("REJECTED;SERVER_FULL")
	e.waitActor("the newcomers waiting", func() bool { return len(e.gw.waiting) == perAddress+1 })
	// UNREGISTER ends a wait.
	waiting[1].send("UNREGISTER")
	waiting[1].expect("UNREGISTERED")
	// A wait ends after Idle.
	a2.send("HEARTBEAT")
	c.send("HEARTBEAT")
	e.waitActor("heard", func() bool {
		return e.gw.playerNamed("a").lastSeen.Equal(e.clock.Now()) && e.gw.playerNamed("c").lastSeen.Equal(e.clock.Now())
	})
	e.clock.Advance(e.gw.cfg.Idle)
	for _, w := range slices.Delete(waiting[:perAddress+1], 1, 2) {
		w.expect("REJECTED;SERVER_FULL")
	}
	// A spectator past the limit takes the place of the oldest.
	s1 := e.dial("s1", "127.0.0.1:0")
	s1.send("REGISTER_SPECTATOR;s1")
	s1.expect("REGISTERED")
	s2 := e.dial("s2", "127.0.0.1:0")
	s2.send("REGISTER_SPECTATOR;s2")
	s2.expect("REGISTERED")
	e.clock.Advance(HeartbeatEvery)
	s2.heartbeat()
	s1.send("UNREGISTER") // no longer registered: no answer
	s1.send("REGISTER_SPECTATOR;s1")
	s1.expect("REGISTERED")
}

func TestSpectatorsHearEverythingButPrompts(t *testing.T) {
	e := newEnv(t)
	spec := e.dial("spec", "127.0.0.1:0")
	spec.send("REGISTER_SPECTATOR;spec")
	spec.expect("REGISTERED")
	bots, tokens := e.table("p1", "p2")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	order[0].send("SEE;" + order[0].expect("YOUR TURN")[0])
	var heard []string
	for {
		m := spec.next()
		heard = append(heard, m)
		if strings.HasPrefix(m, "SCORE;") && len(heard) > 4 {
			break
		}
	}
	text := strings.Join(heard, "\n")
	for _, want := range []string{"ROUND CANCELED;NO_PLAYERS", "ROUND STARTED;2;" + order[0].name + "," + order[1].name,
		"PLAYER WANTS TO SEE;" + order[0].name, "PLAYER LOST;" + order[0].name + ";SEE_BEFORE_FIRST_ROLL"} {
		if !strings.Contains(text, want) {
			t.Errorf("the spectator did not hear %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "ROUND STARTING") || strings.Contains(text, "YOUR TURN") {
		t.Errorf("the spectator was asked to play:\n%s", text)
	}
	spec.send("UNREGISTER")
	if got := spec.until("UNREGISTERED"); got != nil {
		t.Errorf("UNREGISTERED;%v", got)
	}
}

func TestStaleTokensAreIgnored(t *testing.T) {
	e := newEnv(t)
	bots, tokens := e.table("p1", "p2")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	first, second := order[0], order[1]
	turn := first.expect("YOUR TURN")[0]
	joinToken := tokens[0]
	if bots[0] != first {
		joinToken = tokens[1]
	}
	for _, m := range []string{
		"ROLL;" + joinToken,               // a spent JOIN token
		"ROLL;" + strings.Repeat("0", 32), // a token never handed out
		"ANNOUNCE;3,1;" + turn,            // the right token for the wrong word
		"JOIN;" + turn,
	} {
		first.send(m)
	}
	second.send("SEE;" + turn) // another bot's token
	e.clock.Advance(e.gw.cfg.Timeout)
	lost := "PLAYER LOST;" + first.name + ";DID_NOT_TAKE_TURN"
	all(lost, first, second)
	first.expect("SCORE")
	second.expect("SCORE")
	// The next round: the old turn's token is dead.
	tokens = []string{first.expect("ROUND STARTING")[0], second.expect("ROUND STARTING")[0]}
	first.send("ROLL;" + turn)
	e.dice.push(0, 0)
	order = e.join([]*client{first, second}, tokens)
	order[0].send("SEE;" + order[0].expect("YOUR TURN")[0])
	all("PLAYER WANTS TO SEE;"+order[0].name, order...)
}

func TestGarbageAndHugeDatagrams(t *testing.T) {
	e := newEnv(t)
	bots, tokens := e.table("p1", "p2")
	e.dice.push(0, 0)
	e.dice.roll(3, 1)
	order := e.join(bots, tokens)
	first := order[0]
	turn := first.expect("YOUR TURN")[0]
	huge := strings.Repeat("R", 65507) // the largest UDP datagram over IPv4
	garbage := []string{
		"", ";", ";;;;", "\x00\xff\xfe", "ROLL", "ROLL;", "roll;" + turn, "ROLL " + turn,
		"YOUR TURN;" + turn, "ERROR;oops", "ANNOUNCE;3,1," + turn, // a published bot's own bug
		huge, "ROLL;" + turn + strings.Repeat(";", 2000),
	}
	for _, g := range garbage {
		first.send(g)
	}
	// An outsider's garbage gets no answer: its first answer is to its
	// own registration.
	out := e.dial("outsider", "127.0.0.1:0")
	for _, g := range garbage {
		out.send(g)
	}
	out.send("REGISTER_SPECTATOR;outsider")
	out.expect("REGISTERED")
	// The turn is still open, with the same token.
	first.send("ROLL;" + turn + "\r\n")
	all("PLAYER ROLLS;"+first.name, order...)
	rolled := first.expect("ROLLED")
	for _, g := range []string{"ANNOUNCE;7,1;" + rolled[1], "ANNOUNCE;31;" + rolled[1], "ANNOUNCE;3,1,0;" + rolled[1], "ANNOUNCE;;" + rolled[1]} {
		first.send(g)
	}
	first.send("ANNOUNCE;1,3;" + rolled[1])
	all("ANNOUNCED;"+first.name+";3,1", order...)
	if st := e.gw.Stats(); st.Ignored < int64(2*len(garbage)) {
		t.Errorf("stats %+v: every piece of garbage is ignored", st)
	}
}

func TestRegistrationsAreRateLimitedPerIP(t *testing.T) {
	f := newFilter()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := func(ip string, at time.Time) bool {
		return f.pass(datagram{from: mustAddr(ip), msg: message{cmd: cmdRegister, name: "x"}}, at)
	}
	n := 0
	for range 200 {
		if reg("127.0.0.1:5000", now) {
			n++
		}
	}
	if n != regBurst {
		t.Errorf("%d of 200 registrations at once passed, want %d", n, regBurst)
	}
	if !reg("127.0.0.2:5000", now) {
		t.Error("another IP is limited apart")
	}
	n = 0
	for range 200 {
		if reg("127.0.0.1:5001", now.Add(time.Second)) {
			n++
		}
	}
	if n != regRate {
		t.Errorf("%d passed a second later, want %d", n, regRate)
	}
	// A move passes only with a live token, from where it was sent, once.
	tok := newToken()
	f.add(tok, tokenRef{kind: cmdRoll, to: mustAddr("127.0.0.1:7000")})
	see := func(from string) bool {
		return f.pass(datagram{from: mustAddr(from), msg: message{cmd: cmdSee, token: tok}}, now)
	}
	if see("127.0.0.1:7001") || !see("127.0.0.1:7000") || see("127.0.0.1:7000") {
		t.Error("a token works once, from its address")
	}
}

func TestVanishedBotsAreUnregistered(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Idle = 10 * time.Second })
	spec := e.dial("spec", "127.0.0.1:0")
	spec.send("REGISTER_SPECTATOR;spec")
	spec.expect("REGISTERED")
	a := e.bot("gone")
	a.expect("ROUND STARTING")
	e.clock.Advance(11 * time.Second)
	// The heartbeat that unregisters the bot is heard by the spectator.
	spec.heartbeat()
	// The name is free again, even from another IP.
	b := e.dial("gone", "127.0.0.2:0")
	b.send("REGISTER;gone")
	b.expect("REGISTERED")
}

func TestPointsComeFromTheStore(t *testing.T) {
	e := newEnv(t)
	bots, tokens := e.table("winner", "loser")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	order[0].send("SEE;" + order[0].expect("YOUR TURN")[0])
	order[0].until("SCORE")
	// A restart: the store is all that is left.
	e.close()
	e.open()
	c := e.bot(order[0].name)
	c.send("JOIN;" + c.expect("ROUND STARTING")[0])
	c.expect("ROUND STARTED")
	c.expect("ROUND CANCELED;ONLY_ONE_PLAYER")
	want := "SCORE;" + order[0].name + ":0," + order[1].name + ":1"
	if got := c.next(); got != want {
		t.Fatalf("after a restart %q, want %q", got, want)
	}
}

// TestAPersonSitsIn: a person seated at the table plays in every round
// with the table's turn clock, the bots with theirs; SCORE lists the bots.
func TestAPersonSitsIn(t *testing.T) {
	e := newEnv(t)
	cp, err := e.st.SetName(context.Background(), "SHA256:carol-key", "carol")
	if err != nil {
		t.Fatal(err)
	}
	carol := lobby.Player{ID: cp.ID, Key: "SHA256:carol-key"}
	tbl := e.gw.Table()
	sub, err := tbl.Watch(context.Background(), carol)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := tbl.Sit(context.Background(), carol); err != nil {
		t.Fatal(err)
	}
	bots, tokens := e.table("bot")
	// carol sits first, the bot is dealt after her; no swap, carol opens.
	e.dice.push(1, 0)
	e.dice.roll(6, 6)
	bots[0].send("JOIN;" + tokens[0])
	bots[0].expect("ROUND STARTED;2;carol,bot")
	snap := waitSnap(t, sub, func(s lobby.Snapshot) bool { return s.Playing && s.Game.MyTurn() })
	if d := snap.Deadline.Sub(e.clock.Now()); d != DefaultTurnSeconds*time.Second {
		t.Fatalf("carol's clock: %v, want %ds", d, DefaultTurnSeconds)
	}
	for _, a := range []engine.Action{{Kind: engine.Roll, Look: true}, {Kind: engine.Claim, Value: 66}} {
		if err := tbl.Act(context.Background(), carol, a); err != nil {
			t.Fatal(err)
		}
	}
	bot := bots[0]
	bot.expect("PLAYER ROLLS;carol")
	bot.expect("ANNOUNCED;carol;6,6")
	turn := bot.expect("YOUR TURN")[0]
	snap = waitSnap(t, sub, func(s lobby.Snapshot) bool { return s.Game.Turn == 1 })
	if d := snap.Deadline.Sub(e.clock.Now()); d != e.gw.cfg.Timeout {
		t.Fatalf("the bot's clock: %v, want %v", d, e.gw.cfg.Timeout)
	}
	bot.send("SEE;" + turn)
	bot.expect("PLAYER WANTS TO SEE;bot")
	bot.expect("ACTUAL DICE;6,6")
	bot.expect("PLAYER LOST;bot;SEE_FAILED")
	bot.expect("SCORE;bot:0")
	// carol is still seated for the next round.
	bot.send("JOIN;" + bot.expect("ROUND STARTING")[0])
	bot.expect("ROUND STARTED")
}

func waitSnap(t *testing.T, sub *lobby.Subscription, ok func(lobby.Snapshot) bool) lobby.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for {
		snap, more := sub.Wait(ctx)
		if !more {
			t.Fatal("no snapshot as wanted")
		}
		if snap.Game != nil && ok(snap) {
			return snap
		}
	}
}

// TestFloodDuringARound: while floods of garbage, stale moves and
// registrations come from several sockets, a round is played to its end
// and no move of its bots is lost (the round's clock never has to run).
func TestFloodDuringARound(t *testing.T) {
	e := newEnv(t)
	bots, tokens := e.table("p1", "p2")
	e.dice.push(0, 0)
	e.dice.roll(5, 4)
	order := e.join(bots, tokens)
	first, second := order[0], order[1]
	turn := first.expect("YOUR TURN")[0]
	stop := make(chan struct{})
	done := make(chan int, 4)
	var flooded atomic.Int64
	for i := range 4 {
		f := e.dial("flood", "127.0.0.1:0")
		go func() {
			n := 0
			msgs := []string{"ROLL;" + turn, "JOIN;" + tokens[0], "REGISTER;flood" + strings.Repeat("x", i), "\xff\xfe", strings.Repeat("A", 1200)}
			// Bursts of 10 a millisecond a socket: up to 40,000 datagrams
			// a second, a hundred times the bots' own traffic, and within
			// what the reader drops even under the race detector (a flood
			// faster than the reader is dropped by the kernel, bots'
			// datagrams with it).
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					done <- n
					return
				case <-tick.C:
				}
				for range 10 {
					f.conn.Write([]byte(msgs[n%len(msgs)]))
					n++
				}
				flooded.Add(10)
			}
		}()
	}
	// The flood is well under way before the first move.
	for deadline := time.Now().Add(waitFor); flooded.Load() < 10000; {
		if time.Now().After(deadline) {
			t.Fatalf("only %d datagrams flooded", flooded.Load())
		}
		time.Sleep(time.Millisecond)
	}
	first.send("ROLL;" + turn)
	all("PLAYER ROLLS;"+first.name, order...)
	first.send("ANNOUNCE;5,4;" + first.expect("ROLLED")[1])
	all("ANNOUNCED;"+first.name+";5,4", order...)
	second.send("SEE;" + second.expect("YOUR TURN")[0])
	all("PLAYER WANTS TO SEE;"+second.name, order...)
	all("ACTUAL DICE;5,4", order...)
	all("PLAYER LOST;"+second.name+";SEE_FAILED", order...)
	close(stop)
	sent := 0
	for range 4 {
		sent += <-done
	}
	if st := e.gw.Stats(); st.Ignored == 0 || sent == 0 {
		t.Errorf("%d datagrams flooded, stats %+v", sent, st)
	}
}
