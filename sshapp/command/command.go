// Package command is the command router of PROTOCOL.md §1,
// `ssh HOST COMMAND ARGS…`, and one file per command.
//
// Room: under sshapp, beside the server, which runs the router for each
// session with a command, and the bot line protocol, which the bot
// command runs. It may import lobby (and lobby/ai, lobby/ident, lobby/words), engine (and
// engine/fair, to verify a game's dice, and engine/rating), store (record types: its storage
// comes through the Players, Records and Backups interfaces of its
// Config), store/lobbystore (the history filter of the lobby's access
// rule), sshapp/botline and sshapp/alerts (its types: the alerts come
// through the Alerts interface of its Config); never sshapp, sshapp/tui or
// sshapp/maexchen.
package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// Exit statuses of commands (PROTOCOL.md §1).
const (
	ExitOK      = 0 // success
	ExitRefused = 1 // a refused request; the reason is on stderr
	ExitUsage   = 2 // a usage error; the usage is on stderr
)

// CommandTimeout bounds one command.
const CommandTimeout = 30 * time.Second

// Command is one entry of the router: `ssh HOST NAME ARGS…`. The help text
// is generated from the table of commands.
type Command struct {
	// Name is the first word.
	Name string
	// Args is the rest of the usage line: "NEW", "[PLAYER]".
	Args string
	// Summary is a line for help.
	Summary string
	// JSON is set when the command takes --json (anywhere among its args).
	JSON bool
	// Anonymous commands run for a key that is nobody's yet (before its
	// first name); the others are refused until then.
	Anonymous bool
	// More writes what `help NAME` says after the usage and summary
	// (nil: nothing more).
	More func(c *Call)
	// Run does the work and returns the exit status. Output goes to
	// c.Stdout; refusals go through c.Refuse and usage errors through
	// c.Usage.
	Run func(ctx context.Context, c *Call) int
}

// argsOf is a usage line's words after the command's name, but --json
// (which Command.JSON adds): the Args of a command whose usage, with its
// flags, is written once.
func argsOf(usage string) string {
	_, args, _ := strings.Cut(usage, " ")
	return strings.TrimSuffix(args, " [--json]")
}

func (cmd *Command) usage() string {
	u := cmd.Name
	if cmd.Args != "" {
		u += " " + cmd.Args
	}
	if cmd.JSON {
		u += " [--json]"
	}
	return u
}

// Session is the caller's SSH session as the commands need it. The
// server's sessions implement it.
type Session interface {
	ssh.Session
	// Key is the fingerprint of the key the session logged in with.
	Key() string
	// Source is the network source the session came from, as the
	// lobby's caps by address count it (lobby.Player.Source): "" for one
	// they do not count.
	Source() string
	// Person is who the key belongs to, as last read or changed: ID ""
	// (and no name) for a key that is nobody's yet.
	Person() store.Person
	// SetPerson records the caller's person after a change (keys).
	SetPerson(p store.Person)
	// Rename validates and stores the caller's name (a key that is
	// nobody's becomes a new person's) and makes it the session's; every
	// screen showing them shows it at once. Its errors have kinds
	// (lobby.ErrorKind): a refusal's sentence is what the person reads.
	Rename(ctx context.Context, name string) (store.Person, error)
	// Hint is the ssh command line that reaches the server, with extra
	// flags ("-t"): "ssh -t -p 23234 mia.example.org".
	Hint(flags string) string
	// Play runs the game screen on the session (it has a terminal),
	// straight to table if it is not "", or to the event's screen if
	// event is not "": the plain mode when the session wants it
	// (WantsPlain).
	Play(table, event string)
	// Plain runs the plain mode on the session, with a terminal or
	// without, straight to table if it is not "", or to the event's
	// standings if event is not "".
	Plain(table, event string)
	// GoodbyeReason is why the server ends the session, "" while it
	// does not.
	GoodbyeReason() string
	// Touch counts as input for the idle timeout.
	Touch()
	// Owed is the output written and not yet taken by the client (its
	// writes never block; see package outbox).
	Owed() int
	// Taken gets a token after the client took some of the output owed.
	Taken() <-chan struct{}
}

// Config is what the commands need from the server.
type Config struct {
	// Lobby is the live table registry; nil refuses the table commands.
	Lobby *lobby.Lobby
	// Events is the events; nil refuses the event commands.
	Events *events.Registry
	// Players is the player and table storage.
	Players Players
	// Records is the history, ratings and bans; nil refuses history,
	// replay, stats, leaderboard and ban.
	Records Records
	// Backups makes copies of the database; nil refuses backup.
	Backups Backups
	// UDPNames is the Mäxchen bots' names taken for their addresses; nil
	// refuses maexchen.
	UDPNames UDPNames
	// Log receives the commands' logs.
	Log *log.Logger
	// Now is the clock.
	Now func() time.Time
	// Season is how the boards are cut into seasons (--season): the
	// season leaderboard and stats show by default.
	Season rating.Period
	// IsAdmin reports whether a key is a server admin's.
	IsAdmin func(fingerprint string) bool
	// EndSessions says goodbye to every open session of a key or of a
	// person (by fingerprint or id), but keep's, and returns how many
	// there were (ban, keys).
	EndSessions func(target, reason string, keep Session) int
	// Bots is the bot line protocol's config (bot); its Log and Lobby are
	// filled in from this one.
	Bots botline.Config
	// Web is the web window's addresses; nil: the server has no web window
	// (table link is refused, no command prints a game's link).
	Web WebLinks
	// Cast writes a finished game as an asciicast v2 recording of the
	// replay screen (tui.WriteCast); nil: replay --cast is refused.
	Cast func(w io.Writer, g store.Game, evs []engine.Event) error
	// Judge gives the verdicts on finished games' moves (replay, stats);
	// nil: none are given.
	Judge *verdict.Judge
	// Alerts are the tables' hooks, the watches and the invitations to a
	// person (sshapp/alerts); nil: table hook, table watch and table
	// invite NAME PERSON are refused.
	Alerts Alerts
}

// WebLinks are the web window's addresses, as the commands print them.
type WebLinks interface {
	// Event is the address of an event's wall on the web, as Table (a
	// private event's opens with its link's token, when a holds it).
	Event(name string, a lobby.Access) string
	// Table is the address that opens the table on the web to whoever
	// holds it (with the link's token for a private table), "" when
	// nothing opens it there (a private table without a link).
	Table(name string, a lobby.Access) string
	// Game is the address of a game's page printed beside the game, ""
	// when none is (no public address set, or a game the web does not
	// show).
	Game(id string, g lobby.GameAccess) string
}

// Router holds the commands by name, in the order of help. Make it with
// New.
type Router struct {
	cfg    Config
	byName map[string]*Command
	order  []string
}

// New makes the router of PROTOCOL.md §1.
func New(cfg Config) *Router {
	cfg.Bots.Lobby, cfg.Bots.Log, cfg.Bots.Events = cfg.Lobby, cfg.Log, cfg.Events
	r := &Router{cfg: cfg, byName: make(map[string]*Command)}
	for _, cmd := range []Command{
		{Name: "help", Args: "[COMMAND]", Summary: "lists the commands", Anonymous: true, Run: runHelp},
		{Name: "whoami", Summary: "your name, keys, lives in current games, games played, rating", JSON: true, Anonymous: true, Run: runWhoami},
		{Name: "name", Args: "NEW", Summary: "sets or changes your name (1-16 of A-Z a-z 0-9 _ . -)", JSON: true, Anonymous: true, Run: runName},
		keysCommand,
		{Name: "tables", Summary: "open tables: name, host, seats taken/total, state, rules", JSON: true, Run: runTables},
		{Name: "play", Args: "[TABLE | --event NAME]", Summary: "the game screen (needs ssh -t); with TABLE, straight to that table; --event, an event's screen", Anonymous: true, Run: runPlay},
		plainCommand,
		tableCommand,
		eventsCommand,
		eventCommand,
		rulesCommand,
		joinCommand,
		historyCommand,
		replayCommand,
		verifyCommand,
		seedCommand,
		statsCommand,
		leaderboardCommand,
		ratingsCommand,
		settingsCommand,
		banCommand,
		unbanCommand,
		maexchenCommand,
		backupCommand,
		{Name: "bot", Args: "[TABLE | --event NAME]", Summary: "the bot line protocol on this channel (use ssh -T); --event: an event's tables", Anonymous: true, Run: runBot},
	} {
		r.Handle(cmd)
	}
	return r
}

// Handle adds a command, or replaces the one of the same name (keeping its
// place in help). Call it before the server serves.
func (r *Router) Handle(cmd Command) {
	if _, ok := r.byName[cmd.Name]; !ok {
		r.order = append(r.order, cmd.Name)
	}
	r.byName[cmd.Name] = &cmd
}

// Call is one run of a command.
type Call struct {
	// Args are the words after the command's name, --json taken out.
	Args []string
	// JSON asks for one JSON document on Stdout.
	JSON bool
	// Person is the caller: ID "" and no name for a key that is nobody's
	// yet.
	Person store.Person
	// Key is the fingerprint of the key the caller logged in with.
	Key string
	// Admin is set for a server admin's key.
	Admin bool
	// Stdout and Stderr are the session's streams.
	Stdout, Stderr io.Writer
	// Session is the SSH session (its terminal size is clamped).
	Session Session

	cfg   *Config
	r     *Router
	cmd   *Command
	plain bool // run within the plain mode (RunWithin): said, not drawn
}

// Refuse writes "mia: REASON" to stderr and returns ExitRefused.
func (c *Call) Refuse(format string, args ...any) int {
	fmt.Fprintf(c.Stderr, "mia: "+format+"\n", args...)
	return ExitRefused
}

// fail answers a request that failed with err: the one place where a
// command's errors become an exit status and a sentence, by their kind
// (lobby.ErrorKind). Every kind exits ExitRefused (PROTOCOL.md §1: 1 is a
// request not done, whatever the reason) and writes lobby.Shown's
// sentence: a refusal's own reason ("every seat is taken"), a fixed
// sentence for a fault or a storage that does not answer, whose error is
// logged (lobby.LogHidden) with what the command was doing (what: "save
// the table") and who asked.
func (c *Call) fail(what string, err error) int {
	lobby.LogHidden(c.cfg.Log, err, "could not "+what, "command", c.cmd.Name, "person", c.Person.ID, "key", c.Key)
	return c.Refuse("%s", lobby.Shown(err))
}

// Usage writes what is wrong with the command's words (wrongWords), then
// its usage, to stderr and returns ExitUsage.
func (c *Call) Usage() int {
	return c.usageSaying(c.cmd.usage(), wrongWords(c.cmd.Name, c.cmd.Args, c.Args))
}

// usageSaying is every usage error's voice (PROTOCOL.md §1): "mia: WHAT"
// on stderr, then the usage; it returns ExitUsage.
func (c *Call) usageSaying(usage, what string) int {
	fmt.Fprintln(c.Stderr, "mia: "+what)
	writeUsage(c.Stderr, c.Session.Hint(""), usage)
	return ExitUsage
}

// WriteJSON writes v as one JSON document and returns ExitOK.
func (c *Call) WriteJSON(v any) int {
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return c.fail("write the answer", err)
	}
	return ExitOK
}

// Hint is the command line that runs words on this server, as the
// caller would type it: "ssh -p 23234 mia.example.org name NEW" (within
// the plain mode, the words alone).
func (c *Call) Hint(words string) string {
	return strings.TrimSpace(c.Session.Hint("") + " " + words)
}

// Run routes a command line (args[0] is the command) and returns its exit
// status.
func (r *Router) Run(s Session, args []string) int { return r.run(s, args, false) }

// run is Run, within the plain mode when plain is set (RunWithin).
func (r *Router) run(s Session, args []string, plain bool) (code int) {
	p := s.Person()
	cmd := r.byName[args[0]]
	if cmd == nil {
		return noCommand(s, args[0])
	}
	c := &Call{
		Args: args[1:], Person: p, Key: s.Key(), Admin: r.cfg.IsAdmin(s.Key()),
		Stdout: s, Stderr: s.Stderr(), Session: s, cfg: &r.cfg, r: r, cmd: cmd, plain: plain,
	}
	if cmd.JSON {
		c.Args, c.JSON = stripFlag(c.Args, "--json")
	}
	if !cmd.Anonymous && p.ID == "" {
		return c.Refuse("choose a name first:  %s", c.Hint("name NEW"))
	}
	defer func() {
		if rec := recover(); rec != nil {
			r.cfg.Log.Error("command panicked", "command", cmd.Name, "panic", rec, "stack", string(debug.Stack()))
			code = c.Refuse("%s", lobby.Shown(errPanicked)) // logged above, with the stack
		}
	}()
	ctx, cancel := context.WithTimeout(s.Context(), CommandTimeout)
	defer cancel()
	return cmd.Run(ctx, c)
}

// noCommand answers a command the server does not have, a usage error:
// one line, and the command that lists them (not the list itself).
func noCommand(s Session, name string) int {
	fmt.Fprintf(s.Stderr(), "mia: unknown command %q; the list of commands:  %s\n", words.Echo(name), strings.TrimSpace(s.Hint("")+" help"))
	return ExitUsage
}

// errPanicked answers a command that panicked.
var errPanicked = lobby.NewError(lobby.Internal, "the command panicked")

// stripFlag takes every flag out of args and reports whether it was there.
func stripFlag(args []string, flag string) ([]string, bool) {
	out := args[:0:0]
	found := false
	for _, a := range args {
		if a == flag {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// writeHelp writes the list of commands, in 80 columns.
func (r *Router) writeHelp(w io.Writer, s Session) {
	fmt.Fprintf(w, "Mia, the dice bluffing game, over SSH.\n\n")
	fmt.Fprintf(w, "Play:      %s\n", s.Hint("-t"))
	fmt.Fprintf(w, "Commands:  %s COMMAND [ARGS]\n\n", s.Hint(""))
	for _, name := range r.order {
		cmd := r.byName[name]
		lines := usageLines(" ", cmd.usage()) // "  USAGE", its next lines indented
		for _, l := range lines[:len(lines)-1] {
			fmt.Fprintln(w, l)
		}
		writeColumns(w, lines[len(lines)-1], cmd.Summary, helpColumn)
	}
	fmt.Fprintf(w, "\nExit status: 0 done, 1 refused (reason on stderr), 2 usage error.\n")
	fmt.Fprintf(w, "More on one command:  %s\n", s.Hint("")+" help COMMAND")
}

// helpColumn is where help's summaries start.
const helpColumn = 30
