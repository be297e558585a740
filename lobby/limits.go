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

// ErrTooManyEvents is a LimitError's Rule: the host has as many events
// not closed as one person may (lobby/events counts them).
var ErrTooManyEvents = NewError(Refused, "too many events")

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
	case ErrTooManyTablesHere:
		return fmt.Sprintf("%s opened from your address, the most one address may, whatever its keys: close one first (table close NAME)",
			words.Plural(e.Limit, "1 open table was", "open tables were"))
	case ErrTooManyBotTablesHere:
		return fmt.Sprintf("%s filled with bots only from your address, the most one address may: sit down yourself, or close one",
			words.Plural(e.Limit, "1 table is", "tables are"))
	case ErrTooManyEvents:
		return fmt.Sprintf("you host %s not closed, the most one person may: close one first (event close NAME)",
			words.Plural(e.Limit, "1 event", "events"))
	case ErrTooManyEventsHere:
		return fmt.Sprintf("%s made from your address and not closed, the most one address may, whatever its keys: close one first (event close NAME)",
			words.Plural(e.Limit, "1 event was", "events were"))
	case ErrTooManySolvesHere:
		return fmt.Sprintf("verdicts for these rules are not computed yet, and %s solved for your address in the last hour, the most one address may; try later",
			words.Plural(e.Limit, "1 new rule set was", "new rule sets were"))
	case ErrTooManySolves:
		return fmt.Sprintf("verdicts for these rules are not computed yet, and the server has %s waiting to be solved, the most it queues; try later",
			words.Plural(e.Limit, "1 rule set", "rule sets"))
	case ErrTooManyBotTables:
		return fmt.Sprintf("the server runs %s of bots only, the most it runs at once: sit down yourself, or try later",
			words.Plural(e.Limit, "1 table", "tables"))
	}
	return fmt.Sprintf("%v (at most %d)", e.Rule, e.Limit)
}

// Is matches Rule.
func (e *LimitError) Is(target error) bool { return target == e.Rule }

// Kind is Refused: a limit says no.
func (e *LimitError) Kind() ErrorKind { return Refused }

// Capped reports whether the per-person limits hold for p (capped): the
// rule lobby/events counts a person's events by.
func Capped(p Player) bool { return capped(p) }

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
