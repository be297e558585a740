package botline

import (
	"bufio"
	"errors"
	"io"
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

// Output limits of a bot session. Past botSoftLimit bytes owed to the
// bot, no more game lines are made (the events wait in the table's
// snapshot, nothing is lost); past botHardLimit, ERROR lines are dropped.
// A bot that stops reading therefore owes little more than botHardLimit
// until the snapshot moves on, and never slows its table; the session's
// own bound (Limits.MaxOwed) drops it if it never reads again.
const (
	botSoftLimit = 16 << 10
	botHardLimit = 64 << 10
)

// Output is where a bot's lines go: a writer that never blocks (package
// outbox), which says how much the bot owes.
type Output interface {
	io.Writer
	// Owed is the number of bytes written and not yet taken by the bot.
	Owed() int
	// Taken gets a token after the bot took some of what it owed.
	Taken() <-chan struct{}
}

// botWriter sends a bot its lines through the session's Output, whose
// goroutine alone waits on a bot that stops reading (a full SSH window):
// the session's loop, which reads the bot's answers and the table, never
// waits on it.
type botWriter struct {
	out     Output
	drained <-chan struct{} // a token after the bot took some of its lines
}

func newBotWriter(out Output) *botWriter {
	return &botWriter{out: out, drained: out.Taken()}
}

// backlog is the number of bytes waiting or being written.
func (bw *botWriter) backlog() int { return bw.out.Owed() }

// send queues lines. Unless must is set, they are dropped when the backlog
// is over botHardLimit; it reports whether they were queued.
func (bw *botWriter) send(must bool, lines ...string) bool {
	if !must && bw.out.Owed() > botHardLimit {
		return false
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	_, err := bw.out.Write(b)
	return err == nil
}
