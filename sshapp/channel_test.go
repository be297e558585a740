package sshapp

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// countingWriter records what it is given and how many writes it took.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// TestCRLFWriter: a terminal session's output reaches the client byte for
// byte as through the ssh package's emulated terminal, whose copies it
// skips.
func TestCRLFWriter(t *testing.T) {
	t.Parallel()
	cases := []string{
		"", "plain", "\n", "a\nb", "a\r\nb", "\r\n", "\r\r\n", "a\n\nb\n", "\n\r\n\n",
		"\x1b[H\x1b[2Kline\r\nnext\n\x1b[3;1H", "end\r", "\rstart",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = "ab\r\n"[rng.IntN(4)]
		}
		cases = append(cases, string(b))
	}
	for _, in := range cases {
		var want, got countingWriter
		wn, werr := ssh.NewPtyWriter(&want).Write([]byte(in))
		gn, gerr := crlfWriter{&got}.Write([]byte(in))
		if got.String() != want.String() || gn != wn || (gerr == nil) != (werr == nil) {
			t.Errorf("%q: wrote %q, %d, %v; the ssh package writes %q, %d, %v", in, got.String(), gn, gerr, want.String(), wn, werr)
		}
		if got.writes != 1 {
			t.Errorf("%q: %d writes to the channel, want 1", in, got.writes)
		}
	}
}

// TestCRLFWriterKeepsFrames: output with no bare "\n" (every frame the
// screens send) goes out as it is, not copied.
func TestCRLFWriterKeepsFrames(t *testing.T) {
	t.Parallel()
	in := []byte("\x1b[Hline one\r\nline two\r\n\x1b[K")
	var seen []byte
	w := crlfWriter{writerFunc(func(p []byte) (int, error) { seen = p; return len(p), nil })}
	if _, err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	if &seen[0] != &in[0] {
		t.Error("a frame with no bare newline was copied before it went out")
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestTerminalLineEnds: a command run with a terminal gets its lines, and
// its errors, ended by "\r\n" (the client's terminal is raw); without a
// terminal by "\n" alone.
func TestTerminalLineEnds(t *testing.T) {
	t.Parallel()
	ts := startServer(t, nil)
	key := newKey(t)
	for _, pty := range []bool{false, true} {
		c := ts.connect(t, key)
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if pty {
			if err := s.RequestPty("dumb", 24, 80, gossh.TerminalModes{}); err != nil {
				t.Fatal(err)
			}
		}
		var out, errb bytes.Buffer
		s.Stdout, s.Stderr = &out, &errb
		_ = s.Run("help")
		s.Close()
		c.Close()
		lines := bytes.Count(out.Bytes(), []byte("\n"))
		crlf := bytes.Count(out.Bytes(), []byte("\r\n"))
		if lines < 3 {
			t.Fatalf("pty %v: help wrote %q", pty, out.String())
		}
		if pty && crlf != lines || !pty && crlf != 0 {
			t.Errorf("pty %v: %d of %d lines end in \\r\\n:\n%q", pty, crlf, lines, out.String())
		}
	}
}

// pieceWriter records the length of every write, and fails the write
// that would take it past failAt bytes (0: never).
type pieceWriter struct {
	countingWriter
	lens   []int
	failAt int
}

func (w *pieceWriter) Write(p []byte) (int, error) {
	if w.failAt > 0 && w.Len()+len(p) > w.failAt {
		k := w.failAt - w.Len()
		_, _ = w.countingWriter.Write(p[:k])
		return k, errors.New("the connection broke")
	}
	w.lens = append(w.lens, len(p))
	return w.countingWriter.Write(p)
}

// TestPieces: a session's output reaches its channel byte for byte in
// writes of at most maxPiece bytes (the ssh package keeps a buffer as
// long as the longest write), and an error stops it, counting what was
// written.
func TestPieces(t *testing.T) {
	frame := bytes.Repeat([]byte("0123456789abcdef"), (3*maxPiece+100)/16)
	tests := []struct {
		name   string
		in     []byte
		writes int
	}{
		{"nothing", nil, 0},
		{"a small frame", frame[:500], 1},
		{"exactly one piece", frame[:maxPiece], 1},
		{"a whole screen", frame, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w pieceWriter
			n, err := pieces{&w}.Write(tt.in)
			if err != nil || n != len(tt.in) {
				t.Fatalf("wrote %d, %v; want %d", n, err, len(tt.in))
			}
			if !bytes.Equal(w.Bytes(), tt.in) {
				t.Error("the bytes changed on their way")
			}
			if w.writes != tt.writes || slices.Max(append(w.lens, 0)) > maxPiece {
				t.Errorf("%d writes of %v bytes; want %d of at most %d", w.writes, w.lens, tt.writes, maxPiece)
			}
		})
	}
	w := pieceWriter{failAt: maxPiece + 10}
	if n, err := (pieces{&w}).Write(frame); err == nil || n != maxPiece+10 {
		t.Errorf("a write that broke off: %d, %v; want %d and the error", n, err, maxPiece+10)
	}
}
