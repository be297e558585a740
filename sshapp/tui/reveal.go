package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// revealFor is how long the cup stays lifted on screen after a round
// ends: long enough to read the dice, the claim and who lost. The game
// does not wait for it; the next round runs underneath.
const revealFor = 5 * time.Second

// revealEndMsg tells the table screen that the time of the cup it
// lifted n-th is over.
type revealEndMsg struct{ n int }

// reveal is the end of the last round as the table screen shows it for
// revealFor: drawn from the events (words.Narrator.Lifted), never a
// pause of the game.
type reveal struct {
	heading string
	dice    engine.Value
	words   []string
	n       int // how many cups the screen lifted, this one included; 0: none shown
	at      int // the event that lifted it
}

// newReveal is the n-th cup lifted, by the event at i of snap's events.
func newReveal(snap lobby.Snapshot, i, n int) reveal {
	heading, dice, lines, ok := snap.Narrator().Lifted(snap.Events(), i)
	if !ok {
		return reveal{}
	}
	for j, w := range lines {
		lines[j] = words.Clean(w, 4*MaxWidth) // names in it were typed by people
	}
	return reveal{heading: heading, dice: dice, words: lines, n: n, at: i}
}

// shown reports whether the cup is lifted.
func (r reveal) shown() bool { return r.n > 0 && r.heading != "" }

// shownAt is the event that lifted the cup shown, or -1: what a frame shared
// between spectators must agree on.
func (r reveal) shownAt() int {
	if !r.shown() {
		return -1
	}
	return r.at
}

// end is the command that puts the cup back after revealFor, unless the
// session ends first (done).
func (r reveal) end(done <-chan struct{}) tea.Cmd {
	n := r.n
	return func() tea.Msg {
		t := time.NewTimer(revealFor)
		defer t.Stop()
		select {
		case <-t.C:
			return revealEndMsg{n: n}
		case <-done:
			return nil
		}
	}
}

// wrapped is the words wrapped to w cells, a word wider than w broken.
func (r reveal) wrapped(w int) []string {
	var out []string
	for _, l := range r.words {
		out = append(out, strings.Split(ansi.Wrap(l, w, " "), "\n")...)
	}
	return out
}

// fits reports whether the heading and every word fit in w×h cells.
func (r reveal) fits(w, h int) bool { return 1+len(r.wrapped(w)) <= h }

// diceW is the width of the dice drawn, and besideMin the least width the
// words take beside them.
const (
	diceW     = 2*dieWidth + 2
	besideMin = 24
)

// diceAbove and diceBeside report whether the dice fit in w×h cells with
// every word: above the words, or to their left, the words wrapped beside
// them.
func (r reveal) diceAbove(w, h int) bool {
	return r.dice.Valid() && 1+dieHeight+len(r.wrapped(w)) <= h
}

func (r reveal) diceBeside(w, h int) bool {
	return r.dice.Valid() && w-diceW-2 >= besideMin && 1+max(dieHeight, len(r.wrapped(w-diceW-2))) <= h
}

// showsDice reports whether lines(w, h) draws the dice.
func (r reveal) showsDice(w, h int) bool { return r.diceAbove(w, h) || r.diceBeside(w, h) }

// lines draws the lifted cup in w×h cells: the heading, then the dice
// above the words when all fit, else beside them when they fit there,
// else the words alone: the dice give way to the words (which name the
// dice too), and only if the words alone do not fit (see fits) are their
// last lines left out.
func (r reveal) lines(s *Styles, w, h int) []string {
	out := []string{s.Header.Render(cut(r.heading, w))}
	if r.diceBeside(w, h) && !r.diceAbove(w, h) {
		dice := strings.Split(s.Die.Render(drawDice(r.dice)), "\n")
		words := r.wrapped(w - diceW - 2)
		for i := range max(dieHeight, len(words)) {
			left := spaces(diceW)
			if i < len(dice) {
				left = dice[i]
			}
			if i < len(words) {
				left += "  " + s.Accent.Render(words[i])
			}
			out = append(out, left)
		}
		return out
	}
	words := r.wrapped(w)
	if r.diceAbove(w, h) {
		out = append(out, strings.Split(s.Die.Render(drawDice(r.dice)), "\n")...)
	}
	if room := h - len(out); len(words) > room {
		words = words[:max(0, room)]
	}
	for _, l := range words {
		out = append(out, s.Accent.Render(cut(l, w)))
	}
	return out
}
