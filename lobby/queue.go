package lobby

import (
	"sync"
	"sync/atomic"
)

// Queue holds values in order, up to a bound: Put never blocks, and when
// the queue is full the oldest value goes to make room, counted
// (Dropped). It is the lobby's news to its followers (news.go) and, beside
// it, any door's outgoing queue that must never hold up its writer (a
// webhook's deliveries). Its room grows with what it holds, up to the
// bound: an empty queue holds no values.
type Queue[T any] struct {
	mu      sync.Mutex
	buf     []T // a ring once it has grown to bound
	head, n int
	bound   int
	closed  bool
	signal  chan struct{} // one token while values wait
	ready   func()        // OnReady's; nil: none
	done    chan struct{}
	dropped atomic.Uint64
	also    *atomic.Uint64 // a count shared with others' drops; nil: none
}

// NewQueue returns an empty queue holding at most bound values (at least
// 1).
func NewQueue[T any](bound int) *Queue[T] {
	return &Queue[T]{bound: max(bound, 1), signal: make(chan struct{}, 1), done: make(chan struct{})}
}

// countedIn makes q count its drops in drops too.
func (q *Queue[T]) countedIn(drops *atomic.Uint64) *Queue[T] {
	q.also = drops
	return q
}

// Put adds v at the end, dropping the oldest value when the queue is
// full. It reports false, and keeps nothing, once the queue is closed.
func (q *Queue[T]) Put(v T) bool { return q.PutAll(v) }

// PutAll adds vs at the end, in order, as Put does, at once: a reader
// takes all of them or none.
func (q *Queue[T]) PutAll(vs ...T) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	var ready func()
	if q.n == 0 && len(vs) > 0 {
		ready = q.ready
	}
	for _, v := range vs {
		q.put(v)
	}
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
	if ready != nil {
		ready()
	}
	return true
}

// OnReady has fn called, on the putter's goroutine, each time values come
// to the queue when none waited (and at once if some wait now): a reader
// that waits on no goroutine of its own, woken when there is something to
// take (Take). fn must not block.
func (q *Queue[T]) OnReady(fn func()) {
	q.mu.Lock()
	q.ready = fn
	waiting := q.n > 0 && !q.closed
	q.mu.Unlock()
	if waiting {
		fn()
	}
}

// put adds v; q.mu is held.
func (q *Queue[T]) put(v T) {
	switch {
	case q.n < q.bound && len(q.buf) < q.bound && q.head == 0 && q.n == len(q.buf):
		q.buf = append(q.buf, v) // still growing
		q.n++
	case q.n < q.bound:
		if len(q.buf) < q.bound { // grown apart from the ring: make it whole
			q.buf = append(q.buf[:len(q.buf):len(q.buf)], make([]T, q.bound-len(q.buf))...)
		}
		q.buf[(q.head+q.n)%q.bound] = v
		q.n++
	default:
		q.buf[q.head] = v // the oldest goes
		q.head = (q.head + 1) % q.bound
		q.dropped.Add(1)
		if q.also != nil {
			q.also.Add(1)
		}
	}
}

// Take returns every value waiting, oldest first, and empties the queue.
func (q *Queue[T]) Take() []T {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == 0 {
		return nil
	}
	out := make([]T, q.n)
	for i := range out {
		out[i] = q.buf[(q.head+i)%len(q.buf)]
	}
	q.buf, q.head, q.n = nil, 0, 0 // an idle queue keeps no room
	return out
}

// Next takes the oldest value waiting; ok is false when none waits.
func (q *Queue[T]) Next() (v T, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == 0 {
		return v, false
	}
	var zero T
	v, q.buf[q.head] = q.buf[q.head], zero
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	if q.n == 0 {
		q.buf, q.head = nil, 0
	} else {
		select { // more wait: the next reader is woken too
		case q.signal <- struct{}{}:
		default:
		}
	}
	return v, true
}

// Len is how many values wait.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// Bound is the most values the queue holds.
func (q *Queue[T]) Bound() int { return q.bound }

// Dropped is how many values were dropped to make room.
func (q *Queue[T]) Dropped() uint64 { return q.dropped.Load() }

// Ready is signalled when values wait; then call Take or Next.
func (q *Queue[T]) Ready() <-chan struct{} { return q.signal }

// Done is closed when the queue is closed.
func (q *Queue[T]) Done() <-chan struct{} { return q.done }

// Close stops further Puts and closes Done; the values waiting may still
// be taken.
func (q *Queue[T]) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.done)
	}
}
