package command

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mia-game/mia/store"
)

// slowClient is a session whose client takes its output a little at a
// time, as a slow link does.
type slowClient struct {
	Session // only Owed, Taken and Write are used

	mu      sync.Mutex
	owed    []byte
	got     bytes.Buffer
	maxOwed int
	taken   chan struct{}
}

func (s *slowClient) Owed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.owed)
}

func (s *slowClient) Taken() <-chan struct{} { return s.taken }

func (s *slowClient) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owed = append(s.owed, p...)
	s.maxOwed = max(s.maxOwed, len(s.owed))
	return len(p), nil
}

// read takes up to n bytes of what is owed.
func (s *slowClient) read(n int) bool {
	s.mu.Lock()
	n = min(n, len(s.owed))
	s.got.Write(s.owed[:n])
	s.owed = s.owed[n:]
	s.mu.Unlock()
	select {
	case s.taken <- struct{}{}:
	default:
	}
	return n > 0
}

// A backup goes to a slow client whole, and the client never owes more
// than a chunk past backupOwed.
func TestPacedCopy(t *testing.T) {
	data := make([]byte, 1<<20+123)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	sc := &slowClient{taken: make(chan struct{}, 1)}
	c := &Call{Session: sc, Stdout: sc}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sc.got.Len() < len(data) {
			if !sc.read(8 << 10) {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	n, err := c.pacedCopy(context.Background(), bytes.NewReader(data))
	if err != nil || n != int64(len(data)) {
		t.Fatalf("pacedCopy = %d, %v; want %d", n, err, len(data))
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the client never got it all")
	}
	if !bytes.Equal(sc.got.Bytes(), data) {
		t.Error("the client got other bytes")
	}
	if sc.maxOwed > backupOwed+backupChunk {
		t.Errorf("the client owed up to %d bytes, want at most %d", sc.maxOwed, backupOwed+backupChunk)
	}

	// A client that never reads: the copy waits, and stops with ctx.
	stalled := &slowClient{taken: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	n, err = (&Call{Session: stalled, Stdout: stalled}).pacedCopy(ctx, bytes.NewReader(data))
	if err == nil || n > backupOwed+backupChunk {
		t.Errorf("to a stalled client: %d bytes, %v", n, err)
	}
}

// fullDisk is a store on a full disk: writes fail (Fault), and there is
// no room for a backup's copy beside the database.
type fullDisk struct{ *store.Store }

func (fullDisk) BackupFile(context.Context) (io.ReadCloser, int64, error) {
	return nil, 0, &store.DiskError{Err: syscall.ENOSPC}
}

func (fullDisk) Fault() *store.Fault {
	return &store.Fault{Err: &store.DiskError{Err: syscall.ENOSPC}, Since: time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC)}
}

// TestBackupOnAFullDisk: on a full disk the backup says what is wrong,
// and sends the copy all the same, straight from the database.
func TestBackupOnAFullDisk(t *testing.T) {
	t.Parallel()
	var st fullDisk
	h := newHarness(t, func(c *Config) {
		st.Store = c.Backups.(*store.Store)
		c.Backups = st
	})
	root := h.admin("root")
	var want bytes.Buffer
	if _, err := h.st.Backup(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	r := h.run(root, "backup")
	r.expect(t, ExitOK, nil, []string{
		"the server's disk is full: the store's writes have failed since 2026-11-28 11:00:00 UTC",
		"the server's disk is full: no room for the copy beside the database, so it is sent straight from it",
	})
	if r.stdout != want.String() {
		t.Fatalf("the copy sent straight: %d bytes, want %d", len(r.stdout), want.Len())
	}
	if strings.Contains(r.stderr, "something went wrong") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}
