package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
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

// cutParts fits a list joined by sep ("classic · 6♥ · pass") in w cells:
// whole parts are left out from the end, and the first is cut only when
// it alone is too wide.
func cutParts(s, sep string, w int) string {
	for ansi.StringWidth(s) > w {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			return cut(s, w)
		}
		s = s[:i]
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

// shortRules is a table's rules in one short phrase, as the lobby lists
// them (words.RuleTags and the turn clock): "classic · 6♥ · 60s", "pips ·
// 6♥ · Mia wins · 60s".
func shortRules(o engine.Options) string {
	return strings.Join(append(words.RuleTags(o), seconds(o.TurnSeconds)), " · ")
}

// longRules is every rule of a table in words, for its title bar
// (words.RuleWords).
func longRules(o engine.Options) string { return strings.Join(words.RuleWords(o), " · ") }

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
	text := words.Clean(l.Text, lobby.MaxChatRunes)
	if l.From == "" {
		return s.Notice.Render(cut("* "+text, w))
	}
	from := words.Clean(l.From, lobby.MaxNameLen)
	if l.Bot {
		from += " [bot]"
	}
	nw := ansi.StringWidth(from) + 2
	if nw >= w {
		return s.ChatName.Render(cut(from, w))
	}
	return s.ChatName.Render(from) + ": " + cut(text, w-nw)
}

// maxChatWidth bounds a drawn chat line before wrapping: a name and the
// longest message.
const maxChatWidth = lobby.MaxNameLen + 8 + lobby.MaxChatRunes

// chatLineOf draws line i of a chat, unwrapped.
func (s *Styles) chatLineOf(lines []lobby.ChatLine) func(i int) string {
	return func(i int) string { return chatLine(s, lines[i], maxChatWidth) }
}

// newView is a bubbles viewport drawn with the session's renderer.
func (s *Styles) newView() viewport.Model {
	// Not viewport.New: its key map (some 400 bytes a viewport) is never
	// used, since no screen passes a viewport its keys.
	return viewport.Model{Style: s.r.NewStyle(), MouseWheelDelta: 3}
}

// sizeView sets a viewport's size, at least one cell each way.
func sizeView(vp *viewport.Model, w, h int) {
	vp.Width, vp.Height = max(1, w), max(1, h)
}

// setTail shows the end of n items in vp, the newest last: line(i) draws
// item i, wrapped to the viewport's width; only the items that show are
// drawn.
func setTail(vp *viewport.Model, n int, line func(i int) string) {
	var out []string
	for i := n - 1; i >= 0 && len(out) < vp.Height; i-- {
		out = append(strings.Split(ansi.Wrap(line(i), vp.Width, " "), "\n"), out...)
	}
	vp.SetContent(strings.Join(out, "\n"))
	vp.GotoBottom()
}

// tailLines is the end of n items in a viewport of w×h (setTail), drawn
// into lines, as viewLines would draw the viewport, without one: a table's
// log and chat are drawn at every move, and the viewport padded every
// line to its width to have the padding trimmed again (a tenth of what a
// spectator's frame allocated).
func (s *Styles) tailLines(w, h, n int, line func(i int) string) []string {
	w, h = max(1, w), max(1, h)
	var items []string // wrapped, the newest first
	rows := 0
	for i := n - 1; i >= 0 && rows < h; i-- {
		item := ansi.Wrap(line(i), w, " ") // cleaned (words.Clean): no tabs, no line breaks
		items = append(items, item)
		rows += strings.Count(item, "\n") + 1
	}
	out := make([]string, 0, h)
	skip := max(0, rows-h) // the oldest item's first rows, scrolled off
	for i := len(items) - 1; i >= 0; i-- {
		for l := range strings.SplitSeq(items[i], "\n") {
			if skip > 0 {
				skip--
				continue
			}
			if w < 2 && ansi.StringWidth(l) > w { // a wide rune fits no line
				l = ansi.Truncate(l, w, "")
			}
			out = append(out, l)
		}
	}
	for len(out) < h {
		out = append(out, "")
	}
	return compactLines(out)
}

// rowLines is rows in a viewport of w×h from its top, drawn into lines.
func (s *Styles) rowLines(w, h int, rows []string) []string {
	vp := s.newView()
	sizeView(&vp, w, h)
	setRows(&vp, rows, 0)
	return viewLines(vp)
}

// setRows fills vp with the rows of a list (the cursor's row drawn
// selected by the caller) and scrolls as little as keeps that row in
// sight.
func setRows(vp *viewport.Model, rows []string, cursor int) {
	vp.SetContent(strings.Join(rows, "\n"))
	switch {
	case cursor < vp.YOffset:
		vp.SetYOffset(cursor)
	case cursor >= vp.YOffset+vp.Height:
		vp.SetYOffset(cursor - vp.Height + 1)
	}
}

// viewLines is a viewport's view as lines, without the spaces that pad
// them (a column beside another is padded again by block).
func viewLines(vp viewport.Model) []string { return compactLines(strings.Split(vp.View(), "\n")) }

// compactLines trims the padding off lines and puts what is left in one
// string of its own: screens keep their lines drawn, and a line cut from
// the view would keep the whole padded view (its width × height, mostly
// spaces) alive as long as the screen.
func compactLines(lines []string) []string {
	n := 0
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
		n += len(lines[i])
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range lines {
		b.WriteString(l)
	}
	all := b.String()
	for i, l := range lines {
		lines[i], all = all[:len(l)], all[len(l):]
		if l == "" {
			lines[i] = ""
		}
	}
	return lines
}

// viewText is a viewport's view without the spaces that pad its lines.
func viewText(vp viewport.Model) string { return strings.Join(viewLines(vp), "\n") }

// lineCount is the number of lines of s.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// cutLines keeps the first n lines of s.
func cutLines(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i-1]
}

// name cleans a display name for drawing.
func name(s string) string { return words.Clean(s, lobby.MaxNameLen) }

// label is a name as the game's words give it (words.Label: "ada [bot]"),
// cleaned to its length.
func label(s string) string { return words.Clean(s, words.MaxLabelLen) }
