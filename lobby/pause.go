package lobby

import (
	"context"
	"errors"
	"time"

	"github.com/mia-game/mia/lobby/words"
)

// Errors of a table whose storage does not save.
var (
	// ErrPaused refuses a request while the table is paused: a write to
	// its storage has not been saved (it did not answer within
	// SaveTimeout, or the disk failed it).
	ErrPaused = NewError(Unavailable, "the table is paused until the server's storage saves again")
	// ErrUnsaved answers the request whose write paused the table (an
	// *UnsavedError says why): it takes effect if the write is saved after
	// all, which the table shows when it resumes.
	ErrUnsaved = NewError(Unavailable, "storage not answering: the table pauses; this counts if it gets saved")
	// ErrStorageFailing is matched by a *StorageFault.
	ErrStorageFailing = NewError(Unavailable, "the server's storage is failing")
)

// UnsavedError is ErrUnsaved with why the write was not saved: storage
// did not answer in time, or its disk failed (a *StorageFault). It
// matches ErrUnsaved, and the fault when there is one.
type UnsavedError struct {
	Fault *StorageFault // nil: storage did not answer in time
}

func (e *UnsavedError) Error() string {
	if e.Fault == nil {
		return ErrUnsaved.Error()
	}
	return e.Fault.Reason + ": the table pauses; this counts once it is saved"
}

// Kind is Unavailable.
func (e *UnsavedError) Kind() ErrorKind { return Unavailable }

// Is matches ErrUnsaved.
func (e *UnsavedError) Is(target error) bool { return target == ErrUnsaved }

// Unwrap is the fault, if any.
func (e *UnsavedError) Unwrap() error {
	if e.Fault == nil {
		return nil
	}
	return e.Fault
}

// StorageFault is the error of a write that storage could not make
// because its disk failed it: full, read-only, or an I/O error. Storage
// returns it (store/lobbystore makes it of the store's disk errors); a
// table pauses on it as on a write that does not answer, and tries the
// write again until it is saved. It matches ErrStorageFailing.
type StorageFault struct {
	// Reason is what is wrong, in words for everyone at the table and
	// for the operator: "the server's disk is full".
	Reason string
	Err    error
}

func (e *StorageFault) Error() string { return e.Reason }

// Kind is Unavailable.
func (e *StorageFault) Kind() ErrorKind { return Unavailable }

// Is matches ErrStorageFailing.
func (e *StorageFault) Is(target error) bool { return target == ErrStorageFailing }

// Unwrap is the storage's own error.
func (e *StorageFault) Unwrap() error { return e.Err }

// PendingWrite is the error of a Storage write whose ctx ended while the
// write was still under way: storage cannot take it back, so it goes on.
// Settled is closed once it has ended; Outcome then reports how (nil: it
// was saved). store.StalledError is one.
type PendingWrite interface {
	error
	Settled() <-chan struct{}
	Outcome() error
}

// PendingGame is the PendingWrite of Storage.CreateGame: once the write
// has been saved, GameID is the new game's ID ("" if it was not saved).
type PendingGame interface {
	PendingWrite
	GameID() string
}

// RetryLimit is the longest wait between two tries of a write that the
// disk failed, while the table is paused: the first comes after a
// second, each next after twice as long, up to this.
const RetryLimit = 10 * time.Second

// pause is the state of a paused table: a write not saved yet, and what
// the request that made it had left to do once it is (then).
type pause struct {
	write   func(wctx context.Context) error // to try again when the disk failed it
	then    func(actx context.Context) error
	pending PendingWrite  // the write under way, nil while it waits for a retry
	fault   *StorageFault // the disk's last failure of it; nil if none
	tries   int
}

// settled is closed once the write under way has ended; nil (never)
// while the pause waits to try it again.
func (p *pause) settled() <-chan struct{} {
	if p.pending == nil {
		return nil
	}
	return p.pending.Settled()
}

// reason is why the table is paused, in words.
func (p *pause) reason() string {
	if p.fault != nil {
		return p.fault.Reason
	}
	return words.Stalled
}

// save makes one write to storage, with a ctx that ends after
// SaveTimeout, then runs then (if not nil): what the request has left to
// do once the write is saved, which is given its error.
//
// A write that is not saved because storage did not answer in time (its
// error a PendingWrite) or because the disk failed it (a *StorageFault)
// pauses the table (startPause) and save returns an *UnsavedError at
// once: the request answers its caller, and then waits in the pause. The
// table resumes by itself once storage has saved the write (settle; a
// write the disk failed is tried again, retry), and then runs then;
// if storage says for good that it did not save it, then never runs.
// While the table is paused, save refuses every write with ErrPaused.
func (t *Table) save(actx context.Context, write func(wctx context.Context) error, then func(actx context.Context) error) error {
	if t.pause != nil {
		return ErrPaused
	}
	err := t.write(actx, write)
	if err == nil {
		if then == nil {
			return nil
		}
		return then(actx)
	}
	p := &pause{write: write, then: then}
	switch {
	case errors.As(err, &p.pending):
	case errors.As(err, &p.fault):
		t.retryLater(p)
	default:
		return err
	}
	t.startPause(p)
	return &UnsavedError{Fault: p.fault}
}

// write runs one write with a ctx that ends after SaveTimeout.
func (t *Table) write(actx context.Context, write func(wctx context.Context) error) error {
	wctx, cancel := context.WithTimeout(actx, t.lobby.cfg.SaveTimeout)
	defer cancel()
	return write(wctx)
}

// startPause pauses the table on p: the turn clock stops, everyone at the
// table is told (TableInfo.Paused and PausedFor, a line in the chat), and
// the loop refuses all but watching and chat (doEvenPaused) with ErrPaused
// and holds the timers that come due (fire) until the table resumes.
func (t *Table) startPause(p *pause) {
	t.pause = p
	t.lobby.log.Warn("table paused: a write was not saved", "table", t.name, "why", p.reason(), "timeout", t.lobby.cfg.SaveTimeout)
	t.cancelTimer(turnClock)
	t.deadline = time.Time{}
	t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: words.PausedLine(p.reason())})
	t.changed(false)
}

// retryLater tries p's write again after a while (retry): a second after
// the first failure, twice as long after each next, at most RetryLimit.
func (t *Table) retryLater(p *pause) {
	d := min(time.Second<<min(p.tries, 8), RetryLimit)
	p.tries++
	t.after(retryWrite, d, t.retry)
}

// retry tries the paused write again: saved, the table resumes; under
// way again, the pause waits for it; failed by the disk again, it is
// tried later; refused for good, the table resumes without it.
func (t *Table) retry(actx context.Context) {
	p := t.pause
	err := t.write(actx, p.write)
	switch {
	case err == nil:
		t.unpause(actx, nil)
	case errors.As(err, &p.pending):
	case errors.As(err, &p.fault):
		t.retryLater(p)
	default:
		t.unpause(actx, err)
	}
}

// settle follows the paused write under way once it has ended.
func (t *Table) settle(actx context.Context) {
	p := t.pause
	err := p.pending.Outcome()
	p.pending = nil
	if errors.As(err, &p.fault) {
		t.retryLater(p)
		t.changed(false) // the table says why it waits now
		return
	}
	t.unpause(actx, err)
}

// unpause ends the pause once the paused write has ended: saved (err nil),
// the request's then runs; not saved, for good (err), it never does. The
// timers held meanwhile run, once each, and the turn clock starts afresh
// for whoever's turn it is.
func (t *Table) unpause(actx context.Context, err error) {
	p := t.pause
	t.pause = nil
	t.cancelTimer(retryWrite)
	t.lobby.log.Info("storage answered: table resumed", "table", t.name, "saved", err == nil, "err", err)
	t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: resumedNotice})
	if err == nil && p.then != nil {
		if err := p.then(actx); err != nil {
			t.lobby.log.Error("what a paused request had left to do failed", "table", t.name, "err", err)
		}
	}
	if t.pause != nil || t.closed { // then paused the table again, or closed it
		return
	}
	t.botTried = -1 // a bot whose move was not saved moves again
	t.runHeld(actx)
	if !t.running() && t.timers[nextGame] == nil {
		t.scheduleRestart() // a table of bots whose next game was not saved
	}
	t.changed(true)
}

// The lines the table chat shows as the table pauses and resumes.
const (
	pausedNotice  = words.PausedStalledLine
	resumedNotice = words.ResumedLine
)

// PausedWords says why a paused table waits, and that moves wait, for
// every door (words.Paused; "" while it plays).
func (i TableInfo) PausedWords() string {
	if !i.Paused {
		return ""
	}
	return words.Paused(i.PausedFor)
}

// late reports whether the actor runs what a paused request had left to
// do (save's then, once storage saved its write), not the request itself:
// nobody waits for its answer.
func (t *Table) late() bool { return !t.inRequest }
