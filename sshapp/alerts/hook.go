package alerts

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mia-game/mia/lobby"
)

// hook is one webhook: where its deliveries go, in which format, signed
// with which secret; its bounded queue, and the goroutine that empties it,
// which runs only while the queue holds deliveries (one at a time, in
// order).
type hook struct {
	a       *Alerts
	table   string // the table it is of; "" for the server's
	url     string
	host    string // the URL's host, as told to its owner
	format  Format
	secret  string
	client  *http.Client
	by      string // who set it, by person id (a table's)
	created time.Time
	// tableCreated is when its table was created: a hook of an earlier
	// table of that name is no hook of the table open now.
	tableCreated time.Time
	// since is when it was set on the lobby's clock (lobby.Lobby.Now):
	// the news of before, still on their way to the alerts then, are
	// not its to tell. Zero for a hook read from storage at the start.
	since time.Time
	queue *lobby.Queue[delivery]

	mu      sync.Mutex
	running bool // its goroutine runs
	removed bool // taken off: its goroutine stops
	state   HookState
}

// HookState is what a hook did last, as `table hook NAME` shows it.
type HookState struct {
	URL     string
	Format  Format
	Created time.Time
	// Last is when the last delivery was tried and LastType its type;
	// LastStatus its HTTP status (0: no answer) and LastError why it
	// failed ("" if it did not).
	Last       time.Time
	LastType   string
	LastStatus int
	LastError  string
	// FailingSince is when the failures since the last success began
	// (zero: the last delivery succeeded).
	FailingSince time.Time
	// Paused: it failed for PauseAfter, and is paused since Paused; a
	// delivery is tried once each PauseAfter, and a success (or a test)
	// resumes it.
	Paused   bool
	PausedAt time.Time
	// Queued is the deliveries waiting; Dropped those its full queue
	// dropped; Delivered and Failed count the deliveries since it was set
	// (or the server started).
	Queued    int
	Dropped   uint64
	Delivered uint64
	Failed    uint64
}

func (a *Alerts) newHook(table, raw string, f Format, secret string) (*hook, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, ErrBadURL
	}
	client := a.server
	if table != "" {
		client = a.guarded
	}
	h := &hook{a: a, table: table, url: raw, host: u.Hostname(), format: f, secret: secret, client: client,
		queue: lobby.NewQueue[delivery](a.cfg.QueueBound)}
	h.state.URL, h.state.Format = raw, f
	return h, nil
}

// remove takes the hook off: its goroutine stops, its queue is dropped.
func (h *hook) remove() {
	h.mu.Lock()
	h.removed = true
	h.mu.Unlock()
	h.queue.Take()
	h.queue.Close()
}

// State is what the hook did last.
func (h *hook) State() HookState {
	h.mu.Lock()
	st := h.state
	h.mu.Unlock()
	st.Created, st.Queued, st.Dropped = h.created, h.queue.Len(), h.queue.Dropped()
	return st
}

// put queues d, and starts the hook's goroutine if it does not run (on
// actx, run's: it ends with Close). A paused hook takes one delivery each
// PauseAfter, to try whether its receiver is back; the others are
// dropped, counted.
func (h *hook) put(actx context.Context, d delivery) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.removed || actx.Err() != nil {
		return
	}
	if h.state.Paused {
		if h.a.cfg.Now().Before(h.state.PausedAt.Add(h.a.cfg.PauseAfter)) || h.queue.Len() > 0 {
			h.a.stats.delivered(string(d.kind), resultDropped)
			h.a.stats.pausedDrops.Add(1)
			return
		}
		h.state.PausedAt = h.a.cfg.Now() // the next try, a PauseAfter from now
		d.probe = true
	}
	before := h.queue.Dropped()
	h.queue.Put(d)
	if h.queue.Dropped() > before {
		h.a.stats.delivered(string(d.kind), resultDropped)
		h.a.stats.dropped.Add(1)
	}
	if !h.running {
		h.running = true
		h.a.wg.Add(1)
		go h.deliver(actx)
	}
}

// deliver sends the queued deliveries, one at a time, until the queue is
// empty, the hook is taken off or the alerts close (actx ends).
func (h *hook) deliver(actx context.Context) {
	defer h.a.wg.Done()
	for {
		h.mu.Lock()
		d, ok := h.queue.Next()
		if !ok || h.removed || actx.Err() != nil {
			h.running = false
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		h.a.safely(func() { h.deliverOne(actx, d) })
	}
}

// deliverOne sends d, retrying a 5xx or a timeout with backoff (but a
// paused hook's try), and notes how it went.
func (h *hook) deliverOne(actx context.Context, d delivery) {
	tries := 1 + h.a.cfg.Retries
	if d.probe {
		tries = 1
	}
	var res answer
	wait := h.a.cfg.Backoff
	for i := 0; i < tries; i++ {
		if i > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-actx.Done():
				t.Stop()
				return
			}
			wait *= 2
		}
		res = h.send(actx, d)
		if actx.Err() != nil {
			return // the alerts closed: no count, no state
		}
		if !res.retry() {
			break
		}
	}
	h.noted(d, res)
}

// noted keeps how a delivery went, and pauses a hook that has failed for
// PauseAfter (its owner told).
func (h *hook) noted(d delivery, res answer) {
	now := h.a.cfg.Now()
	result := res.result()
	h.a.stats.delivered(string(d.kind), result)
	h.mu.Lock()
	st := &h.state
	st.Last, st.LastType, st.LastStatus, st.LastError = now, string(d.kind), res.status, res.said()
	pausedNow := false
	if result == resultOK {
		st.Delivered++
		st.FailingSince, st.Paused, st.PausedAt = time.Time{}, false, time.Time{}
	} else {
		st.Failed++
		if st.FailingSince.IsZero() {
			st.FailingSince = now
		}
		if !st.Paused && !now.Before(st.FailingSince.Add(h.a.cfg.PauseAfter)) {
			st.Paused, st.PausedAt, pausedNow = true, now, true
		}
	}
	h.mu.Unlock()
	if pausedNow {
		for range h.queue.Take() {
			h.a.stats.pausedDrops.Add(1)
		}
		h.a.paused(h)
	}
}

// paused tells the owner of a hook that it is paused: a table's host, as
// a notice; the operator, in the log.
func (a *Alerts) paused(h *hook) {
	a.log.Warn("a webhook failed for too long and is paused; a delivery is tried again each pause",
		"table", h.table, "host", h.host, "pause", a.cfg.PauseAfter, "last error", h.State().LastError)
	if h.table == "" {
		return
	}
	n := lobby.News{Kind: lobby.NewsHookPaused, Table: h.table, Detail: h.host}
	if t, err := a.lob.Table(h.table); err == nil {
		info := t.Info()
		n.Access, n.Host, n.To = info.Access(), info.HostID, []string{info.HostID}
	}
	a.lob.Publish(n)
}

// ErrBadURL refuses a hook's address that is no http or https URL with a
// host (and no user in it).
var ErrBadURL = lobby.NewError(lobby.Refused, "a hook's address is an http:// or https:// URL with a host, and no user or password in it")
