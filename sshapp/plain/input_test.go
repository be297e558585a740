package plain

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRawLinesAreMeasured: without a terminal, a line too long is read
// to its end and told by its true length in characters, however the
// reads cut it; the next line is read whole.
func TestRawLinesAreMeasured(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line string
		tooLong    int
	}{
		{"ascii, the most", strings.Repeat("x", MaxLine), 0},
		{"ascii, one more", strings.Repeat("x", MaxLine+1), MaxLine + 1},
		{"ascii, long", strings.Repeat("x", 5000), 5000},
		{"two bytes a character, the most", strings.Repeat("é", MaxLine), 0},
		{"two bytes a character, long", strings.Repeat("é", 5000), 5000},
		{"four bytes a character, long", strings.Repeat("🎲", 3001), 3001},
		{"a carriage return", strings.Repeat("x", 2000) + "\r", 2000},
	}
	for _, tt := range tests {
		for _, half := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tt.line + "\nnext\n")
			if half {
				r = iotest.HalfReader(r)
			}
			in := newInput(struct {
				io.Reader
				io.Writer
			}{r, io.Discard}, false)
			l := in.rawNext()
			if l.tooLong != tt.tooLong || l.atLeast || (tt.tooLong == 0) != (l.text == tt.line) {
				t.Errorf("%s (half reads %v): tooLong %d, atLeast %v, %d bytes of text; want tooLong %d",
					tt.name, half, l.tooLong, l.atLeast, len(l.text), tt.tooLong)
			}
			if next := in.rawNext(); next.text != "next" {
				t.Errorf("%s (half reads %v): the next line is %+v", tt.name, half, next)
			}
		}
	}
}
