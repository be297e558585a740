package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/help"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestSpectatorsShareAFrame: spectators of one snapshot with nothing of
// their own on the screen draw one frame between them; anything of their
// own (a status line, a chat line being typed, the full help) is theirs.
func TestSpectatorsShareAFrame(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("watched", engine.DefaultOptions(), a, b)
	c, d := e.player("carol"), e.player("dave")
	snap := e.snapshot(tbl, c) // as the table publishes it to every spectator
	s := NewStyles(nil)
	now := e.clock.Now()
	screen := func(p lobby.Player) tableScreen {
		m := newTableScreen(s, p, "watched", tbl)
		m, _ = m.setSnapshot(snap)
		return m
	}
	hv := s.newHelp()
	hv.Width = 80
	render := func(m tableScreen, hv help.Model, w, h int) string { return m.render(s, &hv, now, w, h) }

	mc, md := screen(c), screen(d)
	frame := render(mc, hv, 80, 24)
	assertContains(t, frame, "watching", "Round log")
	if got := render(md, hv, 80, 24); got != frame {
		t.Errorf("two spectators drew different frames:\n%s\n---\n%s", frame, got)
	}
	if want := mc.draw(s, &hv, now, 80, 24); frame != want {
		t.Errorf("the shared frame differs from the spectator's own:\n%s\n---\n%s", frame, want)
	}
	key := spectatorFrame{name: "watched", w: 80, h: 24, left: mc.remaining(now), styles: s, canChat: true, helpWidth: 80}
	if got := snap.Shared(key, func() string { return "drawn again" }); got != frame {
		t.Errorf("the frame was not kept for the next spectator: %q", got)
	}

	full := hv
	full.ShowAll = true
	tests := []struct {
		name  string
		m     func() tableScreen
		hv    help.Model
		w     int
		has   string // in this spectator's frame
		lacks string
	}{
		{"a status line of one's own", func() tableScreen { m := screen(d); m.setStatus("could not sit: full", true); return m },
			hv, 80, "could not sit: full", ""},
		{"a chat line being typed", func() tableScreen {
			m := screen(d)
			m.typing = true
			m.input.Focus()
			m.input.SetValue("hello there")
			return m
		}, hv, 80, "hello there", ""},
		{"the full help", func() tableScreen { return screen(d) }, full, 80, "sit/stand/leave", "Round log"},
		{"a wider window", func() tableScreen { return screen(d) }, hv, 100, "watching", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(tt.m(), tt.hv, tt.w, 24)
			if got == frame {
				t.Fatalf("got the shared frame")
			}
			assertContains(t, got, tt.has)
			if tt.lacks != "" {
				assertLacks(t, got, tt.lacks)
			}
			if again := render(mc, hv, 80, 24); again != frame {
				t.Errorf("the other spectator's frame changed:\n%s", again)
			}
		})
	}

	// A player at the table draws their own frame from their own snapshot.
	mine := newTableScreen(s, a, "watched", tbl)
	mine, _ = mine.setSnapshot(e.snapshot(tbl, a))
	if got := render(mine, hv, 80, 24); got == frame || !strings.Contains(got, "(you)") {
		t.Errorf("alice's frame:\n%s", got)
	}

	// The turn clock moves every spectator's frame on.
	later := mc.render(s, &hv, now.Add(3*time.Second), 80, 24)
	if later == frame {
		t.Error("three seconds later the spectators' frame is the same")
	}
}

// BenchmarkSpectators is ten spectators of one table drawing their frame
// (at one clock second): one draws, nine share it.
func BenchmarkSpectators(b *testing.B) {
	e := newEnv(b)
	p := []lobby.Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := e.game("bench", engine.DefaultOptions(), p...)
	s := NewStyles(nil)
	hv := s.newHelp()
	hv.Width = 100
	now := e.clock.Now()
	var screens []tableScreen
	for i := range 10 {
		m := newTableScreen(s, e.player(fmt.Sprintf("w%d", i)), "bench", tbl)
		screens = append(screens, m)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		snap := e.snapshot(tbl, screens[0].me) // a new snapshot, as after a move
		for i := range screens {
			screens[i], _ = screens[i].setSnapshot(snap)
		}
		b.StartTimer()
		for i := range screens {
			_ = screens[i].render(s, &hv, now, 100, 30)
		}
	}
}
