package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// The size of a recording: the replay screen as an 80×24 terminal shows
// it.
const (
	CastWidth  = MinWidth
	CastHeight = MinHeight
)

// castStyles are the styles of every recording: 256 colours on a dark
// background, as most terminals that play one are.
var castStyles = sync.OnceValue(func() *Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	return NewStyles(r)
})

// castHeader is the first line of an asciicast v2 recording.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// WriteCast writes a finished game as an asciicast v2 recording
// (asciinema's format): the replay screen at 80×24, the game's start and
// then one step (a move and what it caused) a second, the last held for
// three seconds. It is the screen people step through with `ssh -t HOST`
// (h, then a game), drawn by the same code, without the keys: `replay
// GAME --cast` and the web window's /games/ID.cast both write it, the
// same bytes for the same game.
func WriteCast(w io.Writer, g store.Game, evs []engine.Event) error {
	rp, err := newReplay(g, evs)
	if err != nil {
		return err
	}
	// A recording is watched long after the game: its title bar says the
	// day the game ended rather than how long ago (tui's ago writes the
	// date of anything older than a month).
	seen := g.Ended.Add(365 * 24 * time.Hour)
	c := &common{cfg: Config{Now: func() time.Time { return seen }}, s: castStyles()}
	c.help.Width = CastWidth
	m := newReplayScreen(c, g.ID, nil)
	m.rp = rp
	m.SetSize(CastWidth, CastHeight)

	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err = enc.Encode(castHeader{Version: 2, Width: CastWidth, Height: CastHeight, Timestamp: g.Ended.Unix(),
		Title: fmt.Sprintf("mia: game %s at %s", g.ID, words.Clean(g.Table, lobby.MaxNameLen)),
		Env:   map[string]string{"TERM": "xterm-256color"}})
	if err != nil {
		return err
	}
	event := func(at int, data string) error { return enc.Encode([]any{at, "o", data}) }
	if err := event(0, "\x1b[?25l"); err != nil { // the cursor hidden, as on the screen
		return err
	}
	for i := range rp.steps {
		m.step = i
		m.drawLog()
		frame := "\x1b[H\x1b[2J" + strings.ReplaceAll(m.View(), "\n", "\r\n")
		if err := event(i, frame); err != nil {
			return err
		}
	}
	if err := event(len(rp.steps)+2, "\x1b[?25h"); err != nil { // the last step held 3 s
		return err
	}
	return bw.Flush()
}
