package sshapp

import (
	"context"
	"fmt"
	"time"

	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/guard"
)

// endSessionsOf says goodbye to every open session of a key or of a
// person (target is a fingerprint or a person's id), but keep's, and
// returns how many there were.
func (srv *Server) endSessionsOf(target, reason string, keep command.Session) int {
	srv.sessMu.Lock()
	var of []*session
	for ss := range srv.sessions {
		if (ss.fp == target || ss.Person().ID == target) && command.Session(ss) != keep {
			of = append(of, ss)
		}
	}
	srv.sessMu.Unlock()
	for _, ss := range of {
		ss.goodbye(reason)
		ss.mu.Lock()
		interactive := ss.program != nil
		ss.mu.Unlock()
		if !interactive {
			_ = ss.Exit(command.ExitRefused)
		}
	}
	return len(of)
}

// refuseBanned ends a session of a banned key at its start, with a
// message, and reports whether it did (guard.Banned). Admin keys are never
// refused; if the bans cannot be read, the key is let in (and the failure
// logged).
func (srv *Server) refuseBanned(s *session, fp string) bool {
	if srv.cfg.Storage.Bans == nil || srv.IsAdmin(fp) {
		return false
	}
	ctx, cancel := context.WithTimeout(s.Context(), 10*time.Second)
	defer cancel()
	msg, err := guard.Banned(ctx, srv.cfg.Storage.Bans, fp)
	if err != nil {
		srv.log.Error("ban lookup failed", "fingerprint", fp, "err", err)
	}
	if msg == "" {
		return false
	}
	srv.log.Info("banned key refused", "fingerprint", fp, "remote", guard.RemoteIP(s.RemoteAddr()))
	fmt.Fprintln(s.Stderr(), "mia: "+msg)
	_ = s.Exit(command.ExitRefused)
	return true
}
