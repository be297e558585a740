package lobby

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// kindsOf is every exported sentinel and error type of the package, with
// its kind. TestEveryErrorHasAKind reads the package's source and fails
// on one missing here: a new error gets a kind (NewError, Errorf, or a
// Kind method on its type) and a line here.
var kindsOf = []struct {
	name string
	err  error
	kind ErrorKind
}{
	{"ErrNoTable", ErrNoTable, NotFound},
	{"ErrTableExists", ErrTableExists, Refused},
	{"ErrBadSeats", ErrBadSeats, Refused},
	{"ErrTableFull", ErrTableFull, Refused},
	{"ErrSeated", ErrSeated, Refused},
	{"ErrNotSeated", ErrNotSeated, Refused},
	{"ErrNotHost", ErrNotHost, Refused},
	{"ErrGameRunning", ErrGameRunning, Refused},
	{"ErrNoGame", ErrNoGame, Refused},
	{"ErrTooFewPlayers", ErrTooFewPlayers, Refused},
	{"ErrTableClosed", ErrTableClosed, NotFound},
	{"ErrChatFlood", ErrChatFlood, Refused},
	{"ErrEmptyMessage", ErrEmptyMessage, Refused},
	{"ErrLobbyClosed", ErrLobbyClosed, Unavailable},
	{"ErrNotYourGameAct", ErrNotYourGameAct, Refused},
	{"ErrNoPerson", ErrNoPerson, NotFound},
	{"ErrBadName", ErrBadName, Refused},
	{"ErrBadTableName", ErrBadTableName, Refused},
	{"ErrNameChars", ErrNameChars, Refused},
	{"ErrNameLong", ErrNameLong, Refused},
	{"ErrNameDash", ErrNameDash, Refused},
	{"ErrNameNoLetter", ErrNameNoLetter, Refused},
	{"ErrBotName", ErrBotName, Refused},
	{"ErrReservedName", ErrReservedName, Refused},
	{"ErrBadInvite", ErrBadInvite, Refused},
	{"ErrPublic", ErrPublic, Refused},
	{"ErrMember", ErrMember, Refused},
	{"ErrNotMember", ErrNotMember, NotFound},
	{"ErrKickHost", ErrKickHost, Refused},
	{"ErrDriven", ErrDriven, Refused},
	{"ErrNotDriven", ErrNotDriven, Refused},
	{"ErrDrivenClose", ErrDrivenClose, Refused},
	{"ErrEventSeats", ErrEventSeats, Refused},
	{"ErrTooManyEvents", ErrTooManyEvents, Refused},
	{"ErrTooManyEventsHere", ErrTooManyEventsHere, Refused},
	{"ErrSeedTooLate", ErrSeedTooLate, Refused},
	{"ErrTooManySeeds", ErrTooManySeeds, Refused},
	{"ErrScriptedDice", ErrScriptedDice, Refused},
	{"ErrPaused", ErrPaused, Unavailable},
	{"ErrUnsaved", ErrUnsaved, Unavailable},
	{"ErrStorageFailing", ErrStorageFailing, Unavailable},
	{"StorageFault", &StorageFault{Reason: "the server's disk is full"}, Unavailable},
	{"UnsavedError", &UnsavedError{Fault: &StorageFault{Reason: "the server's disk is full"}}, Unavailable},
	{"ErrPublicLink", ErrPublicLink, Refused},
	{"ErrBadUDPBan", ErrBadUDPBan, Refused},
	{"ErrRemoved", ErrRemoved, Refused},
	{"ErrTooManyTables", ErrTooManyTables, Refused},
	{"ErrTooManyTablesHere", ErrTooManyTablesHere, Refused},
	{"ErrTooManyBotTablesHere", ErrTooManyBotTablesHere, Refused},
	{"ErrTooManyBotTables", ErrTooManyBotTables, Refused},
	{"ErrTooManySolvesHere", ErrTooManySolvesHere, Refused},
	{"ErrTooManySolves", ErrTooManySolves, Refused},
	{"Error", NewError(Refused, "a sentence"), Refused},
	{"NameError", &NameError{Rule: ErrNameLong, Name: "abcdefghijklmnopq", Max: MaxNameLen}, Refused},
	{"LookalikeError", &LookalikeError{Rule: ErrTableExists, Name: "bil1", Taken: "bill"}, Refused},
	{"HostStartsError", &HostStartsError{Host: "ann"}, Refused},
	{"ChatFloodError", &ChatFloodError{Text: "hi", Wait: time.Second}, Refused},
	{"EndError", &EndError{Why: ErrRemoved, Table: "club", By: "ann"}, Refused},
	{"LimitError", &LimitError{Rule: ErrTooManyTables, Limit: 10}, Refused},
}

// TestEveryErrorHasAKind: every exported sentinel and error type of the
// package has a kind, and not Internal (an error the lobby returns on
// purpose is one a door answers with its sentence); the sentence shown is
// the error's own.
func TestEveryErrorHasAKind(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range kindsOf {
		listed[c.name] = true
		if got := KindOf(c.err); got != c.kind || got == Internal {
			t.Errorf("%s is %v, want %v", c.name, got, c.kind)
		}
		if _, ok := c.err.(kinded); !ok {
			t.Errorf("%s has no Kind method", c.name)
		}
		if got := Shown(c.err); got != c.err.Error() || got == "" {
			t.Errorf("%s is shown as %q, want its sentence %q", c.name, got, c.err.Error())
		}
		if Hides(c.err) {
			t.Errorf("%s: Hides, want shown as it is", c.name)
		}
		if typ := reflect.TypeOf(c.err); !strings.HasPrefix(c.name, "Err") && typ.Elem().Name() != c.name {
			t.Errorf("the example of %s is a %v", c.name, typ)
		}
	}
	declared, err := lobbytest.ErrorsDeclared(".", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) < 10 {
		t.Fatalf("read %d errors from the source: %v", len(declared), declared)
	}
	for _, n := range declared {
		if !listed[n] {
			t.Errorf("%s is declared without a line in kindsOf: give it a kind (NewError, Errorf, or a Kind method) and list it", n)
		}
		delete(listed, n)
	}
	for n := range listed {
		t.Errorf("kindsOf lists %s, which the package does not declare", n)
	}
}

// stuck is a PendingWrite: a storage write still under way.
type stuck struct{ error }

func (stuck) Settled() <-chan struct{} { return nil }
func (stuck) Outcome() error           { return nil }

// TestShown: the kind and the sentence of errors as the doors meet them:
// wrapped with context for the logs, reworded, from the engine, from
// storage.
func TestShown(t *testing.T) {
	raw := errors.New("bbolt: write /data/mia.db: input/output error")
	ruleErr := error(&engine.RuleError{Rule: engine.ErrNotYourTurn, Action: engine.Action{Kind: engine.Roll}})
	opts := engine.DefaultOptions()
	opts.Lives = 99
	optErr := opts.Validate()
	for _, c := range []struct {
		name  string
		err   error
		kind  ErrorKind
		shown string
		hides bool
	}{
		{"a sentinel", ErrTableFull, Refused, "every seat is taken", false},
		{"wrapped for the logs", fmt.Errorf("save table club: %w", ErrNotHost), Refused, "only the table's host may do that", false},
		{"wrapped twice", fmt.Errorf("x: %w", fmt.Errorf("y: %w", ErrNoTable)), NotFound, "no such table", false},
		{"storage in lobby terms", fmt.Errorf("%w: %w", ErrTableExists, raw), Refused, "a table with that name is open already", false},
		{"a typed refusal, wrapped", fmt.Errorf("x: %w", &HostStartsError{Host: "ann", Seated: true}), Refused,
			"ann, the host, starts the game (anyone seated may while the host is away)", false},
		{"Errorf", Errorf(Refused, "%w: %q is not an address", ErrBadUDPBan, "x"), Refused,
			`not a Mäxchen bot's name nor a UDP address: "x" is not an address`, false},
		{"Reword", Reword(ErrNoTable, "no table %s here", "club"), NotFound, "no table club here", false},
		{"a reworded fault stays hidden", Reword(raw, "the disk said %v", raw), Internal, sayInternal, true},
		{"Unavailable with a sentence", fmt.Errorf("save the move: %w", ErrUnsaved), Unavailable, ErrUnsaved.Error(), false},
		{"a ctx that ended", fmt.Errorf("save table club: %w", context.DeadlineExceeded), Unavailable, sayUnavailable, true},
		{"a ctx canceled", context.Canceled, Unavailable, sayUnavailable, true},
		{"a write under way", fmt.Errorf("save new game: %w", stuck{raw}), Unavailable, sayUnavailable, true},
		{"the lobby's test store held", &lobbytest.Held{}, Unavailable, sayUnavailable, true},
		{"a fault", fmt.Errorf("save table club: %w", raw), Internal, sayInternal, true},
		{"a fault made here", errRequestPanicked, Internal, sayInternal, true},
		{"a move the rules refuse", fmt.Errorf("x: %w", ruleErr), Refused, ruleErr.Error(), false},
		{"an option", optErr, Refused, optErr.Error(), false},
		{"a seed too long", fmt.Errorf("x: %w", fair.ErrSeedTooLong), Refused, fair.ErrSeedTooLong.Error(), false},
		{"a bad seed", fair.ErrBadPlayerSeed, Refused, fair.ErrBadPlayerSeed.Error(), false},
		{"the engine's seats", engine.ErrBadSeats, Refused, engine.ErrBadSeats.Error(), false},
		{"an event that does not follow", engine.ErrBadEvent, Internal, sayInternal, true},
		{"nil", nil, Internal, "", false},
	} {
		if got := KindOf(c.err); got != c.kind {
			t.Errorf("%s: KindOf = %v, want %v", c.name, got, c.kind)
		}
		if got := Shown(c.err); got != c.shown {
			t.Errorf("%s: Shown = %q, want %q", c.name, got, c.shown)
		}
		if got := Hides(c.err); got != c.hides {
			t.Errorf("%s: Hides = %t, want %t", c.name, got, c.hides)
		}
		if c.err != nil && c.hides && strings.Contains(Shown(c.err), "bbolt") {
			t.Errorf("%s: the raw text is shown", c.name)
		}
	}
	// Errorf and Reword keep what they wrap for errors.Is and errors.As.
	if err := Errorf(Refused, "%w: x", ErrBadUDPBan); !errors.Is(err, ErrBadUDPBan) {
		t.Errorf("Errorf does not wrap: %v", err)
	}
	var ne *NameError
	if err := Reword(CheckName("-x"), "nope"); !errors.As(err, &ne) || !errors.Is(err, ErrBadName) {
		t.Errorf("Reword does not wrap: %v", err)
	}
	if err := Reword(raw, "the disk said %v", raw); err != raw {
		t.Errorf("Reword of a fault: %v, want it as it is", err)
	}
	if err := Reword(nil, "nothing"); err != nil {
		t.Errorf("Reword(nil) = %v", err)
	}
	if err := Errorf(Refused, "no wrap %d", 1); errors.Unwrap(err) != nil || err.Error() != "no wrap 1" {
		t.Errorf("Errorf without %%w: %v wraps %v", err, errors.Unwrap(err))
	}
	for k, want := range map[ErrorKind]string{Internal: "internal", Refused: "refused", NotFound: "not found", Unavailable: "unavailable"} {
		if k.String() != want {
			t.Errorf("Kind(%d) = %q, want %q", k, k.String(), want)
		}
	}
}

// namedErr names its kind, as an error of a package that may not import
// the lobby does (sshapp/verdict).
type namedErr struct{ kind, say string }

func (e namedErr) Error() string    { return e.say }
func (e namedErr) KindName() string { return e.kind }

// TestNamedKinds: an error that names its kind has it, and its sentence
// is shown; a name the lobby does not know is Internal, hidden.
func TestNamedKinds(t *testing.T) {
	for _, c := range []struct {
		err  namedErr
		kind ErrorKind
		says string
	}{
		{namedErr{"refused", "not here"}, Refused, "not here"},
		{namedErr{"not found", "no such"}, NotFound, "no such"},
		{namedErr{"unavailable", "later"}, Unavailable, "later"},
		{namedErr{"bogus", "secret"}, Internal, sayInternal},
	} {
		err := fmt.Errorf("context: %w", c.err)
		if KindOf(err) != c.kind || Shown(err) != c.says {
			t.Errorf("%v: %v %q, want %v %q", c.err, KindOf(err), Shown(err), c.kind, c.says)
		}
	}
	if err := fmt.Errorf("%w: %w", namedErr{"refused", "named"}, ErrNoTable); KindOf(err) != NotFound || Shown(err) != ErrNoTable.Error() {
		t.Errorf("a lobby error wrapped beside a named one: %v %q", KindOf(err), Shown(err))
	}
}
