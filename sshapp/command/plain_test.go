package command

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mia-game/mia/store"
)

// TestPlainCommand: plain and plain play TABLE run the plain mode, with a
// terminal or without; anything else is a usage error and runs nothing.
func TestPlainCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, nameless := h.person("ann"), h.key("nameless")
	for _, c := range []struct {
		name  string
		as    who
		pty   bool
		words []string
		table string
	}{
		{"alone", ann, true, []string{"plain"}, ""},
		{"a key that is nobody's yet", nameless, true, []string{"plain"}, ""},
		{"without a terminal", ann, false, []string{"plain"}, ""},
		{"straight to a table", ann, true, []string{"plain", "play", "t1"}, "t1"},
	} {
		s := &callerSession{player: c.as, h: h, pty: c.pty}
		if r := h.runOn(s, c.words...); r.code != ExitOK || s.plained == nil || *s.plained != c.table {
			t.Errorf("%s: exit %d, plain %v (%s)", c.name, r.code, s.plained, r.stderr)
		}
	}
	for _, bad := range [][]string{{"plain", "t1"}, {"plain", "play"}, {"plain", "play", "--x"}, {"plain", "play", "a", "b"}} {
		s := &callerSession{player: ann, h: h, pty: true}
		h.runOn(s, bad...).expect(t, ExitUsage, nil, []string{"usage"})
		if s.plained != nil {
			t.Errorf("%q ran the plain mode", bad)
		}
	}
}

// TestPlayChoosesPlain: play without a terminal runs the plain mode for a
// person who keeps the setting, or a session whose environment asks for
// it; else it is refused, naming the plain mode. With a terminal, Play
// decides (the server's session).
func TestPlayChoosesPlain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	h.run(ann, "play", "t1").expect(t, ExitRefused, nil, []string{"the plain mode:  ssh -p 23234 mia.test plain play t1"})
	asked := &callerSession{player: ann, h: h, env: []string{"TERM=dumb", "ACCESSIBLE=1"}}
	if r := h.runOn(asked, "play", "t1"); r.code != ExitOK || asked.plained == nil || *asked.plained != "t1" {
		t.Fatalf("ACCESSIBLE=1: exit %d, plain %v: %s", r.code, asked.plained, r.stderr)
	}
	p, err := h.st.ChangeSettings(context.Background(), ann.ID, func(s *store.Settings) { s.Plain = true })
	if err != nil {
		t.Fatal(err)
	}
	kept := &callerSession{player: who{Key: ann.Key, Person: p}, h: h}
	if r := h.runOn(kept, "play"); r.code != ExitOK || kept.plained == nil || *kept.plained != "" {
		t.Fatalf("the setting: exit %d, plain %v: %s", r.code, kept.plained, r.stderr)
	}
}

// TestAccessible: which values of ACCESSIBLE ask for the plain mode.
func TestAccessible(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want bool
	}{
		{nil, false},
		{[]string{"ACCESSIBLE=1"}, true},
		{[]string{"LANG=C", "ACCESSIBLE=yes"}, true},
		{[]string{"ACCESSIBLE=true"}, true},
		{[]string{"ACCESSIBLE="}, false},
		{[]string{"ACCESSIBLE=0"}, false},
		{[]string{"ACCESSIBLE=False"}, false},
		{[]string{"ACCESSIBLE=off"}, false},
		{[]string{"NOT_ACCESSIBLE=1"}, false},
		{[]string{"ACCESSIBLEX=1"}, false},
	} {
		if got := Accessible(c.env); got != c.want {
			t.Errorf("Accessible(%q) = %v, want %v", c.env, got, c.want)
		}
	}
}

// TestRunWithin: a command run within the plain mode writes to the
// door's writers, names what to type without ssh, and says in words
// what it would draw.
func TestRunWithin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, bob := h.person("ann"), h.person("bob")
	for i := range 3 {
		h.finishedGame(fmt.Sprintf("g%d", i), ann, bob)
	}
	var out, errOut bytes.Buffer
	s := &callerSession{player: ann, h: h}
	if code := h.r.RunWithin(s, &out, &errOut, []string{"history", "--limit", "1"}); code != ExitOK {
		t.Fatalf("history: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "More:  history --before") || strings.Contains(out.String(), "ssh") {
		t.Errorf("history within: %s", out.String())
	}
	if s.out.Len() != 0 {
		t.Errorf("the session itself was written to: %q", s.out.String())
	}
	out.Reset()
	if code := h.r.RunWithin(s, &out, &errOut, []string{"stats"}); code != ExitOK {
		t.Fatalf("stats: exit %d: %s", code, errOut.String())
	}
	if strings.ContainsAny(out.String(), "▁▂▃▄▅▆▇█") || !strings.Contains(out.String(), "(newest last)") {
		t.Errorf("stats within draws:\n%s", out.String())
	}
	errOut.Reset()
	if code := h.r.RunWithin(s, &out, &errOut, []string{"settings", "plain"}); code != ExitUsage ||
		!strings.Contains(errOut.String(), "usage: settings [NAME on|off]") {
		t.Errorf("a usage error within: exit %d: %q", code, errOut.String())
	}
}
