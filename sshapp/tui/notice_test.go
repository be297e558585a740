package tui

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/sshapp/alerts"
	"github.com/mia-game/mia/store/lobbystore"
)

// withAlerts gives e's screens the alerts (their watches, invitations) and
// a bell that counts its rings.
func (e *env) withAlerts(t *testing.T) (*alerts.Alerts, func(lobby.Player, bool) (Config, *atomic.Int32)) {
	t.Helper()
	a, err := alerts.New(context.Background(), alerts.Config{Lobby: e.lobby, Storage: e.st})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a, func(p lobby.Player, bellOff bool) (Config, *atomic.Int32) {
		var rung atomic.Int32
		cfg := e.config(p, 80, 24)
		cfg.Alerts, cfg.Bell, cfg.BellOff = a, func() { rung.Add(1) }, func() bool { return bellOff }
		return cfg, &rung
	}
}

// invite has alice invite bob to den, her private table, with a code.
func (e *env) invite(t *testing.T, al *alerts.Alerts, den *lobby.Table, alice, bob lobby.Player) {
	t.Helper()
	if err := den.Invite(ctxT(t), alice, "abcdefghij", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := al.Invite(ctxT(t), alice, den, bob.ID, "abcdefghij", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// TestInvitationNoticeJoins: an invitation to a private table shows as a
// notice and in the lobby's list, with one bell; enter on the notice joins
// the table with its code and opens it; the invitation is spent.
func TestInvitationNoticeJoins(t *testing.T) {
	e := newEnv(t)
	al, config := e.withAlerts(t)
	alice, bob := e.player("alice"), e.player("bob")
	den, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions(), Private: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, rung := config(bob, false)
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "lobby · 0 open tables") // den is private: not listed to bob
	e.invite(t, al, den, alice, bob)
	waitOutput(t, tm, "» alice invites you to den · enter: go there · esc: dismiss", "✉  den")
	if n := rung.Load(); n != 1 {
		t.Fatalf("rang %d bells", n)
	}
	tm.Send(keyEnter)
	waitOutput(t, tm, "den 🔒 · classic")
	if !den.Info().Access().Admits(bob.ID) {
		t.Fatal("bob is no member after taking the invitation")
	}
	if invs, _ := al.Invitations(ctxT(t), bob.ID); len(invs) != 0 {
		t.Fatalf("the invitation is still held: %+v", invs)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestLobbyListsInvitations: the lobby lists an invitation above the
// tables; enter on it joins and opens the table.
func TestLobbyListsInvitations(t *testing.T) {
	e := newEnv(t)
	al, config := e.withAlerts(t)
	alice, bob := e.player("alice"), e.player("bob")
	den, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions(), Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "pub", Rules: engine.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	e.invite(t, al, den, alice, bob)
	cfg, rung := config(bob, false)
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "✉  den", "invites you · enter: go there", "pub")
	if n := rung.Load(); n != 0 {
		t.Fatalf("an invitation from before the session rang %d bells", n)
	}
	tm.Send(keyEnter) // the invitation is the first row
	waitOutput(t, tm, "den 🔒 · classic")
	if !den.Info().Access().Admits(bob.ID) {
		t.Fatal("bob is no member after taking the invitation")
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestNoticesWhereOneIs: a notice of the table shown is not shown; one of
// another table is, with a bell unless the bell is off; esc puts it away
// and any other key goes to the screen.
func TestNoticesWhereOneIs(t *testing.T) {
	for _, bellOff := range []bool{false, true} {
		t.Run(map[bool]string{false: "bell on", true: "bell off"}[bellOff], func(t *testing.T) {
			e := newEnv(t)
			_, config := e.withAlerts(t)
			alice, bob := e.player("alice"), e.player("bob")
			den := e.hostSeated("den", alice)
			pub := e.hostSeated("pub", bob)
			cfg, rung := config(alice, bellOff)
			cfg.Table = "den"
			tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
			waitOutput(t, tm, "den · classic")
			e.infoUntil(den, "alice at den", func(i lobby.TableInfo) bool { return i.HostHere })
			free := func(tbl *lobby.Table) {
				info := tbl.Info()
				e.lobby.Publish(lobby.News{Kind: lobby.NewsSeatFree, Table: info.Name, Access: info.Access(), To: []string{alice.ID},
					Seats: info.Seats, Taken: info.Taken})
			}
			free(den)
			free(pub)
			waitOutput(t, tm, "» A seat is free at pub: 1 of 3 taken · enter: go there")
			want := int32(1)
			if bellOff {
				want = 0
			}
			if n := rung.Load(); n != want {
				t.Fatalf("%d bells, want %d", n, want)
			}
			tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
			waitOutput(t, tm, "esc lobby") // still at den, its help bar back: esc put the notice away
			frame := finalView(t, tm)
			if strings.Contains(frame, "A seat is free") {
				t.Fatalf("the notice stays after esc:\n%s", frame)
			}
		})
	}
}

// TestLobbyWatchKey: w watches the selected table (marked •), w again
// stops.
func TestLobbyWatchKey(t *testing.T) {
	e := newEnv(t)
	al, config := e.withAlerts(t)
	alice, bob := e.player("alice"), e.player("bob")
	if _, err := e.lobby.CreateTable(ctxT(t), alice, lobby.TableConfig{Name: "den", Rules: engine.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	cfg, _ := config(bob, false)
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "den")
	tm.Send(keyRunes("w"))
	waitOutput(t, tm, "watching den: you will be told when a seat is free", "•den")
	if ws, _ := al.Watches(ctxT(t), bob); !slices.Equal(ws, []string{"den"}) {
		t.Fatalf("bob watches %v", ws)
	}
	tm.Send(keyRunes("w"))
	waitOutput(t, tm, "no longer watching den")
	if ws, _ := al.Watches(ctxT(t), bob); len(ws) != 0 {
		t.Fatalf("bob watches %v", ws)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestNoticeLineFits: the notice fits the window, its key whole: the news
// is cut, and esc left out, first.
func TestNoticeLineFits(t *testing.T) {
	e := newEnv(t)
	m := New(e.config(e.player("alice"), 80, 24)).(*Model)
	for _, tc := range []struct {
		n       lobby.News
		start   bool
		w       int
		want    []string
		without string
	}{
		{lobby.News{Kind: lobby.NewsTurn, Table: "den"}, false, 80, []string{"» Your turn at den · enter: go there · esc: dismiss"}, ""},
		{lobby.News{Kind: lobby.NewsTurn, Table: "a-long-tablename"}, true, 80, []string{"» Your game at a-long-tablename has started, and it is your", "· enter: go there"}, "esc"},
		{lobby.News{Kind: lobby.NewsSeatFree, Table: "a-long-tablename", Taken: 3, Seats: 12}, false, 40, []string{"· enter: go there"}, "esc"},
	} {
		m.notice = &notice{news: tc.n, start: tc.start}
		line := m.noticeLine(tc.w)
		if w := ansi.StringWidth(line); w > tc.w {
			t.Errorf("%q is %d wide, window %d", line, w, tc.w)
		}
		assertContains(t, line, tc.want...)
		if tc.without != "" {
			assertLacks(t, line, tc.without)
		}
	}
}

// TestTurnNoticeClockRuns: a turn's notice counts its clock down while it
// shows, as the table's own clock does; it never stays at the seconds
// it came with.
func TestTurnNoticeClockRuns(t *testing.T) {
	e := newEnv(t)
	_, config := e.withAlerts(t)
	alice, bob := e.player("alice"), e.player("bob")
	pub := e.hostSeated("pub", bob)
	cfg, _ := config(alice, false)
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "lobby · 1 open table")
	e.lobby.Publish(lobby.News{Kind: lobby.NewsTurn, Table: "pub", Access: pub.Info().Access(), To: []string{alice.ID},
		Deadline: e.clock.Now().Add(30 * time.Second)})
	waitOutput(t, tm, "» Your turn at pub · 30s left · enter: go there")
	e.clock.Skip(5 * time.Second)
	waitOutput(t, tm, "» Your turn at pub · 25s left · enter: go there")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestNoticeGoesWithItsTable: a notice of a table is put away once that
// table is shown by another way than its enter (an event's screen takes
// a person to their table): it would cover the table's help bar.
func TestNoticeGoesWithItsTable(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.player("alice"), e.player("bob")
	e.hostSeated("pub", bob)
	m := New(e.config(alice, 80, 24)).(*Model)
	for _, tc := range []struct {
		table string
		stays bool
	}{
		{"den", true},
		{"PUB", false},
	} {
		m.notice = &notice{news: lobby.News{Kind: lobby.NewsGameStarted, Table: "pub"}}
		m.goTo(goTo{to: screenTable, table: tc.table})
		if (m.notice != nil) != tc.stays {
			t.Errorf("at %s: the notice of pub stays %v, want %v", tc.table, m.notice != nil, tc.stays)
		}
	}
}

// TestNoticesPostedWithNoWait: with Config.Post (the server's screens) the
// notices come to the program as they are published, with no goroutine
// waiting for them: two notices, one after the other, each shown with its
// bell; once the program stopped (no quitting), Ended stops hearing
// them.
func TestNoticesPostedWithNoWait(t *testing.T) {
	e := newEnv(t)
	_, config := e.withAlerts(t)
	alice, bob := e.player("alice"), e.player("bob")
	den := e.hostSeated("den", bob)
	pub := e.hostSeated("pub", bob)
	cfg, rung := config(alice, false)
	p := newPosting()
	cfg.Post = p.post
	m := New(cfg).(*Model)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	p.tm <- tm
	waitOutput(t, tm, "lobby · 2 open tables")
	free := func(tbl *lobby.Table) {
		info := tbl.Info()
		e.lobby.Publish(lobby.News{Kind: lobby.NewsSeatFree, Table: info.Name, Access: info.Access(), To: []string{alice.ID},
			Seats: info.Seats, Taken: info.Taken})
	}
	free(den)
	posted(t, p.notices, "the first notice")
	waitOutput(t, tm, "» A seat is free at den")
	free(pub)
	posted(t, p.notices, "the second notice")
	waitOutput(t, tm, "» A seat is free at pub")
	if n := rung.Load(); n != 2 {
		t.Fatalf("%d bells, want 2", n)
	}
	if n := e.lobby.NewsStats().Noticed; n != 1 {
		t.Fatalf("%d people hear their notices, want 1", n)
	}
	_ = tm.Quit() // the program stops, as when the connection drops: the screens do not quit
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if n := e.lobby.NewsStats().Noticed; n != 1 {
		t.Fatalf("%d people hear their notices after the program stopped, want 1 (until Ended)", n)
	}
	m.Ended()
	if n := e.lobby.NewsStats().Noticed; n != 0 {
		t.Fatalf("%d people hear their notices after the program ended, want 0", n)
	}
}

// TestEventCallTakesYouThere: an event bob entered begins while he is in
// the lobby: a notice calls him, with one bell, and enter takes him to the
// event's screen, where he is there and so seated.
func TestEventCallTakesYouThere(t *testing.T) {
	e := newEnv(t)
	_, config := e.withAlerts(t)
	reg, err := events.Open(ctxT(t), events.Config{Lobby: e.lobby, Store: lobbystore.NewEvents(e.st)})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	alice, bob := e.player("alice"), e.player("bob")
	cup, err := reg.Create(ctxT(t), alice, events.Settings{Name: "cup", Seats: 2, Rules: engine.DefaultOptions(), Bots: 1, Lasts: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := cup.Join(ctxT(t), bob, ""); err != nil {
		t.Fatal(err)
	}
	cfg, rung := config(bob, false)
	cfg.Events = reg
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "lobby · 0 open tables")
	if err := cup.Start(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, tm, "» The event cup has begun: you are seated once you are at it · enter: go there")
	if n := rung.Load(); n != 1 {
		t.Fatalf("rang %d bells", n)
	}
	tm.Send(keyEnter)
	waitOutput(t, tm, "mia  cup-1 · ") // at the event's screen, he is there: seated at once
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
