package sshapp

import (
	"context"
	"io"

	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/plain"
)

// plain runs the plain mode (sshapp/plain) on the session, straight to
// table if named: with its terminal, if it has one, as a line editor;
// the window's changes are taken and draw nothing.
func (srv *Server) plain(ss *session, table string) {
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
		Terminal: ss.hasPty,
		Bye:      ss.byeSaid,
		Goodbye:  ss.GoodbyeReason,
		BellOff:  func() bool { return srv.bellOff(ss) },
		Log:      srv.log.With("key", ss.fp),
	}, ss)
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
