package lobby

import (
	"context"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ident"
)

// ErrEventSeats refuses a seat, or a start, at an event's table: the event
// seats its entrants there and deals its games.
var ErrEventSeats = NewError(Refused, "an event seats its entrants at this table and deals its games: join the event to play (event join NAME)")

// EventTable is a table an event opens for one of its games
// (lobby/events): its name, rules and seats, and who may see it, as the
// event decides (a private event's tables admit its members, and open to
// its web link).
type EventTable struct {
	Event   string // the event's name
	Name    string
	Rules   engine.Options
	Seats   int
	Private bool
	Members []string
	Link    string
}

// EventHost is the event of that name as the host of its tables: a
// key-less player (ident.EventHost), the one who deals their games and
// closes them.
func EventHost(event string) Player { return Player{ID: ident.EventHost(event), Bot: true} }

// CreateEventTable opens a table for an event, stored before it is shown,
// as CreateTable does, hosted by the event (EventHost): its games are
// dealt by the event (the table is driven, Deal, from its start and after
// a restart), nobody sits down at it by themselves (ErrEventSeats), its
// bots never rest, and it counts against no one's caps (an event has its
// own: lobby/events). Its name follows the rule of every table's.
func (l *Lobby) CreateEventTable(ctx context.Context, et EventTable) (*Table, error) {
	if err := CheckTableName(et.Name); err != nil {
		return nil, err
	}
	if strings.TrimSpace(et.Event) == "" {
		return nil, Errorf(Internal, "an event table of no event: %s", et.Name)
	}
	if et.Seats < engine.MinSeats || et.Seats > engine.MaxSeats {
		return nil, ErrBadSeats
	}
	if err := et.Rules.Validate(); err != nil {
		return nil, err
	}
	host := EventHost(et.Event)
	rec := TableRecord{Name: et.Name, Rules: et.Rules, Seats: et.Seats, Event: et.Event,
		Access: Access{Private: et.Private, Host: host.ID, Members: append([]string(nil), et.Members...),
			Created: l.cfg.Clock.Now().UTC(), Link: et.Link}}
	return l.create(ctx, host, rec)
}
