package plain

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// MaxLine is the longest line the door reads, in characters; a longer
// one is answered with its length, and nothing else happens.
const MaxLine = 1024

// editorMax is the longest line the line editor (golang.org/x/term)
// keeps: what is typed past it is dropped, so a line of this length may
// have been longer.
const editorMax = 4096

// holdFor is how long lines wait while a line is half typed: what happens
// meanwhile is said once it is sent (or cleared), or after this long
// anyway, above it.
const holdFor = 5 * time.Second

// line is one line typed, or the end of the input.
type line struct {
	text    string
	tooLong int  // the length of a line too long to read, in characters, else 0
	atLeast bool // tooLong is all that was kept of a line that may have been longer
	end     bool
}

// input is the person's side: the lines they type (on lines) and the
// lines said to them (say).
type input struct {
	lines chan line
	// With a terminal: the line editor, through which every line is
	// written (it keeps what is typed below what it writes), and whether
	// a line is half typed.
	term    *term.Terminal
	typing  *atomic.Bool
	cleared chan struct{} // a token when a half-typed line is erased
	// Without one: the lines as they come (a line read in part, and
	// the buffer reads go to), and where the door writes.
	raw     io.Reader
	pending []byte
	chunk   [512]byte
	w       io.Writer
}

func newInput(rw io.ReadWriter, terminal bool) *input {
	in := &input{lines: make(chan line), w: rw}
	if terminal {
		in.typing, in.cleared = new(atomic.Bool), make(chan struct{}, 1)
		// No prompt: a line written while nothing is typed goes out as
		// it is, with nothing to move aside (term.Terminal.Write).
		in.term = term.NewTerminal(struct {
			io.Reader
			io.Writer
		}{&typingReader{r: rw, typing: in.typing, cleared: in.cleared}, keepLine{rw}}, "")
		in.w = in.term
		return in
	}
	in.raw = rw
	return in
}

// read sends the lines typed until the input ends or stop closes.
func (in *input) read(stop <-chan struct{}) {
	next := in.rawNext
	if in.term != nil {
		next = in.termLine
	}
	for {
		l := next()
		select {
		case in.lines <- l:
		case <-stop:
			return
		}
		if l.end {
			return
		}
	}
}

// termLine reads a line from the line editor: ctrl+d on an empty line,
// ctrl+c and the end of the input end it.
func (in *input) termLine() line {
	s, err := in.term.ReadLine()
	if err != nil && !errors.Is(err, term.ErrPasteIndicator) { // a pasted line is a line
		return line{end: true}
	}
	if n := utf8.RuneCountInString(s); n > MaxLine {
		return line{tooLong: n, atLeast: n >= editorMax}
	}
	return line{text: s}
}

// rawNext reads the next line without a terminal, keeping at most
// MaxLine characters of it: a longer one is read to its end, its
// characters counted (an invalid byte is one), and dropped.
func (in *input) rawNext() line {
	long, dropped := 0, false
	for {
		if i := bytes.IndexByte(in.pending, '\n'); i >= 0 {
			l := bytes.TrimSuffix(in.pending[:i], []byte("\r"))
			in.pending = in.pending[i+1:]
			if n := long + utf8.RuneCount(l); dropped || n > MaxLine {
				return line{tooLong: n}
			}
			return line{text: string(l)}
		}
		if len(in.pending) > utf8.UTFMax*MaxLine {
			cut := len(in.pending) // a rune cut in two stays, to be counted whole
			for k := 1; k < utf8.UTFMax && k <= len(in.pending); k++ {
				if utf8.RuneStart(in.pending[len(in.pending)-k]) {
					if !utf8.FullRune(in.pending[len(in.pending)-k:]) {
						cut = len(in.pending) - k
					}
					break
				}
			}
			long += utf8.RuneCount(in.pending[:cut])
			in.pending, dropped = append(in.pending[:0], in.pending[cut:]...), true
		}
		n, err := in.raw.Read(in.chunk[:])
		in.pending = append(in.pending, in.chunk[:n]...)
		if err != nil && n == 0 {
			if rest := strings.TrimSpace(string(in.pending)); rest != "" && long == 0 {
				in.pending = nil
				return line{text: rest}
			}
			return line{end: true}
		}
	}
}

// typingReader is the terminal's input as the line editor reads it,
// noting whether a line is half typed: the characters typed since the
// last end of line, less those erased with backspace (ctrl+u, ctrl+c and
// an end of line start afresh; escape sequences, the arrows, count
// nothing). A line recalled from the history counts nothing either: what
// is said meanwhile is written below it (keepLine).
type typingReader struct {
	r       io.Reader
	typing  *atomic.Bool
	cleared chan<- struct{} // told when a half-typed line is erased (nil: not told)
	runes   int             // typed on the line, as far as can be told
	esc     int             // 1 after ESC, 2 inside a CSI or SS3 sequence
}

func (t *typingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	for _, c := range p[:n] {
		switch {
		case t.esc == 1 && (c == '[' || c == 'O'):
			t.esc = 2
		case t.esc == 1:
			t.esc = 0 // alt and a key
		case t.esc == 2:
			if c >= 0x40 && c <= 0x7e {
				t.esc = 0
			}
		case c == 0x1b:
			t.esc = 1
		case c == '\r' || c == '\n' || c == 0x15 || c == 0x03:
			t.runes = 0
		case c == 0x7f || c == 0x08:
			t.runes = max(0, t.runes-1)
		case c >= 0x20 && (c < 0x80 || c >= 0xc0): // a character's first byte
			t.runes++
		}
	}
	if n > 0 {
		if was := t.typing.Swap(t.runes > 0); was && t.runes == 0 && t.cleared != nil {
			select {
			case t.cleared <- struct{}{}:
			default:
			}
		}
	}
	return n, err
}

// Typing reports whether a line is half typed (never without a
// terminal, where a line comes whole).
func (in *input) Typing() bool { return in.typing != nil && in.typing.Load() }

// say writes lines, each ended; on a terminal below nothing typed, or
// moved above what is typed (the line editor's way).
func (in *input) say(lines []string) {
	if len(lines) == 0 {
		return
	}
	_, _ = io.WriteString(in.w, strings.Join(lines, "\n")+"\n")
}

// keepLine is the terminal's output as the line editor writes it, but
// for one thing: before it writes a line while one is half typed, the
// editor moves back over that line and erases it (term.Terminal.Write:
// ESC[nD ESC[K, one write), then types it again below; here that line is
// left as it is and the new line goes below it, with no cursor movement.
// (The editor's own keys, backspace and the arrows, move the cursor as
// any shell's do.)
type keepLine struct{ w io.Writer }

func (k keepLine) Write(p []byte) (int, error) {
	if erasesLine(p) {
		if _, err := io.WriteString(k.w, "\r\n"); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return k.w.Write(p)
}

// erasesLine reports whether p is exactly the line editor's erasing of
// a line half typed on one row: ESC [ (a count) D, then ESC [ K.
func erasesLine(p []byte) bool {
	rest, ok := bytes.CutPrefix(p, []byte("\x1b["))
	if !ok {
		return false
	}
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		rest = rest[1:]
	}
	return bytes.Equal(rest, []byte("D\x1b[K"))
}
