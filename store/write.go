package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrStalled: the caller's ctx ended while its write was under way. bbolt
// cannot take back a write that has begun (a commit waiting on a disk
// that does not answer), so it goes on without the caller; the error is a
// *StalledError, which tells how it ended.
var ErrStalled = errors.New("the database did not answer in time")

// StalledError is the error of a write whose ctx ended before the write
// did. It matches ErrStalled and the ctx's error (context.DeadlineExceeded
// or context.Canceled). The write goes on: Settled is closed once it has
// ended, and Outcome then reports how (nil: committed).
type StalledError struct {
	cause   error
	settled chan struct{}
	outcome error // set before settled is closed
}

func (e *StalledError) Error() string {
	return fmt.Sprintf("%v (%v); the write goes on", ErrStalled, e.cause)
}

// Unwrap gives ErrStalled and the ctx's error.
func (e *StalledError) Unwrap() []error { return []error{ErrStalled, e.cause} }

// Settled is closed once the write has ended.
func (e *StalledError) Settled() <-chan struct{} { return e.settled }

// Outcome waits for the write to end and reports how: nil if it was
// committed.
func (e *StalledError) Outcome() error {
	<-e.settled
	return e.outcome
}

// StalledGame is the StalledError of a CreateGame: once the write has
// been saved, GameID is the new game's ID, so that the table that made
// it begins it all the same.
type StalledGame struct {
	*StalledError
	game *Game // set by the write before it settles
}

// Unwrap gives the StalledError.
func (e *StalledGame) Unwrap() error { return e.StalledError }

// GameID waits for the write to end and returns the game's ID, or "" if
// it was not saved.
func (e *StalledGame) GameID() string {
	if e.Outcome() != nil {
		return ""
	}
	return e.game.ID
}

// write runs fn in a write transaction, shared with other batch calls
// when batch is set (bbolt's DB.Batch: one commit for many; fn may then
// run more than once), then after, if not nil, which is given the
// transaction's error and returns the write's (what a write does once it
// has committed, or reads from what fn found, goes there); it counts the
// time taken (CommitLatency).
//
// A commit the disk fails (full, read-only, an I/O error) returns a
// *DiskError, and Fault tells it until a write is saved again.
//
// It watches ctx. A transaction that begins after ctx ended (it waited
// for the write lock behind a commit that does not come back) writes
// nothing and returns ctx's error. When ctx ends first, the caller stops
// waiting: the write goes on, after included, on a goroutine of its own,
// and the caller gets a *StalledError.
func (s *Store) write(ctx context.Context, batch bool, fn func(*bolt.Tx) error, after func(error) error) error {
	run := func() error {
		start := time.Now()
		do := s.db.Update
		if batch {
			do = s.db.Batch
		}
		var fnErr error
		err := do(func(tx *bolt.Tx) error {
			if fnErr = ctx.Err(); fnErr != nil {
				return fnErr
			}
			fnErr = fn(tx)
			return fnErr
		})
		err = diskFault(err, fnErr)
		s.noteWrite(err)
		s.lat.observe(time.Since(start))
		if after != nil {
			err = after(err)
		}
		return err
	}
	if ctx.Done() == nil { // a ctx that never ends: nothing to watch
		return run()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	stalled := &StalledError{settled: make(chan struct{})}
	go func() {
		stalled.outcome = run()
		close(stalled.settled)
	}()
	select {
	case <-stalled.settled:
		return stalled.outcome
	case <-ctx.Done():
		stalled.cause = ctx.Err()
		return stalled
	}
}
