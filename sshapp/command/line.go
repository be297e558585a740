package command

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLine is the longest command line the server takes, in bytes; a
// longer one is refused before it is split. The longest command anyone
// types (a table with every option, a seed of 64 characters, a ban with
// its reason) is a few hundred bytes.
const MaxLine = 4096

// The kinds of Split's errors (errors.Is): both are usage errors, exit
// status ExitUsage.
var (
	ErrLineTooLong = errors.New("command line too long")
	ErrBadQuoting  = errors.New("command line quoted wrong")
)

// LineError is a command line Split refuses; its sentence says why.
type LineError struct {
	kind error // ErrLineTooLong or ErrBadQuoting
	say  string
}

func (e *LineError) Error() string { return e.say }

// Unwrap is the error's kind.
func (e *LineError) Unwrap() error { return e.kind }

// Split splits a command line into its words as a POSIX shell does,
// without expansions: white space separates words; 'single quotes' keep
// everything inside; "double quotes" keep everything but a backslash
// before \ or ", which stands for the character after it; outside quotes
// a backslash stands for the character after it; quoted and unquoted
// parts next to each other make one word, and an empty quoted word is a
// word. A line longer than MaxLine is refused before it is read, and a
// quote left open or a backslash at the end is refused (*LineError). It
// reads each byte once: its work is linear in the line's length
// (FuzzSplit counts it).
func Split(line string) ([]string, error) {
	return split(line, nil)
}

// split is Split, counting its steps in *steps when steps is not nil:
// one for each character read and each byte written.
func split(line string, steps *int) ([]string, error) {
	if len(line) > MaxLine {
		return nil, &LineError{ErrLineTooLong,
			fmt.Sprintf("the command line is %d bytes long; the most this server takes is %d", len(line), MaxLine)}
	}
	var (
		words []string
		word  strings.Builder
		in    bool // a word has begun (perhaps an empty quoted one)
		quote rune // the quote open, or 0
	)
	count := func(n int) {
		if steps != nil {
			*steps += n
		}
	}
	write := func(s string) {
		count(len(s))
		word.WriteString(s)
	}
	end := func() {
		if in {
			count(word.Len())
			words = append(words, word.String())
			word.Reset()
			in = false
		}
	}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		ch := line[i : i+size] // as sent, an invalid byte too
		i += size
		count(1)
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				write(ch)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i < len(line) && (line[i] == '\\' || line[i] == '"'):
				write(line[i : i+1])
				i++
			default:
				write(ch)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\':
			if i == len(line) {
				return nil, &LineError{ErrBadQuoting, "the command line ends in a backslash, which stands for the character after it"}
			}
			_, n := utf8.DecodeRuneInString(line[i:])
			write(line[i : i+n])
			i += n
			in = true
		case unicode.IsSpace(r):
			end()
		default:
			write(ch)
			in = true
		}
	}
	if quote != 0 {
		return nil, &LineError{ErrBadQuoting, fmt.Sprintf("the command line has a %c that is never closed", quote)}
	}
	end()
	return words, nil
}
