// Package plain is the plain door: the linear mode for screen readers and
// simple terminals. It writes lines, one after another, never redrawn: no
// alternate screen, no cursor movement, no box drawing, dice art or
// colour; each event of a game once, as one sentence with the important
// part first, in the narrator's words (lobby/words); the turn clock at 30
// and 10 seconds left, never each second. It reads a line at a time, with
// line editing on a terminal (golang.org/x/term's Terminal): the number
// of a choice it listed, or words. See its README.md.
//
// Room: under sshapp, a door like the screens beside it (sshapp/tui), not
// a variant of them. It may import lobby (and lobby/ai, lobby/words),
// engine and golang.org/x/term; never sshapp, its other rooms or store:
// the server runs it (Run) and gives it what it needs of the rest in its
// Config, the commands' lists (history, stats, leaderboard) among them.
package plain

import (
	"context"
	"io"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/verdict"
)

// Config is what one plain session needs from the server.
type Config struct {
	// Lobby is the live table registry; nil: the door says there is no
	// game here and offers the commands alone.
	Lobby *lobby.Lobby
	// Player is the person at the door: ID "" for a key that is nobody's
	// yet, which is asked for a name first (SetName).
	Player lobby.Player
	// SetName stores the name of a key that is nobody's yet (or a new
	// name), returning the person's id and name; its errors have kinds.
	SetName func(ctx context.Context, name string) (id, named string, err error)
	// Command runs a command of the server's router as this person
	// (PROTOCOL.md §1), its output in out and errOut and what it says to
	// type said as typed here (history, stats, leaderboard, rules,
	// settings, replay --json); nil: those words are refused.
	Command func(ctx context.Context, out, errOut io.Writer, args []string) int
	// Games reads a finished game's events: the end of a game the door
	// missed while the table started the next (a table of bots); nil:
	// that end is not told.
	Games func(ctx context.Context, id string) ([]engine.Event, error)
	// Table, when set, is where the door goes first (plain play TABLE).
	Table string
	// Event, when set, is the event the door tells first (plain play
	// --event NAME), in the lobby: an entrant is there from then on.
	Event string
	// Attend marks the person there at an event they are in while the
	// door follows it (event NAME, event join NAME): the event seats them
	// meanwhile. Nil: the door lists events and follows none.
	Attend func(ctx context.Context, event string) (Attendance, error)
	// Terminal: the session has a terminal (ssh -t): the door edits the
	// line typed (x/term), as a shell does. Without one, the client's
	// own terminal sends whole lines, which the door reads as they come.
	Terminal bool
	// Bye is closed when the server ends the session (shutdown, idle);
	// Goodbye is why. Nil: never.
	Bye     <-chan struct{}
	Goodbye func() string
	// BellOff, when set, reports whether the person turned the bell off
	// (settings bell off): a notice is then said without its BEL.
	BellOff func() bool
	// DropInvitation, when set, forgets the person's invitation to a
	// table once they took it (go), as the screens' list does.
	DropInvitation func(ctx context.Context, table string) error
	// Log receives the door's logs, each line with the key (the server's
	// one logger: a logger of its own is some 4 KB a session).
	Log *log.Logger
	// Clock times the turn clock's thresholds and the lines held while a
	// line is typed; lobby.RealClock if nil (tests share the lobby's).
	Clock lobby.Clock

	// Judge gives the coach's verdicts at a coached table, their solves
	// budgeted by the table's source (verdict.Judge.Coach); nil coaches
	// unbudgeted.
	Judge *verdict.Judge

	// coach judges a move at a coached table: Judge.Coach if nil (a
	// test's stand-in holds it).
	coach func(source string, coached bool, rules engine.Options, players int, seen []engine.Event, seat, seq int) (verdict.Decision, error)
}

// Run is the door on rw until the person quits, their input ends, the
// server says goodbye or ctx ends (the session's). It returns once its
// input reader is told to stop; the caller closes the session.
func Run(ctx context.Context, cfg Config, rw io.ReadWriter) {
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard)
	}
	if cfg.Clock == nil {
		cfg.Clock = lobby.RealClock{}
	}
	in := newInput(rw, cfg.Terminal)
	d := newDoor(ctx, cfg, in)
	stop := make(chan struct{})
	defer close(stop)
	go in.read(stop)
	d.run()
}
