package command

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby/words"
)

// TestErrorsEchoAShortPrefix: whatever flag, word or command a value of
// 3,000 characters is given to, the error repeats at most words.EchoRunes of
// it (words.Echo).
func TestErrorsEchoAShortPrefix(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	if r := h.run(ann, "table", "create", "club"); r.code != ExitOK {
		t.Fatalf("table create: %+v", r)
	}
	v := strings.Repeat("q", 3000)
	lines := [][]string{
		{v},
		{"help", v},
		{"table", v},
		{"keys", v},
		{"keys", "--" + v},
		{"whoami", "--" + v},
		{"whoami", "-" + v + "=1"},
		{"table", "create", "x", "--" + v},
		{"history", "--" + v + "x"},
		{"history", "--limit", v},
		{"history", "--table", v},
		{"history", "--player", v},
		{"history", "--before", v},
		{"history", v},
		{"leaderboard", "--limit", v},
		{"leaderboard", "--season", v},
		{"leaderboard", v},
		{"stats", "--season", v},
		{"stats", v},
		{"table", "create", "x", v},
		{"table", "create", "x", "--bot-level", v},
		{"name", v},
		{"join", v, "code"},
		{"replay", v},
		{"verify", v},
		{"table", "close", v},
		{"table", "create", v},
		{"event", "show", v},
		{"bot", v},
		{"ban", v},
		{"table", "create", "x", "--bots", v},
		{"table", "create", "x", "--private=" + v},
		{"table", "rules", "club", "--pass=" + v},
	}
	for _, flag := range []string{"preset", "lives", "seats", "ranking", "low-claim", "mia-penalty", "mia-pass",
		"mia-reveal", "next-opener", "end", "turn-seconds"} {
		lines = append(lines, []string{"table", "create", "x", "--" + flag, v}, []string{"table", "rules", "club", "--" + flag, v})
	}
	for _, line := range lines {
		r := h.run(ann, line...)
		said := r.stdout + r.stderr
		shown := strings.Join(line, " ")[:40]
		switch {
		case r.code == ExitOK:
			t.Errorf("%s…: taken", shown)
		case strings.Contains(said, strings.Repeat("q", words.EchoRunes+1)):
			t.Errorf("%s…: the answer repeats more than %d characters of the value:\n%.300s", shown, words.EchoRunes, said)
		}
	}
	// As the refusals read: the value's start, cut.
	r := h.run(ann, "table", "create", "x", "--preset", v)
	if want := `option preset: "` + strings.Repeat("q", words.EchoRunes) + `…" is not one of classic, maexchen`; !strings.Contains(r.stderr, want) {
		t.Errorf("--preset: %q, want %q", r.stderr, want)
	}
	r = h.run(ann, "table", "create", "x", "--lives", v)
	if want := `invalid value "` + strings.Repeat("q", words.EchoRunes) + `…" for --lives: not a number`; !strings.Contains(r.stderr, want) {
		t.Errorf("--lives: %q, want %q", r.stderr, want)
	}
	r = h.run(ann, "name", v)
	if want := "mia: " + strings.Repeat("q", words.EchoRunes) + "… is 3000 characters long"; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("name: %q, want %q", r.stderr, want)
	}
	r = h.run(ann, "table", "close", v)
	if want := "mia: no such table: " + strings.Repeat("q", words.EchoRunes) + "…\n"; r.stderr != want {
		t.Errorf("table close: %q, want %q", r.stderr, want)
	}
	r = h.run(ann, "table", "create", "x", "--bot-level", "genius")
	if want := `invalid value "genius" for --bot-level: one of easy, normal, hard`; !strings.Contains(r.stderr, want) {
		t.Errorf("--bot-level: %q, want %q", r.stderr, want)
	}
}
