package sshapp

import (
	"fmt"

	"github.com/mia-game/mia/lobby"
)

// ErrTooManySessions is what a *SessionsError matches (errors.Is).
var ErrTooManySessions = lobby.NewError(lobby.Refused, "too many sessions open")

// SessionsError refuses a session that would take its person past
// Limits.MaxSessionsPerPerson; the sentence names the limit.
type SessionsError struct{ Limit int }

func (e *SessionsError) Error() string {
	return fmt.Sprintf("you have %d sessions open, the most one person may have at once (every key of yours counts): "+
		"close one, then connect again", e.Limit)
}

// Is matches ErrTooManySessions.
func (e *SessionsError) Is(target error) bool { return target == ErrTooManySessions }

// Kind is Refused: a limit says no (lobby.ErrorKind).
func (e *SessionsError) Kind() lobby.ErrorKind { return lobby.Refused }

// owner is whom a session counts for: its person, or its key while the key
// is nobody's yet.
func (ss *session) owner() string {
	if id := ss.Person().ID; id != "" {
		return id
	}
	return "key " + ss.fp
}

// admitPerson counts ss among its person's sessions, or refuses it when
// they hold Limits.MaxSessionsPerPerson already (*SessionsError). Counting
// and admitting are one step under srv.sessMu, so that sessions opened at once
// never pass the cap together. A server admin's key is exempt, and its
// sessions are not counted.
func (srv *Server) admitPerson(ss *session) error {
	limit := srv.lim.MaxSessionsPerPerson
	if limit < 0 || srv.IsAdmin(ss.fp) {
		return nil
	}
	who := ss.owner()
	srv.sessMu.Lock()
	defer srv.sessMu.Unlock()
	n := 0
	for other := range srv.sessions {
		if other.admitted && other.owner() == who {
			n++
		}
	}
	if n >= limit {
		return &SessionsError{Limit: limit}
	}
	ss.admitted = true
	return nil
}
