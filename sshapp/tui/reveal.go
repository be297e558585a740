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

// lines draws the lifted cup in w×h cells: the heading, the dice drawn
// when there is room for them beside all the words, and the words
// wrapped. The words come first: the dice give way to them (the words
// name the dice too), and only if the words alone do not fit (see fits)
// are their last lines left out.
func (r reveal) lines(s *Styles, w, h int) []string {
	out := []string{s.Header.Render(cut(r.heading, w))}
	words := r.wrapped(w)
	if r.dice.Valid() && 1+dieHeight+len(words) <= h {
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
