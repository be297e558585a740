package command

import (
	"strings"
	"testing"
)

// TestUsageErrorsSayWhatIsWrong: a usage error is "mia: WHAT", then the
// usage (PROTOCOL.md §1), whatever is wrong with the words.
func TestUsageErrorsSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.admin("ann")
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"name", "my", "name"}, "mia: name takes one argument, got 2"},
		{[]string{"name"}, "mia: name takes one argument, got 0"},
		{[]string{"tables", "extra"}, "mia: tables takes no arguments, got 1"},
		{[]string{"tables", "--bogus"}, "mia: unknown flag --bogus"},
		{[]string{"whoami", "a", "b"}, "mia: whoami takes no arguments, got 2"},
		{[]string{"join", "club"}, "mia: join takes 2 arguments, got 1"},
		{[]string{"help", "name", "tables"}, "mia: help takes at most one argument, got 2"},
		{[]string{"play", "a", "b", "c"}, "mia: play takes at most 2 arguments, got 3"},
		{[]string{"ratings", "redo"}, `mia: ratings does not take "redo"`},
		{[]string{"maexchen", "free"}, `mia: maexchen does not take "free"`},
		{[]string{"keys", "join"}, "mia: keys join takes one argument, got 0"},
		{[]string{"keys", "add", "now"}, "mia: keys add takes no arguments, got 1"},
		{[]string{"keys", "add", "--now"}, "mia: unknown flag --now"},
		{[]string{"seed", "club", "a", "--none"}, "mia: --none and a TEXT do not go together"},
		{[]string{"replay", "1", "--cast", "--json"}, "mia: --cast and --json are two answers: choose one"},
		{[]string{"event"}, "mia: event takes at least one argument, got 0"},
		{[]string{"table"}, "mia: table takes at least 2 arguments, got 0"},
		{[]string{"settings", "bell"}, `mia: settings does not take "bell"`},
	}
	for _, tt := range tests {
		r := h.run(ann, tt.words...)
		lines := strings.Split(r.stderr, "\n")
		if r.code != ExitUsage || lines[0] != tt.want || len(lines) < 2 || !strings.HasPrefix(lines[1], "usage: ") {
			t.Errorf("%q: exit %d, stderr %q; want exit %d, %q then the usage", tt.words, r.code, r.stderr, ExitUsage, tt.want)
		}
	}
	// Every command: a usage error says what is wrong first.
	for _, name := range h.r.order {
		for _, extra := range [][]string{nil, {"--bogus"}, strings.Fields("x x x x x x x x x")} {
			r := h.run(ann, append([]string{name}, extra...)...)
			if r.code == ExitUsage && !strings.HasPrefix(r.stderr, "mia: ") {
				t.Errorf("%s %q: a usage error without mia: WHAT:\n%s", name, extra, r.stderr)
			}
		}
	}
}

func TestArity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec        string
		least, most int
	}{
		{"", 0, 0},
		{"NEW", 1, 1},
		{"NAME CODE", 2, 2},
		{"[COMMAND]", 0, 1},
		{"[TABLE | --event NAME]", 0, 2},
		{"names | free NAME", 1, 2},
		{"[NAME on|off]", 0, 2},
		{"TABLE [TEXT…|--none]", 1, manyArgs},
		{"create|invite NAME [OPTIONS]", 2, manyArgs},
		{"[add | join CODE | remove FINGERPRINT]", 0, 2},
	}
	for _, tt := range tests {
		if l, m := arity(tt.spec); l != tt.least || m != tt.most {
			t.Errorf("arity(%q) = %d, %d; want %d, %d", tt.spec, l, m, tt.least, tt.most)
		}
	}
}

// TestUnknownCommandIsOneLine: a command the server does not have is one
// line and the command that lists them, not the whole help; exit 2.
func TestUnknownCommandIsOneLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	for _, words := range [][]string{{"frobnicate"}, {"help", "frobnicate"}} {
		r := h.run(ann, words...)
		want := `mia: unknown command "frobnicate"; the list of commands:  ssh -p 23234 mia.test help` + "\n"
		if r.code != ExitUsage || r.stderr != want || r.stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d, %q", words, r.code, r.stderr, r.stdout, ExitUsage, want)
		}
	}
}

// TestHelpLinesNameEveryFlag: help's line of a command names every flag
// the command takes (its -h lists them), as PROTOCOL.md §1 does.
func TestHelpLinesNameEveryFlag(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	for _, name := range h.r.order {
		cmd := h.r.byName[name]
		if strings.Contains(cmd.Args, "OPTIONS") {
			continue // table and event: help NAME lists them
		}
		r := h.run(ann, name, "-h")
		for _, l := range strings.Split(r.stderr, "\n") {
			if f := strings.Fields(l); strings.HasPrefix(l, "  --") && !strings.Contains(cmd.usage(), f[0]) {
				t.Errorf("help's line %q lacks %s, which %s -h lists", cmd.usage(), f[0], name)
			}
		}
	}
	help := h.run(ann, "help").stdout
	for _, want := range []string{
		"history [--table T | --event E] [--player P] [--limit N] [--before GAME]",
		"leaderboard [--table T] [--season S | --all-time] [--people | --bots] [--limit N]",
		"stats [PLAYER] [--table T] [--season S | --all-time]",
		"event [show|create|",
	} {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}
