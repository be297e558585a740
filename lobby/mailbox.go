package lobby

import (
	"sync"
	"sync/atomic"
)

// Mailbox holds only the newest value put in it. Put never blocks, so a
// reader that stops reading slows no one: its older values are replaced.
type Mailbox[T any] struct {
	mu     sync.Mutex
	val    T
	full   bool
	closed bool
	signal chan struct{} // one token while a value waits
	done   chan struct{}
	ready  func() // Notify's; nil: none
	ended  func()
	drops  *atomic.Uint64 // counts values replaced unread; nil: not counted
}

// NewMailbox returns an empty mailbox.
func NewMailbox[T any]() *Mailbox[T] {
	return &Mailbox[T]{signal: make(chan struct{}, 1), done: make(chan struct{})}
}

// Put replaces the waiting value, if any, with v.
func (m *Mailbox[T]) Put(v T) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	if m.full && m.drops != nil {
		m.drops.Add(1)
	}
	var ready func()
	if !m.full {
		ready = m.ready
	}
	m.val, m.full = v, true
	m.mu.Unlock()
	select {
	case m.signal <- struct{}{}:
	default:
	}
	if ready != nil {
		ready()
	}
}

// Notify has ready called, on the putter's goroutine, each time a value
// comes to the empty mailbox (and at once if one waits now), and ended
// once it is closed (at once if it is): a reader that waits on no
// goroutine of its own. Neither may block.
func (m *Mailbox[T]) Notify(ready, ended func()) {
	m.mu.Lock()
	m.ready, m.ended = ready, ended
	full, closed := m.full, m.closed
	m.mu.Unlock()
	if full {
		ready()
	}
	if closed {
		ended()
	}
}

// counted makes m count the values it replaces unread in drops.
func (m *Mailbox[T]) counted(drops *atomic.Uint64) *Mailbox[T] {
	m.drops = drops
	return m
}

// Ready is signalled when a value waits; then call Take.
func (m *Mailbox[T]) Ready() <-chan struct{} { return m.signal }

// Done is closed when the mailbox is closed.
func (m *Mailbox[T]) Done() <-chan struct{} { return m.done }

// Take returns the waiting value and empties the mailbox.
func (m *Mailbox[T]) Take() (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.val, m.full
	var zero T
	m.val, m.full = zero, false
	return v, ok
}

// Close stops further Puts and closes Done.
func (m *Mailbox[T]) Close() {
	m.mu.Lock()
	var ended func()
	if !m.closed {
		m.closed = true
		close(m.done)
		ended = m.ended
	}
	m.mu.Unlock()
	if ended != nil {
		ended()
	}
}
