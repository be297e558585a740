package store

import (
	"context"
	"errors"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// hang starts a write whose transaction waits until the returned func is
// called, as a commit on a disk that stopped answering: every other write
// waits behind it for bbolt's write lock.
func hang(t *testing.T, s *Store) (release func()) {
	t.Helper()
	in, out := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.update(context.Background(), func(*bolt.Tx) error {
			close(in)
			<-out
			return nil
		})
	}()
	<-in
	return func() {
		close(out)
		if err := <-done; err != nil {
			t.Errorf("the hanging write: %v", err)
		}
	}
}

func settledWithin(t *testing.T, se *StalledError) error {
	t.Helper()
	select {
	case <-se.Settled():
		return se.Outcome()
	case <-time.After(10 * time.Second):
		t.Fatal("the stalled write never ended")
		return nil
	}
}

// TestWriteStalls: a write whose ctx ends while it is under way returns a
// StalledError at once, and goes on: it is committed once the file
// answers, and its outcome says so.
func TestWriteStalls(t *testing.T) {
	s, _ := openTemp(t)
	in, out := make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-in
		cancel() // the caller gives up while the write is under way
	}()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		close(in)
		<-out // the commit does not come back
		return tx.Bucket(bucketBans).Put([]byte("fp"), []byte(`{}`))
	})
	var se *StalledError
	if !errors.As(err, &se) || !errors.Is(err, ErrStalled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("a write that hangs past its ctx: %v", err)
	}
	select {
	case <-se.Settled():
		t.Fatal("settled while the write still hangs")
	default:
	}
	close(out)
	if err := settledWithin(t, se); err != nil {
		t.Fatalf("outcome: %v, want committed", err)
	}
	if _, err := s.Banned(context.Background(), "fp"); err != nil {
		t.Fatalf("the stalled write is not in the file: %v", err)
	}
}

// TestWriteQueuedBehindAHang: writes waiting behind a commit that does not
// come back return when their ctx ends, and write nothing once it does
// come back.
func TestWriteQueuedBehindAHang(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	opts := ruleSets()[0]
	_, chunks := playGame(t, newRand(3), opts, 2, 4)
	gm, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, gm.ID, chunks[0], nil); err != nil {
		t.Fatal(err)
	}
	release := hang(t, s)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	bans, appends := make(chan error, 1), make(chan error, 1)
	go func() { bans <- s.Ban(short, Ban{Key: "fp"}) }()
	go func() { appends <- s.Append(short, gm.ID, chunks[1], nil) }()
	ban, appent := <-bans, <-appends
	release()
	for what, err := range map[string]error{"a ban": ban, "an append": appent} {
		// Stalled, waiting for the lock; or, on a machine so busy that
		// the call came after its ctx ended, refused at once.
		var se *StalledError
		if errors.As(err, &se) {
			err = settledWithin(t, se)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s given up before it began ended with %v", what, err)
		}
	}
	if _, err := s.Banned(ctx, "fp"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a ban given up before it began was written: %v", err)
	}
	// A ctx that ended before the call: nothing written, no StalledError.
	var se *StalledError
	if err := s.Ban(short, Ban{Key: "fp"}); errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a write with an ended ctx: %v", err)
	}
	// The game goes on where it was: the append given up is not in it.
	for _, c := range chunks[1:] {
		if err := s.Append(ctx, gm.ID, c, nil); err != nil {
			t.Fatalf("append after the hang: %v", err)
		}
	}
	_, evs, err := s.Game(ctx, gm.ID)
	if err != nil || len(evs) != len(flatten(chunks)) {
		t.Fatalf("%d events stored, want %d (%v)", len(evs), len(flatten(chunks)), err)
	}
}
