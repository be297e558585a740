package lobby

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestTableForHidesPrivateTables: to whoever a private table does not
// admit, TableFor answers exactly as for a name no table has (the very
// error value), and so does every method of the table itself.
func TestTableForHidesPrivateTables(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	host, member, stranger := e.player("host"), e.player("member"), e.player("stranger")
	admin := e.player("admin")
	admin.Admin = true
	priv, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "Secret", Rules: quickRules(), Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := priv.Invite(ctx, host, "c", e.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := priv.Redeem(ctx, member, "c"); err != nil {
		t.Fatal(err)
	}
	pub, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "open", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}
	nobody := Player{} // a key that is nobody's yet
	for _, c := range []struct {
		name string
		v    Viewer
		ask  string
		want *Table
	}{
		{"host", host.Viewer(), "secret", priv},
		{"member", member.Viewer(), "SECRET", priv},
		{"admin", admin.Viewer(), "secret", priv},
		{"stranger", stranger.Viewer(), "secret", nil},
		{"nobody", nobody.Viewer(), "Secret", nil},
		{"stranger, public", stranger.Viewer(), "OPEN", pub},
		{"nobody, public", nobody.Viewer(), "open", pub},
		{"no such table", host.Viewer(), "nowhere", nil},
		{"no such table, stranger", stranger.Viewer(), "nowhere", nil},
	} {
		got, err := e.lobby.TableFor(c.v, c.ask)
		if got != c.want {
			t.Errorf("%s: TableFor(%q) = %v, want %v", c.name, c.ask, got, c.want)
		}
		if c.want == nil && err != ErrNoTable { //nolint:errorlint // the very value of a missing table
			t.Errorf("%s: TableFor(%q) error %v, want ErrNoTable itself", c.name, c.ask, err)
		}
		if c.want != nil && err != nil {
			t.Errorf("%s: TableFor(%q) error %v", c.name, c.ask, err)
		}
	}
	// The table's own doors say the same to the stranger.
	if _, err := priv.Watch(ctx, stranger); err != ErrNoTable { //nolint:errorlint
		t.Errorf("Watch: %v", err)
	}
	if err := priv.Sit(ctx, stranger); err != ErrNoTable { //nolint:errorlint
		t.Errorf("Sit: %v", err)
	}
	if err := priv.Say(ctx, stranger, "hi"); err != ErrNoTable { //nolint:errorlint
		t.Errorf("Say: %v", err)
	}
	if _, err := priv.SetSeed(ctx, stranger, "x"); !errors.Is(err, ErrNoTable) && !errors.Is(err, ErrScriptedDice) {
		t.Errorf("SetSeed: %v", err)
	}
}

// TestRedeemAsksStorageAlike: join's answer to a private table with a
// wrong code and to a name no table has is the same error, and both ask
// storage for the code once: the same steps, whatever the name.
func TestRedeemAsksStorageAlike(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	host, stranger := e.player("host"), e.player("stranger")
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "secret", Rules: quickRules(), Private: true}); err != nil {
		t.Fatal(err)
	}
	asks := func() int { e.st.mu.Lock(); defer e.st.mu.Unlock(); return e.st.inviteAsks }
	for _, name := range []string{"secret", "nowhere", "SECRET", "NoWhere"} {
		before := asks()
		tbl, err := e.lobby.Redeem(ctx, stranger, name, "abcdefghij")
		if tbl != nil || err != ErrBadInvite { //nolint:errorlint // one answer, the same value
			t.Errorf("Redeem(%q) = %v, %v; want nil, ErrBadInvite", name, tbl, err)
		}
		if n := asks() - before; n != 1 {
			t.Errorf("Redeem(%q) asked storage %d times, want 1", name, n)
		}
	}
}

// TestCreateTableNameOfAPrivateTable: a private table's name is taken,
// as any table's (names are public); a name that only looks like it is
// refused without telling the private table's spelling to whoever it
// does not admit.
func TestCreateTableNameOfAPrivateTable(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	host, stranger := e.player("host"), e.player("stranger")
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "bil1", Rules: quickRules(), Private: true}); err != nil {
		t.Fatal(err)
	}
	_, err := e.lobby.CreateTable(ctx, stranger, TableConfig{Name: "BIL1", Rules: quickRules()})
	if err != ErrTableExists { //nolint:errorlint
		t.Errorf("the same name: %v", err)
	}
	_, err = e.lobby.CreateTable(ctx, stranger, TableConfig{Name: "bill", Rules: quickRules()})
	if err != ErrTableExists || strings.Contains(err.Error(), "bil1") { //nolint:errorlint
		t.Errorf("a lookalike, to a stranger: %v", err)
	}
	_, err = e.lobby.CreateTable(ctx, host, TableConfig{Name: "bill", Rules: quickRules()})
	var la *LookalikeError
	if !errors.As(err, &la) || la.Taken != "bil1" || !errors.Is(err, ErrTableExists) {
		t.Errorf("a lookalike, to its host: %v", err)
	}
}

// TestTablesPerPerson: a person hosts at most MaxTables open tables; the
// refusal names the limit; a closed table frees its place; admins and
// the server's own programs are exempt; another person is not touched.
func TestTablesPerPerson(t *testing.T) {
	e := &env{t: t, st: newMemStore(), clock: lobbytest.NewClock(), dice: lobbytest.NewDice(7), botDelay: NoDelay, maxTables: 2}
	e.open()
	t.Cleanup(e.close)
	ctx := ctxT(t)
	ann, bob := e.player("ann"), e.player("bob")
	create := func(p Player, name string) (*Table, error) {
		return e.lobby.CreateTable(ctx, p, TableConfig{Name: name, Rules: quickRules(), Private: name == "a2"})
	}
	a1, err := create(ann, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := create(ann, "a2"); err != nil {
		t.Fatal(err)
	}
	_, err = create(ann, "a3")
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrTooManyTables) || le.Limit != 2 {
		t.Fatalf("the third table: %v", err)
	}
	if !strings.Contains(err.Error(), "2 open tables") {
		t.Errorf("the refusal does not name the limit: %q", err)
	}
	if _, err := create(bob, "b1"); err != nil {
		t.Errorf("another person's table: %v", err)
	}
	admin := ann
	admin.Admin = true // ann on an admin's key
	if _, err := create(admin, "a3"); err != nil {
		t.Errorf("as an admin: %v", err)
	}
	if _, err := create(ann, "a4"); !errors.Is(err, ErrTooManyTables) {
		t.Errorf("ann past the cap again (an admin's table counts as hers): %v", err)
	}
	if err := a1.Close(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if _, err := create(admin, "a5"); err != nil {
		t.Fatal(err)
	}
	gw := keyless("gateway")
	for _, name := range []string{"g1", "g2", "g3"} {
		if _, err := create(gw, name); err != nil {
			t.Errorf("a key-less host (the server's program): %v", err)
		}
	}
	// A restart keeps the count: the tables come back.
	e.restart()
	if _, err := create(ann, "a6"); !errors.Is(err, ErrTooManyTables) {
		t.Errorf("after a restart: %v", err)
	}
}

// TestCloseRunningGame: the host closes a table at once while its game
// runs: the game ends abandoned in storage, every viewer hears why (who,
// which game), no request runs at the table any more, and a restart finds
// neither the table nor a game to resume. An admin may do the same.
func TestCloseRunningGame(t *testing.T) {
	for _, by := range []string{"host", "admin"} {
		t.Run(by, func(t *testing.T) {
			e := newEnv(t)
			ctx := ctxT(t)
			ann, bob, carol := e.player("ann"), e.player("bob"), e.player("carol")
			closer := ann
			if by == "admin" {
				closer = e.player("root")
				closer.Admin = true
			}
			ps := []Player{ann, bob}
			tbl, err := e.lobby.CreateTable(ctx, ann, TableConfig{Name: "club", Rules: quickRules(), Seats: 3, Private: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range []Player{bob, carol} {
				code := string(rune('a' + i))
				if err := tbl.Invite(ctx, ann, code, e.clock.Now().Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
				if err := tbl.Redeem(ctx, p, code); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range ps {
				if err := tbl.Sit(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := tbl.AddBot(ctx, ann, ai.Easy); err != nil { // the last seat: the game starts
				t.Fatal(err)
			}
			subs := watchAll(t, tbl, ps)
			spec := mustWatch(t, tbl, carol)
			snap := latest(t, subs[ann.ID], tbl)
			if !snap.Playing {
				t.Fatal("the game did not start")
			}
			game := snap.GameID
			if err := tbl.Close(ctx, bob); !errors.Is(err, ErrNotHost) {
				t.Fatalf("a player closes: %v", err)
			}
			if err := tbl.Close(ctx, closer); err != nil {
				t.Fatalf("close mid-game: %v", err)
			}
			for who, s := range map[string]*Subscription{"ann": subs[ann.ID], "bob": subs[bob.ID], "carol": spec} {
				select {
				case <-s.Done():
				case <-time.After(5 * time.Second):
					t.Fatalf("%s's subscription did not end", who)
				}
				var end *EndError
				if !errors.As(s.Err(), &end) || !errors.Is(s.Err(), ErrTableClosed) {
					t.Fatalf("%s hears %v", who, s.Err())
				}
				want := EndError{Why: ErrTableClosed, Table: "club", By: closer.Name(), ByID: closer.ID, Admin: by == "admin", Game: game}
				if *end != want {
					t.Errorf("%s hears %+v, want %+v", who, *end, want)
				}
				if got := end.To(closer.ID); !strings.HasPrefix(got, "you closed the table club: game "+game+" abandoned") {
					t.Errorf("the closer reads %q", got)
				}
				if !strings.Contains(end.Error(), "game "+game+" abandoned") || !strings.Contains(end.Error(), closer.Name()+" ") {
					t.Errorf("%s reads %q", who, end.Error())
				}
			}
			if got := tbl.Closed(); got == nil || got.Game != game {
				t.Errorf("Closed() = %+v", got)
			}
			if err := tbl.Act(ctx, bob, engine.Action{Kind: engine.Roll, Look: true}); !errors.Is(err, ErrTableClosed) {
				t.Errorf("a move after the close: %v", err)
			}
			g, err := e.st.Game(game)
			if err != nil {
				t.Fatal(err)
			}
			if g.Ended.IsZero() || g.Winner != -1 || g.AbandonedBy != closer.ID {
				t.Errorf("stored game: ended %v, winner %d, abandoned by %q", g.Ended, g.Winner, g.AbandonedBy)
			}
			if rec, err := e.st.Table("club"); err != nil || rec.Closed.IsZero() || len(rec.Seated) != 0 {
				t.Errorf("stored table: %+v, %v", rec, err)
			}
			e.restart()
			if _, err := e.lobby.Table("club"); !errors.Is(err, ErrNoTable) {
				t.Errorf("after a restart the table is back: %v", err)
			}
			if saved, err := e.st.InProgress(ctx); err != nil || len(saved) != 0 {
				t.Errorf("after a restart %d games to resume, %v", len(saved), err)
			}
		})
	}
}

// TestCloseWhenTheStoreFails: a close whose abandon cannot be saved
// leaves the table open and its game running.
func TestCloseWhenTheStoreFails(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	ann, bob := e.player("ann"), e.player("bob")
	tbl := seatPlayers(t, e, "club", quickRules(), ann, bob)
	e.st.Close()
	if err := tbl.Close(ctx, ann); err == nil {
		t.Fatal("closed without saving")
	}
	e.st.reopen()
	if info := tbl.Info(); info.State != "playing" {
		t.Fatalf("the game stopped: %+v", info)
	}
	if _, err := e.lobby.Table("club"); err != nil {
		t.Fatalf("the table went away: %v", err)
	}
	if err := tbl.Close(ctx, ann); err != nil {
		t.Fatalf("the next close: %v", err)
	}
}

// TestCloseWhileTheStoreHangs: a close whose writes do not answer in
// time pauses the table, like any write of a table's: the closer hears
// ErrUnsaved, the viewers see the pause. Saved after all, the table closes
// by itself (every viewer hears who closed it and the game abandoned, and
// it leaves the lobby); not saved, it resumes with its game running, and
// can be closed again.
func TestCloseWhileTheStoreHangs(t *testing.T) {
	for _, saved := range []bool{true, false} {
		t.Run(fmt.Sprintf("saved=%t", saved), func(t *testing.T) {
			e := newGatedEnv(t, 20*time.Millisecond)
			ctx := ctxT(t)
			ann, bob := e.player("ann"), e.player("bob")
			tbl := seatPlayers(t, e, "club", quickRules(), ann, bob)
			s := mustWatch(t, tbl, bob)
			game := latest(t, s, tbl).GameID
			e.gate.Shut()
			if err := tbl.Close(ctx, ann); !errors.Is(err, ErrUnsaved) {
				t.Fatalf("a close whose write hangs: %v, want ErrUnsaved", err)
			}
			until(t, s, "the pause", func(s Snapshot) bool { return s.Table.Paused })
			if !saved {
				e.gate.Open(errors.New("disk gone"))
				until(t, s, "the table resumed", func(s Snapshot) bool { return !s.Table.Paused && s.Playing })
				if _, err := e.lobby.Table("club"); err != nil {
					t.Fatalf("the table went away: %v", err)
				}
				if g, err := e.st.Game(game); err != nil || !g.Ended.IsZero() {
					t.Fatalf("the game's abandon was not saved, yet it ended: %+v, %v", g, err)
				}
				if err := tbl.Close(ctx, ann); err != nil {
					t.Fatalf("the next close: %v", err)
				}
			} else {
				e.gate.Open(nil)
			}
			select {
			case <-s.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the watcher's subscription did not end")
			}
			var end *EndError
			if !errors.As(s.Err(), &end) || end.Game != game || end.ByID != ann.ID {
				t.Fatalf("the watcher hears %v", s.Err())
			}
			deadline := time.Now().Add(10 * time.Second)
			for _, err := e.lobby.Table("club"); !errors.Is(err, ErrNoTable); _, err = e.lobby.Table("club") {
				if time.Now().After(deadline) {
					t.Fatal("the closed table stays in the lobby")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if g, err := e.st.Game(game); err != nil || g.Winner != -1 || g.AbandonedBy != ann.ID {
				t.Fatalf("stored game %+v, %v", g, err)
			}
		})
	}
}

// TestCloseAfterTheAbandonWasSaved: a close whose game's abandon was saved
// but whose table record was not fails; the next close does not abandon
// the game again (storage would refuse it) and closes the table.
func TestCloseAfterTheAbandonWasSaved(t *testing.T) {
	e := newGatedEnv(t, 10*time.Second)
	ctx := ctxT(t)
	ann, bob := e.player("ann"), e.player("bob")
	tbl := seatPlayers(t, e, "club", quickRules(), ann, bob)
	var writes atomic.Int32
	e.gate.BeforeWrite(func() {
		if writes.Add(1) == 2 { // the abandon, then the table's record
			e.st.Close()
		}
	})
	if err := tbl.Close(ctx, ann); err == nil {
		t.Fatal("closed without saving the table")
	}
	e.gate.BeforeWrite(nil)
	e.st.reopen()
	if err := tbl.Close(ctx, ann); err != nil {
		t.Fatalf("the next close: %v", err)
	}
	if rec, err := e.st.Table("club"); err != nil || rec.Closed.IsZero() {
		t.Errorf("stored table: %+v, %v", rec, err)
	}
}

// TestKickMidGame: the host removes a person and a built-in bot while a
// game runs: they leave the game, their seats are free, and the kicked
// person's screen hears that they were removed (not that the table
// closed), before it sees anything more of the table.
func TestKickMidGame(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	ann, bob, carol := e.player("ann"), e.player("bob"), e.player("carol")
	tbl, err := e.lobby.CreateTable(ctx, ann, TableConfig{Name: "club", Rules: quickRules(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Player{ann, bob, carol} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	bot, err := tbl.AddBot(ctx, ann, ai.Easy)
	if err != nil {
		t.Fatal(err)
	}
	subs := watchAll(t, tbl, []Player{ann, bob, carol})
	if info := tbl.Info(); info.State != "playing" {
		t.Fatalf("the full table did not start: %+v", info)
	}
	if err := tbl.Kick(ctx, ann, bot.ID); err != nil {
		t.Fatalf("kick the bot mid-game: %v", err)
	}
	if err := tbl.Kick(ctx, ann, carol.ID); err != nil {
		t.Fatalf("kick carol mid-game: %v", err)
	}
	s := subs[carol.ID]
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("carol's subscription did not end")
	}
	if !errors.Is(s.Err(), ErrRemoved) || !strings.Contains(s.Err().Error(), "ann removed you from the table club") {
		t.Errorf("carol hears %v", s.Err())
	}
	if snap, ok := s.Take(); ok && !snap.Seated {
		t.Errorf("carol was sent the table after her removal: %+v", snap.Table.Players)
	}
	snap := latest(t, subs[ann.ID], tbl)
	if !snap.Playing {
		t.Fatal("the game ended: ann and bob still play")
	}
	for i, l := range snap.Game.Lives {
		if n := snap.Name(i); (n == carol.Name() || n == bot.Name()) && l != 0 {
			t.Errorf("%s has %d lives after the kick", n, l)
		}
	}
	end := playOut(t, tbl, subs, []Player{ann, bob}, 0)
	if end.Playing {
		t.Fatal("the game does not end")
	}
	if info := tbl.Info(); info.Taken != 2 {
		t.Errorf("after the game %d seats taken, want ann's and bob's", info.Taken)
	}
	// A close now, between games, is the plain close.
	if err := tbl.Close(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if end := tbl.Closed(); end == nil || end.Game != "" {
		t.Errorf("a close between games abandons %+v", end)
	}
}

// BenchmarkTableFor: the lookup a stranger's guess of a private table's
// name costs, beside a name no table has: the two must cost alike, so
// that the time of the answer tells nothing (compare the ns/op of the
// sub-benchmarks; a test does not, on a shared machine).
func BenchmarkTableFor(b *testing.B) {
	st := newMemStore()
	l, err := New(context.Background(), Config{Store: st, Clock: lobbytest.NewClock(), BotDelay: NoDelay, MaxTables: NoLimit})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	host := Player{ID: "p:1", Key: "SHA256:host"}
	st.setName(host.ID, "host")
	members := make([]string, 50)
	for i := range members {
		members[i] = fmt.Sprintf("p:%d", i+2)
	}
	for i := range 100 {
		name := fmt.Sprintf("t%03d", i)
		if _, err := l.CreateTable(context.Background(), host, TableConfig{Name: name, Rules: quickRules(), Private: i%2 == 0}); err != nil {
			b.Fatal(err)
		}
	}
	tbl, err := l.Table("t000")
	if err != nil {
		b.Fatal(err)
	}
	for i, m := range members { // a private table of many members
		code := fmt.Sprint(i)
		if err := tbl.Invite(context.Background(), host, code, time.Now().Add(time.Hour)); err != nil {
			b.Fatal(err)
		}
		if err := tbl.Redeem(context.Background(), Player{ID: m}, code); err != nil {
			b.Fatal(err)
		}
	}
	stranger := Viewer{ID: "p:999"}
	for _, c := range []struct{ name, table string }{{"private", "T000"}, {"missing", "T00x"}, {"public", "T001"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = l.TableFor(stranger, c.table)
			}
		})
	}
}

// TestConfigNone: a zero MaxTables is the default cap, NoLimit none;
// BotDelay and MaxTables take no other negative value.
func TestConfigNone(t *testing.T) {
	for _, c := range []struct {
		name      string
		maxTables int
		hosts     int // tables ann may host
	}{
		{"zero: the default", 0, DefaultMaxTables},
		{"NoLimit: no cap", NoLimit, DefaultMaxTables + 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &env{t: t, st: newMemStore(), clock: lobbytest.NewClock(), dice: lobbytest.NewDice(7), botDelay: NoDelay,
				maxTables: c.maxTables}
			e.open()
			t.Cleanup(e.close)
			ann := e.player("ann")
			for i := range c.hosts + 1 {
				_, err := e.lobby.CreateTable(ctxT(t), ann, TableConfig{Name: fmt.Sprintf("t%d", i), Rules: quickRules()})
				if capped := c.maxTables != NoLimit && i == c.hosts; (err == nil) == capped || (capped && !errors.Is(err, ErrTooManyTables)) {
					t.Fatalf("table %d (past the cap: %v): %v", i+1, capped, err)
				}
			}
		})
	}
	for _, cfg := range []Config{{BotDelay: -2 * time.Millisecond}, {MaxTables: -2}} {
		cfg.Store = newMemStore()
		if l, err := New(ctxT(t), cfg); err == nil {
			l.Close()
			t.Errorf("New took bot delay %v, max tables %d", cfg.BotDelay, cfg.MaxTables)
		}
	}
}
