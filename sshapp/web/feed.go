package web

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mia-game/mia/lobby"
)

// errNoTable: no open table of that name shows itself to the viewer (the
// same answer for a private table as for none).
var errNoTable = lobby.NewError(lobby.NotFound, "no such table")

// hub follows the tables web viewers watch: one feed per table, shared by
// all its viewers, as an SSH table's spectators share their frame.
type hub struct {
	s       *Server
	dropped atomic.Uint64 // watchers dropped for not reading

	mu     sync.Mutex
	feeds  map[string]*feed // by lower-case table name
	closed bool
}

func newHub(s *Server) *hub { return &hub{s: s, feeds: make(map[string]*feed)} }

// feed is one table as its web viewers see it: a spectator's subscription
// to the table, and the frame made of its newest snapshot, once for every
// watcher (the fragment of the page, and the same as an event).
type feed struct {
	h     *hub
	key   string
	table *lobby.Table
	sub   *lobby.Subscription
	cur   atomic.Pointer[frame]
	ready chan struct{} // closed once the first frame is made (or the feed ended)
	done  chan struct{} // closed when the feed ends: the table closed, its link revoked, the server stopping
	stop  chan struct{} // closed to end it (no one left)
	pings atomic.Uint64 // how many times the feed said "still here"

	mu       sync.Mutex
	watchers map[*watcher]struct{}

	// guarded by h.mu
	users  int // pages and streams using the feed
	linger *time.Timer
	ended  bool
}

// watcher is one event stream of a feed.
type watcher struct {
	wake chan struct{} // a token when there is a new frame or a ping
}

// counts is the watchers and the feeds now.
func (h *hub) counts() (watchers, feeds int) {
	h.mu.Lock()
	fs := make([]*feed, 0, len(h.feeds))
	for _, f := range h.feeds {
		fs = append(fs, f)
	}
	h.mu.Unlock()
	for _, f := range fs {
		f.mu.Lock()
		watchers += len(f.watchers)
		f.mu.Unlock()
	}
	return watchers, len(fs)
}

// acquire finds the feed of the table name for v, starting it if none
// runs, and waits for its first frame. errNoTable when there is no open
// table of that name or it does not show itself to v. The caller
// releases it.
func (h *hub) acquire(ctx context.Context, name string, v lobby.Viewer) (*feed, error) {
	t, err := h.s.cfg.Lobby.TableFor(v, name)
	if err != nil {
		return nil, errNoTable
	}
	a := t.Info().Access()
	key := strings.ToLower(t.Name())
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errNoTable
	}
	f := h.feeds[key]
	if f != nil && f.table != t { // a table of that name closed and made anew
		f = nil
	}
	if f == nil {
		f = &feed{h: h, key: key, table: t, ready: make(chan struct{}), done: make(chan struct{}), stop: make(chan struct{}),
			watchers: make(map[*watcher]struct{})}
		h.feeds[key] = f
		f.users++
		h.mu.Unlock()
		// The feed watches as the least that sees the table: nobody for a
		// public one, the link for a private one.
		as := lobby.Viewer{}
		if !as.Sees(a) {
			as = v
		}
		sub, err := t.Spectate(ctx, as)
		h.mu.Lock()
		if err != nil || f.ended { // refused, or the server stops meanwhile
			f.endLocked()
			h.mu.Unlock()
			if sub != nil {
				sub.Close()
			}
			h.release(f)
			return nil, errNoTable
		}
		f.sub = sub
		h.mu.Unlock()
		go f.run()
	} else {
		f.users++
		if f.linger != nil {
			f.linger.Stop()
			f.linger = nil
		}
		h.mu.Unlock()
	}
	select {
	case <-f.ready:
	case <-ctx.Done():
		h.release(f)
		return nil, ctx.Err()
	}
	fr := f.cur.Load()
	if fr == nil || !v.Sees(fr.access) {
		h.release(f)
		return nil, errNoTable
	}
	return f, nil
}

// release gives a feed back; the last user leaves it running for
// Limits.Linger, for the next page.
func (h *hub) release(f *feed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f.users--
	if f.users > 0 || f.ended {
		return
	}
	f.linger = time.AfterFunc(h.s.lim.Linger, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if f.users == 0 && !f.ended {
			f.endLocked()
		}
	})
}

// end marks the feed ended and takes it out of the hub.
func (f *feed) end() {
	f.h.mu.Lock()
	defer f.h.mu.Unlock()
	f.endLocked()
}

func (f *feed) endLocked() {
	if f.ended {
		return
	}
	f.ended = true
	if f.h.feeds[f.key] == f {
		delete(f.h.feeds, f.key)
	}
	close(f.stop)
	if f.sub == nil { // never started
		close(f.done)
		close(f.ready)
	}
}

// close ends every feed: the server stops.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	fs := make([]*feed, 0, len(h.feeds))
	for _, f := range h.feeds {
		fs = append(fs, f)
	}
	for _, f := range fs {
		f.endLocked()
	}
	h.mu.Unlock()
	for _, f := range fs {
		<-f.done
	}
}

// run follows the table until it closes, its link is revoked or nobody
// watches: each snapshot is made into a frame once, and every watcher is
// woken.
func (f *feed) run() {
	readyOnce := sync.OnceFunc(func() { close(f.ready) })
	defer func() {
		f.sub.Close()
		f.end()
		readyOnce()
		close(f.done)
		f.wakeAll()
	}()
	ping := time.NewTicker(f.h.s.lim.Ping)
	defer ping.Stop()
	for {
		select {
		case <-f.sub.Ready():
			snap, ok := f.sub.Take()
			if !ok {
				continue
			}
			fr, err := f.frameOf(snap)
			if err != nil {
				f.h.s.log.Error("draw a table for the web", "table", f.key, "err", err)
				continue
			}
			f.cur.Store(fr)
			readyOnce()
			f.wakeAll()
		case <-ping.C:
			f.pings.Add(1)
			f.wakeAll()
		case <-f.sub.Done():
			return
		case <-f.stop:
			return
		}
	}
}

// frameOf makes a snapshot's frame; a panic drawing it is an error, and
// the feed goes on with the next snapshot.
func (f *feed) frameOf(snap lobby.Snapshot) (fr *frame, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return f.h.s.makeFrame(snap)
}

// wakeAll wakes every watcher; one busy writing finds the newest frame
// when it is done (a frame replaced unread is never sent).
func (f *feed) wakeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.watchers {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

func (f *feed) add(w *watcher) {
	f.mu.Lock()
	f.watchers[w] = struct{}{}
	f.mu.Unlock()
}

func (f *feed) remove(w *watcher) {
	f.mu.Lock()
	delete(f.watchers, w)
	f.mu.Unlock()
}

// The turn clock in a frame: frames are made once per snapshot, and the
// clock written in when one is sent (the seconds left then). Private-use
// runes, which words.Clean takes out of anything people type.
const (
	markLeft  = "\uE001" // milliseconds left, for the page's script to count down
	markClock = "\uE002" // the seconds left in words: "42s"
)

// frame is a table's snapshot as the web shows it, made once for all its
// watchers.
type frame struct {
	ver      uint64
	access   lobby.Access // who may see it (the table's, as of the snapshot)
	name     string
	private  bool
	coach    bool // a practice table: not rated (its verdicts are each player's own, never here)
	rules    string
	deadline time.Time // the turn clock's end; zero for none
	made     time.Time
	parts    [][]byte // the fragment, cut at the clock's marks
	event    []byte   // the fragment as an event, the clock as of made
}

// cutMarks cuts a fragment at its clock marks: text, mark, text, mark, …
func cutMarks(b []byte) [][]byte {
	var parts [][]byte
	for {
		i := bytes.IndexAny(b, markLeft+markClock)
		if i < 0 {
			return append(parts, b)
		}
		n := len(markLeft) // both marks are three bytes
		parts = append(parts, b[:i], b[i:i+n])
		b = b[i+n:]
	}
}

// html is the fragment with the clock as of now.
func (fr *frame) html(now time.Time) []byte {
	var out bytes.Buffer
	left := fr.deadline.Sub(now)
	if left < 0 {
		left = 0
	}
	for _, p := range fr.parts {
		switch string(p) {
		case markLeft:
			out.WriteString(strconv.FormatInt(left.Milliseconds(), 10))
		case markClock:
			out.WriteString(clockText(left))
		default:
			out.Write(p)
		}
	}
	return out.Bytes()
}

// clockText writes the time left as the table screen does: "42s", or
// "12:05" from 100 s up.
func clockText(d time.Duration) string {
	sec := int((d + time.Second - 1) / time.Second)
	if sec < 100 {
		return strconv.Itoa(sec) + "s"
	}
	return strconv.Itoa(sec/60) + ":" + twoDigits(sec%60)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// eventOf is a fragment as one Server-Sent Event named "table", its id the
// snapshot's version.
func eventOf(ver uint64, html []byte) []byte {
	var b bytes.Buffer
	b.WriteString("id: ")
	b.WriteString(strconv.FormatUint(ver, 10))
	b.WriteString("\nevent: table\n")
	for _, line := range bytes.Split(html, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.ReplaceAll(line, []byte("\r"), nil))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// eventAt is the frame's event with the clock as of now: a watcher that
// comes late is not told the seconds of long ago.
func (fr *frame) eventAt(now time.Time) []byte {
	if fr.deadline.IsZero() || now.Sub(fr.made) < 500*time.Millisecond {
		return fr.event
	}
	return eventOf(fr.ver, fr.html(now))
}
