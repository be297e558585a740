package store

import (
	"context"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CommitLatency is a histogram of how long the store's writes took, from
// the call to the commit (fsync included, and the wait of a batch for its
// companions): Counts[i] writes took at most Bounds[i] (and more than the
// bound before it); Counts[len(Bounds)] took longer than the last bound.
type CommitLatency struct {
	Bounds []time.Duration
	Counts []uint64
	Count  uint64        // every write
	Sum    time.Duration // their total time
}

// latency counts commit times; safe for concurrent use.
type latency struct {
	bounds []time.Duration
	counts []atomic.Uint64 // len(bounds)+1
	sum    atomic.Int64    // nanoseconds
	n      atomic.Uint64
}

func newLatency() *latency {
	var bounds []time.Duration
	for d := 250 * time.Microsecond; d <= 4*time.Second; d *= 2 {
		bounds = append(bounds, d)
	}
	return &latency{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

func (l *latency) observe(d time.Duration) {
	i := 0
	for i < len(l.bounds) && d > l.bounds[i] {
		i++
	}
	l.counts[i].Add(1)
	l.sum.Add(int64(d))
	l.n.Add(1)
}

// CommitLatency reports how long the store's writes have taken since Open.
func (s *Store) CommitLatency() CommitLatency {
	l := s.lat
	out := CommitLatency{Bounds: append([]time.Duration(nil), l.bounds...), Counts: make([]uint64, len(l.counts))}
	for i := range l.counts {
		out.Counts[i] = l.counts[i].Load()
	}
	out.Count, out.Sum = l.n.Load(), time.Duration(l.sum.Load())
	return out
}

// update runs fn in a write transaction (bbolt's DB.Update) and counts
// its time; it returns when ctx ends (see write).
func (s *Store) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	return s.write(ctx, false, fn, nil)
}

// batch runs fn in a write transaction shared with other batch calls
// (bbolt's DB.Batch: one commit for many) and counts its time; it returns
// when ctx ends (see write).
func (s *Store) batch(ctx context.Context, fn func(*bolt.Tx) error) error {
	return s.write(ctx, true, fn, nil)
}
