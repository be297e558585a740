package sshapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	bm "github.com/charmbracelet/wish/bubbletea"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/tui"
)

// FPS is the frame rate cap of every screen.
const FPS = 20

// interactive runs the screen of a session that has a terminal and no
// command (as wish's Bubble Tea middleware would, with the window changes
// clamped: sendWindows). Once the screen is gone, the terminal is given
// back and the reason the server ended it, if any, is printed below it.
func (srv *Server) interactive(ss *session, table string) {
	prog, f := srv.newProgram(ss, table)
	ctx, cancel := context.WithCancel(ss.Context())
	go ss.sendWindows(ctx, prog)
	if _, err := prog.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		srv.log.Error("screen ended with an error", "fingerprint", ss.fp, "err", err)
	}
	prog.Kill() // gives the terminal back if the screen did not quit
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
// The caller stops the frames once the program has returned.
func (srv *Server) newProgram(ss *session, table string) (*tea.Program, *frames) {
	r := bm.MakeRenderer(ss)
	f := newFrames(ss, FPS, srv.frameShare)
	pty, _, _ := ss.Pty()
	f.resize(pty.Window.Width, pty.Window.Height) // the size the screen is made with
	opts := append(bm.MakeOptions(ss),
		tea.WithoutRenderer(),
		tea.WithoutSignalHandler(),
		tea.WithEnvironment(ss.Environ()),
	)
	prog := tea.NewProgram(newFramed(srv.screen(ss, r, table), f, srv.drawers), opts...)
	ss.setProgram(prog)
	return prog, f
}

// screen is the model of a session: the screens of package tui, from the
// name prompt for a new key (straight to table, if named).
func (srv *Server) screen(ss *session, r *lipgloss.Renderer, table string) tea.Model {
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
		Renderer: r,
		Styles:   srv.styles.For(r),
		Table:    table,
		Width:    pty.Window.Width,
		Height:   pty.Window.Height,
		Done:     ss.Context().Done(),
		Records:  srv.cfg.Storage.Screens,
		GameLink: srv.gameLink(),
		Log:      srv.log.With("key", ss.fp),
		Season:   srv.cfg.Season,
	})
}

// gameLink is the web window's Links.Game for the table screen, nil
// without a web window.
func (srv *Server) gameLink() func(string, lobby.GameAccess) string {
	if srv.cfg.Web == nil {
		return nil
	}
	return srv.cfg.Web.Game
}
