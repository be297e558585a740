package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// TestSpectatorsShareAFrame: spectators of one snapshot with nothing of
// their own on the screen draw one frame between them; anything of their
// own (a status line, a chat line being typed, the full help, the window)
// is theirs.
func TestSpectatorsShareAFrame(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("watched", engine.DefaultOptions(), a, b)
	c, d := e.player("carol"), e.player("dave")
	snap := e.snapshot(tbl, c) // as the table publishes it to every spectator
	s := NewStyles(asciiRenderer())
	open := func(p lobby.Player, w int, snap lobby.Snapshot) (*Model, *tableScreen) {
		cfg := e.config(p, w, 24)
		cfg.Styles = s
		m := New(cfg).(*Model)
		return m, showTable(m, tbl, snap)
	}

	mc, tc := open(c, 80, snap)
	frame := mc.View()
	assertContains(t, frame, "watching", "Round log")
	md, _ := open(d, 80, snap)
	if got := md.View(); got != frame {
		t.Errorf("two spectators drew different frames:\n%s\n---\n%s", frame, got)
	}
	if own := tc.draw(); own != frame {
		t.Errorf("the shared frame differs from the spectator's own:\n%s\n---\n%s", frame, own)
	}
	key := spectatorFrame{name: tbl.Name(), w: 80, h: 24, left: tc.remaining(e.clock.Now()), styles: s, canChat: true, cupAt: -1}
	if got := snap.Shared(key, func() string { return "drawn again" }); got != frame {
		t.Errorf("the frame was not kept for the next spectator: %q", got)
	}

	tests := []struct {
		name  string
		open  func() *Model
		has   string // in this spectator's frame
		lacks string
	}{
		{"a status line of one's own", func() *Model {
			m, ts := open(d, 80, snap)
			ts.setStatus("could not sit: full", true)
			return m
		}, "could not sit: full", ""},
		{"a chat line being typed", func() *Model {
			m, ts := open(d, 80, snap)
			ts.input = ts.sayLine()
			ts.input.start()
			ts.say.SetValue("hello there")
			return m
		}, "hello there", ""},
		{"the full help", func() *Model {
			m, _ := open(d, 80, snap)
			m.c.help.ShowAll = true
			return m
		}, "sit/stand/leave", "Round log"},
		{"a wider window", func() *Model { m, _ := open(d, 100, snap); return m }, "watching", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.open().View()
			if got == frame {
				t.Fatalf("got the shared frame")
			}
			assertContains(t, got, tt.has)
			if tt.lacks != "" {
				assertLacks(t, got, tt.lacks)
			}
			if again := mc.View(); again != frame {
				t.Errorf("the other spectator's frame changed:\n%s", again)
			}
		})
	}

	// A player at the table draws their own frame from their own snapshot.
	ma, _ := open(a, 80, e.snapshot(tbl, a))
	if got := ma.View(); got == frame {
		t.Errorf("alice got the spectators' frame:\n%s", got)
	}

	// The turn clock moves every spectator's frame on.
	e.clock.Advance(3 * time.Second)
	if later := mc.View(); later == frame {
		t.Error("three seconds later the spectators' frame is the same")
	}
}

// BenchmarkSpectators is ten spectators of one table taking a new
// snapshot and drawing their frame: one draws, nine share it.
func BenchmarkSpectators(b *testing.B) {
	e := newEnv(b)
	p := []lobby.Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := e.game("bench", engine.DefaultOptions(), p...)
	s := NewStyles(asciiRenderer())
	var models []*Model
	var screens []*tableScreen
	for i := range 10 {
		cfg := e.config(e.player(fmt.Sprintf("w%d", i)), 100, 30)
		cfg.Styles = s
		m := New(cfg).(*Model)
		models = append(models, m)
		screens = append(screens, showTable(m, tbl, e.snapshot(tbl, p[0])))
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		e.snapshot(tbl, p[1]) // a player comes and goes: a new version, as after a move
		snap := e.snapshot(tbl, models[0].c.cfg.Player)
		b.StartTimer()
		for i, m := range models {
			screens[i].setSnapshot(snap)
			_ = m.View()
		}
	}
}
