package tui

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/lobby"
)

// promptConfig is a session without a lobby: the prompt, then the page
// that points to the commands.
func promptConfig(name string, set func(string) (string, string, error)) Config {
	p := lobby.Player{Key: "SHA256:abc"}
	if name != "" {
		p.ID = "p:1"
	}
	return Config{
		Renderer: lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii)),
		Player:   p,
		Name:     name,
		SetName:  set,
		Hint:     "ssh -p 23234 example.org",
	}
}

// waitFor waits for output holding every want. (Output is consumed as it
// is read: a later wait sees only later frames.)
func waitFor(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(3*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestNamePromptRetriesUntilAccepted(t *testing.T) {
	var mu sync.Mutex
	var tried []string
	set := func(name string) (string, string, error) {
		mu.Lock()
		defer mu.Unlock()
		tried = append(tried, name)
		if name == "bob" {
			return "", "", lobby.NewError(lobby.Refused, "that name is taken; choose another")
		}
		return "p:1", name, nil
	}
	tm := teatest.NewTestModel(t, New(promptConfig("", set)), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "Choose a display name")

	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "type a name first")

	tm.Type("bob")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "that name is taken")

	for range 3 {
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	tm.Type("alice")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Hello, alice")

	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(*Model)
	if p, ok := final.cur.(*promptScreen); !ok || p.phase != leaving {
		t.Errorf("after q: %T %+v", final.cur, final.cur)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(tried, ",") != "bob,alice" {
		t.Errorf("SetName calls = %q", tried)
	}
}

// TestNamePromptWrapsARefusal: a refusal longer than the window is shown
// whole, wrapped, never cut.
func TestNamePromptWrapsARefusal(t *testing.T) {
	refusal := "that name is a Mäxchen bot's (a bot of the UDP gateway plays under it, or did lately), " +
		"or looks too much like it (case, _ . -, I/l/1, O/0, digits for letters); choose another"
	set := func(name string) (string, string, error) { return "", "", lobby.NewError(lobby.Refused, refusal) }
	m := New(promptConfig("", set))
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	p := m.(*Model).cur.(*promptScreen)
	p.errMsg = refusal
	v := m.View()
	for _, l := range strings.Split(v, "\n") {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("a line of %d columns: %q", w, l)
		}
	}
	if got := strings.Join(strings.Fields(v), " "); !strings.Contains(got, "did lately), or looks too much like it (case, _ . -, I/l/1, O/0, digits for letters); choose another") {
		t.Errorf("the refusal is not whole:\n%s", v)
	}
}

func TestNamedPlayerSkipsThePrompt(t *testing.T) {
	tm := teatest.NewTestModel(t, New(promptConfig("zed", nil)), teatest.WithInitialTermSize(80, 24))
	// Without a lobby the page says so, and points to the commands.
	waitFor(t, tm, "Hello, zed", "SHA256:abc", "This server has no tables to play at; its commands work:",
		"ssh -p 23234 example.org help", "q to quit")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
}

func TestGoodbyeQuits(t *testing.T) {
	for _, name := range []string{"", "zed"} {
		tm := teatest.NewTestModel(t, New(promptConfig(name, nil)), teatest.WithInitialTermSize(80, 24))
		tm.Send(GoodbyeMsg{Reason: "the server is shutting down"})
		final := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(*Model)
		if final.fatal != "the server is shutting down" || !strings.Contains(final.View(), "shutting down") {
			t.Errorf("name %q: final view %q", name, final.View())
		}
	}
}

func TestViewFitsAnySize(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {20, 5}, {500, 200}} {
		m := New(promptConfig("zed", nil))
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := m.View()
		if lines := strings.Count(v, "\n") + 1; size[1] > 12 && lines != min(size[1], MaxHeight) {
			t.Errorf("%v: %d lines", size, lines)
		}
		if strings.ContainsRune(v, '\x1b') {
			t.Errorf("%v: escape codes with an ASCII renderer", size)
		}
	}
}

// TestNamePromptSaysWhatIsWrongNow: a refusal goes as soon as the name is
// changed (it was of the name before), and a name typed past 16
// characters is said to be too long rather than cut without a word; the
// create form's table name alike.
func TestNamePromptSaysWhatIsWrongNow(t *testing.T) {
	set := func(name string) (string, string, error) {
		return "", "", lobby.Errorf(lobby.Refused, "%s is %w", name, lobby.ErrBotName)
	}
	m := New(promptConfig("", set)).(*Model)
	run(m, m.Init())
	p := m.cur.(*promptScreen)
	m.key(keyRunes("ada"))
	run(m, m.key(keyEnter))
	if !strings.Contains(p.errMsg, "ada is the name of a built-in bot") {
		t.Fatalf("the refusal: %q", p.errMsg)
	}
	m.key(tea.KeyMsg{Type: tea.KeyBackspace})
	if p.errMsg != "" {
		t.Errorf("the refusal of ada stays while another name is typed: %q", p.errMsg)
	}
	m.key(keyRunes(strings.Repeat("x", 14))) // "ad" and 14: 16
	m.key(keyRunes("y"))
	if p.input.Value() != "ad"+strings.Repeat("x", 14) || !strings.Contains(m.View(), "is 17 characters long: a name has at most 16") {
		t.Errorf("a 17th character: the name %q, the screen:\n%s", p.input.Value(), m.View())
	}

	e := newEnv(t)
	fm := New(e.config(e.player("alice"), 80, 24)).(*Model)
	f := newCreateForm(fm.c)
	fm.show(f)
	fm.key(tea.KeyMsg{Type: tea.KeyCtrlU})
	fm.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("t", 20)), Paste: true})
	if f.name.Value() != "" || !strings.Contains(fm.View(), "is 20 characters long: a table name has at most 16") {
		t.Errorf("a 20-character table name: %q, the form:\n%s", f.name.Value(), fm.View())
	}
}

// TestNamePromptNeverTakesACutName: a long name that arrives in pieces (a
// paste the terminal sends a few characters at a time) fills the field to
// its end; the rest is refused with the whole length, and enter does not
// take the cut name until it is edited.
func TestNamePromptNeverTakesACutName(t *testing.T) {
	var asked []string
	set := func(name string) (string, string, error) {
		asked = append(asked, name)
		return "p:1", name, nil
	}
	m := New(promptConfig("", set)).(*Model)
	run(m, m.Init())
	p := m.cur.(*promptScreen)
	for range 2000 / 8 {
		m.key(keyRunes(strings.Repeat("b", 8)))
	}
	if !strings.Contains(p.errMsg, "is 2000 characters long: a name has at most 16") || !strings.Contains(m.View(), "is 2000 characters long") {
		t.Errorf("the refusal of 2000 characters %q, the screen:\n%s", p.errMsg, m.View())
	}
	run(m, m.key(keyEnter))
	if len(asked) != 0 {
		t.Fatalf("the cut name %q was taken", asked)
	}
	m.key(tea.KeyMsg{Type: tea.KeyBackspace})
	if p.errMsg != "" {
		t.Errorf("the refusal stays after an edit: %q", p.errMsg)
	}
	run(m, m.key(keyEnter))
	if want := strings.Repeat("b", 15); len(asked) != 1 || asked[0] != want {
		t.Fatalf("asked %q, want %q", asked, want)
	}
}
