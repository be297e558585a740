package lobby

import (
	"context"
	"errors"
	"time"
)

// Errors of a table whose storage does not answer.
var (
	// ErrPaused refuses a request while the table is paused: a write to
	// its storage has not answered within SaveTimeout.
	ErrPaused = NewError(Unavailable, "the table is paused until the server's storage answers again")
	// ErrUnsaved answers the request whose write paused the table: it
	// takes effect if the write is saved after all, which the table shows
	// when it resumes.
	ErrUnsaved = NewError(Unavailable, "storage not answering: the table pauses; this counts if it gets saved")
)

// PendingWrite is the error of a Storage write whose ctx ended while the
// write was still under way: storage cannot take it back, so it goes on.
// Settled is closed once it has ended; Outcome then reports how (nil: it
// was saved). store.StalledError is one.
type PendingWrite interface {
	error
	Settled() <-chan struct{}
	Outcome() error
}

// save runs write, one write to storage, with a ctx that ends after
// SaveTimeout. A write that has not ended by then (its error a
// PendingWrite) pauses the table until it has (see pause), and save
// returns how it ended: its caller goes on as after a slow write. While
// the table is paused, save refuses every write with ErrPaused.
func (t *Table) save(actx context.Context, write func(wctx context.Context) error) error {
	if t.paused {
		return ErrPaused
	}
	wctx, cancel := context.WithTimeout(actx, t.lobby.cfg.SaveTimeout)
	defer cancel()
	err := write(wctx)
	var pw PendingWrite
	if err == nil || !errors.As(err, &pw) {
		return err
	}
	return t.pause(actx, pw)
}

// pause keeps the table answering while pw goes on: the request that
// wrote it is answered ErrUnsaved, the turn clock stops, everyone at the
// table is told (TableInfo.Paused, a line in the chat), and the actor
// takes requests as usual, refusing all but watching and chat
// (doEvenPaused) with ErrPaused; timers wait. Once pw has ended the table
// resumes by itself: the turn clock starts afresh and a bot whose turn it
// is moves again (resumed). It returns pw's outcome, or ErrTableClosed
// when the table stops first.
func (t *Table) pause(actx context.Context, pw PendingWrite) error {
	t.lobby.log.Warn("a write did not answer in time: table paused", "table", t.name, "timeout", t.lobby.cfg.SaveTimeout, "err", pw)
	t.paused = true
	if t.stopTick != nil {
		t.stopTick()
		t.stopTick = nil
	}
	t.deadline = time.Time{}
	t.tickGen++ // a timer already under way finds its turn over
	t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: pausedNotice})
	t.changed(false)
	// Answered once the pause is published: a caller told ErrUnsaved
	// finds the table paused in its snapshots.
	switch r := t.current; {
	case r == nil:
	case r.said:
		r.answer(nil)
	default:
		r.answer(ErrUnsaved)
	}
	for {
		select {
		case <-pw.Settled():
			err := pw.Outcome()
			t.paused = false
			t.lobby.log.Info("storage answered: table resumed", "table", t.name, "saved", err == nil)
			t.chat.add(ChatLine{At: t.lobby.cfg.Clock.Now(), Text: resumedNotice})
			t.post(t.resumed)
			return err
		case r := <-t.reqs:
			t.run(actx, r)
		case <-t.wake:
			t.runPosted(actx)
		case <-t.quit:
			return ErrTableClosed
		}
	}
}

// The lines the table chat shows as the table pauses and resumes.
const (
	pausedNotice  = "the table is paused: the server's storage is not answering, and moves wait until it does"
	resumedNotice = "the server's storage answers again: play on"
)

// resumed runs after the request that paused the table has ended: the turn
// clock starts afresh for whoever's turn it is, and a bot moves again.
func (t *Table) resumed(context.Context) {
	if t.paused {
		return
	}
	t.botFor = -1
	t.changed(true)
}
