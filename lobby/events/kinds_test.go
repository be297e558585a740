package events_test

import (
	"testing"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestEventErrorsHaveKinds: every exported error of the package has a
// kind, which decides what each door answers.
func TestEventErrorsHaveKinds(t *testing.T) {
	kinds := map[string]struct {
		err  error
		kind lobby.ErrorKind
	}{
		"ErrNoEvent":     {events.ErrNoEvent, lobby.NotFound},
		"ErrEventExists": {events.ErrEventExists, lobby.Refused},
		"ErrNotHost":     {events.ErrNotHost, lobby.Refused},
		"ErrJoined":      {events.ErrJoined, lobby.Refused},
		"ErrNotEntrant":  {events.ErrNotEntrant, lobby.Refused},
		"ErrOver":        {events.ErrOver, lobby.Refused},
		"ErrBegun":       {events.ErrBegun, lobby.Refused},
		"ErrRunning":     {events.ErrRunning, lobby.Refused},
		"ErrBotsOnly":    {events.ErrBotsOnly, lobby.Refused},
		"ErrPeopleOnly":  {events.ErrPeopleOnly, lobby.Refused},
		"ErrAsPerson":    {events.ErrAsPerson, lobby.Refused},
		"ErrAsBot":       {events.ErrAsBot, lobby.Refused},
		"ErrFull":        {events.ErrFull, lobby.Refused},
		"ErrBadInvite":   {events.ErrBadInvite, lobby.NotFound},
		"ErrPublic":      {events.ErrPublic, lobby.Refused},
		"ErrBadSetting":  {events.ErrBadSetting, lobby.Refused},
		"ErrClosing":     {events.ErrClosing, lobby.Unavailable},
		"ErrNoDoor":      {events.ErrNoDoor, lobby.Refused},
		"ErrUnsaved":     {events.ErrUnsaved, lobby.Unavailable},
		"ErrTooManyBots": {events.ErrTooManyBots, lobby.Refused},
	}
	declared, err := lobbytest.ErrorsDeclared(".", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range declared {
		c, ok := kinds[n]
		if !ok {
			t.Errorf("%s is declared without a kind listed here: give it one (lobby.NewError) and list it", n)
			continue
		}
		if got := lobby.KindOf(c.err); got != c.kind {
			t.Errorf("%s is %v, want %v", n, got, c.kind)
		}
		delete(kinds, n)
	}
	for n := range kinds {
		t.Errorf("%s is listed, not declared", n)
	}
}
