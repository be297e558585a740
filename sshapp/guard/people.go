package guard

import (
	"fmt"
	"sync"

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

// Owned is a session as the cap per person counts it: Owner is whom it
// counts for, its person's id, or its key while the key is nobody's yet.
// It is asked anew at each admission: a key joined to a person counts for
// the person from then on.
type Owned interface{ Owner() string }

// People caps the sessions each person holds open at once
// (Limits.MaxSessionsPerPerson). The zero value is no use: NewPeople.
type People struct {
	limit int // negative: no cap

	mu       sync.Mutex
	admitted map[Owned]struct{}
}

// NewPeople caps each person at limit sessions (negative: no cap; zero:
// the default).
func NewPeople(limit int) *People {
	if limit == 0 {
		limit = DefaultMaxSessionsPerPerson
	}
	return &People{limit: limit, admitted: make(map[Owned]struct{})}
}

// Admit counts s among its owner's sessions, or refuses it with a
// *SessionsError when they hold the limit already. Counting and admitting
// are one step under one lock, so that sessions opened at once never pass
// the cap together. A session admitted is given back with Leave. (A
// server admin's sessions are not brought here: they are exempt, and not
// counted.)
func (p *People) Admit(s Owned) error {
	if p.limit < 0 {
		return nil
	}
	who := s.Owner()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for other := range p.admitted {
		if other.Owner() == who {
			n++
		}
	}
	if n >= p.limit {
		return &SessionsError{Limit: p.limit}
	}
	p.admitted[s] = struct{}{}
	return nil
}

// Leave gives back the place of s, if it held one.
func (p *People) Leave(s Owned) {
	p.mu.Lock()
	delete(p.admitted, s)
	p.mu.Unlock()
}
