package lobby

import (
	"errors"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ident"
)

// drivenTable is a 4-seat table hosted and driven by a program.
func drivenTable(t *testing.T, e *env, rules engine.Options) (*Table, Player) {
	t.Helper()
	host := keyless("prog")
	tbl, err := e.lobby.CreateTable(ctxT(t), host, TableConfig{Name: "dealt", Rules: rules, Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Drive(ctxT(t), e.player("mallory"), true); !errors.Is(err, ErrNotHost) {
		t.Fatalf("drive by another: %v", err)
	}
	if err := tbl.Drive(ctxT(t), host, true); err != nil {
		t.Fatal(err)
	}
	return tbl, host
}

func guest(name string, clock time.Duration) Player {
	return Player{ID: "guest:" + name, Bot: true, TurnClock: clock}
}

func TestDrivenTableDealsGames(t *testing.T) {
	e := newEnv(t)
	rules := quickRules()
	rules.Lives = 1
	rules.End = engine.FirstOut
	tbl, host := drivenTable(t, e, rules)
	alice, bob := e.player("alice"), e.player("bob")
	sa := mustWatch(t, tbl, alice)
	if err := tbl.Sit(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctxT(t), host); !errors.Is(err, ErrDriven) {
		t.Fatalf("start at a driven table: %v", err)
	}
	// bob sits without the table open: the deal stands him up.
	if err := tbl.Sit(ctxT(t), bob); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.Deal(ctxT(t), alice, nil); !errors.Is(err, ErrNotHost) {
		t.Fatalf("deal by a player: %v", err)
	}
	got, err := tbl.Deal(ctxT(t), host, nil)
	if !errors.Is(err, ErrTooFewPlayers) || len(got) != 1 || got[0].Name() != "alice" {
		t.Fatalf("deal to alice alone: %v %v", got, err)
	}
	g1, g2 := guest("g1", 250*time.Millisecond), guest("g2", 250*time.Millisecond)
	g3 := guest("g3", 250*time.Millisecond)
	got, err = tbl.Deal(ctxT(t), host, []Player{g1, g2, g1, g3, guest("g4", 0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("dealt to %v, want alice and three guests", got)
	}
	snap := latest(t, sa, tbl)
	if !snap.Playing || !snap.Table.Driven || snap.Table.Taken != 4 {
		t.Fatalf("after the deal: playing %v driven %v taken %d", snap.Playing, snap.Table.Driven, snap.Table.Taken)
	}
	// The clock of the seat whose turn it is: a guest's own, or the table's.
	turn := snap.Game.Turn
	want := time.Duration(rules.TurnSeconds) * time.Second
	if got[turn].TurnClock > 0 {
		want = got[turn].TurnClock
	}
	if d := snap.Deadline.Sub(e.clock.Now()); d != want {
		t.Fatalf("%s's clock %v, want %v", got[turn].Name(), d, want)
	}
	// bob sits down again while the game runs: for the next deal.
	bs := mustWatch(t, tbl, bob)
	if err := tbl.Sit(ctxT(t), bob); !errors.Is(err, ErrTableFull) {
		t.Fatalf("sit at a full running table: %v", err)
	}
	// The first turn's player lets the clock run out: the game is over
	// (first-out), the guests stand up, a person who timed out too.
	e.clock.Advance(want)
	end := next(t, sa, snap.Version)
	for end.Playing {
		end = next(t, sa, end.Version)
	}
	wantSeated := 1
	if got[turn].ID == alice.ID {
		wantSeated = 0
	}
	if end.Table.Taken != wantSeated {
		t.Fatalf("after the game %d seated (%+v), want %d", end.Table.Taken, end.Table.Players, wantSeated)
	}
	if err := tbl.Sit(ctxT(t), bob); err != nil {
		t.Fatal(err)
	}
	if snap := latest(t, bs, tbl); !snap.Seated || snap.Playing {
		t.Fatalf("bob seated %v, a game running %v: a driven table waits for its deal", snap.Seated, snap.Playing)
	}
}

func TestDrivenGuestsGetAFreshClockAfterARoll(t *testing.T) {
	e := newEnv(t)
	tbl, host := drivenTable(t, e, quickRules())
	g1, g2 := guest("g1", time.Second), guest("g2", time.Second)
	s := mustWatch(t, tbl, g1)
	got, err := tbl.Deal(ctxT(t), host, []Player{g1, g2})
	if err != nil {
		t.Fatal(err)
	}
	snap := latest(t, s, tbl)
	first := got[snap.Game.Turn]
	e.clock.Advance(600 * time.Millisecond)
	if err := tbl.Act(ctxT(t), first, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		t.Fatal(err)
	}
	after := latest(t, s, tbl)
	if d := after.Deadline.Sub(e.clock.Now()); d != time.Second {
		t.Fatalf("the announcement's clock: %v, want a fresh 1s", d)
	}
	// Stopping the drive stands the guests up.
	if err := tbl.Drive(ctxT(t), host, false); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.Deal(ctxT(t), host, nil); !errors.Is(err, ErrNotDriven) {
		t.Fatalf("deal at a table no longer driven: %v", err)
	}
}

// TestDrivenTableStaysOpen: a driven table is not closed under its
// program, not even by an admin; undriven, it closes as any table.
func TestDrivenTableStaysOpen(t *testing.T) {
	e := newEnv(t)
	tbl, host := drivenTable(t, e, quickRules())
	admin := e.player("root")
	admin.Admin = true
	for _, p := range []Player{host, admin} {
		if err := tbl.Close(ctxT(t), p); !errors.Is(err, ErrDrivenClose) {
			t.Errorf("close by %s: %v, want ErrDrivenClose", p.Name(), err)
		}
	}
	if _, err := e.lobby.Table("dealt"); err != nil {
		t.Fatalf("the table is gone: %v", err)
	}
	if err := tbl.Drive(ctxT(t), host, false); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Close(ctxT(t), admin); err != nil {
		t.Fatalf("close once undriven: %v", err)
	}
}

// TestDrivenTableNamesItsHostAfterARestart: a program that hosts a table
// is a key-less person, in no store of people, whose name is in its id:
// after a restart the table lists it by that name, before its program
// drives it again and after, never as "?".
func TestDrivenTableNamesItsHostAfterARestart(t *testing.T) {
	e := newEnv(t)
	_, host := drivenTable(t, e, quickRules())
	want, ok := ident.KeylessName(host.ID)
	if !ok {
		t.Fatalf("the host %s is not key-less", host.ID)
	}
	e.restart()
	tbl, err := e.lobby.Table("dealt")
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Info().Host; got != want {
		t.Errorf("after a restart, before the program drives it again, the host is %q, want %q", got, want)
	}
	if err := tbl.Drive(ctxT(t), host, true); err != nil {
		t.Fatal(err)
	}
	if got := tbl.Info().Host; got != want {
		t.Errorf("after a restart the host is %q, want %q", got, want)
	}
	var listed []TableInfo
	for _, i := range e.lobby.Tables(Viewer{ID: "p:999"}) {
		if i.Name == "dealt" {
			listed = append(listed, i)
		}
	}
	if len(listed) != 1 || listed[0].Host != want || listed[0].HostID != host.ID {
		t.Errorf("the lobby lists %+v", listed)
	}
}
