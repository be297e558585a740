// Package plaintest holds the checks the plain door's tests, and the
// server's, hold its output to: nothing drawn (Forbidden), and each
// event of a game told once, in order (ToldOnce).
//
// Room: under sshapp/plain, for tests only. It may import engine and
// lobby/words.
package plaintest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// Forbidden finds in what a plain session received anything the plain
// mode never writes: an escape sequence (cursor movement, erasing, the
// alternate screen, colour), another control character but the line
// ends, the tab and the bell (BEL: a notice's, which moves nothing), box
// drawing, block elements and geometric shapes, symbols and dingbats
// (hearts, dice), braille, emoji. It is "" when there is none.
func Forbidden(b []byte) string {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == 0x1b:
			return fmt.Sprintf("an escape sequence at byte %d: %q", i, b[i:min(len(b), i+8)])
		case r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\a', r == 0x7f:
			return fmt.Sprintf("the control character %U at byte %d", r, i)
		case r >= 0x2500 && r <= 0x27bf:
			return fmt.Sprintf("drawing or a symbol %q (%U) at byte %d", r, r, i)
		case r >= 0x2800 && r <= 0x28ff:
			return fmt.Sprintf("braille %q at byte %d", r, i)
		case r >= 0x1f000:
			return fmt.Sprintf("an emoji %q at byte %d", r, i)
		}
		i += n
	}
	return ""
}

// timeLeft is the clock a prompt may say after its event.
var timeLeft = regexp.MustCompile(` \d+ seconds? left\.$`)

// ToldOnce checks that the text of a plain session (its lines ended by
// \n) tells each event of a game exactly once, in order: the lines that
// are some event's sentence (Narrator.Aloud from seat's view; a prompt's
// event after "Your turn: ", or "Your turn. " for a round's start) are, in order, the game's events. An event
// may be told with the dice its viewer saw then (the redacted copy) or,
// told as the game ended, with all of them. nar names the game's seats
// as the session did. It returns why not, or nil.
func ToldOnce(text string, evs []engine.Event, nar words.Narrator) error {
	redacted := make([]engine.Event, len(evs))
	for i, e := range evs {
		redacted[i] = e.Redacted(nar.You)
	}
	type told struct{ seen, all string }
	var want []told
	isEvent := map[string]bool{}
	for i := range evs {
		s := told{nar.Aloud(redacted, i), nar.Aloud(evs, i)}
		if s.seen == "" {
			continue
		}
		want = append(want, s)
		isEvent[s.seen], isEvent[s.all] = true, true
	}
	var got []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		rest, ok := strings.CutPrefix(l, "Your turn: ")
		if !ok {
			rest, ok = strings.CutPrefix(l, "Your turn. ") // an event with a colon of its own
		}
		if ok {
			if i := strings.Index(rest, ". Choose: "); i >= 0 {
				rest = rest[:i+1]
			}
			l = timeLeft.ReplaceAllString(rest, "")
			if after, ok := strings.CutPrefix(l, "you "); ok { // after the colon, the sentence's you is small
				l = "You " + after
			}
		}
		if isEvent[l] {
			got = append(got, l)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d events told, the game has %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if got[i] != w.seen && got[i] != w.all {
			return fmt.Errorf("event %d told as %q, want %q", i, got[i], w.seen)
		}
	}
	return nil
}
