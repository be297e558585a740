package tui

import (
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestEscAfterChatStaysAtTable: t, a line, enter closes the chat line; the
// esc a newcomer presses next "to close the chat" keeps them at the table
// (saying so), and only a second esc leaves. An esc after any other key
// leaves at once, as before.
func TestEscAfterChatStaysAtTable(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl := e.game("talk", engine.DefaultOptions(), a, b)
	m := New(e.config(a, 80, 24)).(*Model)
	ts := showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("t"))
	m.key(keyRunes("hello"))
	if cmd := m.key(keyEnter); cmd != nil {
		ts.done(answer(cmd).(doneMsg))
	}
	if ts.say.typing {
		t.Fatal("enter did not send the line")
	}
	m.key(keyEsc)
	if m.cur != ts {
		t.Fatalf("the esc right after a chat line left the table for %T", m.cur)
	}
	assertContains(t, m.View(), "esc again to leave the table")
	m.key(keyEsc)
	if m.cur == ts {
		t.Fatal("a second esc does not leave the table")
	}

	// Another key between the chat line and esc: esc leaves at once.
	ts = showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("t"))
	m.key(keyRunes("again"))
	if cmd := m.key(keyEnter); cmd != nil {
		ts.done(answer(cmd).(doneMsg))
	}
	m.key(keyRunes("z")) // no key of the table's
	m.key(keyEsc)
	if m.cur == ts {
		t.Fatal("esc after another key does not leave the table")
	}
}

// unwrapped is a frame's lines, each trimmed, joined by spaces: a sentence
// wrapped over lines reads whole in it.
func unwrapped(frame string) string {
	lines := strings.Split(frame, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " ")
}
