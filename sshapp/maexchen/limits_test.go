package maexchen

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// inActor runs fn in the gateway's actor and waits for it.
func (e *env) inActor(fn func()) {
	e.t.Helper()
	done := make(chan struct{})
	e.gw.post(func() { fn(); close(done) })
	select {
	case <-done:
	case <-time.After(waitFor):
		e.t.Fatal("the gateway's actor did not answer")
	}
}

// registered is the names of the players registered, in order.
func (e *env) registered() []string {
	var names []string
	e.inActor(func() {
		for _, p := range e.gw.players {
			names = append(names, p.name)
		}
	})
	return names
}

// spectatorsFrom counts the spectators registered from each IP.
func (e *env) spectatorsFrom() map[string]int {
	n := map[string]int{}
	e.inActor(func() {
		for _, s := range e.gw.spectators {
			n[s.addr.Addr().String()]++
		}
	})
	return n
}

// waitActor polls cond in the actor until it holds.
func (e *env) waitActor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		var ok bool
		e.inActor(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not within %s", what, waitFor)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSpectatorsPerAddress: an address's spectators push out only its
// own.
func TestSpectatorsPerAddress(t *testing.T) {
	e := newEnv(t)
	outsider := e.dial("outsider-spec", "127.0.0.41:0")
	outsider.send("REGISTER_SPECTATOR;watcher")
	outsider.expect("REGISTERED")
	for i := range 20 {
		c := e.dial("spec", "127.0.0.35:0")
		c.send(fmt.Sprintf("REGISTER_SPECTATOR;spec%d", i))
		c.until("REGISTERED")
	}
	if got := e.spectatorsFrom(); got["127.0.0.35"] != perAddress || got["127.0.0.41"] != 1 {
		t.Errorf("spectators by address: %v", got)
	}
}

// TestSpectatorsPastTheTotal: with every spectator place taken, a new one
// takes the place of the oldest of the address with the most.
func TestSpectatorsPastTheTotal(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxSpectators = 4 })
	for _, from := range []string{"127.0.0.50", "127.0.0.51", "127.0.0.51", "127.0.0.50"} {
		c := e.dial("spec", from+":0")
		c.send("REGISTER_SPECTATOR;s")
		c.expect("REGISTERED")
	}
	c := e.dial("spec", "127.0.0.52:0")
	c.send("REGISTER_SPECTATOR;s")
	c.expect("REGISTERED")
	// .50 and .51 hold two each; .50's first is the oldest.
	if got := e.spectatorsFrom(); got["127.0.0.50"] != 1 || got["127.0.0.51"] != 2 || got["127.0.0.52"] != 1 {
		t.Errorf("spectators by address: %v", got)
	}
}

// ban stores a ban of a Mäxchen bot (its person) or of UDP addresses as
// the ban command does.
func (e *env) ban(target string) {
	e.t.Helper()
	b, ok, err := lobby.ParseUDPBan(target)
	if !ok || err != nil {
		e.t.Fatalf("ban %s: %v, %v", target, ok, err)
	}
	sb := store.Ban{Person: b.Target()}
	if b.Name == "" {
		sb = store.Ban{UDP: b.Addresses()}
	}
	if err := e.st.Ban(context.Background(), sb); err != nil {
		e.t.Fatal(err)
	}
}

// TestBans: a ban of a Mäxchen bot (of its name, and names like it) or of
// UDP addresses, stored as the ban command stores it, drops the bots it
// covers at the next heartbeat and refuses them after; lifted, they
// register again.
func TestBans(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u1 := e.bot("u1")
	fromBanned := e.dial("x1", "127.0.0.30:0")
	fromBanned.send("REGISTER;x1")
	fromBanned.expect("REGISTERED")
	spec := e.dial("spec", "127.0.0.31:0")
	spec.send("REGISTER_SPECTATOR;spec")
	spec.expect("REGISTERED")
	keep := e.dial("keep", "127.0.0.32:0")
	keep.send("REGISTER;keep")
	keep.expect("REGISTERED")
	for _, b := range []string{"maexchen:u1", "udp:127.0.0.30", "udp:127.0.0.31/32"} {
		e.ban(b)
	}
	e.clock.Advance(HeartbeatEvery)
	u1.until("REJECTED;" + rejectBanned)
	fromBanned.until("REJECTED;" + rejectBanned)
	spec.until("REJECTED;" + rejectBanned)
	if names := e.registered(); !slices.Equal(names, []string{"keep"}) {
		t.Fatalf("registered after the bans: %v", names)
	}
	for _, c := range []struct {
		cl  *client
		msg string
	}{
		{u1, "REGISTER;u1"},
		{e.dial("u1 elsewhere", "127.0.0.33:0"), "REGISTER;u1"},
		{e.dial("looks like u1", "127.0.0.34:0"), "REGISTER;U1"},
		{fromBanned, "REGISTER;other-name"},
		{spec, "REGISTER_SPECTATOR;spec"},
	} {
		c.cl.send(c.msg)
		c.cl.until("REJECTED;" + rejectBanned)
	}
	if err := e.st.Unban(ctx, "maexchen:u1"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(HeartbeatEvery)
	keep.heartbeat() // the heartbeat that read the bans again
	keep.heartbeat()
	u1.send("REGISTER;u1")
	u1.until("REGISTERED")
	fromBanned.send("REGISTER;x1")
	fromBanned.until("REJECTED;" + rejectBanned)
}

// TestBansAfterARestart: the bans are read when the gateway starts.
func TestBansAfterARestart(t *testing.T) {
	e := newEnv(t)
	e.ban("udp:127.0.0.0/24")
	e.close()
	e.open()
	c := e.dial("b", "127.0.0.9:0")
	c.send("REGISTER;b")
	c.expect("REJECTED;" + rejectBanned)
	c = e.dial("b", "127.0.1.9:0")
	c.send("REGISTER;b")
	c.expect("REGISTERED")
}

// TestDeadRegistrationsSitOut: a bot that does not answer JOIN sits out:
// the next rounds start as soon as the bots that answer have joined, and
// it is waited for again once it answers.
func TestDeadRegistrationsSitOut(t *testing.T) {
	e := newEnv(t)
	dead := e.bot("dead")
	dead.expect("ROUND STARTING")
	a := e.bot("a")
	b := e.bot("b")
	e.clock.Advance(e.gw.cfg.Timeout) // the first round: dead did not join
	for _, c := range []*client{dead, a, b} {
		c.until("ROUND CANCELED;NO_PLAYERS")
		c.expect("SCORE")
	}
	e.clock.Advance(e.gw.cfg.Timeout)
	// Rounds start without the clock moving: the window does not wait
	// for the dead registration.
	for round := range 2 {
		dt := dead.until("ROUND STARTING")[0]
		ta, tb := a.until("ROUND STARTING")[0], b.until("ROUND STARTING")[0]
		a.send("JOIN;" + ta)
		b.send("JOIN;" + tb)
		started := a.until("ROUND STARTED")
		if names := strings.Split(started[1], ","); len(names) != 2 || slices.Contains(names, "dead") {
			t.Fatalf("round %d started with %v", round+2, names)
		}
		dead.until("ROUND STARTED")
		if round == 1 {
			// It answers, late, while the round it was asked to is played.
			dead.send("JOIN;" + dt)
			e.waitActor("dead back in", func() bool { return !e.gw.playerNamed("dead").sittingOut })
		}
		first := map[string]*client{"a": a, "b": b}[strings.Split(started[1], ",")[0]]
		first.send("SEE;" + first.until("YOUR TURN")[0])
		for _, c := range []*client{a, b, dead} {
			c.until("SCORE")
		}
	}
	// The next round waits for it: it joins after the others and plays.
	ta, tb, td := a.until("ROUND STARTING")[0], b.until("ROUND STARTING")[0], dead.until("ROUND STARTING")[0]
	a.send("JOIN;" + ta)
	b.send("JOIN;" + tb)
	dead.send("JOIN;" + td)
	if names := strings.Split(a.until("ROUND STARTED")[1], ","); len(names) != 3 || !slices.Contains(names, "dead") {
		t.Fatalf("the round after dead answered started with %v", names)
	}
}

// TestNameHold: a bot's name that has played stays its address's while
// the bot is quiet, across a restart, until NameHold has passed since it
// was last heard or an admin frees it; a name that never played is not
// held.
func TestNameHold(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Idle = 10 * time.Second })
	bots, tokens := e.table("u1", "u2")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	order[0].send("SEE;" + order[0].until("YOUR TURN")[0])
	order[0].until("SCORE")
	tmp := e.dial("tmp", "127.0.0.1:0")
	tmp.send("REGISTER;tmp")
	tmp.until("REGISTERED")
	// Both go quiet and are unregistered.
	e.clock.Advance(11 * time.Second)
	e.waitActor("the quiet bots unregistered", func() bool { return len(e.gw.players) == 0 })

	squatter := e.dial("squatter", "127.0.0.30:0")
	squatter.send("REGISTER;u1")
	squatter.expect("REJECTED;" + rejectNameTaken)
	// A held name keeps out the names that look like it too, from
	// anywhere: the record under u1 is u1's.
	squatter.send("REGISTER;U1")
	squatter.expect("REJECTED;" + rejectNameTaken)
	alike := e.dial("alike", "127.0.0.1:0")
	alike.send("REGISTER;ul")
	alike.expect("REJECTED;" + rejectNameTaken)
	squatter.send("REGISTER;tmp") // never played: not held
	squatter.expect("REGISTERED")
	squatter.send("UNREGISTER")
	squatter.expect("UNREGISTERED")

	e.close()
	e.open()
	squatter = e.dial("squatter", "127.0.0.30:0")
	squatter.send("REGISTER;u1")
	squatter.expect("REJECTED;" + rejectNameTaken)
	// Its own address takes it back.
	own := e.dial("u1", "127.0.0.1:0")
	own.send("REGISTER;u1")
	own.expect("REGISTERED")
	own.send("UNREGISTER")
	own.until("UNREGISTERED")

	// An admin frees it.
	if _, err := e.st.FreeUDPName(context.Background(), "u1"); err != nil {
		t.Fatal(err)
	}
	squatter.send("REGISTER;u1")
	squatter.expect("REGISTERED")

	// u2's hold ends a day after it was last heard.
	other := e.dial("other", "127.0.0.31:0")
	e.clock.Skip(DefaultNameHold - 12*time.Second) // u2 was heard 11 s and a little more ago
	other.send("REGISTER;u2")
	other.expect("REJECTED;" + rejectNameTaken)
	e.clock.Skip(2 * time.Second)
	other.send("REGISTER;u2")
	other.until("REGISTERED")
	n, err := e.st.HeldUDPName(context.Background(), "u2")
	if err != nil || n.Addr != "127.0.0.31" {
		t.Errorf("u2's hold after it changed hands: %+v, %v", n, err)
	}
}

// claimOf is the stored claim of name.
func (e *env) claimOf(name string) (store.UDPName, bool) {
	e.t.Helper()
	n, err := e.st.HeldUDPName(context.Background(), name)
	if errors.Is(err, store.ErrNotFound) {
		return store.UDPName{}, false
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return n, true
}

// TestClaimedNamesAndPeople: a bot's name is stored as its address's
// while it is registered, so that no person takes it, nor one that looks
// like it; a name that never played is free again once its bot leaves; a
// person's name is never a bot's. The store checks each in the
// transaction that takes the name.
func TestClaimedNamesAndPeople(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	deep := e.bot("deep")
	n, ok := e.claimOf("deep")
	if !ok || n.Name != "deep" || n.Addr != "127.0.0.1" || !n.Registered || n.Held {
		t.Fatalf("the claim of a bot registered: %+v, %v", n, ok)
	}
	for _, name := range []string{"deep", "DEEP", "dEEp"} {
		if _, err := e.st.SetName(ctx, "SHA256:eve", name); !errors.Is(err, store.ErrNameHeld) {
			t.Errorf("a person names themselves %s beside the bot deep: %v", name, err)
		}
	}
	deep.send("UNREGISTER")
	deep.until("UNREGISTERED")
	if n, ok := e.claimOf("deep"); ok {
		t.Errorf("the claim of a bot that never played, once it left: %+v", n)
	}
	if _, err := e.st.SetName(ctx, "SHA256:eve", "Deep"); err != nil {
		t.Fatalf("a name free again: %v", err)
	}
	c := e.dial("deep", "127.0.0.1:0")
	c.send("REGISTER;deep")
	c.expect("REJECTED;" + rejectNameTaken)
}

// TestClaimsSwept: after a restart no claim says registered; the holds
// that ended are dropped at the heartbeat after holdEvery, so the names
// are free again for people too.
func TestClaimsSwept(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NameHold = time.Hour })
	bots, tokens := e.table("u1", "u2")
	e.dice.push(0, 0)
	order := e.join(bots, tokens)
	order[0].send("SEE;" + order[0].until("YOUR TURN")[0])
	order[0].until("SCORE")
	e.waitActor("the names held", func() bool { return e.gw.playerNamed("u1").storedHeld && e.gw.playerNamed("u2").storedHeld })
	e.bot("later") // registered, never played
	// A crash leaves every claim stored as registered; the next start
	// sweeps: held ones stay, not registered, the others go.
	e.close()
	st, err := store.Open(e.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SweepUDPNames(context.Background(), func(n store.UDPName) (store.UDPName, bool) {
		n.Registered = true
		return n, true
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	e.open()
	all, err := e.st.HeldUDPNames(context.Background())
	if err != nil || len(all) != 2 || !slices.Contains([]string{"u1 u2", "u2 u1"}, all[0].Name+" "+all[1].Name) {
		t.Fatalf("after a restart: %+v, %v", all, err)
	}
	for _, n := range all {
		if !n.Held || n.Registered {
			t.Errorf("after a restart: %+v", n)
		}
	}
	// An hour and a sweep later the holds have ended.
	keep := e.dial("keep", "127.0.0.9:0")
	keep.send("REGISTER;keep")
	keep.expect("REGISTERED")
	e.clock.Skip(time.Hour)
	keep.send("HEARTBEAT") // heard now; later is quiet
	e.waitActor("keep heard", func() bool { return e.gw.playerNamed("keep").lastSeen.Equal(e.clock.Now()) })
	e.clock.Advance(HeartbeatEvery)
	keep.heartbeat()
	e.waitActor("the holds swept", func() bool {
		_, u1 := e.claimOf("u1")
		_, u2 := e.claimOf("u2")
		return !u1 && !u2
	})
	if _, err := e.st.SetName(context.Background(), "SHA256:eve", "U1"); err != nil {
		t.Errorf("a name whose hold ended: %v", err)
	}
	if n, ok := e.claimOf("keep"); !ok || !n.Registered {
		t.Errorf("the claim of a bot registered, after the sweep: %+v, %v", n, ok)
	}
	if n, ok := e.claimOf("later"); ok {
		t.Errorf("the claim of a bot gone quiet that never played: %+v", n)
	}
}

// TestSweepNamesWithoutTheGateway: a server that runs without the gateway
// sweeps the claims as the gateway does at its start: no bot is
// registered; holds that ended go.
func TestSweepNamesWithoutTheGateway(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, n := range []store.UDPName{
		{Name: "left", Addr: "192.0.2.1", Heard: now, Registered: true},                               // never played
		{Name: "held", Addr: "192.0.2.1", Heard: now.Add(-time.Minute), Registered: true, Held: true}, // played lately
		{Name: "old", Addr: "192.0.2.1", Heard: now.Add(-2 * time.Hour), Held: true},                  // played long ago
	} {
		if _, err := st.ClaimUDPName(ctx, n, func(store.UDPName) bool { return false }); err != nil {
			t.Fatal(err)
		}
		if err := st.KeepUDPNames(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := SweepNames(ctx, records{st}, now, time.Hour); err != nil {
		t.Fatal(err)
	}
	all, err := st.HeldUDPNames(ctx)
	if err != nil || len(all) != 1 || all[0].Name != "held" || all[0].Registered || !all[0].Held {
		t.Errorf("after the sweep: %+v, %v", all, err)
	}
}
