package sshapp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/internal/spare"
	"github.com/mia-game/mia/sshapp/tui"
)

// FPS is the frame rate cap of every screen.
const FPS = 20

// interactive runs the screen of a session that has a terminal and no
// command (as wish's Bubble Tea middleware would, with the window changes
// clamped: sendWindows). Once the screen is gone, the terminal is given
// back and the reason the server ended it, if any, is printed below it.
// first is the screen a session opens with: a table, an event, or
// neither (the lobby).
type first struct{ table, event string }

func (srv *Server) interactive(ss *session, to first) {
	prog, f := srv.newProgram(ss, to)
	ctx, cancel := context.WithCancel(ss.Context())
	go ss.sendWindows(ctx, prog)
	m, err := prog.Run()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		srv.log.Error("screen ended with an error", "fingerprint", ss.fp, "err", err)
	}
	prog.Kill() // gives the terminal back if the screen did not quit
	if fm, ok := m.(framed); ok {
		if e, ok := fm.Model.(interface{ Ended() }); ok {
			e.Ended()
		}
	}
	cancel()
	f.stop()
	ss.programDone()
	if reason := ss.GoodbyeReason(); reason != "" {
		fmt.Fprintf(ss, "mia: %s\n", reason)
	}
}

// newProgram makes the session's Bubble Tea program: its own lipgloss
// renderer (never global lipgloss state), input and output on the
// session, its frames drawn by frames (at most FPS a second, and only when
// the screen changed, in the alternate screen), and no process signal
// handling (the server's shutdown reaches programs as tui.GoodbyeMsg).
// The screen is drawn at once, in the colours of a dark background; the
// terminal is asked what its background is, and its answer, if it gives
// one, restyles the screen (askTerminal). The caller stops the frames once
// the program has returned.
func (srv *Server) newProgram(ss *session, to first) (*tea.Program, *frames) {
	pty, _, _ := ss.Pty()
	r := tui.NewRenderer(ss, pty.Term, ss.Environ())
	f := newFrames(ss, FPS, srv.frameShare)
	f.resize(pty.Window.Width, pty.Window.Height) // the size the screen is made with
	var in io.Reader = ss
	var answers *termAnswers
	if asksTerminal(pty.Term) {
		answers = newTermAnswers(ss, time.Now().Add(answerWindow))
		in = answers
	}
	var sent atomic.Pointer[tea.Program]
	post := func(msg tea.Msg) { // from anywhere, never waiting: Send waits for the event loop
		if p := sent.Load(); p != nil {
			spare.Go(func() { p.Send(msg) })
		}
	}
	prog := tea.NewProgram(newFramed(srv.screen(ss, r, to, post), f, srv.drawers),
		tea.WithInput(in),
		tea.WithOutput(ss),
		tea.WithoutRenderer(),
		tea.WithoutSignalHandler(),
		tea.WithEnvironment(ss.Environ()),
	)
	if answers != nil {
		answers.background = func(dark bool) {
			r.SetHasDarkBackground(dark)
			prog.Send(tui.RestyleMsg{Styles: srv.styles.For(r)})
		}
		_, _ = io.WriteString(ss, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes)
	}
	sent.Store(prog)
	ss.setProgram(prog)
	return prog, f
}

// screen is the model of a session: the screens of package tui, from the
// name prompt for a new key (straight to table, if named).
func (srv *Server) screen(ss *session, r *lipgloss.Renderer, to first, post func(tea.Msg)) tea.Model {
	pty, _, _ := ss.Pty()
	p := ss.Person()
	return tui.New(tui.Config{
		Lobby:  srv.cfg.Lobby,
		Player: lobby.Player{ID: p.ID, Key: ss.fp, Admin: srv.IsAdmin(ss.fp), Source: ss.Source()},
		Name:   p.Name,
		SetName: func(name string) (string, string, error) {
			ctx, cancel := context.WithTimeout(ss.Context(), 10*time.Second)
			defer cancel()
			np, err := ss.Rename(ctx, name)
			if err != nil {
				return "", "", err
			}
			return np.ID, np.Name, nil
		},
		Hint:     srv.hint(ss, ""),
		Plain:    srv.hint(ss, "-t") + " plain",
		Renderer: r,
		Styles:   srv.styles.For(r),
		Table:    to.table,
		Event:    to.event,
		Events:   srv.cfg.Events,
		Width:    pty.Window.Width,
		Height:   pty.Window.Height,
		Done:     ss.Context().Done(),
		Post:     post,
		Records:  srv.cfg.Storage.Screens,
		GameLink: srv.gameLink(),
		Log:      srv.log,
		Season:   srv.cfg.Season,
		Judge:    srv.cfg.Judge,
		Alerts:   screenAlerts(srv.cfg.Alerts),
		Bell:     func() { _, _ = io.WriteString(ss, bell) },
		BellOff:  func() bool { return srv.bellOff(ss) },
	})
}

// bellOff reads whether the session's person turned the bell off
// (settings bell off), as stored now: a change from another session
// counts at once. A read that fails rings the bell.
func (srv *Server) bellOff(ss *session) bool {
	ctx, cancel := context.WithTimeout(ss.Context(), 2*time.Second)
	defer cancel()
	p, err := srv.cfg.Storage.Players.PersonByKey(ctx, ss.fp)
	return err == nil && p.Settings.BellOff
}

// bell is the terminal's bell (BEL), written between frames: it moves no
// cursor and draws nothing.
const bell = "\a"

// screenAlerts is a as the screens take it: nil stays nil.
func screenAlerts(a Alerts) tui.Alerts {
	if a == nil {
		return nil
	}
	return a
}

// gameLink is the web window's Links.Game for the table screen, nil
// without a web window.
func (srv *Server) gameLink() func(string, lobby.GameAccess) string {
	if srv.cfg.Web == nil {
		return nil
	}
	return srv.cfg.Web.Game
}

// asksTerminal reports whether a screen on a terminal of type term asks
// it for its background: not without a type, nor of a "dumb" one, which
// draws no colours.
func asksTerminal(term string) bool { return term != "" && term != "dumb" }

// answerWindow is how long after a screen starts its input is searched
// for the terminal's answers (termAnswers): a terminal answers at once,
// but a slow link may take seconds, and an answer left in the input would
// reach the screen as keys.
const answerWindow = 10 * time.Second

// The answers a screen looks for, and the longest it takes one to be
// (an OSC 11 colour is some 30 bytes).
const (
	answerBackground = "\x1b]11;"
	answerDA1        = "\x1b[?"
	maxAnswer        = 64
)

// termAnswers is a screen's input as its program reads it, without the
// terminal's answers to the two queries the screen sends as it starts:
// OSC 11, its background colour, which goes to background; and DA1, which
// every terminal answers (after the colour, if it tells it), and so ends
// the search. Nothing waits for them: the screen is drawn at once, and a
// terminal that answers nothing is never restyled. Until the DA1 answer
// or answerWindow, answers are taken out wherever they stand in the input
// (the keys around them go on, in order); the start of one that a read
// cut off waits for the rest.
type termAnswers struct {
	in         io.Reader
	until      time.Time
	background func(dark bool) // set before the first Read
	over       bool            // the DA1 answer came, or the window passed
	held       []byte          // the start of an answer, waiting for its end
	out        []byte          // input taken, not yet read
	err        error           // the input's error, returned once out is read
	buf        [512]byte
}

func newTermAnswers(in io.Reader, until time.Time) *termAnswers {
	return &termAnswers{in: in, until: until}
}

func (a *termAnswers) Read(p []byte) (int, error) {
	for len(a.out) == 0 {
		switch {
		case a.err != nil:
			return 0, a.err
		case a.over && len(a.held) == 0:
			return a.in.Read(p)
		}
		n, err := a.in.Read(a.buf[:])
		data := append(a.held, a.buf[:n]...)
		a.held, a.err = nil, err
		if err != nil || time.Now().After(a.until) {
			a.over = true
			a.out = data
			continue
		}
		a.out = a.take(data)
	}
	n := copy(p, a.out)
	a.out = a.out[n:]
	return n, nil
}

// take is data without the answers in it; the start of an answer at its
// end is held.
func (a *termAnswers) take(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		k := bytes.IndexByte(data, 0x1b)
		if k < 0 || a.over {
			return append(out, data...)
		}
		out, data = append(out, data[:k]...), data[k:]
		switch n, wait := a.answer(data); {
		case n > 0:
			data = data[n:]
		case wait:
			a.held = bytes.Clone(data)
			return out
		default:
			out, data = append(out, data[0]), data[1:]
		}
	}
	return out
}

// answer looks at d, which starts with ESC: n is the length of the answer
// it starts with (which it has taken), else wait tells whether d may be
// the start of one, cut off by the read.
func (a *termAnswers) answer(d []byte) (n int, wait bool) {
	switch {
	case bytes.HasPrefix(d, []byte(answerBackground)):
		body := d[len(answerBackground):]
		for i := 0; i < len(body) && len(answerBackground)+i < maxAnswer; i++ {
			end := 0
			switch {
			case body[i] == '\a':
				end = i + 1
			case body[i] == 0x1b && i+1 == len(body):
				return 0, true // its ST cut in two
			case body[i] == 0x1b && body[i+1] == '\\':
				end = i + 2
			case body[i] == 0x1b:
				return 0, false
			}
			if end > 0 {
				if dark, ok := darkColour(string(body[:i])); ok && a.background != nil {
					a.background(dark)
				}
				return len(answerBackground) + end, false
			}
		}
		return 0, len(d) < maxAnswer
	case bytes.HasPrefix(d, []byte(answerDA1)):
		for i := len(answerDA1); i < len(d) && i < maxAnswer; i++ {
			switch c := d[i]; {
			case c == 'c':
				a.over = true
				return i + 1, false
			case c != ';' && (c < '0' || c > '9'):
				return 0, false
			}
		}
		return 0, len(d) < maxAnswer
	}
	// the first bytes of one (a lone ESC is a key: it goes on)
	return 0, len(d) >= 2 && (strings.HasPrefix(answerBackground, string(d)) || strings.HasPrefix(answerDA1, string(d)))
}

// darkColour reads a colour as a terminal tells it in OSC 11 ("rgb:RRRR/
// GGGG/BBBB", each of 1 to 4 hex digits; "rgba:" with a fourth) and
// reports whether it is dark: its HSL lightness below a half.
func darkColour(s string) (dark, ok bool) {
	rest, found := strings.CutPrefix(s, "rgb:")
	if !found {
		rest, found = strings.CutPrefix(s, "rgba:")
	}
	parts := strings.Split(rest, "/")
	if !found || len(parts) < 3 || len(parts) > 4 {
		return false, false
	}
	lo, hi := 1.0, 0.0
	for _, p := range parts[:3] {
		if len(p) < 1 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		c := float64(v) / float64(uint64(1)<<(4*len(p))-1)
		lo, hi = min(lo, c), max(hi, c)
	}
	return (lo+hi)/2 < 0.5, true
}
