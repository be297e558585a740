package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"

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
	left := tc.remaining(e.clock.Now())
	key := spectatorFrame{name: tbl.Name(), w: 80, h: 24, clockW: len(clockText(left)), left: -1, styles: s, canChat: true, cupAt: -1}
	kept := snap.Shared(key, func() string { return "drawn again" })
	if got := strings.ReplaceAll(kept, strings.Repeat(string(clockMark), key.clockW), clockText(left)); got != frame {
		t.Errorf("the frame was not kept for the next spectator: %q", kept)
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

// TestSharedFrameClock: the frame spectators share is drawn once per
// snapshot, not once a second: each second's clock is written into it, and
// it is always the frame the spectator would draw alone.
func TestSharedFrameClock(t *testing.T) {
	if w := ansi.StringWidth(string(clockMark)); w != 1 {
		t.Fatalf("the clock's mark is %d cells wide, want 1 (a digit's)", w)
	}
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("clocked", engine.DefaultOptions(), a, b)
	snap := e.snapshot(tbl, e.player("carol"))
	s := NewStyles(asciiRenderer())
	type spectator struct {
		w  int
		m  *Model
		ts *tableScreen
	}
	var specs []spectator
	for _, w := range []int{80, 120} {
		cfg := e.config(e.player("carol"), w, 24)
		cfg.Styles = s
		m := New(cfg).(*Model)
		specs = append(specs, spectator{w, m, showTable(m, tbl, snap)})
	}
	// 60s, 59s, ..., 1s, 0s: the clock's width changes at 9s.
	for sec := 0; sec <= 60; sec++ {
		for _, sp := range specs {
			got := sp.m.View()
			if own := sp.ts.draw(); got != own {
				t.Fatalf("width %d, %ds gone: the shared frame differs from the spectator's own:\n%s\n---\n%s", sp.w, sec, got, own)
			}
			if strings.ContainsRune(got, clockMark) {
				t.Fatalf("a clock mark left in the frame at %ds gone:\n%s", sec, got)
			}
		}
		e.clock.Advance(time.Second)
	}
	if t.Failed() {
		return
	}

	// A second later the frame is the same drawing with another clock:
	// the drawing kept (the same string, not one drawn again).
	snap = e.snapshot(tbl, e.player("carol")) // the game went on: a new snapshot, 60s on the clock
	sp := specs[0]
	sp.ts.setSnapshot(snap)
	template := spectatorFrame{name: tbl.Name(), w: sp.w, h: 24, clockW: 3, left: -1, styles: s, canChat: true, cupAt: sp.ts.cup.shownAt()}
	kept := func() *byte {
		t.Helper()
		missing := false
		v := snap.Shared(template, func() string { missing = true; return "" })
		if missing {
			t.Fatal("no drawing kept for spectators with a 3-wide clock")
		}
		return unsafe.StringData(v)
	}
	first := sp.m.View()
	drawing := kept()
	e.clock.Advance(time.Second)
	if next := sp.m.View(); next == first {
		t.Fatal("a second later the frame is the same")
	}
	if kept() != drawing {
		t.Error("the frame was drawn again for the next second")
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
