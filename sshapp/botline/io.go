package botline

import (
	"bufio"
	"errors"
	"io"
	"sync"
	"time"
)

// maxBotLine is the longest line a bot may send, without its "\n".
const maxBotLine = 1024

// botLineReader reads a bot's lines with a bounded buffer: a longer line
// is discarded up to its newline, never held whole.
type botLineReader struct {
	br *bufio.Reader
}

func newBotLineReader(r io.Reader) *botLineReader {
	return &botLineReader{br: bufio.NewReaderSize(r, 2*maxBotLine)}
}

// next returns the next line without its "\n" (a copy), or tooLong for a
// line over maxBotLine bytes (reported once, whatever its length). A last
// line without "\n" at the end of input is returned too; then err is
// io.EOF or the read error.
func (lr *botLineReader) next() (line []byte, tooLong bool, err error) {
	long := false
	for {
		frag, err := lr.br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = true // drop what is buffered and read on to the newline
			continue
		case err != nil:
			if long || len(frag) > maxBotLine {
				return nil, true, err
			}
			if len(frag) == 0 {
				return nil, false, err
			}
			return append([]byte(nil), frag...), false, nil
		}
		frag = frag[:len(frag)-1]
		if long || len(trimCR(frag)) > maxBotLine {
			return nil, true, nil
		}
		return append([]byte(nil), frag...), false, nil
	}
}

// Output limits of a bot session. Past botSoftLimit bytes waiting to be
// written, no more game lines are made (the events wait in the table's
// snapshot, nothing is lost); past botHardLimit, ERROR lines are dropped.
// A bot that stops reading therefore holds at most about botHardLimit
// bytes of the server's memory, and never slows its table.
const (
	botSoftLimit = 16 << 10
	botHardLimit = 64 << 10
)

// botWriter sends a bot its lines from its own goroutine, so that a bot
// that stops reading (a full SSH window) blocks only that goroutine: the
// session's loop, which reads the bot's answers and the table, never
// waits on it.
type botWriter struct {
	w io.Writer

	mu       sync.Mutex
	buf      []byte // lines not yet handed to w
	inflight int    // bytes in the Write under way
	closed   bool
	failed   bool // a Write failed: the bot is gone

	wake    chan struct{} // one token while buf has lines
	drained chan struct{} // one token when the backlog fell under botSoftLimit
	done    chan struct{} // closed when the goroutine ends
}

func newBotWriter(w io.Writer) *botWriter {
	bw := &botWriter{w: w, wake: make(chan struct{}, 1), drained: make(chan struct{}, 1), done: make(chan struct{})}
	go bw.run()
	return bw
}

func (bw *botWriter) run() {
	defer close(bw.done)
	var out []byte
	for {
		bw.mu.Lock()
		for len(bw.buf) == 0 && !bw.closed {
			bw.mu.Unlock()
			<-bw.wake
			bw.mu.Lock()
		}
		if len(bw.buf) == 0 { // closed and flushed
			bw.mu.Unlock()
			return
		}
		out, bw.buf = bw.buf, out[:0]
		bw.inflight = len(out)
		bw.mu.Unlock()

		_, err := bw.w.Write(out)

		bw.mu.Lock()
		bw.inflight = 0
		if err != nil {
			bw.failed, bw.buf = true, nil
		}
		low := len(bw.buf) < botSoftLimit
		failed := bw.failed
		bw.mu.Unlock()
		if low {
			signal(bw.drained)
		}
		if failed {
			return
		}
	}
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// backlog is the number of bytes waiting or being written.
func (bw *botWriter) backlog() int {
	bw.mu.Lock()
	defer bw.mu.Unlock()
	return len(bw.buf) + bw.inflight
}

// send queues lines. Unless must is set, they are dropped when the backlog
// is over botHardLimit; it reports whether they were queued.
func (bw *botWriter) send(must bool, lines ...string) bool {
	bw.mu.Lock()
	if bw.closed || bw.failed || (!must && len(bw.buf)+bw.inflight > botHardLimit) {
		bw.mu.Unlock()
		return false
	}
	for _, l := range lines {
		bw.buf = append(bw.buf, l...)
		bw.buf = append(bw.buf, '\n')
	}
	bw.mu.Unlock()
	signal(bw.wake)
	return true
}

// close flushes what is queued, waiting at most grace for a bot that does
// not read.
func (bw *botWriter) close(grace time.Duration) {
	bw.mu.Lock()
	bw.closed = true
	bw.mu.Unlock()
	signal(bw.wake)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-bw.done:
	case <-t.C:
	}
}
