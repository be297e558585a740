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
// each line is kept, not the text. What is written to go from one frame
// to the next is shared between sessions (frameShare): the spectators of
// a table go through the same frames in the same window.
type frames struct {
	out      io.Writer
	share    *frameShare
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
	armed    bool   // timer draws view when it fires
	viewHash uint64 // of view

	// same is set by framed when the one message since the last view was
	// the window's size, unchanged: the view on the screen stands. Only
	// the program's event loop uses it.
	same bool
}

// newFrames draws on out at most fps frames a second, with what share
// holds for every session.
func newFrames(out io.Writer, fps int, share *frameShare) *frames {
	return &frames{out: out, share: share, interval: time.Second / time.Duration(fps), now: time.Now}
}

// frameShare is what the frames of all sessions share: the hash seed of
// their lines, the buffers frames are put together in, and the bytes that
// take a window of a size from one frame to the next, for whoever goes
// through the same frames next (the spectators of a table: the frame is
// put together once, not once each).
type frameShare struct {
	seed maphash.Seed
	bufs sync.Pool // of *bytes.Buffer: a session keeps no buffer between frames

	mu    sync.Mutex
	diffs map[frameDiffKey]frameDiff
}

// maxFrameDiffs bounds the diffs kept; when full they are dropped.
const maxFrameDiffs = 1024

// frameDiffKey is a change from one frame on the screen to the next.
type frameDiffKey struct {
	from, to      uint64 // hashes of the frame on the screen (0: none known) and the next
	width, height int
	started       bool // the alternate screen is on
}

// frameDiff is what is written for a change, and the next frame's lines'
// hashes (shared: never modified).
type frameDiff struct {
	out   []byte
	lines []uint64
}

func newFrameShare() *frameShare {
	return &frameShare{seed: maphash.MakeSeed(), diffs: make(map[frameDiffKey]frameDiff)}
}

func (s *frameShare) diff(k frameDiffKey) (frameDiff, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.diffs[k]
	return st, ok
}

func (s *frameShare) keep(k frameDiffKey, st frameDiff) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.diffs) >= maxFrameDiffs {
		clear(s.diffs)
	}
	s.diffs[k] = st
}

// show takes the newest view. It is drawn at once if the last frame is at
// least an interval old, else when the interval is over (then the newest
// view of that moment is drawn).
func (f *frames) show(view string) {
	if view == "" {
		view = " " // as the standard renderer does: an empty view clears the screen
	}
	h := maphash.String(f.share.seed, view)
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
// It reports whether the size changed.
func (f *frames) resize(w, h int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w == f.width && h == f.height {
		return false
	}
	f.width, f.height = w, h
	f.lines, f.drawn = nil, 0
	return true
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
		_, _ = io.WriteString(f.out, ansi.ResetModeBracketedPaste+ansi.ShowCursor+ansi.ResetModeAltScreenSaveCursor)
	}
}

// drawLocked writes f.view over the frame on the screen. f.mu is held.
func (f *frames) drawLocked() {
	k := frameDiffKey{from: f.drawn, to: f.viewHash, width: f.width, height: f.height, started: f.started}
	if f.lines == nil {
		k.from = 0
	}
	st, ok := f.share.diff(k)
	if !ok {
		st = f.diffLocked()
		f.share.keep(k, st)
	}
	_, _ = f.out.Write(st.out)
	f.started = true
	f.drawn, f.lines = f.viewHash, st.lines
	f.view, f.pending = "", false
	f.lastDraw = f.now()
}

// diffLocked puts together what takes the screen from the frame on it to
// f.view. f.mu is held.
func (f *frames) diffLocked() frameDiff {
	b, _ := f.share.bufs.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	defer func() {
		if b.Cap() <= 64<<10 {
			b.Reset()
			f.share.bufs.Put(b)
		}
	}()
	if !f.started {
		b.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition +
			ansi.HideCursor + ansi.SetModeBracketedPaste)
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
		h := maphash.String(f.share.seed, line)
		lines = append(lines, h)
		last := i == n-1
		if i < len(f.lines) && f.lines[i] == h {
			if !last {
				b.WriteString("\r\n") // unchanged: the next line
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
	return frameDiff{out: bytes.Clone(b.Bytes()), lines: lines}
}

// framed runs a model with frames in place of Bubble Tea's renderer: the
// program runs with tea.WithoutRenderer, and every view the program asks
// for goes to frames. The model's Init, Update and View run on the
// server's drawers (see drawers), done is this session's channel for them.
type framed struct {
	tea.Model
	f    *frames
	d    *drawers
	done chan *drawPanic
}

func newFramed(m tea.Model, f *frames, d *drawers) framed {
	return framed{Model: m, f: f, d: d, done: make(chan *drawPanic, 1)}
}

func (m framed) Init() tea.Cmd {
	var cmd tea.Cmd
	m.d.do(m.done, func() { cmd = m.Model.Init() })
	return cmd
}

// Update passes msg on to the model, but for a window size the screen has
// already (the server sends the size as a screen starts, most often the
// one it was made with): then the frame on the screen stays, and the view
// is not drawn again.
func (m framed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		if !m.f.resize(ws.Width, ws.Height) {
			m.f.same = true
			return m, nil
		}
	}
	m.f.same = false
	var cmd tea.Cmd
	m.d.do(m.done, func() { m.Model, cmd = m.Model.Update(msg) })
	return m, cmd
}

func (m framed) View() string {
	if m.f.same {
		m.f.same = false
		return ""
	}
	m.d.do(m.done, func() { m.f.show(m.Model.View()) })
	return ""
}
