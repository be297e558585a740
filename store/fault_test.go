package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

// smallDisk mounts a tmpfs of size bytes and returns its folder, or
// skips the test saying why where mounting is not allowed (not root, a
// container without the right), unless MIA_TMPFS_TESTS=require (CI sets
// it), where that fails the test.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Getenv("MIA_TMPFS_TESTS") == "require" {
			t.Fatalf("MIA_TMPFS_TESTS=require, but a tmpfs cannot be mounted: %v: %s", err, out)
		}
		t.Skipf("a tmpfs cannot be mounted here (run as root, or where mount is allowed): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file into dir until the disk is full, and returns it.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill the disk: %v", err)
			}
			return path
		}
	}
}

// TestFullDisk: on a real file system that fills up (a small tmpfs), a
// write the disk fails is a *DiskError saying the disk is full, Fault
// tells it, and nothing of the write is kept; once there is room again
// the same write is saved, Fault clears, and the file is sound and holds
// every write that was saved, after a reopen too.
func TestFullDisk(t *testing.T) {
	dir := smallDisk(t, 1<<20)
	s, err := Open(filepath.Join(dir, "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	ctx := context.Background()
	ann, err := s.SetName(ctx, "SHA256:ann", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, TableRecord{Name: "full", Host: ann.ID, Rules: engine.DefaultOptions(), Seats: 2}); err != nil {
		t.Fatal(err)
	}
	filler := fillDisk(t, dir)
	line := func(i int) ChatRecord {
		return ChatRecord{At: time.Unix(int64(i), 0), Person: ann.ID, Text: fmt.Sprintf("%04d %s", i, strings.Repeat("x", 400))}
	}
	saved := 0
	var failed error
	for i := range 10000 {
		if failed = s.AddChat(ctx, "full", line(i), 100000); failed != nil {
			break
		}
		saved++
	}
	var de *DiskError
	if !errors.As(failed, &de) || !errors.Is(failed, ErrDisk) || !errors.Is(failed, syscall.ENOSPC) {
		t.Fatalf("a write on a full disk, after %d saved: %v, want a DiskError of ENOSPC", saved, failed)
	}
	if de.Reason() != "the server's disk is full" {
		t.Fatalf("the reason: %q", de.Reason())
	}
	f := s.Fault()
	if f == nil || f.Err.Reason() != de.Reason() {
		t.Fatalf("Fault while writes fail: %+v", f)
	}
	// Reads go on, and nothing of the failed write was kept.
	lines, err := s.Chat(ctx, "full")
	if err != nil || len(lines) != saved {
		t.Fatalf("read %d lines (%v), %d saved", len(lines), err, saved)
	}
	// A backup has no room for its copy beside the file, and says so;
	// sent straight from the database it needs none.
	if _, _, err := s.BackupFile(ctx); !errors.Is(err, ErrDisk) {
		t.Fatalf("a backup's copy on a full disk: %v, want a DiskError", err)
	}
	var copied bytes.Buffer
	if _, err := s.Backup(ctx, &copied); err != nil || copied.Len() == 0 {
		t.Fatalf("a backup sent straight on a full disk: %d bytes, %v", copied.Len(), err)
	}
	// Tried again on the full disk: the same answer, and no harm.
	if err := s.AddChat(ctx, "full", line(saved), 100000); !errors.Is(err, ErrDisk) {
		t.Fatalf("tried again on the full disk: %v", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := s.AddChat(ctx, "full", line(saved), 100000); err != nil {
		t.Fatalf("the same write with room again: %v", err)
	}
	if f := s.Fault(); f != nil {
		t.Fatalf("Fault once a write is saved: %+v", f)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("check: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(filepath.Join(dir, "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	lines, err = s.Chat(ctx, "full")
	if err != nil || len(lines) != saved+1 {
		t.Fatalf("after a reopen: %d lines (%v), want %d", len(lines), err, saved+1)
	}
	for i, l := range lines {
		if l.Text != line(i).Text {
			t.Fatalf("line %d is %.10q, want %.10q", i, l.Text, line(i).Text)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("check after a reopen: %v", err)
	}
}
