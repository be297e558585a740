package events

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
)

// DoorGame counts a game that ended at a door of the event named: a table
// another part of the server deals by itself, the Mäxchen gateway's
// (`mia --maexchen-event NAME`). While the event runs, the game's bots
// are its entrants (from their first game there, as bots, seated by the
// gateway and never by the event) and the game counts like one of its
// own: its result is read from storage. A door opens only to a public
// arena, whose entrants may be bots: a game at a door of anything else,
// or of an event that is not running, counts nothing (ErrNoEvent,
// ErrNoDoor). It returns at once: the event's actor does the rest.
func (r *Registry) DoorGame(event, table, game string, players []lobby.Player) error {
	e, err := r.Event(event)
	if err != nil {
		return err
	}
	if !doorOpen(e.Info()) || game == "" {
		return ErrNoDoor
	}
	players = slices.Clone(players)
	e.post(func(actx context.Context) { e.doorGame(actx, table, game, players) })
	return nil
}

// doorOpen reports whether a door's games count in the event now.
func doorOpen(i Info) bool {
	return i.State == Running && i.Format == Arena && !i.Private && i.Who != People
}

// doorGame takes a game of the event's door (DoorGame).
func (e *Event) doorGame(actx context.Context, table, game string, players []lobby.Player) {
	r := &e.rec
	if !doorOpen(*e.info.Load()) {
		return
	}
	counted := false
	for _, p := range players {
		if !p.Bot || lobby.IsBuiltinBot(p.ID) {
			continue // a person who sat in at the door plays the event at its own tables
		}
		if i := r.entrant(p.ID); i >= 0 {
			counted = counted || r.Entrants[i].Door
			continue
		}
		if len(r.Entrants) >= e.reg.cfg.MaxEntrants {
			continue
		}
		r.Entrants = append(r.Entrants, Entrant{ID: p.ID, Bot: true, Door: true, Joined: e.reg.cfg.Clock.Now().UTC()})
		counted = true
	}
	if !counted {
		return
	}
	if !strings.EqualFold(r.Door, table) {
		r.Door = table
	}
	r.DoorGames = append(r.DoorGames, game)
	e.pending[game], e.door[game] = true, true
	e.fetch([]string{game})
	e.doorSoon()
}

// doorGot takes the result of a game at the door: its players'
// ratings are read again, and the standings made again, with the next
// batch (doorSoon): a door deals many short games, and the event's other
// tables go on unslowed.
func (e *Event) doorGot(r Result) {
	for _, id := range r.Players {
		e.doorRate[id] = true
	}
	e.doorSoon()
}

// doorSoon saves the record and shows the standings within a second,
// once for all the games at the door meanwhile.
func (e *Event) doorSoon() {
	if e.timers[timerDoor] != nil {
		return
	}
	e.after(timerDoor, doorBatch, func(actx context.Context) {
		if len(e.doorRate) > 0 {
			ids := make([]string, 0, len(e.doorRate))
			for id := range e.doorRate {
				ids = append(ids, id)
			}
			clear(e.doorRate)
			e.loadRatings(ids)
		}
		e.save(actx)
		e.safeSettle(actx)
	})
}

// doorBatch is how long games at the door gather before the event saves
// and shows them.
const doorBatch = time.Second
