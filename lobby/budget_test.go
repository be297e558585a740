package lobby

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/words"
)

// from is p coming from source.
func from(p Player, source string) Player { p.Source = source; return p }

// TestTablesPerSource: fresh keys from one address open at most
// MaxTablesPerSource tables between them, whatever the keys; another
// address, an admin and a source that does not count (loopback, exempt:
// "") are not held by it; a table closed makes room.
func TestTablesPerSource(t *testing.T) {
	e := newEnv(t)
	e.tweak = func(c *Config) { c.MaxTablesPerSource = 3 }
	e.restart()
	ctx := ctxT(t)
	var opened []*Table
	var last Player
	for i := range 3 {
		last = from(e.player(fmt.Sprintf("key%d", i)), "203.0.113.7") // a fresh key each time
		tbl, err := e.lobby.CreateTable(ctx, last, TableConfig{Name: fmt.Sprintf("t%d", i), Rules: quickRules()})
		if err != nil {
			t.Fatal(err)
		}
		opened = append(opened, tbl)
	}
	_, err := e.lobby.CreateTable(ctx, from(e.player("key9"), "203.0.113.7"), TableConfig{Name: "t9", Rules: quickRules()})
	var lim *LimitError
	if !errors.Is(err, ErrTooManyTablesHere) || !errors.As(err, &lim) || lim.Limit != 3 ||
		Shown(err) != "3 open tables were opened from your address, the most one address may, whatever its keys: close one first (table close NAME)" {
		t.Fatalf("a 4th table from one address: %v (%q)", err, Shown(err))
	}
	for name, p := range map[string]Player{
		"another address":         from(e.player("other"), "198.51.100.1"),
		"an IPv6 /64":             from(e.player("six"), "2001:db8:1:2::/64"),
		"an admin":                {ID: e.player("root").ID, Source: "203.0.113.7", Admin: true},
		"a source that not count": e.player("local"),
	} {
		if _, err := e.lobby.CreateTable(ctx, p, TableConfig{Name: "x" + p.ID[2:], Rules: quickRules()}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := opened[0].Close(ctx, from(e.player("key0"), "")); !errors.Is(err, ErrNotHost) {
		t.Fatalf("close by another: %v", err)
	}
	host0 := Player{ID: opened[0].Info().HostID}
	if err := opened[0].Close(ctx, host0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctx, from(e.player("key10"), "203.0.113.7"), TableConfig{Name: "t10", Rules: quickRules()}); err != nil {
		t.Fatalf("a table once one closed: %v", err)
	}
}

// TestBotTablesBudget: tables whose every seat is a built-in bot play on
// by themselves: one address fills at most MaxBotTablesPerSource of
// them, the server runs at most MaxBotTables (admins' aside) for the
// sources it counts, and the refusal comes as the last seat would be
// given to a bot.
func TestBotTablesBudget(t *testing.T) {
	e := newEnv(t)
	e.tweak = func(c *Config) { c.MaxBotTablesPerSource = 2; c.MaxBotTables = 3 }
	e.restart()
	ctx := ctxT(t)
	fill := func(name string, host Player) error {
		tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: name, Rules: quickRules(), Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
			t.Fatalf("the first bot of %s: %v", name, err)
		}
		_, err = tbl.AddBot(ctx, host, ai.Easy)
		if err == nil && tbl.Info().Taken != 2 {
			t.Fatalf("%s: %d seated", name, tbl.Info().Taken)
		}
		return err
	}
	for i := range 2 {
		if err := fill(fmt.Sprintf("a%d", i), from(e.player(fmt.Sprintf("a%d", i)), "203.0.113.7")); err != nil {
			t.Fatal(err)
		}
	}
	err := fill("a2", from(e.player("a2"), "203.0.113.7"))
	if !errors.Is(err, ErrTooManyBotTablesHere) ||
		Shown(err) != "2 tables are filled with bots only from your address, the most one address may: sit down yourself, or close one" {
		t.Fatalf("a 3rd table of bots from one address: %v", err)
	}
	// A person may still sit in the last seat themselves.
	a2, err := e.lobby.Table("a2")
	if err != nil {
		t.Fatal(err)
	}
	if err := a2.Sit(ctx, from(e.player("sitter"), "203.0.113.7")); err != nil {
		t.Fatalf("a person takes the last seat: %v", err)
	}
	if err := fill("b0", from(e.player("b0"), "198.51.100.1")); err != nil {
		t.Fatal(err)
	}
	if err := fill("b1", from(e.player("b1"), "198.51.100.2")); !errors.Is(err, ErrTooManyBotTables) {
		t.Fatalf("a 4th table of bots on the server: %v", err)
	}
	if err := fill("r0", Player{ID: e.player("root").ID, Admin: true}); err != nil {
		t.Fatalf("an admin's table of bots: %v", err)
	}
	// A source the caps do not count (loopback: the operator's own
	// machine, or a --penalty-exempt network) is not held by them.
	if err := fill("l0", e.player("local")); err != nil {
		t.Fatalf("a table of bots from a source not counted: %v", err)
	}
}

// TestUnattendedBotTableRests: a table of bots only that nobody has open
// rests after BotTableIdle: it says so, finishes its game and starts no
// other; opening it wakes it, and its next game starts. An admin's plays
// on.
func TestUnattendedBotTableRests(t *testing.T) {
	e := newEnv(t)
	e.botDelay = time.Second
	e.tweak = func(c *Config) { c.BotTableIdle = time.Minute }
	e.restart()
	ctx := ctxT(t)
	rules := quickRules()
	rules.Lives, rules.End = 1, engine.FirstOut
	open := func(name string, host Player) *Table {
		tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: name, Rules: rules, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := tbl.AddBot(ctx, host, ai.Easy); err != nil {
				t.Fatal(err)
			}
		}
		return tbl
	}
	idle := open("idle", from(e.player("ann"), "203.0.113.7"))
	kept := open("kept", Player{ID: e.player("root").ID, Admin: true})
	// A minute passes with nobody there, the bots playing game after game.
	for range 60 {
		advance(e, idle, time.Second)
		advance(e, kept, 0)
	}
	if info := idle.Info(); !info.Resting {
		t.Fatalf("an unattended table of bots after a minute: %+v", info)
	}
	if kept.Info().Resting {
		t.Fatal("an admin's table of bots rests")
	}
	// It finishes its game, then starts no other, however long.
	for range 120 {
		advance(e, idle, time.Second)
	}
	games := gamesOf(e, "idle")
	for range 60 {
		advance(e, idle, time.Second)
	}
	if info := idle.Info(); info.State != "waiting" || gamesOf(e, "idle") != games {
		t.Fatalf("a resting table: %s, %d games then %d", info.State, games, gamesOf(e, "idle"))
	}
	s := mustWatch(t, idle, e.player("bob"))
	snap := until(t, s, "the table woken", func(s Snapshot) bool { return !s.Table.Resting })
	if !hasLine(snap.Chat, words.RestingLine(time.Minute)) || !hasLine(snap.Chat, words.WokenLine) {
		t.Fatalf("the chat does not say it rested and woke: %v", snap.Chat)
	}
	for range 60 {
		advance(e, idle, time.Second)
	}
	if gamesOf(e, "idle") == games {
		t.Fatal("a woken table of bots starts no game")
	}
	kgames := gamesOf(e, "kept")
	for range 60 {
		advance(e, kept, time.Second)
	}
	if gamesOf(e, "kept") == kgames {
		t.Fatalf("an admin's table of bots stopped playing: %+v, %d games", kept.Info(), kgames)
	}
}

// TestSolvesBySource: a source has at most perSource new solves in
// SolveWindow, whatever else it does; another source has its own; "" and
// an admin are counted by no source; the server queues at most waiting
// solves, and one done gives its place back; a solve older than the
// window counts no more; the refusals are kinded and say the limit.
func TestSolvesBySource(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	b := NewSolves(2, 3, func() time.Time { return now })
	take := func(source string) (func(), error) {
		t.Helper()
		done, err := b.Solve(source)
		if (err == nil) != (done != nil) {
			t.Fatalf("Solve(%q): done %v, err %v", source, done != nil, err)
		}
		return done, err
	}
	var dones []func()
	for range 2 {
		done, err := take("203.0.113.7")
		if err != nil {
			t.Fatal(err)
		}
		done()
		done() // twice is once
	}
	_, err := take("203.0.113.7")
	if !errors.Is(err, ErrTooManySolvesHere) || KindOf(err) != Refused ||
		Shown(err) != "verdicts for these rules are not computed yet, and 2 new rule sets were solved for your address in the last hour, the most one address may; try later" {
		t.Fatalf("a third solve from one source: %v (%v)", err, KindOf(err))
	}
	for _, source := range []string{"198.51.100.1", SolveSource(Player{Admin: true, Source: "203.0.113.7"}), ""} {
		done, err := take(source)
		if err != nil {
			t.Fatalf("a solve from %q: %v", source, err)
		}
		dones = append(dones, done)
	}
	if _, err := take("192.0.2.1"); !errors.Is(err, ErrTooManySolves) ||
		!strings.Contains(Shown(err), "the server has 3 rule sets waiting to be solved, the most it queues; try later") {
		t.Fatalf("a fourth solve waiting: %v", err)
	}
	dones[0]()
	if _, err := take("192.0.2.1"); err != nil {
		t.Fatalf("a solve after one was done: %v", err)
	}
	now = now.Add(SolveWindow - time.Second)
	if _, err := take("203.0.113.7"); !errors.Is(err, ErrTooManySolves) {
		t.Fatalf("the queue full again: %v", err)
	}
	for _, done := range dones[1:] {
		done()
	}
	if _, err := take("203.0.113.7"); !errors.Is(err, ErrTooManySolvesHere) {
		t.Fatalf("within the hour: %v", err)
	}
	now = now.Add(time.Second)
	if _, err := take("203.0.113.7"); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
	if n := len(b.by); n != 1 { // the other sources' solves are an hour old: forgotten
		t.Errorf("%d sources kept, want 1", n)
	}
}
