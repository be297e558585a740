package events

import "github.com/mia-game/mia/lobby"

// Errors of events (their kinds: lobby.ErrorKind).
var (
	// ErrNoEvent: no event of that name, or a private one that does not
	// admit the asker: the same answer, as for tables.
	ErrNoEvent     = lobby.NewError(lobby.NotFound, "no such event")
	ErrEventExists = lobby.NewError(lobby.Refused, "an event with that name is open already")
	ErrNotHost     = lobby.NewError(lobby.Refused, "only the event's host may do that")
	ErrJoined      = lobby.NewError(lobby.Refused, "you are in this event already")
	ErrNotEntrant  = lobby.NewError(lobby.Refused, "you are not in this event: join it first (event join NAME)")
	ErrOver        = lobby.NewError(lobby.Refused, "the event is over")
	ErrBegun       = lobby.NewError(lobby.Refused, "the knockout has begun: nobody joins it now")
	ErrRunning     = lobby.NewError(lobby.Refused, "the event runs already")
	ErrBotsOnly    = lobby.NewError(lobby.Refused, "this event is for bots only: a bot joins with  ssh -T HOST bot --event NAME")
	ErrPeopleOnly  = lobby.NewError(lobby.Refused, "this event is for people only: join it at a screen or with event join, not as a bot")
	// ErrAsPerson and ErrAsBot: an entrant sits as they joined, a person
	// or a bot.
	ErrAsPerson   = lobby.NewError(lobby.Refused, "you joined this event as a person: leave it first to enter it as a bot")
	ErrAsBot      = lobby.NewError(lobby.Refused, "you joined this event as a bot: it seats you through your bot")
	ErrFull       = lobby.NewError(lobby.Refused, "the event has as many entrants as one event takes")
	ErrBadInvite  = lobby.NewError(lobby.NotFound, "no private event of that name takes that invite code")
	ErrPublic     = lobby.NewError(lobby.Refused, "the event is public: anyone may join it and watch it, no invite or link needed")
	ErrBadSetting = lobby.NewError(lobby.Refused, "not a setting an event takes")
	ErrClosing    = lobby.NewError(lobby.Unavailable, "the server is shutting down")
	// ErrNoDoor: a game at a door (the Mäxchen gateway's table) counts
	// only in a public arena that runs and takes bots.
	ErrNoDoor = lobby.NewError(lobby.Refused, "the event takes no games from a door: only a public arena that runs and takes bots does")
	// ErrUnsaved: the change is made, but storage did not save it in
	// time: it is tried again, and a restart before that loses it.
	ErrUnsaved = lobby.NewError(lobby.Unavailable, "the server's storage did not answer in time: it saves this as soon as it does")
)
