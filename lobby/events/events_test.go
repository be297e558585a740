package events_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestAwayIsNotSeated: a person who joined is seated only while they are
// there (Attend), and not again once they have gone, until back.
func TestAwayIsNotSeated(t *testing.T) {
	ctx := context.Background()
	w := newWorldDelay(t, events.Config{}, time.Second)
	host, bob := w.person("host"), w.person("bob")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "club", Seats: 2, Rules: quick(), Bots: 1, Lasts: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, bob, ""); err != nil {
		t.Fatal(err)
	}
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	where := func(i events.Info) string {
		for _, s := range i.Standings {
			if s.ID == bob.ID {
				return s.Where
			}
		}
		return "missing"
	}
	info := w.step(e, time.Second, time.Minute, "the start", func(i events.Info) bool { return i.State == events.Running })
	if len(info.Tables) != 0 || where(info) != "away" {
		t.Fatalf("bob, away, is %s; tables %+v", where(info), info.Tables)
	}
	att, err := e.Attend(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	w.step(e, time.Second, time.Minute, "bob seated", func(i events.Info) bool { return where(i) == "playing" })
	att.Close()
	// His game goes on without him (his turns time out) and ends; then he
	// waits, away.
	info = w.step(e, 10*time.Second, 30*time.Minute, "bob's game over", func(i events.Info) bool { _, s := ended(i); return s >= 1 })
	w.clock.AdvanceWait(time.Minute)
	info = w.step(e, 0, 0, "bob away", func(i events.Info) bool { return where(i) == "away" })
	if n := len(info.Games); n != 1 {
		t.Fatalf("%d games dealt with bob away", n)
	}
	if _, err := e.Attend(ctx, lobby.Player{ID: bob.ID, Key: bob.Key, Bot: true}); !errors.Is(err, events.ErrAsPerson) {
		t.Fatalf("bob's bot attends his seat: %v", err)
	}
}

// TestEventCaps: one person hosts at most MaxPerPerson events not
// closed, and one address makes at most MaxPerSource, whatever its keys;
// admins are exempt, and a closed event frees its place.
func TestEventCaps(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, events.Config{MaxPerPerson: 2, MaxPerSource: 3})
	ann := w.person("ann")
	mk := func(p lobby.Player, name string) error {
		_, err := w.reg.Create(ctx, p, events.Settings{Name: name})
		return err
	}
	for _, n := range []string{"one", "two"} {
		if err := mk(ann, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := mk(ann, "three"); !errors.Is(err, lobby.ErrTooManyEvents) {
		t.Fatalf("a third event of one person: %v", err)
	}
	fresh := w.person("fresh") // a new key from the same address
	if err := mk(fresh, "four"); err != nil {
		t.Fatal(err)
	}
	other := w.person("other")
	if err := mk(other, "five"); !errors.Is(err, lobby.ErrTooManyEventsHere) {
		t.Fatalf("a fourth event from one address, by fresh keys: %v", err)
	}
	var le *lobby.LimitError
	if err := mk(other, "five"); !errors.As(err, &le) || lobby.KindOf(err) != lobby.Refused || le.Limit != 3 {
		t.Fatalf("the refusal: %v", err)
	}
	elsewhere := other
	elsewhere.Source = "198.51.100.4"
	if err := mk(elsewhere, "five"); err != nil {
		t.Fatalf("from another address: %v", err)
	}
	admin := w.person("boss")
	admin.Admin = true
	if err := mk(admin, "six"); err != nil {
		t.Fatalf("an admin: %v", err)
	}
	e, err := w.reg.Event("one")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if err := mk(ann, "three"); err != nil {
		t.Fatalf("after a close: %v", err)
	}
	if err := mk(fresh, "onee"); !errors.Is(err, events.ErrEventExists) && !errors.Is(err, lobby.ErrTooManyEventsHere) {
		t.Fatalf("a name like an open one's: %v", err)
	}
	if _, err := w.reg.Create(ctx, elsewhere, events.Settings{Name: "many", Bots: 49}); !errors.Is(err, events.ErrTooManyBots) {
		t.Fatalf("49 bots: %v", err)
	}
}

// TestStandingsEqualARecount runs arenas of bots whose games end as the
// dice fall, of several sizes, and holds the standings, and the streaks'
// double points, to a recount of the games' replays.
func TestStandingsEqualARecount(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ bots, seats int }{{3, 2}, {5, 2}, {6, 3}, {9, 4}} {
		t.Run(fmt.Sprintf("%d bots at tables of %d", c.bots, c.seats), func(t *testing.T) {
			w := newWorld(t, events.Config{})
			host := w.person("host")
			e, err := w.reg.Create(ctx, host, events.Settings{Name: "rc", Seats: c.seats, Rules: quick(), Bots: c.bots, Lasts: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, host); err != nil {
				t.Fatal(err)
			}
			waitFor(t, e, "12 games", func(i events.Info) bool { _, s := ended(i); return s >= 12 })
			if err := e.Stop(ctx, host); err != nil {
				t.Fatal(err)
			}
			info := waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
			w.sameAsRecount(info)
			places := 0
			for i, s := range info.Standings {
				places += s.Games
				if i > 0 && rankedBefore(s, info.Standings[i-1]) {
					t.Errorf("%s is ranked below %s", s.Name, info.Standings[i-1].Name)
				}
			}
			if places == 0 || info.Champion == nil || info.Champion.ID != info.Standings[0].ID {
				t.Fatalf("champion %+v, %d places", info.Champion, places)
			}
		})
	}
}

// rankedBefore reports whether a ranks before b by the tie rules: more
// points, more games won, fewer games played, earlier join.
func rankedBefore(a, b events.Standing) bool {
	switch {
	case a.Points != b.Points:
		return a.Points > b.Points
	case a.Wins != b.Wins:
		return a.Wins > b.Wins
	case a.Games != b.Games:
		return a.Games < b.Games
	}
	return a.Joined.Before(b.Joined)
}

// TestSwissRounds plays a Swiss event of bots to its end: its rounds at
// once for all, each at tables of two, no table-mates twice.
func TestSwissRounds(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, events.Config{})
	host := w.person("host")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "sw", Format: events.Swiss, Rounds: 4, Seats: 2, Rules: quick(), Bots: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	info := waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
	if len(info.Games) != 16 || info.Round != 4 {
		t.Fatalf("%d games in %d rounds", len(info.Games), info.Round)
	}
	met := map[[2]string]int{}
	for _, g := range info.Games {
		if len(g.Players) != 2 {
			t.Fatalf("a table of %d", len(g.Players))
		}
		met[[2]string{min(g.Players[0], g.Players[1]), max(g.Players[0], g.Players[1])}]++
	}
	for p, n := range met {
		if n > 1 {
			t.Errorf("%v met %d times", p, n)
		}
	}
	for _, s := range info.Standings {
		if s.Games != 4 {
			t.Errorf("%s played %d games", s.Name, s.Games)
		}
	}
	w.sameAsRecount(info)
}

// TestKnockoutToAFinal plays a knockout of bots: seeded, the winners of
// each table of two go on, to a final whose winner is the champion, the
// only one not out.
func TestKnockoutToAFinal(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, events.Config{})
	host := w.person("host")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "ko", Format: events.Knockout, Seats: 2, Rules: quick(), Bots: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	info := waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
	if len(info.Games) != 7 || info.Round != 3 {
		t.Fatalf("%d games in %d rounds", len(info.Games), info.Round)
	}
	final := info.Games[6]
	winner := final.Result.Players[final.Result.Standings[0]]
	if info.Champion == nil || info.Champion.ID != winner {
		t.Fatalf("champion %+v, the final's winner %s", info.Champion, winner)
	}
	for _, s := range info.Standings[1:] {
		if !s.Out {
			t.Errorf("%s is not out", s.Name)
		}
	}
	if err := e.Join(ctx, w.person("late"), ""); !errors.Is(err, events.ErrOver) && !errors.Is(err, events.ErrBegun) {
		t.Fatalf("a late join: %v", err)
	}
}

// TestPrivateEvent is not there for those it does not admit: not found
// by name, not listed, not looked up, not joined; an invite code lets
// one in, once; its tables admit its members only.
func TestPrivateEvent(t *testing.T) {
	ctx := context.Background()
	w := newWorldDelay(t, events.Config{}, time.Second)
	host, bob, eve := w.person("host"), w.person("bob"), w.person("eve")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "den", Private: true, Seats: 2, Rules: quick(), Bots: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []lobby.Viewer{eve.Viewer(), {}} {
		if _, err := w.reg.For(v, "den"); !errors.Is(err, events.ErrNoEvent) {
			t.Fatalf("For: %v", err)
		}
		if _, err := w.reg.Lookup(ctx, v, "den"); !errors.Is(err, events.ErrNoEvent) {
			t.Fatalf("Lookup: %v", err)
		}
		if n := len(w.reg.List(v)); n != 0 {
			t.Fatalf("listed to a stranger: %d", n)
		}
	}
	if err := e.Join(ctx, eve, ""); !errors.Is(err, events.ErrNoEvent) {
		t.Fatalf("a stranger joins: %v", err)
	}
	if err := e.Join(ctx, eve, "nope"); !errors.Is(err, events.ErrBadInvite) {
		t.Fatalf("a wrong code: %v", err)
	}
	if err := e.Invite(ctx, bob, "code1", w.clock.Now().Add(time.Hour)); !errors.Is(err, events.ErrNoEvent) {
		t.Fatalf("a stranger invites: %v", err)
	}
	if err := e.Invite(ctx, host, "code1", w.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, bob, "code1"); err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, eve, "code1"); !errors.Is(err, events.ErrBadInvite) {
		t.Fatalf("a code used twice: %v", err)
	}
	if _, err := w.reg.For(bob.Viewer(), "den"); err != nil {
		t.Fatalf("a member: %v", err)
	}
	if err := e.Invite(ctx, bob, "code2", w.clock.Now().Add(time.Hour)); !errors.Is(err, events.ErrNotHost) {
		t.Fatalf("a member invites: %v", err)
	}
	att, err := e.Attend(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer att.Close()
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	info := w.step(e, time.Second, time.Minute, "a table", func(i events.Info) bool { return len(i.Tables) > 0 })
	table := info.Tables[0].Name
	if _, err := w.lob.TableFor(eve.Viewer(), table); !errors.Is(err, lobby.ErrNoTable) {
		t.Fatalf("a stranger finds its table: %v", err)
	}
	for _, p := range []lobby.Player{bob, host} {
		if _, err := w.lob.TableFor(p.Viewer(), table); err != nil {
			t.Fatalf("%s at its table: %v", p.ID, err)
		}
	}
	link, err := e.Link(ctx, host, false)
	if err != nil || link == "" {
		t.Fatalf("link: %q %v", link, err)
	}
	if _, err := w.reg.Lookup(ctx, lobby.Viewer{Link: link}, "den"); err != nil {
		t.Fatalf("by its link: %v", err)
	}
	if !slices.ContainsFunc(w.reg.List(bob.Viewer()), func(i events.Info) bool { return i.Name == "den" }) {
		t.Fatal("not listed to a member")
	}
}

// TestNews: the lobby's news tells an event made, begun and, once its
// standings are final, ended with its champion, in that order; a private
// event's news says it is private (so no server hook passes it on), and a
// restart after the end does not tell it again.
func TestNews(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(fmt.Sprint("private=", private), func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t, events.Config{})
			news := w.lob.Follow()
			host := w.person("host")
			e, err := w.reg.Create(ctx, host, events.Settings{Name: "news", Format: events.Knockout, Seats: 2, Rules: quick(), Bots: 2, Private: private})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, host); err != nil {
				t.Fatal(err)
			}
			info := waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
			if info.Champion == nil {
				t.Fatal("no champion")
			}
			var got []lobby.News
			for len(got) < 3 {
				select {
				case <-news.Ready():
				case <-time.After(10 * time.Second):
					t.Fatalf("the news told %d of the event, want 3", len(got))
				}
				for _, n := range news.Take() {
					if n.Event != nil {
						got = append(got, n)
					}
				}
			}
			kinds := []lobby.NewsKind{got[0].Kind, got[1].Kind, got[2].Kind}
			want := []lobby.NewsKind{lobby.NewsEventOpened, lobby.NewsEventStarted, lobby.NewsEventEnded}
			if !slices.Equal(kinds, want) || len(got) != 3 {
				t.Fatalf("news %v (%d), want %v", kinds, len(got), want)
			}
			for _, n := range got {
				if n.Event.Name != "news" || n.Host != host.ID || n.Event.Format != string(events.Knockout) || n.Access.Private != private || n.Public() == private {
					t.Fatalf("%s: %+v", n.Kind, n)
				}
			}
			end := got[2]
			if end.Winner != info.Champion.ID || end.Event.Points != info.Champion.Points || end.Event.Entrants != 2 {
				t.Fatalf("event.ended: champion %q with %d of %d entrants, want %q with %d of 2", end.Winner, end.Event.Points, end.Event.Entrants, info.Champion.ID, info.Champion.Points)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				r, err := w.st.Event(ctx, "news")
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(r.Data, []byte(`"untold"`)) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("that its end was told is not saved")
				}
				time.Sleep(10 * time.Millisecond)
			}
			w.restart()
			news = w.lob.Follow()
			again, err := w.reg.Event("news")
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, again, "its results read again", func(i events.Info) bool { return i.Final })
			for _, n := range news.Take() {
				if n.Event != nil {
					t.Fatalf("told again after a restart: %s", n.Kind)
				}
			}
		})
	}
}

// TestDoorOnlyToAPublicArena: a game at a door (the Mäxchen gateway's
// table) counts only in a public arena that runs and takes bots; a
// private event, one not running, one of people only or another format
// shuts it (ErrNoDoor), and an unknown event is not there.
func TestDoorOnlyToAPublicArena(t *testing.T) {
	ctx := context.Background()
	w := newWorldDelay(t, events.Config{MaxPerSource: lobby.NoLimit}, time.Second)
	mx := []lobby.Player{{ID: "maexchen:alpha", Bot: true}, {ID: "maexchen:beta", Bot: true}}
	for _, c := range []struct {
		name  string
		s     events.Settings
		start bool
		want  error
	}{
		{"open", events.Settings{Rules: quick(), Bots: 2}, true, nil},
		{"private", events.Settings{Rules: quick(), Bots: 2, Private: true}, true, events.ErrNoDoor},
		{"scheduled", events.Settings{Rules: quick(), Bots: 2}, false, events.ErrNoDoor},
		{"people", events.Settings{Rules: quick(), Who: events.People}, false, events.ErrNoDoor},
		{"swiss", events.Settings{Rules: quick(), Bots: 2, Format: events.Swiss}, true, events.ErrNoDoor},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.s.Name, c.s.Seats = c.name, 2
			e, err := w.reg.Create(ctx, w.person("h"+c.name), c.s)
			if err != nil {
				t.Fatal(err)
			}
			if c.start {
				if err := e.Start(ctx, w.person("h"+c.name)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.reg.DoorGame(c.name, "maexchen", "999999", mx); !errors.Is(err, c.want) {
				t.Fatalf("DoorGame: %v, want %v", err, c.want)
			}
			if c.want != nil {
				return
			}
			info := waitFor(t, e, "the door's bots", func(i events.Info) bool { return i.Door == "maexchen" && i.Entrants == 4 })
			for _, s := range info.Standings {
				if strings.HasPrefix(s.ID, "maexchen:") && (s.Where != "door" || !s.Bot) {
					t.Errorf("a bot of the door: %+v", s)
				}
			}
		})
	}
	if err := w.reg.DoorGame("nosuch", "maexchen", "1", mx); !errors.Is(err, events.ErrNoEvent) {
		t.Fatalf("an unknown event: %v", err)
	}
}

// TestPersonRestsAfterAGame: after a game of an arena a person is seated
// again only once their breather is over (to see how it ended, and the
// standings); a bot at once.
func TestPersonRestsAfterAGame(t *testing.T) {
	ctx := context.Background()
	const breather = 5 * time.Minute
	w := newWorldDelay(t, events.Config{Breather: breather}, time.Second)
	host, bob := w.person("host"), w.person("bob")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "rest", Seats: 2, Rules: quick(), Bots: 3, Lasts: 10 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, bob, ""); err != nil {
		t.Fatal(err)
	}
	att, err := e.Attend(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer att.Close()
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	where := func(i events.Info) string {
		for _, s := range i.Standings {
			if s.ID == bob.ID {
				return s.Where
			}
		}
		return "missing"
	}
	w.step(e, time.Second, time.Minute, "bob seated", func(i events.Info) bool { return where(i) == "playing" })
	w.step(e, 10*time.Second, 30*time.Minute, "bob's game over", func(i events.Info) bool { return where(i) == "waiting" })
	over := w.clock.Now()
	for w.clock.Now().Sub(over) < breather-time.Minute {
		w.clock.AdvanceWait(30 * time.Second)
		if i := e.Info(); where(i) != "waiting" {
			t.Fatalf("bob is %s %v after his game, within his breather", where(i), w.clock.Now().Sub(over))
		}
	}
	w.step(e, 10*time.Second, 5*time.Minute, "bob seated again", func(i events.Info) bool { return where(i) == "playing" })
	// Meanwhile the bot bob played was seated at once: a table of bots
	// only was dealt after bob's first game.
	bots := func(i events.Info) bool {
		first := slices.IndexFunc(i.Games, func(g events.Game) bool { return slices.Contains(g.Players, bob.ID) })
		return first >= 0 && slices.ContainsFunc(i.Games[first+1:], func(g events.Game) bool { return !slices.Contains(g.Players, bob.ID) })
	}
	w.step(e, 10*time.Second, 10*time.Minute, "a table of bots after bob's game", bots)
}

// TestEventCallsWhoIsNotThere: as an event begins, the people who entered
// and are not at it are called (event.calls, to them only): it seats only
// those there. One at it, and its bots, are not called.
func TestEventCallsWhoIsNotThere(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, events.Config{})
	host, ann, bob := w.person("host"), w.person("ann"), w.person("bob")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "cup", Seats: 2, Rules: quick(), Bots: 1, Lasts: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{ann, bob} {
		if err := e.Join(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	att, err := e.Attend(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	defer att.Close()
	annHears, bobHears := w.lob.Notices(ann.ID), w.lob.Notices(bob.ID)
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	select {
	case <-bobHears.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("bob, not at the event, was not called")
	}
	got := bobHears.Take()
	if len(got) != 1 || got[0].Kind != lobby.NewsEventCalls || got[0].Event == nil || got[0].Event.Name != "cup" {
		t.Fatalf("bob heard %+v", got)
	}
	if said := w.lob.Noticed(got[0], false, w.clock.Now()); said != "The event cup has begun: you are seated once you are at it" {
		t.Fatalf("the notice says %q", said)
	}
	for _, n := range annHears.Take() {
		if n.Kind == lobby.NewsEventCalls {
			t.Fatal("ann, at the event, was called")
		}
	}
}

// TestFinishedEntrantsSayFinished: while an event finishes its last games
// (an arena after its time, a Swiss event in its last round), an entrant
// it will not seat again is "finished", not "waiting" for a table.
func TestFinishedEntrantsSayFinished(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    events.Settings
		stop bool // the host stops it once a table plays
	}{
		{"arena stopped", events.Settings{Name: "late", Seats: 2, Rules: quick(), Bots: 3, Lasts: time.Hour}, true},
		{"swiss last round", events.Settings{Name: "last", Format: events.Swiss, Rounds: 1, Seats: 2, Rules: quick(), Bots: 3}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			w := newWorldDelay(t, events.Config{}, time.Minute)
			host := w.person("host")
			e, err := w.reg.Create(ctx, host, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, host); err != nil {
				t.Fatal(err)
			}
			info := w.step(e, time.Second, time.Minute, "a table playing", func(i events.Info) bool {
				return len(i.Tables) == 1 && i.Tables[0].Playing
			})
			if tc.stop {
				if err := e.Stop(ctx, host); err != nil {
					t.Fatal(err)
				}
				info = waitFor(t, e, "stopping", func(i events.Info) bool { return i.State == events.Stopping })
			}
			free := 0
			for _, s := range info.Standings {
				switch s.Where {
				case "playing":
				case "finished":
					free++
				default:
					t.Errorf("%s is %q while %s finishes its last game", s.Name, s.Where, tc.s.Name)
				}
			}
			if free != 1 {
				t.Errorf("%d entrants finished, want 1: %+v", free, info.Standings)
			}
		})
	}
}

// heldResults is the events' storage whose reads of a game's result wait
// while held: the moment between a game's end and its result read.
type heldResults struct {
	events.Storage
	mu   sync.Mutex
	hold chan struct{} // nil: not held; closed to let the reads go
}

func (h *heldResults) Result(ctx context.Context, game string) (events.Result, error) {
	h.mu.Lock()
	hold := h.hold
	h.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return events.Result{}, ctx.Err()
		}
	}
	return h.Storage.Result(ctx, game)
}

// TestToldOverWithItsResult: an entrant told that their game is over (the
// Seat that frees them, which takes a door back to the standings) finds
// it counted in the standings, even while its result is still being read
// from storage: the event shows them at that table until it is.
func TestToldOverWithItsResult(t *testing.T) {
	ctx := context.Background()
	held := &heldResults{}
	w := &world{t: t, path: filepath.Join(t.TempDir(), "mia.db"), clock: lobbytest.NewClock(), botDelay: time.Second,
		wrap: func(s events.Storage) events.Storage { held.Storage = s; return held }}
	w.open()
	t.Cleanup(w.close)
	host, bob := w.person("host"), w.person("bob")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "told", Seats: 2, Rules: quick(), Bots: 1, Lasts: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, bob, ""); err != nil {
		t.Fatal(err)
	}
	att, err := e.Attend(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer att.Close()
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	bobs := func(i events.Info) events.Standing {
		for _, s := range i.Standings {
			if s.ID == bob.ID {
				return s
			}
		}
		return events.Standing{}
	}
	info := w.step(e, time.Second, time.Minute, "bob seated", func(i events.Info) bool { return bobs(i).Where == "playing" })
	table := bobs(info).Table
	release := make(chan struct{})
	held.mu.Lock()
	held.hold = release
	held.mu.Unlock()
	// Bob plays no move: his turns time out until his game is over.
	w.step(e, 10*time.Second, 30*time.Minute, "bob's game over", func(i events.Info) bool {
		return len(i.Tables) == 1 && !i.Tables[0].Playing
	})
	// Time goes on (the step may overshoot on a loaded machine): the
	// table closes, bob's rest ends, and he is not dealt again before
	// his result is read.
	w.step(e, time.Minute, 2*time.Minute, "the table closed", func(i events.Info) bool { return len(i.Tables) == 0 })
	var seat events.Seat
	for {
		s, ok := att.Take()
		if !ok {
			break
		}
		seat = s
	}
	if st := bobs(e.Info()); seat.Table != table || st.Where != "playing" || st.Games != 0 {
		t.Fatalf("bob's game is over, its result not read: he is told %+v; the standings say %s at %s, %d games",
			seat, st.Where, st.Table, st.Games)
	}
	close(release)
	deadline := time.After(30 * time.Second)
	for seat.Table != "" {
		select {
		case <-att.Ready():
			if s, ok := att.Take(); ok {
				seat = s
			}
		case <-deadline:
			t.Fatalf("bob is not freed after his result was read: %+v", seat)
		}
	}
	if st := bobs(e.Info()); st.Games != 1 {
		t.Fatalf("bob is told his game is over; the standings say %d games", st.Games)
	}
}

// TestEventCallsEachRound: a person in a Swiss event who is away is
// called as it begins, and again as each round after the first begins
// without them (they sit it out; the next seats them once they are
// there), once a round; not as the last round begins, which leaves no
// round to seat them in.
func TestEventCallsEachRound(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, events.Config{})
	host, ann := w.person("host"), w.person("ann")
	e, err := w.reg.Create(ctx, host, events.Settings{Name: "swiss", Format: events.Swiss, Rounds: 3, Seats: 2, Rules: quick(), Bots: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Join(ctx, ann, ""); err != nil {
		t.Fatal(err)
	}
	annHears := w.lob.Notices(ann.ID)
	defer w.lob.Unfollow(annHears)
	if err := e.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	w.step(e, time.Second, 10*time.Minute, "the end", func(i events.Info) bool { return i.Final })
	var said []string
	for _, n := range annHears.Take() {
		if n.Kind == lobby.NewsEventCalls {
			said = append(said, w.lob.Noticed(n, false, w.clock.Now()))
		}
	}
	want := []string{
		"The event swiss has begun: you are seated once you are at it",
		"Round 2 of the event swiss has begun without you: you are seated in the next once you are at it",
	}
	if !slices.Equal(said, want) {
		t.Fatalf("ann, away, heard %q; want %q", said, want)
	}
}

// TestAtItsTableIsThere: an entrant who has their event's table open is
// at the event, whichever way they came to it: one who left the event's
// screen and opened the table from the lobby is seated again after its
// game, while it is still open (the next round of a Swiss event; an
// arena's next table, before their table closes).
func TestAtItsTableIsThere(t *testing.T) {
	for _, s := range []events.Settings{
		{Name: "duo", Format: events.Swiss, Rounds: 2, Seats: 2, Rules: quick(), Bots: 1},
		{Name: "run", Format: events.Arena, Lasts: time.Hour, Seats: 2, Rules: quick(), Bots: 1},
	} {
		t.Run(string(s.Format), func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t, events.Config{})
			host, ann := w.person("host"), w.person("ann")
			e, err := w.reg.Create(ctx, host, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Join(ctx, ann, ""); err != nil {
				t.Fatal(err)
			}
			att, err := e.Attend(ctx, ann)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, host); err != nil {
				t.Fatal(err)
			}
			anns := func(i events.Info) events.Standing {
				for _, s := range i.Standings {
					if s.ID == ann.ID {
						return s
					}
				}
				return events.Standing{}
			}
			info := w.step(e, time.Second, time.Minute, "ann seated", func(i events.Info) bool {
				return anns(i).Where == "playing" && len(i.Tables) == 1 && i.Tables[0].Playing
			})
			// She goes to the lobby (the event's screen closes) and opens
			// her table from there.
			tbl, err := w.lob.Table(anns(info).Table)
			if err != nil {
				t.Fatal(err)
			}
			sub, err := tbl.Watch(ctx, ann)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			att.Close()
			// She plays no move: her turn times out, and the game is over.
			games := func(i events.Info) int {
				n := 0
				for _, g := range i.Games {
					if slices.Contains(g.Players, ann.ID) {
						n++
					}
				}
				return n
			}
			info = w.step(e, 10*time.Second, 30*time.Minute, "ann seated again", func(i events.Info) bool { return i.Final || games(i) == 2 })
			if games(info) != 2 {
				t.Fatalf("ann, at her table as its game ended, is not seated again: %s; games %+v", anns(info).Where, info.Games)
			}
		})
	}
}
