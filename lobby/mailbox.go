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
	m.val, m.full = v, true
	m.mu.Unlock()
	select {
	case m.signal <- struct{}{}:
	default:
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
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		close(m.done)
	}
}
