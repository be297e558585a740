package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// The screen sizes the layout needs and uses. Below the minimum only a
// "make the window bigger" message is shown; above the maximum the extra
// cells stay empty (a huge window allocates nothing more).
const (
	MinWidth  = 80
	MinHeight = 24
	MaxWidth  = 140
	MaxHeight = 60
)

// fit cuts s to w cells (with "…") and pads it with spaces to exactly w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += spaces(w - n)
	}
	return s
}

// cut cuts s to w cells (with "…") without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

var blank = strings.Repeat(" ", MaxWidth)

// spaces returns n spaces without allocating (n up to MaxWidth).
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	if n > len(blank) {
		return strings.Repeat(" ", n)
	}
	return blank[:n]
}

// block pads or cuts lines to exactly h lines of w cells.
func block(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = spaces(w)
		}
	}
	return out
}

// side joins two columns of equal height, line by line, with a gap.
func side(b *strings.Builder, left, right []string, gap int) {
	for i := range left {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(left[i])
		b.WriteString(spaces(gap))
		if i < len(right) {
			b.WriteString(right[i])
		}
	}
}

// rankingShort names the rankings in the lobby's rules column.
var rankingShort = map[engine.Ranking]string{
	engine.Classic:          "classic",
	engine.AscendingDoubles: "ascending",
	engine.Numeric:          "numeric",
	engine.LittleMia:        "little-mia",
}

// shortRules is a table's rules in one short phrase, as the lobby lists
// them: "classic · 6♥ · pass · 60s".
func shortRules(o engine.Options) string {
	name := rankingShort[o.Ranking]
	if name == "" {
		name = string(o.Ranking)
	}
	pass := "pass"
	switch {
	case o.EqualClaims:
		pass = "equal"
	case !o.Pass:
		pass = "no pass"
	}
	return fmt.Sprintf("%s · %d♥ · %s · %s", name, o.Lives, pass, seconds(o.TurnSeconds))
}

// longRules is every rule of a table, for its title bar.
func longRules(o engine.Options) string {
	var b strings.Builder
	b.WriteString(shortRules(o))
	fmt.Fprintf(&b, " · Mia −%d", o.MiaPenalty)
	if o.MiaPenaltyBoth {
		b.WriteString(" both")
	}
	if o.NextOpener == engine.Loser {
		b.WriteString(" · loser opens")
	}
	if o.End == engine.FirstOut {
		b.WriteString(" · first out ends")
	}
	return b.String()
}

// seconds writes a turn time: "60s", "5m", "1h".
func seconds(s int) string {
	switch {
	case s >= 3600 && s%3600 == 0:
		return fmt.Sprintf("%dh", s/3600)
	case s >= 120 && s%60 == 0:
		return fmt.Sprintf("%dm", s/60)
	}
	return fmt.Sprintf("%ds", s)
}

// chatLine draws one chat line: "bob: hi", "[bot] ann: …", or a server
// notice. The text was cleaned by the lobby; it is cleaned again here as a
// last guard, since it is another person's input.
func chatLine(s *Styles, l lobby.ChatLine, w int) string {
	text := lobby.Clean(l.Text, lobby.MaxChatRunes)
	if l.From == "" {
		return s.Notice.Render(cut("* "+text, w))
	}
	from := lobby.Clean(l.From, lobby.MaxNameLen)
	if l.Bot {
		from += " [bot]"
	}
	nw := ansi.StringWidth(from) + 2
	if nw >= w {
		return s.ChatName.Render(cut(from, w))
	}
	return s.ChatName.Render(from) + ": " + cut(text, w-nw)
}

// chatBlock draws the last lines of a chat that fit in h lines of w
// cells, long lines wrapped.
func chatBlock(s *Styles, lines []lobby.ChatLine, w, h int) []string {
	return tail(len(lines), w, h, func(i int) string { return chatLine(s, lines[i], maxChatWidth) })
}

// maxChatWidth bounds a drawn chat line before wrapping: a name and the
// longest message.
const maxChatWidth = lobby.MaxNameLen + 8 + lobby.MaxChatRunes

// tail wraps the n items that line(i) draws to w cells and returns the
// last h lines, drawing only the items it needs.
func tail(n, w, h int, line func(i int) string) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	out := make([]string, h)
	k := h
	for i := n - 1; i >= 0 && k > 0; i-- {
		wrapped := strings.Split(ansi.Wrap(line(i), w, " "), "\n")
		for j := len(wrapped) - 1; j >= 0 && k > 0; j-- {
			k--
			out[k] = wrapped[j]
		}
	}
	return out[k:]
}

// name cleans a display name for drawing.
func name(s string) string { return lobby.Clean(s, lobby.MaxNameLen) }
