package lobby

import (
	"fmt"

	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// DefaultMaxTables is how many open tables one person may host at once
// unless Config.MaxTables says otherwise.
const DefaultMaxTables = 10

// ErrTooManyTables is a LimitError's Rule: the host has as many open
// tables as one person may.
var ErrTooManyTables = NewError(Refused, "too many open tables")

// LimitError refuses what would take a person past a limit of the
// server's: Rule says which (errors.Is), Limit is the limit, so that the
// sentence a person reads names it.
type LimitError struct {
	Rule  error
	Limit int
}

func (e *LimitError) Error() string {
	switch e.Rule {
	case ErrTooManyTables:
		return fmt.Sprintf("you host %s, the most one person may: close one first (table close NAME)",
			words.Plural(e.Limit, "1 open table", "open tables"))
	}
	return fmt.Sprintf("%v (at most %d)", e.Rule, e.Limit)
}

// Is matches Rule.
func (e *LimitError) Is(target error) bool { return target == e.Rule }

// Kind is Refused: a limit says no.
func (e *LimitError) Kind() ErrorKind { return Refused }

// capped reports whether the per-person limits hold for p: a person with
// keys, not on a server admin's key. The server's own programs (the
// Mäxchen gateway, which hosts its table) and admins are exempt.
func capped(p Player) bool { return !p.Admin && ident.HasKeys(p.ID) }

// checkTablesLocked refuses a new table to host when they host
// cfg.MaxTables open tables already, those being written counted (l.mu
// held).
func (l *Lobby) checkTablesLocked(host Player) error {
	limit := l.cfg.MaxTables
	if limit == NoLimit || !capped(host) {
		return nil
	}
	n := 0
	for _, t := range l.tables {
		if t.Info().HostID == host.ID {
			n++
		}
	}
	for _, rec := range l.opening {
		if rec.Access.Host == host.ID {
			n++
		}
	}
	if n >= limit {
		return &LimitError{Rule: ErrTooManyTables, Limit: limit}
	}
	return nil
}
