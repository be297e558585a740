package sshapp

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

const (
	enter = ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition + ansi.HideCursor + ansi.SetModeBracketedPaste
	leave = ansi.ResetModeBracketedPaste + ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor
	home  = ansi.CursorHomePosition
	el    = ansi.EraseLineRight
)

// frameStep is one thing done to a frames: a view shown, a resize, the timer
// firing, or stop; want is what it writes.
type frameStep struct {
	show   string
	resize [2]int
	fire   bool
	stop   bool
	want   string
}

func runSteps(t *testing.T, interval time.Duration, steps []frameStep) {
	t.Helper()
	var out bytes.Buffer
	f := newFrames(&out, 20, newFrameShare())
	f.interval = interval
	clock := time.Unix(0, 0)
	f.now = func() time.Time { return clock }
	for i, s := range steps {
		out.Reset()
		switch {
		case s.resize != [2]int{}:
			f.resize(s.resize[0], s.resize[1])
		case s.fire:
			f.fire()
		case s.stop:
			f.stop()
		default:
			f.show(s.show)
		}
		if got := out.String(); got != s.want {
			t.Errorf("frameStep %d: wrote %q\nwant  %q", i, got, s.want)
		}
		clock = clock.Add(time.Second)
	}
	f.stop()
}

func TestFramesDraw(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []frameStep
	}{
		{"first frame enters the alternate screen", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd", want: enter + home + "ab" + el + "\r\n" + "cd" + el + ansi.CursorPosition(0, 2)},
		}},
		{"an unchanged view writes nothing", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd", want: enter + home + "ab" + el + "\r\n" + "cd" + el + ansi.CursorPosition(0, 2)},
			{show: "ab\ncd"},
			{show: "ab\ncd"},
		}},
		{"only changed lines are written", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd\nef", want: enter + home + "ab" + el + "\r\n" + "cd" + el + "\r\n" + "ef" + el + ansi.CursorPosition(0, 3)},
			{show: "ab\nXY\nef", want: home + "\r\n" + "XY" + el + "\r\n" + ansi.CursorPosition(0, 3)},
		}},
		{"a shorter frame erases below", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd\nef", want: enter + home + "ab" + el + "\r\n" + "cd" + el + "\r\n" + "ef" + el + ansi.CursorPosition(0, 3)},
			{show: "ab", want: home + ansi.EraseScreenBelow + ansi.CursorPosition(0, 1)},
		}},
		{"lines are cut to the width; a full line is not erased", []frameStep{
			{resize: [2]int{3, 5}},
			{show: "abcdef\nxyz", want: enter + home + "abc" + "\r\n" + "xyz" + ansi.CursorPosition(0, 2)},
		}},
		{"only the bottom lines fit the height", []frameStep{
			{resize: [2]int{10, 2}},
			{show: "1\n2\n3", want: enter + home + "2" + el + "\r\n" + "3" + el + ansi.CursorPosition(0, 2)},
		}},
		{"a resize draws the whole frame again", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd", want: enter + home + "ab" + el + "\r\n" + "cd" + el + ansi.CursorPosition(0, 2)},
			{resize: [2]int{20, 5}},
			{show: "ab\ncd", want: home + "ab" + el + "\r\n" + "cd" + el + ansi.CursorPosition(0, 2)},
		}},
		{"an empty view clears the screen", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab\ncd", want: enter + home + "ab" + el + "\r\n" + "cd" + el + ansi.CursorPosition(0, 2)},
			{show: "", want: home + " " + el + ansi.EraseScreenBelow + ansi.CursorPosition(0, 1)},
		}},
		{"stop gives the terminal back, once", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "ab", want: enter + home + "ab" + el + ansi.CursorPosition(0, 1)},
			{stop: true, want: leave},
			{stop: true},
			{show: "cd"},
		}},
		{"stop before any frame writes nothing", []frameStep{
			{stop: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, 0, tt.steps) })
	}
}

// With an hour between frames, every view after the first waits for the
// timer (fired by hand here).
func TestFramesCoalesce(t *testing.T) {
	t.Parallel()
	first := enter + home + "A" + el + ansi.CursorPosition(0, 1)
	tests := []struct {
		name  string
		steps []frameStep
	}{
		{"the newest view is drawn when the slot comes", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "A", want: first},
			{show: "B"},
			{show: "C"},
			{fire: true, want: home + "C" + el + ansi.CursorPosition(0, 1)},
			{show: "C"},
		}},
		{"a view back to the one on the screen draws nothing", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "A", want: first},
			{show: "B"},
			{show: "A"},
			{fire: true},
		}},
		{"stop draws the view that waits", []frameStep{
			{resize: [2]int{10, 5}},
			{show: "A", want: first},
			{show: "B"},
			{stop: true, want: home + "B" + el + ansi.CursorPosition(0, 1) + leave},
			{fire: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, time.Hour, tt.steps) })
	}
}

// quitModel shows its window size and quits on q.
type quitModel struct{ w, h int }

func (m quitModel) Init() tea.Cmd { return nil }
func (m quitModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
	}
	return m, nil
}
func (m quitModel) View() string { return "size " + strings.Repeat("x", m.w) }

func TestFramedProgram(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	f := newFrames(&out, 1000, newFrameShare())
	in, feed := io.Pipe()
	defer feed.Close()
	d := newDrawers(2)
	defer d.stop()
	p := tea.NewProgram(newFramed(quitModel{}, f, d), tea.WithInput(in), tea.WithOutput(&out), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	p.Send(tea.WindowSizeMsg{Width: 8, Height: 3})
	if _, err := feed.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	f.stop()
	got := out.String()
	for _, want := range []string{enter, "size xxx", leave} {
		if !strings.Contains(got, want) {
			t.Errorf("output %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "size xxxx") {
		t.Errorf("a line wider than the window (8) was not cut: %q", got)
	}
	if !strings.HasSuffix(got, leave) {
		t.Errorf("the terminal is not given back last: %q", got)
	}
}

// BenchmarkFramesShow draws a 100×30 screen whose clock line changes every
// frame, as a watched table's does.
func BenchmarkFramesShow(b *testing.B) {
	f := newFrames(io.Discard, 20, newFrameShare())
	f.interval = 0
	f.resize(100, 30)
	lines := make([]string, 30)
	for i := range lines {
		lines[i] = strings.Repeat("·", 60) + " line " + string(rune('a'+i%26))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		lines[3] = "turn clock " + string(rune('0'+i%10))
		f.show(strings.Join(lines, "\n"))
		i++
	}
}

// BenchmarkFramesUnchanged is the cost of a view that did not change: the
// program asks for a view after every message.
func BenchmarkFramesUnchanged(b *testing.B) {
	f := newFrames(io.Discard, 20, newFrameShare())
	f.resize(100, 30)
	view := strings.Repeat(strings.Repeat("·", 80)+"\n", 29) + "end"
	f.show(view)
	b.ReportAllocs()
	for b.Loop() {
		f.show(view)
	}
}

// TestFramesShareDiffs: screens that go through the same frames in the
// same window write the same bytes, put together once; another window
// gets its own.
func TestFramesShareDiffs(t *testing.T) {
	t.Parallel()
	share := newFrameShare()
	views := []string{"table t1\nclock 30s\nlog", "table t1\nclock 29s\nlog", "table t1\nclock 29s\nlog\nbob rolled"}
	watch := func(w int) []string {
		var out bytes.Buffer
		f := newFrames(&out, 20, share)
		f.interval = 0
		f.resize(w, 10)
		var wrote []string
		for _, v := range views {
			out.Reset()
			f.show(v)
			wrote = append(wrote, out.String())
		}
		return wrote
	}
	first := watch(80)
	kept := len(share.diffs)
	if kept != len(views) {
		t.Fatalf("%d diffs kept for %d frames", kept, len(views))
	}
	if second := watch(80); !slices.Equal(second, first) {
		t.Errorf("a second screen wrote\n%q\nthe first\n%q", second, first)
	}
	if len(share.diffs) != kept {
		t.Errorf("the second screen put its frames together again: %d diffs kept, want %d", len(share.diffs), kept)
	}
	narrow := watch(5)
	if slices.Equal(narrow, first) {
		t.Error("a narrower window wrote what the wide one did")
	}
	if !strings.Contains(first[1], "29s") || strings.Contains(first[1], "table") {
		t.Errorf("the second frame is not the changed line alone: %q", first[1])
	}
}

// countModel counts the messages it is given and the views it draws.
type countModel struct{ updates, views *atomic.Int32 }

func (m countModel) Init() tea.Cmd { return nil }
func (m countModel) Update(tea.Msg) (tea.Model, tea.Cmd) {
	m.updates.Add(1)
	return m, nil
}
func (m countModel) View() string { m.views.Add(1); return "hello" }

// TestFramedSameSize: the window's size the screen already has changes
// nothing and draws nothing; another size is passed on and drawn.
func TestFramedSameSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		size                [2]int
		updates, views, out int32 // after Init's view
	}{
		{"the size it was made with", [2]int{80, 24}, 0, 0, 0},
		{"wider", [2]int{100, 24}, 1, 1, 1},
		{"shorter", [2]int{80, 20}, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			f := newFrames(&out, 1000, newFrameShare())
			f.interval = 0
			f.resize(80, 24)
			d := newDrawers(1)
			defer d.stop()
			var updates, views atomic.Int32
			m := tea.Model(newFramed(countModel{&updates, &views}, f, d))
			m.View() // as the program draws after Init
			out.Reset()
			views.Store(0)
			m, _ = m.Update(tea.WindowSizeMsg{Width: tt.size[0], Height: tt.size[1]})
			m.View()
			if updates.Load() != tt.updates || views.Load() != tt.views {
				t.Errorf("model got %d updates and drew %d views, want %d and %d", updates.Load(), views.Load(), tt.updates, tt.views)
			}
			if wrote := out.Len() > 0; wrote != (tt.out > 0) {
				t.Errorf("wrote %q", out.String())
			}
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
			m.View()
			if views.Load() != tt.views+1 {
				t.Errorf("the next message drew %d views, want 1", views.Load()-tt.views)
			}
		})
	}
}
