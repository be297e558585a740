package lobby

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// rename renames p in the store and tells the lobby, as the server does.
func (e *env) rename(p Player, name string) {
	e.t.Helper()
	e.st.setName(p.ID, name)
	if err := e.lobby.Renamed(ctxT(e.t), p.ID); err != nil {
		e.t.Fatal(err)
	}
}

// seatNamed is the name the table shows for the person id, "" if none.
func seatNamed(info TableInfo, id string) string {
	for _, s := range info.Players {
		if s.ID == id {
			return s.Name
		}
	}
	return ""
}

// TestRenameWhileSeatedAndWatched: a rename reaches at once every view of
// a table that shows the person, seated, hosting, in the chat, among the
// seeds and in the result: the players' and the spectators' snapshots,
// the table's listing, the lobby's chat and its subscribers; and after a
// restart, the seats come back under the new name. A table that does not
// show the person is left alone.
func TestRenameWhileSeatedAndWatched(t *testing.T) {
	e := newFairEnv(t)
	ctx := ctxT(t)
	alice, bob, sam := e.player("alice"), e.player("bob"), e.player("sam")
	tbl, err := e.lobby.CreateTable(ctx, bob, TableConfig{Name: "renames", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.lobby.CreateTable(ctx, sam, TableConfig{Name: "elsewhere", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]*Subscription{}
	for _, p := range []Player{alice, bob, sam} {
		s, err := tbl.Watch(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		subs[p.ID] = s
	}
	if _, err := tbl.SetSeed(ctx, alice, "alice's dice"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Say(ctx, alice, "hello"); err != nil {
		t.Fatal(err)
	}
	if err := e.lobby.Say(alice, "hi all"); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx, bob); err != nil {
		t.Fatal(err)
	}
	box := e.lobby.Subscribe()
	defer e.lobby.Unsubscribe(box)
	<-box.Ready()
	ver, _ := box.Take()
	quiet := latest(t, mustSub(t, other, sam), other).Version

	e.rename(alice, "red")

	for id, s := range subs {
		snap := latest(t, s, tbl)
		if got := seatNamed(snap.Table, alice.ID); got != "red" {
			t.Errorf("%s's view: alice's seat is %q", id, got)
		}
		seat := slices.IndexFunc(snap.Table.Players, func(si SeatInfo) bool { return si.ID == alice.ID })
		if snap.Name(seat) != "red" {
			t.Errorf("%s's view: the game names alice's seat %q", id, snap.Name(seat))
		}
		if i := slices.IndexFunc(snap.Chat, func(l ChatLine) bool { return l.FromID == alice.ID }); i < 0 || snap.Chat[i].From != "red" {
			t.Errorf("%s's view: the chat line is %+v", id, snap.Chat)
		}
		if len(snap.Table.Fair.Seeds) != 1 || snap.Table.Fair.Seeds[0].Name != "red" {
			t.Errorf("%s's view: the seeds given are %+v", id, snap.Table.Fair.Seeds)
		}
	}
	if got := tbl.Info(); seatNamed(got, alice.ID) != "red" {
		t.Errorf("the listing: %+v", got.Players)
	}
	if lines := e.lobby.Chat(); lines[len(lines)-1].From != "red" {
		t.Errorf("the lobby's chat: %+v", lines)
	}
	select {
	case <-box.Ready():
		if v, _ := box.Take(); v <= ver {
			t.Errorf("the lobby's subscribers were not told (version %d, was %d)", v, ver)
		}
	default:
		t.Error("the lobby's subscribers were not told")
	}
	if got := latest(t, mustSub(t, other, sam), other).Version; got != quiet {
		t.Errorf("a table that does not show alice was published again (%d, was %d)", got, quiet)
	}

	// The host's name in the listing, and the result, in names now.
	e.rename(bob, "blue")
	if got := tbl.Info(); got.Host != "blue" {
		t.Errorf("the host is %q", got.Host)
	}
	if err := tbl.Stand(ctx, alice); err != nil { // leaves: blue wins
		t.Fatal(err)
	}
	end := latest(t, subs[sam.ID], tbl)
	if end.Result == nil || end.Result.Winner != "blue" {
		t.Fatalf("result %+v", end.Result)
	}
	e.rename(bob, "navy")
	if end = latest(t, subs[sam.ID], tbl); end.Result.Winner != "navy" || !slices.Contains(end.Result.Standings, "red") {
		t.Errorf("result after a rename: %+v", end.Result)
	}

	// A restart: the seats come back, named from the store.
	e.rename(bob, "teal")
	e.restart()
	tbl, err = e.lobby.Table("renames")
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Info(); got.Host != "teal" || seatNamed(got, bob.ID) != "teal" {
		t.Errorf("after a restart: host %q, seats %+v", got.Host, got.Players)
	}
	if g, err := e.st.Game(end.GameID); err != nil || !slices.Equal(g.Names, []string{"alice", "bob"}) && !slices.Equal(g.Names, []string{"bob", "alice"}) {
		t.Errorf("the game keeps the names played under: %+v %v", g.Names, err)
	}
}

func mustSub(t *testing.T, tbl *Table, p Player) *Subscription {
	t.Helper()
	s, err := tbl.Watch(ctxT(t), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestMerged: a person merged into another (their last key joined the
// other's keys) leaves them what they had at the tables: hosting, a
// membership of a private table, a seat, their chat lines, their seed.
func TestMerged(t *testing.T) {
	e := newFairEnv(t)
	ctx := ctxT(t)
	alice, erin := e.player("alice"), e.player("erin")
	club, err := e.lobby.CreateTable(ctx, erin, TableConfig{Name: "club", Rules: quickRules(), Seats: 3, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := club.Sit(ctx, erin); err != nil {
		t.Fatal(err)
	}
	if err := club.Say(ctx, erin, "mine"); err != nil {
		t.Fatal(err)
	}
	if _, err := club.SetSeed(ctx, erin, "erin's"); err != nil {
		t.Fatal(err)
	}
	if _, err := club.Watch(ctx, alice); !errors.Is(err, ErrNoTable) {
		t.Fatalf("alice watches erin's private table: %v", err)
	}
	// The store has moved erin's records; the lobby is told.
	e.lobby.Merged(ctx, erin.ID, alice.ID)
	s := mustSub(t, club, alice)
	snap := latest(t, s, club)
	switch {
	case snap.Table.HostID != alice.ID || snap.Table.Host != "alice":
		t.Errorf("host %s %q", snap.Table.HostID, snap.Table.Host)
	case seatNamed(snap.Table, alice.ID) != "alice" || !snap.Seated:
		t.Errorf("seats %+v", snap.Table.Players)
	case len(snap.Chat) != 1 || snap.Chat[0].FromID != alice.ID || snap.Chat[0].From != "alice":
		t.Errorf("chat %+v", snap.Chat)
	}
	if got, ok := snap.Table.Fair.Seed(alice.ID); !ok || got != "erin's" {
		t.Errorf("seeds %+v", snap.Table.Fair.Seeds)
	}
}

// TestTableNamesLookAlike: no two open tables have names that look alike;
// the refusal names the table taken, and is ErrTableExists.
func TestTableNamesLookAlike(t *testing.T) {
	e := newEnv(t)
	host := e.player("host")
	ctx := ctxT(t)
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "poker", Rules: quickRules()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "pub1", Rules: quickRules()}); err != nil {
		t.Fatal(err)
	}
	// Separators never make a name distinct.
	taken := map[string]string{"POKER": "poker", "p0ker": "poker", "P0KER": "poker", "po_ker": "poker", "poker.": "poker",
		"poker-": "poker", "pub_1": "pub1", "pub1.": "pub1", "PUB-1": "pub1", "publ": "pub1"}
	for name, like := range taken {
		_, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: name, Rules: quickRules()})
		var le *LookalikeError
		if !errors.Is(err, ErrTableExists) {
			t.Errorf("%s: %v", name, err)
		}
		if name != "POKER" && (!errors.As(err, &le) || !strings.Contains(err.Error(), "looks like "+like)) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "pokers", Rules: quickRules()}); err != nil {
		t.Errorf("a name that only begins alike: %v", err)
	}
	// A rename in the store of someone the lobby never showed costs
	// nothing and breaks nothing.
	if err := e.lobby.Renamed(context.Background(), host.ID); err != nil {
		t.Fatal(err)
	}
}

// TestRenameWakesOnlyWhoShowsThem: a rename of someone the lobby shows
// nowhere (a newcomer choosing a name, as a crowd of them does at once)
// wakes no lobby screen: each would fetch and draw the list again for
// nothing. One with a line in the lobby's chat, or hosting a listed
// table, wakes them.
func TestRenameWakesOnlyWhoShowsThem(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	quiet, talker, host := e.player("quiet"), e.player("talker"), e.player("host")
	if err := e.lobby.Say(talker, "hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "hosted", Rules: quickRules(), Seats: 3}); err != nil {
		t.Fatal(err)
	}
	box := e.lobby.Subscribe()
	defer e.lobby.Unsubscribe(box)
	woken := func() bool {
		select {
		case <-box.Ready():
			_, ok := box.Take()
			return ok
		default:
			return false
		}
	}
	for _, c := range []struct {
		who   Player
		name  string
		woken bool
	}{
		{quiet, "hush", false},
		{talker, "chatty", true},
		{host, "owner", true},
	} {
		woken()
		e.rename(c.who, c.name)
		if got := woken(); got != c.woken {
			t.Errorf("renaming %s: the lobby's screens woken %v, want %v", c.who.ID, got, c.woken)
		}
	}
}

// TestFirstNameAsksNoTable: a newcomer's first name is shown nowhere yet,
// so telling the lobby of it waits for no table: it returns while every
// table's actor is busy. (A crowd naming itself asked each table once a
// name: 400,000 requests for 2,000 names and 200 tables.)
func TestFirstNameAsksNoTable(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	host := e.player("host")
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "busy", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	busy, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = tbl.doEvenPaused(context.Background(), func(context.Context) error { close(busy); <-release; return nil })
	}()
	defer close(release)
	<-busy
	newcomer := e.player("newcomer") // named in the store; the lobby never asked
	done := make(chan error, 1)
	go func() { done <- e.lobby.Renamed(ctx, newcomer.ID) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("Renamed of a first name waited for a busy table")
	}
	if got := e.lobby.Name(newcomer.ID); got != "newcomer" {
		t.Errorf("the lobby names the newcomer %q", got)
	}
}
