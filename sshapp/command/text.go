package command

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby/words"
)

// The commands' text fits HelpWidth columns: a sentence longer than a
// line is wrapped (the JSON keeps everything on one line). These are the
// few ways the commands wrap.

// writeWrapped writes text wrapped to HelpWidth: the first line after
// first, the next ones after hang.
func writeWrapped(w io.Writer, first, hang, text string) {
	width := HelpWidth - max(ansi.StringWidth(first), ansi.StringWidth(hang))
	for i, l := range words.Wrap(text, width) {
		if i == 0 {
			fmt.Fprintln(w, first+l)
		} else {
			fmt.Fprintln(w, hang+l)
		}
	}
}

// writeHint writes label and a command to type (a Hint) on one line when
// they fit HelpWidth, else the command on a line of its own, indented if
// that fits: a command is never broken, so that it can be copied whole
// (one naming a key's fingerprint on a server with a long host name is
// the one line wider than HelpWidth).
func writeHint(w io.Writer, label, hint string) {
	n := ansi.StringWidth(hint)
	switch {
	case ansi.StringWidth(label)+2+n <= HelpWidth:
		fmt.Fprintf(w, "%s  %s\n", label, hint)
	case 2+n <= HelpWidth:
		fmt.Fprintf(w, "%s\n  %s\n", label, hint)
	default:
		fmt.Fprintf(w, "%s\n%s\n", label, hint)
	}
}

// minLastColumn is the narrowest a table's last column is wrapped in;
// narrower, it goes on lines of its own under its row.
const minLastColumn = 36

// writeTable writes rows under a header in columns two spaces apart, the
// last column in its place when every row's fits whole, else wrapped into
// what is left of HelpWidth, or, when that is less than minLastColumn, on
// lines of its own under each row, indented by under (its name from the
// header first: "players: …").
func writeTable(w io.Writer, header []string, rows [][]string, under string) {
	n := len(header)
	widths := make([]int, n-1)
	for _, r := range append([][]string{header}, rows...) {
		for i := range widths {
			widths[i] = max(widths[i], ansi.StringWidth(r[i]))
		}
	}
	at := 0
	for _, wd := range widths {
		at += wd + 2
	}
	last := HelpWidth - at
	whole := true // every row's last cell fits in place
	for _, r := range append([][]string{header}, rows...) {
		whole = whole && ansi.StringWidth(r[n-1]) <= last
	}
	head := func(r []string) string {
		var b strings.Builder
		for i, wd := range widths {
			b.WriteString(r[i] + strings.Repeat(" ", wd-ansi.StringWidth(r[i])+2))
		}
		return b.String()
	}
	if last < minLastColumn && !whole {
		fmt.Fprintln(w, strings.TrimRight(head(header), " "))
		name := strings.ToLower(header[n-1]) + ": "
		for _, r := range rows {
			fmt.Fprintln(w, strings.TrimRight(head(r), " "))
			if r[n-1] != "" {
				writeWrapped(w, under+name, under+strings.Repeat(" ", len(name)), r[n-1])
			}
		}
		return
	}
	fmt.Fprintln(w, head(header)+header[n-1])
	pad := strings.Repeat(" ", at)
	for _, r := range rows {
		lines := words.Wrap(r[n-1], last)
		if len(lines) == 0 {
			lines = []string{""}
		}
		fmt.Fprintln(w, strings.TrimRight(head(r)+lines[0], " "))
		for _, l := range lines[1:] {
			fmt.Fprintln(w, pad+l)
		}
	}
}
