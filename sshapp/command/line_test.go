package command

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string
		err  error
	}{
		{"", nil, nil},
		{"   \t ", nil, nil},
		{"whoami", []string{"whoami"}, nil},
		{"  table  create\tclub --lives 3 ", []string{"table", "create", "club", "--lives", "3"}, nil},
		{`seed club "lucky 7"`, []string{"seed", "club", "lucky 7"}, nil},
		{`seed club 'it''s'`, []string{"seed", "club", "its"}, nil},
		{`seed club 'a "b" \c'`, []string{"seed", "club", `a "b" \c`}, nil},
		{`seed club "a \"b\" \\ \c 'd'"`, []string{"seed", "club", `a "b" \ \c 'd'`}, nil},
		{`seed club a\ b\"c\\`, []string{"seed", "club", `a b"c\`}, nil},
		{`x"y z"'w'`, []string{"xy zw"}, nil},
		{`name '' ""`, []string{"name", "", ""}, nil},
		{"name ädä\u00a0bob", []string{"name", "ädä", "bob"}, nil}, // a no-break space separates, as in a shell's Unicode
		{"name \xff\xfe", []string{"name", "\xff\xfe"}, nil},       // bytes that are no UTF-8 are kept as sent
		{`name "bob`, nil, ErrBadQuoting},
		{`name 'bob`, nil, ErrBadQuoting},
		{`name bob\`, nil, ErrBadQuoting},
		{strings.Repeat("x", MaxLine), []string{strings.Repeat("x", MaxLine)}, nil},
		{strings.Repeat("x", MaxLine+1), nil, ErrLineTooLong},
		{strings.Repeat("x ", 120000), nil, ErrLineTooLong},
	}
	for _, tt := range tests {
		got, err := Split(tt.line)
		short := tt.line[:min(len(tt.line), 40)]
		var le *LineError
		switch {
		case tt.err != nil && (!errors.Is(err, tt.err) || !errors.As(err, &le)):
			t.Errorf("Split(%q) = %q, %v; want %v", short, got, err, tt.err)
		case tt.err == nil && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("Split(%q) = %q, %v; want %q", short, got, err, tt.want)
		}
	}
	_, err := Split(strings.Repeat("x", 240000))
	if err == nil || !strings.Contains(err.Error(), "240000 bytes") || !strings.Contains(err.Error(), "4096") {
		t.Errorf("a long line's refusal: %v", err)
	}
}

// FuzzSplit: whatever the line, Split does at most three steps of work a
// byte (a character read, a byte written into a word, a word's bytes
// handed out), never panics, and its words hold no more bytes than the
// line; a line its words rejoin, each quoted, splits into the same words.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"", "whoami", `table create club --lives 3`, `seed club "lucky 7"`, `a 'b c' "d\"e" f\ g`,
		`''""`, `"\\\\\\"`, "\xff\x00\u00a0\u2028", `x\`, `"open`, strings.Repeat(`\"`, 500),
		strings.Repeat(`"`, 3000), strings.Repeat("a ", 2000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		steps := 0
		words, err := split(line, &steps)
		if steps > 3*len(line) {
			t.Fatalf("%d steps for %d bytes", steps, len(line))
		}
		if err != nil {
			return
		}
		n := 0
		for _, w := range words {
			n += len(w)
		}
		if n > len(line) {
			t.Fatalf("words of %d bytes from a line of %d", n, len(line))
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		rejoined := strings.Join(quoted, " ")
		if len(rejoined) > MaxLine {
			return
		}
		again, err := Split(rejoined)
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("%q rejoined splits into %q, %v; want %q", line, again, err, words)
		}
		if utf8.ValidString(line) && !utf8.ValidString(strings.Join(words, "")) {
			t.Fatalf("valid UTF-8 %q made invalid words %q", line, words)
		}
	})
}
