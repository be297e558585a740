package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole file to w, as of one
// moment (bbolt's Tx.WriteTo in a read transaction), while the server
// goes on: appends are not held up, except that the file cannot grow its
// memory map until the copy ends. The copy opens with Open like the
// original. It returns the bytes written; a cancelled ctx stops it at the
// next write.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctxErr(ctx, "backup"); err != nil {
		return 0, err
	}
	var (
		n    int64
		werr error // the writer's own error: bbolt keeps only its text
	)
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(writerFunc(func(p []byte) (int, error) {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			k, err := w.Write(p)
			if err != nil && werr == nil {
				werr = err
			}
			return k, err
		}))
		return err
	})
	if cerr := ctx.Err(); err != nil && cerr != nil {
		return n, fmt.Errorf("backup %s: %w", s.path, cerr) // bbolt does not wrap it
	}
	if err != nil && werr != nil {
		return n, fmt.Errorf("backup %s: %w", s.path, werr)
	}
	if err != nil {
		return n, fmt.Errorf("backup %s: %w", s.path, err)
	}
	return n, nil
}

// writerFunc is a func as an io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// BackupFile makes a consistent copy of the file (Backup) into a
// temporary file beside it, unlinked at once, and returns it open for
// reading from its start, with its size; closing it frees its space. The
// read transaction lasts only as long as the local copy, so a slow reader
// of the copy never holds the database up.
//
// A disk with no room for the copy (or one that fails it) is a
// *DiskError: Backup, which needs no room, may then stream the copy
// straight from the database.
func (s *Store) BackupFile(ctx context.Context) (io.ReadCloser, int64, error) {
	f, err := os.CreateTemp(filepath.Dir(s.path), ".mia-backup-*")
	if err != nil {
		return nil, 0, fmt.Errorf("backup: %w", diskFault(err, nil))
	}
	// Unlinked while open: nothing is left behind whatever happens next.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("backup: %w", err)
	}
	n, err := s.Backup(ctx, f)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		return nil, 0, errors.Join(diskFault(err, nil), f.Close())
	}
	return f, n, nil
}
