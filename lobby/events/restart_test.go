package events_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby/events"
)

// playing reports whether a game of the event runs now at one of its
// tables.
func playing(i events.Info) bool {
	return slices.ContainsFunc(i.Tables, func(t events.TableNow) bool { return t.Playing && t.Game != "" })
}

// TestRestartInEachState stops the server in each state of an event,
// with a game running where there is one, and opens it again: the event
// goes on where it was, its clock too, its games resume and count, and
// its standings equal a recount from the games' replays.
func TestRestartInEachState(t *testing.T) {
	ctx := context.Background()
	const lasts = 10 * time.Minute
	make := func(t *testing.T, w *world, name string, starts time.Time) *events.Event {
		e, err := w.reg.Create(ctx, w.person("host"+name), events.Settings{Name: name, Format: events.Arena, Seats: 2, Rules: quick(),
			Bots: 4, Lasts: lasts, StartsAt: starts})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	again := func(t *testing.T, w *world, name string) *events.Event {
		w.restart()
		e, err := w.reg.Event(name)
		if err != nil {
			t.Fatalf("after the restart: %v", err)
		}
		return e
	}

	t.Run("scheduled", func(t *testing.T) {
		w := newWorldDelay(t, events.Config{}, time.Second)
		starts := w.clock.Now().Add(5 * time.Minute)
		make(t, w, "early", starts)
		e := again(t, w, "early")
		if i := e.Info(); i.State != events.Scheduled || !i.StartsAt.Equal(starts) || i.Entrants != 4 {
			t.Fatalf("after the restart: %s, starts %v, %d entrants", i.State, i.StartsAt, i.Entrants)
		}
		w.step(e, time.Minute, 6*time.Minute, "the start", func(i events.Info) bool { return i.State == events.Running })
		if i := e.Info(); !i.Ends.Equal(i.Started.Add(lasts)) || i.Started.Before(starts) {
			t.Fatalf("started %v, ends %v", i.Started, i.Ends)
		}
	})

	t.Run("running, a game in the middle", func(t *testing.T) {
		w := newWorldDelay(t, events.Config{}, time.Second)
		e := make(t, w, "mid", time.Time{})
		if err := e.Start(ctx, w.person("hostmid")); err != nil {
			t.Fatal(err)
		}
		before := w.step(e, time.Second, 5*time.Minute, "two games over and one running", func(i events.Info) bool {
			_, s := ended(i)
			return s >= 2 && playing(i)
		})
		e = again(t, w, "mid")
		after := w.step(e, 0, 0, "the game running found again", func(i events.Info) bool { return playing(i) })
		if after.State != events.Running || !after.Ends.Equal(before.Ends) || len(after.Games) < len(before.Games) {
			t.Fatalf("after the restart: %s, ends %v (was %v), %d games (was %d)", after.State, after.Ends, before.Ends, len(after.Games), len(before.Games))
		}
		w.step(e, time.Second, 5*time.Minute, "more games", func(i events.Info) bool { _, s := ended(i); return s >= 5 })
		final := w.step(e, 10*time.Second, lasts+5*time.Minute, "the end", func(i events.Info) bool { return i.Final })
		over, _ := ended(final)
		if over != len(final.Games) {
			t.Fatalf("%d of %d games ended", over, len(final.Games))
		}
		for _, g := range before.Games {
			if !slices.ContainsFunc(final.Games, func(f events.Game) bool { return f.ID == g.ID && f.Result != nil && f.Result.Scored() }) {
				t.Errorf("game %s, running at the restart, did not count", g.ID)
			}
		}
		w.sameAsRecount(final)
	})

	t.Run("stopping", func(t *testing.T) {
		w := newWorldDelay(t, events.Config{}, time.Second)
		host := w.person("hoststop")
		e, err := w.reg.Create(ctx, host, events.Settings{Name: "stop", Format: events.Arena, Seats: 2, Rules: quick(), Bots: 4, Lasts: lasts})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Start(ctx, host); err != nil {
			t.Fatal(err)
		}
		w.step(e, time.Second, 5*time.Minute, "a game running", playing)
		if err := e.Stop(ctx, host); err != nil {
			t.Fatal(err)
		}
		running := len(e.Info().Tables)
		e = again(t, w, "stop")
		if i := e.Info(); i.State != events.Stopping {
			t.Fatalf("after the restart: %s", i.State)
		}
		final := w.step(e, time.Second, 5*time.Minute, "the end", func(i events.Info) bool { return i.Final })
		if final.State != events.Over || running == 0 {
			t.Fatalf("state %s, %d tables ran at the stop", final.State, running)
		}
		w.sameAsRecount(final)
	})

	for _, closed := range []bool{false, true} {
		name := map[bool]string{false: "over", true: "closed"}[closed]
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, events.Config{})
			host := w.person("host")
			e, err := w.reg.Create(ctx, host, events.Settings{Name: name, Format: events.Arena, Seats: 2, Rules: quick(), Bots: 3, Lasts: lasts})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, host); err != nil {
				t.Fatal(err)
			}
			waitFor(t, e, "three games", func(i events.Info) bool { _, s := ended(i); return s >= 3 })
			w.clock.AdvanceWait(lasts + time.Minute)
			done := waitFor(t, e, "the end", func(i events.Info) bool { return i.Final })
			if closed {
				if err := e.Close(ctx, host); err != nil {
					t.Fatal(err)
				}
			}
			w.restart()
			if !closed {
				e, err := w.reg.Event(name)
				if err != nil {
					t.Fatal(err)
				}
				waitFor(t, e, "its results read again", func(i events.Info) bool { return i.Final })
			}
			got, err := w.reg.Lookup(ctx, host.Viewer(), name)
			if err != nil {
				t.Fatal(err)
			}
			want := map[bool]events.State{false: events.Over, true: events.Closed}[closed]
			if got.State != want || !got.Final || got.Champion == nil || got.Champion.ID != done.Champion.ID {
				t.Fatalf("after the restart: %s, final %v, champion %+v (was %s)", got.State, got.Final, got.Champion, done.Champion.ID)
			}
			for i, s := range got.Standings {
				if s.ID != done.Standings[i].ID || s.Points != done.Standings[i].Points {
					t.Errorf("place %d: %s %d, was %s %d", i+1, s.ID, s.Points, done.Standings[i].ID, done.Standings[i].Points)
				}
			}
			w.sameAsRecount(got)
			if _, err := w.reg.Event(name); closed && err == nil {
				t.Error("a closed event runs again after the restart")
			}
		})
	}
}
