package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
)

// replayOf is the replay screen of a stored game at w×h, seen at now.
func replayOf(t *testing.T, e *env, id string, w, h int, now time.Time) *replayScreen {
	t.Helper()
	g, evs, err := e.st.Game(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := newReplay(g, evs)
	if err != nil {
		t.Fatal(err)
	}
	c := &common{cfg: Config{Now: func() time.Time { return now }}, s: NewStyles(asciiRenderer())}
	c.help.Width = w
	m := newReplayScreen(c, id, nil)
	m.rp = rp
	m.SetSize(w, h)
	return m
}

// flat is a frame's text in one line, its spaces collapsed.
func flat(frame string) string { return strings.Join(strings.Fields(ansi.Strip(frame)), " ") }

// TestReplayTitleKeepsItsGap: whatever the length of the table's name,
// the replay's title bar (the screen's, and the recording's first frame)
// keeps a space before "ended …", and leaves out whole rules rather than
// cutting one.
func TestReplayTitleKeepsItsGap(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.MiaPass, rules.TurnSeconds, rules.Lives = engine.MiaPassReroll, 90, 1
	start := e.clock.Now()
	for n := 1; n <= 16; n++ {
		table := strings.Repeat("t", n)
		g := recordGame(t, e.st, table, seatsOf(a, b), rules, 0, start,
			roll(0, true, 43), claim(0, 43), challenge(1))
		check := func(what, title string) {
			t.Helper()
			if strings.Contains(title, "…") || !strings.Contains(title, " at "+table+" · ") {
				t.Errorf("%s, table %q: the title is cut: %q", what, table, title)
			}
			if i := strings.Index(title, "ended "); i < 1 || title[i-1] != ' ' {
				t.Errorf("%s, table %q: no space before the end: %q", what, table, title)
			}
		}
		m := replayOf(t, e, g.ID, 80, 24, g.Ended.Add(4*time.Minute))
		check("screen", strings.Split(ansi.Strip(m.View()), "\n")[0])
		full, evs, err := e.st.Game(ctxT(t), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		var rec strings.Builder
		if err := WriteCast(&rec, full, evs); err != nil {
			t.Fatal(err)
		}
		var ev []any // the header, the cursor hidden, then the first frame
		if err := json.Unmarshal([]byte(strings.Split(rec.String(), "\n")[2]), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("the first frame: %v %v", ev, err)
		}
		_, first, _ := strings.Cut(ev[2].(string), "\x1b[2J")
		check("recording", ansi.Strip(strings.Split(first, "\r\n")[0]))
	}
}

// TestReplayTellsVerdictsWhole: with the longest names, the replay screen
// at 80×24 tells the step's verdict and every line of the round's log
// whole, wrapped rather than cut.
func TestReplayTellsVerdictsWhole(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("robertlongname12"), e.player("carolinewinters1")
	g := bluffGame(t, e.st, "alpha", e.clock.Now(), a, b, c)
	m := replayOf(t, e, g.ID, 80, 24, g.Ended)
	m.step = 4 // carol catches bob
	m.drawLog()
	frame := m.View()
	assertFits(t, frame, 80, 24)
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "…") && !strings.Contains(l, "♥") { // a seat's name is cut to its column
			t.Errorf("a line is cut: %q", l)
		}
	}
	assertContains(t, flat(frame),
		"caught: 43 under robertlongname12's 65, robertlongname12 loses a life",
		"carolinewinters1 called robertlongname12 a liar: 43, robertlongname12 loses a life — caught bluffing!",
		"robertlongname12 passed 65 to carolinewinters1 — the dice were below the claim · cup ⚃⚂ 43")
	for i := range m.rp.steps {
		m.step = i
		m.drawLog()
		assertFits(t, m.View(), 80, 24)
	}
}

// TestCupShowsTheDice: at 80×24, with names as long as they go, the words
// of a caught bluff take four lines of the log's column, where the dice
// no longer fit above them: with the chat empty, the lifted cup takes the
// whole width and draws the dice for every screen at the table (the
// challenger's, the claimant's and a spectator's, whose words differ);
// with lines in the chat, it keeps to the log's column and the chat shows.
func TestCupShowsTheDice(t *testing.T) {
	for _, chat := range []bool{false, true} {
		e := newEnv(t)
		tbl, opener, other, dice, _ := e.bluffing("cup", e.player("robertlongname12"), e.player("carolinewinters1"))
		dave, ctx := e.player("dave"), ctxT(t)
		if chat {
			if err := tbl.Say(ctx, dave, "nice"); err != nil {
				t.Fatal(err)
			}
		}
		viewers := []lobby.Player{opener, other, dave}
		models, screens := make([]*Model, 3), make([]*tableScreen, 3)
		for i, p := range viewers {
			models[i] = New(e.config(p, 80, 24)).(*Model)
			screens[i] = showTable(models[i], tbl, e.snapshot(tbl, p))
		}
		if err := tbl.Act(ctx, other, engine.Action{Kind: engine.Challenge}); err != nil {
			t.Fatal(err)
		}
		hi, lo := dice.Dice()
		for i, p := range viewers {
			m, ts := models[i], screens[i]
			snap := e.until(tbl, p, "round 2", func(s lobby.Snapshot) bool { return s.Game.Round == 2 && len(s.Chat) > 0 == chat })
			ts.setSnapshot(snap)
			f := m.View()
			assertFits(t, f, 80, 24)
			if colW, botH := ts.bottom(); p == dave && ts.cup.diceAbove(colW, botH) {
				t.Fatal("the spectator's dice fit above the words in the log's column: the test shows nothing")
			}
			assertContains(t, flat(f), "caught bluffing!")
			if chat {
				assertContains(t, f, "Table chat", "nice")
				continue
			}
			assertContains(t, f, faces[hi][2], faces[lo][2])
		}
	}
}

// TestReadmeListsEveryTableKey: the README's table of keys names every
// key the table screen takes (its full help), q included.
func TestReadmeListsEveryTableKey(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `") {
			rows = append(rows, strings.SplitN(l, " |", 2)[0])
		}
	}
	for _, col := range newTableKeys().all {
		for _, b := range col {
			k := "`" + b.Help().Key + "`"
			if !slices.ContainsFunc(rows, func(r string) bool { return strings.Contains(r, k) }) {
				t.Errorf("the README's keys do not name %s (%s)", k, b.Help().Desc)
			}
		}
	}
}

// TestReplayStepMarksItsRound: the lines a step marks "›" are of the
// round its header names: the next round's opening is the next step's.
func TestReplayStepMarksItsRound(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	g := bluffGame(t, e.st, "alpha", e.clock.Now(), a, b, c)
	m := replayOf(t, e, g.ID, 80, 24, g.Ended)
	opens := 0
	for i, st := range m.rp.steps {
		m.step = i
		for _, l := range m.logLines(m.c.s, 80) {
			l = ansi.Strip(l)
			if !strings.HasPrefix(l, "› — round ") {
				continue
			}
			opens++
			if !strings.HasPrefix(l, fmt.Sprintf("› — round %d:", st.Round)) {
				t.Errorf("step %d, round %d, marks %q", i, st.Round, l)
			}
		}
	}
	if opens == 0 {
		t.Error("no step marks a round's opening")
	}
}
