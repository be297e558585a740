package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
)

// TestTwelveSeatsPips: a table of 12 playing under pips fits 80×24 with
// every seat shown; the player to open rolls, and the picker names the
// claims by their rank ("4 pips") with the chance to beat each.
func TestTwelveSeatsPips(t *testing.T) {
	e := newEnv(t)
	ps := make([]lobby.Player, engine.MaxSeats)
	for i := range ps {
		ps[i] = e.player(fmt.Sprintf("player%02d", i+1))
	}
	rules := engine.DefaultOptions()
	rules.Ranking, rules.MiaPass = engine.Pips, engine.MiaPassWins
	tbl, err := e.lobby.CreateTable(ctxT(t), ps[0], lobby.TableConfig{Name: "dozen", Rules: rules, Seats: engine.MaxSeats})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatalf("%s sits: %v", nameOf(p), err)
		}
	}
	snap := e.until(tbl, ps[0], "the game", func(s lobby.Snapshot) bool { return s.Playing })
	me, _ := whoseTurn(t, snap, ps...)

	tm := teatest.NewTestModel(t, New(e.config(me, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "dozen", "Your turn", "player01", "player12")
	tm.Send(keyRunes("r"))
	// under pips the doubles are named in words ("double 1s", never "11"
	// beside "11 pips"), and the chances line up after the longest name
	waitOutput(t, tm, "your dice:", "Announce (lowest first):", fmt.Sprintf("%-9s %3d%% to beat", "4 pips", 94))
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	waitOutput(t, tm, "› "+fmt.Sprintf("%-9s %3d%% to beat", "5 pips", 83))
	tm.Send(keyEsc) // the picker closed, q quits
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	for _, p := range ps {
		assertContains(t, frame, nameOf(p))
	}
	assertContains(t, frame, "pips · 6 lives · Mia may pass", "your dice:")
	t.Logf("12 seats at 80×24:\n%s", frame)
}

// TestCreateFormOptions: the form offers every option with a short line
// of help, explains the focused one in the rules' words, and creates a
// table from a preset or with the new options; it fits 80×24.
func TestCreateFormOptions(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	tm := teatest.NewTestModel(t, New(e.config(a, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "No tables yet")
	tm.Send(keyRunes("n"))
	waitOutput(t, tm, "new table", "Preset", "Low claim", "Mia reveal", "Mia pass", "a named rule set",
		"a too-low claim: refused, or loses", "Mia shown when challenged, or at once", "a Mia passed on, back at its roller")
	down := func(n int) {
		for range n {
			tm.Send(tea.KeyMsg{Type: tea.KeyDown})
		}
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("mx")
	down(1) // preset
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	tm.Send(tea.KeyMsg{Type: tea.KeyRight}) // none -> classic -> maexchen
	waitOutput(t, tm, "maexchen", "The rules of the Mäxchen bot server")
	down(7) // mia reveal
	waitOutput(t, tm, "at-once", "A Mia is revealed the moment it is announced")
	tm.Send(keyEnter)
	waitOutput(t, tm, "Waiting for players")
	info := mustTable(t, e, "mx").Info()
	if maex, _ := engine.Preset(engine.PresetMaexchen); info.Rules != maex {
		t.Errorf("created %+v, want the maexchen preset", info.Rules)
	}
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)

	// A second table: pips, mia-pass wins (passing is on), before-loser.
	tm = teatest.NewTestModel(t, New(e.config(e.player("bob"), 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "mx")
	tm.Send(keyRunes("n"))
	waitOutput(t, tm, "new table")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("pw")
	down(4) // ranking
	for range 4 {
		tm.Send(tea.KeyMsg{Type: tea.KeyRight}) // classic -> … -> pips
	}
	waitOutput(t, tm, "11 pips > 10 pips")
	down(7)                                // mia pass
	tm.Send(tea.KeyMsg{Type: tea.KeyLeft}) // off -> wins
	waitOutput(t, tm, "wins", "A Mia may be passed on unchanged")
	down(1)                                // next opener
	tm.Send(tea.KeyMsg{Type: tea.KeyLeft}) // after-loser -> before-loser
	waitOutput(t, tm, "before-loser")
	tm.Send(keyEnter)
	waitOutput(t, tm, "Waiting for players")
	got := mustTable(t, e, "pw").Info().Rules
	if got.Ranking != engine.Pips || got.MiaPass != engine.MiaPassWins || got.NextOpener != engine.BeforeLoser || !got.Pass || got.Preset != "" {
		t.Errorf("created %+v", got)
	}
	frame = finalView(t, tm)
	assertFits(t, frame, 80, 24)
	if !strings.Contains(frame, "pips · 6 lives · Mia may pass") {
		t.Errorf("the title bar lacks the rules in words:\n%s", frame)
	}
}

// TestMiaPassHint: under mia-pass wins the player facing a Mia is told
// they may pass it on, and p passes it; ? shows the table's rules.
func TestMiaPassHint(t *testing.T) {
	dice := &lobbytest.Script{}
	dice.Push(2, 1, 0) // the seats in order; the first opens
	dice.Roll(2, 1)
	e := newEnvDice(t, dice)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	rules := engine.DefaultOptions()
	rules.MiaPass = engine.MiaPassWins
	tbl := e.game("wins", rules, a, b, c)
	for _, act := range []engine.Action{{Kind: engine.Roll, Look: true}, {Kind: engine.Claim, Value: engine.Mia}} {
		if err := tbl.Act(ctxT(t), a, act); err != nil {
			t.Fatal(err)
		}
	}
	tm := teatest.NewTestModel(t, New(e.config(b, 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Mia! by alice", "Mia! c: liar · g: give up · p: pass", "p pass Mia")
	facing := New(e.config(b, 80, 24)).(*Model)
	showTable(facing, tbl, e.snapshot(tbl, b))
	assertLacks(t, facing.View(), "a raise", "a: raise") // nothing is above a Mia
	tm.Send(keyRunes("p"))
	e.until(tbl, b, "the pass", func(s lobby.Snapshot) bool { return s.Game.Claimant == 1 && s.Game.Claim == engine.Mia })
	waitOutput(t, tm, "you passed Mia to carol")

	// ? shows the keys, then the table's rules: what sets them apart, in
	// the rules command's words.
	tm.Send(keyRunes("?"))
	waitOutput(t, tm, "Rules: classic, 6 lives, Mia may pass (wins when back)", "mia-pass wins: A Mia may be passed on")
	tm.Send(keyRunes("?"))
	assertFits(t, finalView(t, tm), 80, 24)
}

// TestFormTellsEveryRuleWhole: at 80×24 the form explains the focused
// option at every value it takes, from its preset on, in the rules' words
// and whole: never cut ("If it comes back to the player who rolled it,…").
func TestFormTellsEveryRuleWhole(t *testing.T) {
	e := newEnv(t)
	m := New(e.config(e.player("alice"), 80, 24)).(*Model)
	f := newCreateForm(m.c)
	m.show(f)
	collapse := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	seen := 0
	for fl := fieldPreset; fl < fieldCreate; fl++ {
		f.setFocus(fl)
		for range 16 {
			frame := m.View()
			assertFits(t, frame, 80, 24)
			if want := f.explain(); want != "" && !strings.Contains(collapse(frame), collapse(want)) {
				t.Errorf("%s %s: the form does not tell %q whole:\n%s", fieldLabels[fl], f.value(fl), want, frame)
			}
			seen++
			m.key(tea.KeyMsg{Type: tea.KeyRight})
		}
		// the same again under pips, mia-pass wins and every option on
		f.opts.Ranking, f.opts.MiaPass, f.opts.MiaPenaltyBoth, f.opts.LowClaim = engine.Pips, engine.MiaPassWins, true, engine.LowClaimLoses
		if frame := m.View(); !strings.Contains(collapse(frame), collapse(f.explain())) {
			t.Errorf("%s under pips: not told whole:\n%s", fieldLabels[fl], frame)
		}
	}
	if seen == 0 {
		t.Fatal("no option explained")
	}
}

// TestFullHelpScrolls: ? at a waiting 12-seat table at 80×24 shows the
// keys, and the table's rules below them scroll into sight with ↓: every
// rule that sets the table apart can be read in the smallest window.
func TestFullHelpScrolls(t *testing.T) {
	e := newEnv(t)
	a := e.player("alice")
	rules := engine.DefaultOptions()
	rules.Ranking, rules.MiaPass, rules.LowClaim, rules.MiaPenaltyBoth, rules.End = engine.Pips, engine.MiaPassWins,
		engine.LowClaimLoses, true, engine.FirstOut
	tbl, err := e.lobby.CreateTable(ctxT(t), a, lobby.TableConfig{Name: "dozen", Rules: rules, Seats: engine.MaxSeats})
	if err != nil {
		t.Fatal(err)
	}
	m := New(e.config(a, 80, 24)).(*Model)
	showTable(m, tbl, e.snapshot(tbl, a))
	m.key(keyRunes("?"))
	first := m.View()
	assertFits(t, first, 80, 24)
	assertContains(t, first, "roll", "↑/↓ scroll the help")
	var seen strings.Builder
	for range 60 {
		seen.WriteString(m.View())
		m.key(tea.KeyMsg{Type: tea.KeyDown})
	}
	last := m.View()
	assertFits(t, last, 80, 24)
	text := strings.Join(strings.Fields(seen.String()), " ")
	for _, r := range words.RulesApart(rules) {
		if !strings.Contains(text, strings.Join(strings.Fields(r.Option+" "+r.Value+": "+r.Text), " ")[:40]) {
			t.Errorf("the rule %s is never shown", r.Option)
		}
	}
	assertContains(t, last, "every rule in words: the rules command")
	m.key(keyRunes("?"))
	assertContains(t, m.View(), "Seats")
}

// TestLiarBeforeAClaimSaysItsCost: where a challenge of nothing is legal
// and loses at once (the Mäxchen preset: low claims lose), the opener is
// told what c costs before pressing it.
func TestLiarBeforeAClaimSaysItsCost(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	rules, _ := engine.Preset(engine.PresetMaexchen)
	tbl := e.game("mx", rules, a, b)
	opener, _ := whoseTurn(t, e.snapshot(tbl, a), a, b)
	m := New(e.config(opener, 80, 24)).(*Model)
	showTable(m, tbl, e.snapshot(tbl, opener))
	f := m.View()
	assertFits(t, f, 80, 24)
	assertContains(t, f, "c: liar now loses you a life", "c liar! (costs a life)")
}
