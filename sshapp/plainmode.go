package sshapp

import (
	"context"
	"io"

	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/plain"
)

// plain runs the plain mode (sshapp/plain) on the session, straight to
// table if named: with its terminal, if it has one, as a line editor;
// the window's changes are taken and draw nothing.
func (srv *Server) plain(ss *session, table, event string) {
	ctx, cancel := context.WithCancel(ss.Context())
	defer cancel()
	if ss.winch != nil {
		go drainWindows(ctx, ss.winch)
	}
	ss.mu.Lock()
	ss.plain = true
	ss.mu.Unlock()
	p := ss.Person()
	plain.Run(ctx, plain.Config{
		Lobby:  srv.cfg.Lobby,
		Player: lobby.Player{ID: p.ID, Key: ss.fp, Admin: srv.IsAdmin(ss.fp), Source: ss.Source()},
		SetName: func(ctx context.Context, name string) (string, string, error) {
			np, err := ss.Rename(ctx, name)
			return np.ID, np.Name, err
		},
		Command: func(_ context.Context, out, errOut io.Writer, args []string) int {
			return srv.commands.RunWithin(ss, out, errOut, args)
		},
		Games:    srv.gameEvents(),
		Table:    table,
		Event:    event,
		Attend:   srv.plainAttend(ss),
		Terminal: ss.hasPty,
		Bye:      ss.byeSaid,
		Goodbye:  ss.GoodbyeReason,
		BellOff:  func() bool { return srv.bellOff(ss) },
		DropInvitation: func(ctx context.Context, table string) error {
			if srv.cfg.Alerts == nil {
				return nil
			}
			return srv.cfg.Alerts.DropInvitation(ctx, ss.Person().ID, table)
		},
		Log:   srv.log,
		Judge: srv.cfg.Judge,
	}, ss)
}

// plainAttend marks the session's person there at an event for the plain
// mode, as the event's screen does; nil without events.
func (srv *Server) plainAttend(ss *session) func(context.Context, string) (plain.Attendance, error) {
	if srv.cfg.Events == nil {
		return nil
	}
	return func(ctx context.Context, name string) (plain.Attendance, error) {
		p := lobby.Player{ID: ss.Person().ID, Key: ss.fp, Admin: srv.IsAdmin(ss.fp), Source: ss.Source()}
		e, err := srv.cfg.Events.For(p.Viewer(), name)
		if err != nil {
			return nil, err
		}
		att, err := e.Attend(ctx, p)
		if err != nil {
			return nil, err
		}
		return plainAttendance{att: att, e: e}, nil
	}
}

// plainAttendance is an events.Attendance as the plain mode reads it.
type plainAttendance struct {
	att *events.Attendance
	e   *events.Event
}

func (a plainAttendance) Ready() <-chan struct{} { return a.att.Ready() }
func (a plainAttendance) Done() <-chan struct{}  { return a.att.Done() }
func (a plainAttendance) Close()                 { a.att.Close() }

// Seat is where the person is dealt now, and the event's end for them.
func (a plainAttendance) Seat() (table, over string, ok bool) {
	s, ok := a.att.Take()
	if !ok {
		return "", "", false
	}
	if s.Final {
		return "", words.EventOver(s.Event, s.Place, len(a.e.Info().Standings), s.Points), true
	}
	return s.Table, "", true
}

// gameEvents reads a finished game's events for the plain mode, nil
// without the store's games.
func (srv *Server) gameEvents() func(context.Context, string) ([]engine.Event, error) {
	games := srv.cfg.Storage.Games
	if games == nil {
		return nil
	}
	return func(ctx context.Context, id string) ([]engine.Event, error) {
		_, evs, err := games.Game(ctx, id)
		return evs, err
	}
}

// drainWindows takes a session's window changes until ctx ends: the
// plain mode draws nothing on them, and the ssh package waits until each
// is taken.
func drainWindows(ctx context.Context, winch <-chan ssh.Window) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-winch:
			if !ok {
				return
			}
		}
	}
}
