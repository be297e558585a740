package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
)

// TestWriteCast records the scripted game: an asciicast v2 document of
// 80×24 frames, one a second, each the replay screen at one step (the
// same frames the screen draws), the same bytes every time.
func TestWriteCast(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	sg := bluffGame(t, e.st, "alpha", e.clock.Now(), a, b, c)
	g, evs, err := e.st.Game(ctxT(t), sg.ID)
	if err != nil {
		t.Fatal(err)
	}
	var one, two bytes.Buffer
	if err := WriteCast(&one, g, evs); err != nil {
		t.Fatal(err)
	}
	if err := WriteCast(&two, g, evs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("two recordings of one game differ")
	}
	cut, err := engine.CutSteps(g.Rules, len(g.Seats), evs)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(one.Bytes()))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatal("no header")
	}
	var head castHeader
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil || head.Version != 2 || head.Width != 80 || head.Height != 24 {
		t.Fatalf("header %s: %+v, %v", sc.Bytes(), head, err)
	}
	var frames []string
	var times []float64
	for sc.Scan() {
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 || ev[1] != "o" {
			t.Fatalf("event %s: %v", sc.Bytes(), err)
		}
		times = append(times, ev[0].(float64))
		frames = append(frames, ev[2].(string))
	}
	// the cursor hidden, a frame per step, the cursor shown again
	if len(frames) != len(cut.Steps)+2 {
		t.Fatalf("%d events for %d steps", len(frames), len(cut.Steps))
	}
	for i, f := range frames[1 : len(frames)-1] {
		if times[i+1] != float64(i) {
			t.Errorf("step %d at %v s, want %d", i, times[i+1], i)
		}
		f, ok := strings.CutPrefix(f, "\x1b[H\x1b[2J")
		if !ok {
			t.Fatalf("frame %d does not start by clearing the screen", i)
		}
		lines := strings.Split(f, "\r\n")
		if len(lines) > 24 {
			t.Errorf("frame %d: %d lines", i, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("frame %d: a line %d wide: %q", i, w, l)
			}
		}
		plain := ansi.Strip(f)
		assertContains(t, plain, "replay · game #"+g.ID, "alpha")
		if !strings.Contains(plain, "ended "+g.Ended.UTC().Format("2 Jan 2006")) {
			t.Errorf("frame %d does not say the day the game ended:\n%s", i, plain)
		}
	}
	last := ansi.Strip(frames[len(frames)-2])
	assertContains(t, last, "bob won the game")
	if times[len(times)-1] != float64(len(cut.Steps)+2) {
		t.Errorf("the last step is held until %v s", times[len(times)-1])
	}
}
