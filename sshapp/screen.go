package sshapp

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/muesli/termenv"

	"github.com/mia-game/mia/sshapp/ui"
)

// FPS is the frame rate cap of every screen.
const FPS = 20

// interactive runs the screen of a session that has a terminal and no
// command, through wish's Bubble Tea middleware (which feeds it the
// session's clamped window changes). Once the screen is gone, the reason
// the server ended it, if any, is printed below it.
func (srv *Server) interactive(ss *session) {
	handler := func(ssh.Session) *tea.Program { return srv.newProgram(ss) }
	bm.MiddlewareWithProgramHandler(handler, termenv.Ascii)(func(ssh.Session) {})(ss)
	ss.programDone()
	if reason := ss.goodbyeReason(); reason != "" {
		fmt.Fprintf(ss, "mia: %s\n", reason)
	}
}

// newProgram makes the session's Bubble Tea program: its own renderer
// (never global lipgloss state), input and output on the session, at most
// FPS frames a second, and no process signal handling (the server's
// shutdown reaches programs as ui.GoodbyeMsg).
func (srv *Server) newProgram(ss *session) *tea.Program {
	r := bm.MakeRenderer(ss)
	opts := append(bm.MakeOptions(ss),
		tea.WithFPS(FPS),
		tea.WithAltScreen(),
		tea.WithoutSignalHandler(),
		tea.WithEnvironment(ss.Environ()),
	)
	prog := tea.NewProgram(srv.screen(ss, r), opts...)
	ss.setProgram(prog)
	return prog
}

// screen chooses the model of a session. This is where the lobby's
// screens plug in; for now it is the placeholder of package ui.
func (srv *Server) screen(ss *session, r *lipgloss.Renderer) tea.Model {
	return ui.New(ui.Params{
		Renderer:    r,
		Name:        ss.Player().Name,
		Fingerprint: ss.fp,
		Hint:        srv.hint(ss, ""),
		SetName: func(name string) (string, error) {
			ctx, cancel := context.WithTimeout(ss.Context(), 10*time.Second)
			defer cancel()
			np, err := srv.setName(ctx, ss.Player(), name)
			if err != nil {
				return "", err
			}
			ss.setPlayer(np)
			return np.Name, nil
		},
	})
}
