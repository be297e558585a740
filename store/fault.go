package store

import (
	"errors"
	"syscall"
	"time"
)

// ErrDisk is matched by a *DiskError: the disk failed a write.
var ErrDisk = errors.New("the disk failed a write to the data file")

// DiskError is a write the disk failed: the file system is full,
// read-only or reports an I/O error (the operating system's error is in
// Err). Nothing of the write was kept: bbolt rolls a failed commit back,
// so the same write may be tried again once the disk takes it. It
// matches ErrDisk and Err.
type DiskError struct {
	Err error
}

func (e *DiskError) Error() string { return e.Reason() + ": " + e.Err.Error() }

// Unwrap gives ErrDisk and the operating system's error.
func (e *DiskError) Unwrap() []error { return []error{ErrDisk, e.Err} }

// Reason is what is wrong, in words for the people at a table and for
// the operator.
func (e *DiskError) Reason() string {
	switch {
	case errors.Is(e.Err, syscall.ENOSPC), errors.Is(e.Err, syscall.EDQUOT), errors.Is(e.Err, syscall.EFBIG):
		return "the server's disk is full"
	case errors.Is(e.Err, syscall.EROFS):
		return "the server's disk is read-only"
	case errors.Is(e.Err, syscall.EACCES), errors.Is(e.Err, syscall.EPERM):
		return "the server may not write its data file"
	case errors.Is(e.Err, syscall.EIO):
		return "the server's disk reports an I/O error"
	}
	return "the server's disk failed a write"
}

// diskFault is err, the error of a write transaction, as a *DiskError
// when the disk failed the commit (an error of the operating system's, a
// syscall.Errno, that the transaction's own function did not return);
// else err as it is.
func diskFault(err, fnErr error) error {
	var errno syscall.Errno
	if err == nil || err == fnErr || !errors.As(err, &errno) {
		return err
	}
	return &DiskError{Err: err}
}

// Fault is the disk's failure of the last write, and since when writes
// fail, while they do; nil once a write is saved again. /metrics and the
// backup command tell it.
type Fault struct {
	Err   *DiskError
	Since time.Time
}

// Fault reports whether writes fail now: the last write failed on the
// disk (and none was saved since).
func (s *Store) Fault() *Fault { return s.fault.Load() }

// noteWrite keeps how the last write ended, for Fault.
func (s *Store) noteWrite(err error) {
	var de *DiskError
	switch {
	case err == nil:
		if s.fault.Load() != nil {
			s.fault.Store(nil)
		}
	case errors.As(err, &de):
		if old := s.fault.Load(); old == nil {
			s.fault.Store(&Fault{Err: de, Since: time.Now()})
		} else if old.Err.Reason() != de.Reason() {
			s.fault.Store(&Fault{Err: de, Since: old.Since})
		}
	}
}
