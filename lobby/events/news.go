package events

import (
	"context"
	"slices"
	"time"

	"github.com/mia-game/mia/lobby"
)

// The events' news goes out through the lobby's one door (Lobby.Publish),
// beside the tables': event.opened as an event is made, event.started as
// it begins (and event.calls to the people who entered and are not at
// it: it seats only those there), event.ended once it came to its end
// and its standings are final. Of a private event it reaches whom the
// event admits only, as a private table's news does (the server's
// webhooks hear none of it). An entrant seated at one of its tables
// hears that table's own news (a game of theirs started), as at any
// table.

// newsOf is news of kind k about the event of record r, as it is now.
func newsOf(r *Record, k lobby.NewsKind, now time.Time) lobby.News {
	ev := &lobby.NewsEvent{Name: r.Name, Format: string(r.Format), Rounds: r.Rounds, Lasts: r.Lasts,
		StartsAt: r.StartsAt, Ends: r.Ends}
	for _, en := range r.Entrants {
		if !en.Left {
			ev.Entrants++
		}
	}
	n := lobby.News{Kind: k, At: now.UTC(), Event: ev, Access: r.Access(), Host: r.Host, Seats: r.Seats, Rules: r.Rules}
	n.Access.Members = slices.Clone(r.Members)
	return n
}

// tellStarted publishes event.started, and calls the people who entered
// and are not at it (event.calls): it seats only those who are.
func (e *Event) tellStarted() {
	now := e.reg.cfg.Clock.Now()
	news := []lobby.News{newsOf(&e.rec, lobby.NewsEventStarted, now)}
	if calls, ok := e.calls(now, 0); ok {
		news = append(news, calls)
	}
	e.reg.cfg.Lobby.Publish(news...)
}

// tellRound calls the people in a Swiss event who are away as one of its
// rounds after the first begins (event.calls, with the round): they sit
// it out, and the next seats them once they are there. Nobody is called
// as the last round begins: no round is left to seat them in. (A
// knockout's later rounds seat whoever goes on, there or not: they hear
// their table's game.started.)
func (e *Event) tellRound() {
	if e.rec.Format != Swiss || e.rec.Round <= 1 || e.rec.Round >= e.rec.Rounds {
		return
	}
	if calls, ok := e.calls(e.reg.cfg.Clock.Now(), e.rec.Round); ok {
		e.reg.cfg.Lobby.Publish(calls)
	}
}

// calls is event.calls to the people in the event who are not at it (of
// the round, 0 for its start); ok is false when there are none.
func (e *Event) calls(now time.Time, round int) (lobby.News, bool) {
	calls := newsOf(&e.rec, lobby.NewsEventCalls, now)
	calls.Event.Round = round
	for _, en := range e.rec.Entrants {
		if !en.Left && !en.Bot && !en.Door && !e.here(en) {
			calls.To = append(calls.To, en.ID)
		}
	}
	return calls, len(calls.To) > 0
}

// tellEnded publishes event.ended once the event's end is yet to be told
// (Record.Untold) and its standings are final (info), with its champion;
// a save keeps that it was told.
func (e *Event) tellEnded(info *Info) {
	if !e.rec.Untold || !info.Final {
		return
	}
	e.rec.Untold = false
	n := newsOf(&e.rec, lobby.NewsEventEnded, e.reg.cfg.Clock.Now())
	if c := info.Champion; c != nil {
		n.Winner, n.Event.Points, n.Event.Bot = c.ID, c.Points, c.Bot
	}
	e.reg.cfg.Lobby.Publish(n)
	e.after(timerSave, 0, func(actx context.Context) { e.save(actx) })
}
