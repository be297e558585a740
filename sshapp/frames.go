package sshapp

import (
	"bytes"
	"hash/maphash"
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// frames draws a session's screen: the views of its Bubble Tea program,
// in the alternate screen, each only if it changed and at most one frame
// per interval. It stands in for Bubble Tea's standard renderer, whose
// ticker wakes every session at the frame rate whether or not anything
// changed (with 2,000 idle sessions, 40,000 wakeups a second and most of
// the server's CPU). Here a screen that does not change costs nothing: a
// timer is armed only while a changed frame waits for its slot.
//
// A frame is written as the standard renderer writes one in the alternate
// screen: from the top left, lines that did not change skipped, the others
// cut to the window's width and erased to its end, and what is left of a
// longer frame erased below. Of the frame on the screen only a hash of
// each line is kept, not the text.
type frames struct {
	out      io.Writer
	bufs     *sync.Pool // of *bytes.Buffer: a session keeps no buffer between frames
	interval time.Duration
	now      func() time.Time

	mu       sync.Mutex
	started  bool // the alternate screen is on
	stopped  bool
	view     string // the newest view, until it is drawn
	pending  bool   // view differs from the frame on the screen
	drawn    uint64 // hash of the whole view on the screen
	lines    []uint64
	width    int // the window; 0: not known yet
	height   int
	lastDraw time.Time
	timer    *time.Timer
	armed    bool // timer draws view when it fires
	seed     maphash.Seed
	viewHash uint64 // of view
}

// newFrames draws on out at most fps frames a second, putting each frame
// together in a buffer from bufs (shared between sessions).
func newFrames(out io.Writer, fps int, bufs *sync.Pool) *frames {
	return &frames{out: out, bufs: bufs, interval: time.Second / time.Duration(fps), now: time.Now, seed: maphash.MakeSeed()}
}

// show takes the newest view. It is drawn at once if the last frame is at
// least an interval old, else when the interval is over (then the newest
// view of that moment is drawn).
func (f *frames) show(view string) {
	if view == "" {
		view = " " // as the standard renderer does: an empty view clears the screen
	}
	h := maphash.String(f.seed, view)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	if f.started && h == f.drawn && f.lines != nil {
		f.view, f.pending = "", false // back to what is on the screen
		return
	}
	f.view, f.viewHash, f.pending = view, h, true
	if f.armed {
		return
	}
	if wait := f.interval - f.now().Sub(f.lastDraw); wait > 0 {
		f.armed = true
		if f.timer == nil {
			f.timer = time.AfterFunc(wait, f.fire)
		} else {
			f.timer.Reset(wait)
		}
		return
	}
	f.drawLocked()
}

// fire draws the view that waited for its slot.
func (f *frames) fire() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed = false
	if !f.stopped && f.pending {
		f.drawLocked()
	}
}

// resize notes the window's size; the next frame is drawn whole. The
// caller shows a view after it (the program draws after every message).
func (f *frames) resize(w, h int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.width, f.height = w, h
	f.lines, f.drawn = nil, 0
}

// stop draws the view that waits, if one does, and gives the terminal
// back: bracketed paste off, the cursor shown, the main screen restored.
func (f *frames) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	if f.pending {
		f.drawLocked()
	}
	f.stopped = true
	if f.timer != nil {
		f.timer.Stop()
	}
	if f.started {
		_, _ = io.WriteString(f.out, ansi.ResetBracketedPasteMode+ansi.ShowCursor+ansi.ResetAltScreenSaveCursorMode)
	}
}

// drawLocked writes f.view over the frame on the screen. f.mu is held.
func (f *frames) drawLocked() {
	b, _ := f.bufs.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	defer func() {
		if b.Cap() <= 64<<10 {
			b.Reset()
			f.bufs.Put(b)
		}
	}()
	if !f.started {
		f.started = true
		b.WriteString(ansi.SetAltScreenSaveCursorMode + ansi.EraseEntireScreen + ansi.CursorHomePosition +
			ansi.HideCursor + ansi.SetBracketedPasteMode)
	}
	b.WriteString(ansi.CursorHomePosition)
	view := f.view
	n := strings.Count(view, "\n") + 1
	if f.height > 0 && n > f.height { // keep the bottom, as the standard renderer does
		for range n - f.height {
			view = view[strings.IndexByte(view, '\n')+1:]
		}
		n = f.height
	}
	lines := make([]uint64, 0, n)
	for i := 0; i < n; i++ {
		line := view
		if j := strings.IndexByte(view, '\n'); j >= 0 {
			line, view = view[:j], view[j+1:]
		}
		h := maphash.String(f.seed, line)
		lines = append(lines, h)
		last := i == n-1
		if i < len(f.lines) && f.lines[i] == h {
			if !last {
				b.WriteByte('\n') // unchanged: one line down
			}
			continue
		}
		if f.width > 0 {
			line = ansi.Truncate(line, f.width, "")
		}
		b.WriteString(line)
		if ansi.StringWidth(line) < f.width {
			b.WriteString(ansi.EraseLineRight)
		}
		if !last {
			b.WriteString("\r\n")
		}
	}
	if len(f.lines) > n {
		b.WriteString(ansi.EraseScreenBelow)
	}
	b.WriteString(ansi.CursorPosition(0, n))
	_, _ = f.out.Write(b.Bytes())
	f.drawn, f.lines = f.viewHash, lines
	f.view, f.pending = "", false
	f.lastDraw = f.now()
}

// framed runs a model with frames in place of Bubble Tea's renderer: the
// program runs with tea.WithoutRenderer, and every view the program asks
// for goes to frames. The model's Init, Update and View run on the
// server's drawers (see drawers), done is this session's channel for them.
type framed struct {
	tea.Model
	f    *frames
	d    *drawers
	done chan any
}

func newFramed(m tea.Model, f *frames, d *drawers) framed {
	return framed{Model: m, f: f, d: d, done: make(chan any, 1)}
}

func (m framed) Init() tea.Cmd {
	var cmd tea.Cmd
	m.d.do(m.done, func() { cmd = m.Model.Init() })
	return cmd
}

func (m framed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.f.resize(ws.Width, ws.Height)
	}
	var cmd tea.Cmd
	m.d.do(m.done, func() { m.Model, cmd = m.Model.Update(msg) })
	return m, cmd
}

func (m framed) View() string {
	m.d.do(m.done, func() { m.f.show(m.Model.View()) })
	return ""
}
