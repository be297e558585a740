package alerts

import (
	"net/netip"
	"testing"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestErrorsHaveKinds: every error of the alerts has a kind, and the
// sentence the doors show is its own.
func TestErrorsHaveKinds(t *testing.T) {
	kinds := map[string]struct {
		err  error
		kind lobby.ErrorKind
	}{
		"ErrBadURL":         {ErrBadURL, lobby.Refused},
		"ErrBadFormat":      {ErrBadFormat, lobby.Refused},
		"ErrBadAllow":       {ErrBadAllow, lobby.Refused},
		"ErrNoTableHooks":   {ErrNoTableHooks, lobby.Refused},
		"ErrHostNotAllowed": {ErrHostNotAllowed, lobby.Refused},
		"ErrTooManyHooks":   {ErrTooManyHooks, lobby.Refused},
		"ErrNoHook":         {ErrNoHook, lobby.NotFound},
		"ErrURLTooLong":     {ErrURLTooLong, lobby.Refused},
		"ErrTooManyWatches": {ErrTooManyWatches, lobby.Refused},
		"ErrNotWatching":    {ErrNotWatching, lobby.NotFound},
		"ErrInvitedMember":  {ErrInvitedMember, lobby.Refused},
		"ErrNoInvitation":   {ErrNoInvitation, lobby.NotFound},
		"ErrNoStorage":      {ErrNoStorage, lobby.Unavailable},
		"AddressError":      {&AddressError{Addr: netip.MustParseAddr("127.0.0.1"), Why: "loopback"}, lobby.Refused},
	}
	declared, err := lobbytest.ErrorsDeclared(".", false)
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
		if got := lobby.Shown(c.err); got != c.err.Error() {
			t.Errorf("%s is shown as %q, not its sentence", n, got)
		}
		delete(kinds, n)
	}
	for n := range kinds {
		t.Errorf("%s is listed, not declared", n)
	}
}
