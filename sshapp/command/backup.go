package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mia-game/mia/store"
)

// Backups is what the backup command needs from storage. *store.Store
// implements it.
type Backups interface {
	// BackupFile is a consistent copy of the database, open for reading,
	// and its size; a *store.DiskError when the disk has no room for it.
	BackupFile(ctx context.Context) (io.ReadCloser, int64, error)
	// Backup writes a consistent copy of the database to w, straight
	// from the database (it holds a read transaction while it writes).
	Backup(ctx context.Context, w io.Writer) (int64, error)
	// Fault is the disk's failure of the store's writes while they
	// fail, nil while they are saved.
	Fault() *store.Fault
}

// Pacing of a backup: it is sent in chunks of backupChunk, the next one
// only while the client owes less than backupOwed, so that it never owes
// more than their sum (well under the session's bound, Limits.MaxOwed)
// however slowly it reads.
const (
	backupChunk = 32 << 10
	backupOwed  = 64 << 10
)

// backupCommand is for server admins.
var backupCommand = Command{
	Name:    "backup",
	Summary: "server admins: a consistent copy of the database on stdout, while the server runs (ssh … backup > mia.db)",
	Run:     runBackup,
}

func runBackup(_ context.Context, c *Call) int {
	if len(c.Args) != 0 {
		return c.Usage()
	}
	if !c.Admin {
		return c.Refuse("only server admins may take a backup")
	}
	if _, _, pty := c.Session.Pty(); pty {
		return c.Refuse("the backup is a binary file: run it without -t and send it to a file:  %s > mia.db", c.Hint("backup"))
	}
	if c.cfg.Backups == nil {
		return c.Refuse("backup is not available on this server")
	}
	// A large copy to a slow client takes longer than a command may: it
	// lasts as long as the connection.
	ctx := c.Session.Context()
	start := time.Now()
	if f := c.cfg.Backups.Fault(); f != nil {
		fmt.Fprintf(c.Stderr, "mia: note: %s: the store's writes have failed since %s, and tables pause until they are saved; this copy holds what was saved\n",
			f.Err.Reason(), f.Since.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	f, size, err := c.cfg.Backups.BackupFile(ctx)
	var de *store.DiskError
	if errors.As(err, &de) {
		// No room beside the database for the copy: it is sent straight
		// from the database, as slowly as the client takes it.
		fmt.Fprintf(c.Stderr, "mia: note: %s: no room for the copy beside the database, so it is sent straight from it\n", de.Reason())
		return c.streamBackup(ctx, start)
	}
	if err != nil {
		return c.fail("make the backup", err)
	}
	defer f.Close()
	n, err := c.pacedCopy(ctx, f)
	if err != nil || n != size {
		c.cfg.Log.Warn("backup not delivered", "key", c.Key, "bytes", n, "of", size, "err", err)
		return c.Refuse("the backup was cut short after %d of %d bytes", n, size)
	}
	c.cfg.Log.Info("backup taken", "key", c.Key, "person", c.Person.ID, "bytes", n,
		"took", time.Since(start).Round(time.Millisecond))
	return ExitOK
}

// streamBackup sends the copy straight from the database (Backups.Backup)
// through a pipe, paced as pacedCopy paces it.
func (c *Call) streamBackup(ctx context.Context, start time.Time) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	made := make(chan int64, 1)
	go func() {
		n, err := c.cfg.Backups.Backup(ctx, pw)
		made <- n
		pw.CloseWithError(err)
	}()
	n, err := c.pacedCopy(ctx, pr)
	cancel()
	pr.Close() // a copy cut short stops writing
	size := <-made
	if err != nil || n != size {
		c.cfg.Log.Warn("backup not delivered", "key", c.Key, "bytes", n, "of", size, "err", err)
		return c.Refuse("the backup was cut short after %d bytes", n)
	}
	c.cfg.Log.Info("backup taken, straight from the database", "key", c.Key, "person", c.Person.ID, "bytes", n,
		"took", time.Since(start).Round(time.Millisecond))
	return ExitOK
}

// pacedCopy copies r to the caller no faster than their client takes it:
// it waits while the client owes backupOwed bytes or more.
func (c *Call) pacedCopy(ctx context.Context, r io.Reader) (int64, error) {
	buf := make([]byte, backupChunk)
	var n int64
	for {
		for c.Session.Owed() >= backupOwed {
			select {
			case <-c.Session.Taken():
			case <-ctx.Done():
				return n, ctx.Err()
			}
		}
		k, rerr := r.Read(buf)
		if k > 0 {
			if _, err := c.Stdout.Write(buf[:k]); err != nil {
				return n, fmt.Errorf("send the backup: %w", err)
			}
			n += int64(k)
		}
		switch {
		case rerr == io.EOF:
			return n, nil
		case rerr != nil:
			return n, fmt.Errorf("read the backup: %w", rerr)
		}
	}
}
