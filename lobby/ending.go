package lobby

import (
	"fmt"

	"github.com/mia-game/mia/lobby/words"
)

// ErrRemoved is an EndError's Why: the viewer was removed from the table
// (Kick), which goes on without them.
var ErrRemoved = NewError(Refused, "removed from the table")

// EndError is why a table's subscription ended while its viewer still
// had it open (Subscription.Err): the table was closed (Why
// ErrTableClosed), the viewer removed from it (ErrRemoved), or the server
// stops (ErrLobbyClosed). errors.Is matches Why; its kind is Why's.
type EndError struct {
	Why   error
	Table string // the table's name
	// By is the name of who closed the table or removed the viewer, as it
	// was then ("" for the server); Admin: they did it as a server admin,
	// not as the table's host.
	By    string
	ByID  string // their person id
	Admin bool
	// Game is the game that was running when the table closed: it ended
	// without a result, abandoned ("" when none ran).
	Game string
}

func (e *EndError) Error() string { return e.To("") }

// To is the sentence for the viewer of person id: "you closed the table
// club" when they did it themselves.
func (e *EndError) To(id string) string {
	who := e.By
	switch {
	case id != "" && id == e.ByID:
		who = "you"
	case who == "":
		who = "the server"
	case e.Admin:
		who += " (an admin)"
	}
	switch e.Why {
	case ErrRemoved:
		return fmt.Sprintf("%s removed you from the table %s", who, words.Clean(e.Table, MaxNameLen))
	case ErrTableClosed:
		s := fmt.Sprintf("%s closed the table %s", who, words.Clean(e.Table, MaxNameLen))
		if e.Game != "" {
			s += fmt.Sprintf(": game %s abandoned, not rated", e.Game)
		}
		return s
	}
	return e.Why.Error()
}

// Is matches Why.
func (e *EndError) Is(target error) bool { return target == e.Why }

// Kind is Why's kind (KindOf).
func (e *EndError) Kind() ErrorKind { return KindOf(e.Why) }

// end ends the subscription for why, unless it ended already: its
// viewer reads why from Err once Done is closed.
func (s *Subscription) end(why error) {
	s.why.CompareAndSwap(nil, &why)
	s.box.Close()
}

// Err says why the subscription ended, once Done is closed: an *EndError
// when the table closed, the viewer was removed from it or the server
// stops; nil while it runs, or when its viewer closed it.
func (s *Subscription) Err() error {
	if why := s.why.Load(); why != nil {
		return *why
	}
	return nil
}
