package sshapp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/ssh"

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
	// Anonymous commands run before the player has chosen a name; the
	// others are refused until then.
	Anonymous bool
	// Run does the work and returns the exit status. Output goes to
	// c.Stdout; refusals go through c.Refuse and usage errors through
	// c.Usage.
	Run func(ctx context.Context, c *Call) int
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

// commandTable is the router: commands by name, in the order of help.
type commandTable struct {
	byName map[string]*Command
	order  []string
}

func (t *commandTable) add(cmd Command) {
	if t.byName == nil {
		t.byName = make(map[string]*Command)
	}
	if _, ok := t.byName[cmd.Name]; !ok {
		t.order = append(t.order, cmd.Name)
	}
	t.byName[cmd.Name] = &cmd
}

// Handle adds a command to the router, or replaces the one of the same
// name (keeping its place in help). Call it before Serve.
func (srv *Server) Handle(cmd Command) {
	srv.commands.add(cmd)
}

// builtinCommands is PROTOCOL.md §1.
func builtinCommands() commandTable {
	var t commandTable
	for _, cmd := range []Command{
		{Name: "help", Args: "[COMMAND]", Summary: "lists the commands", Anonymous: true, Run: runHelp},
		{Name: "whoami", Summary: "your name, fingerprint, lives in current games, games played", JSON: true, Anonymous: true, Run: runWhoami},
		{Name: "name", Args: "NEW", Summary: "sets or changes your display name (1-16 of A-Z a-z 0-9 _ . -)", JSON: true, Anonymous: true, Run: runName},
		{Name: "tables", Summary: "open tables: name, host, seats taken/total, state, rules", JSON: true, Run: runTables},
		{Name: "play", Args: "[TABLE]", Summary: "the game screen (needs ssh -t); with TABLE, straight to that table", Anonymous: true, Run: runPlay},
		tableCommand,
		joinCommand,
		historyCommand,
		replayCommand,
		statsCommand,
		leaderboardCommand,
		banCommand,
		unbanCommand,
		{Name: "bot", Args: "[TABLE]", Summary: "the bot line protocol on this channel (use ssh -T)", Anonymous: true, Run: runBot},
	} {
		t.add(cmd)
	}
	return t
}

// Call is one run of a command.
type Call struct {
	// Args are the words after the command's name, --json taken out.
	Args []string
	// JSON asks for one JSON document on Stdout.
	JSON bool
	// Player is the caller; Name is "" until they choose one.
	Player store.Player
	// Admin is set for a server admin's key.
	Admin bool
	// Stdout and Stderr are the session's streams.
	Stdout, Stderr io.Writer
	// Session is the SSH session (its terminal size is clamped).
	Session ssh.Session

	srv *Server
	cmd *Command
	ss  *session
}

// Server is the server running the command.
func (c *Call) Server() *Server { return c.srv }

// Refuse writes "mia: REASON" to stderr and returns ExitRefused.
func (c *Call) Refuse(format string, args ...any) int {
	fmt.Fprintf(c.Stderr, "mia: "+format+"\n", args...)
	return ExitRefused
}

// Usage writes the command's usage to stderr and returns ExitUsage.
func (c *Call) Usage() int {
	fmt.Fprintf(c.Stderr, "usage: %s %s\n", c.srv.hint(c.Session, ""), c.cmd.usage())
	return ExitUsage
}

// WriteJSON writes v as one JSON document and returns ExitOK.
func (c *Call) WriteJSON(v any) int {
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return c.Refuse("could not write the answer: %v", err)
	}
	return ExitOK
}

// Hint is the command line that runs words on this server, as the
// caller would type it: "ssh -p 23234 mia.example.org name NEW".
func (c *Call) Hint(words string) string {
	return c.srv.hint(c.Session, "") + " " + words
}

// runCommand routes a command line and returns its exit status.
func (srv *Server) runCommand(ss *session, args []string) (code int) {
	p := ss.Player()
	cmd := srv.commands.byName[args[0]]
	if cmd == nil {
		fmt.Fprintf(ss.Stderr(), "mia: unknown command %q\n\n", clean(args[0], 32))
		srv.writeHelp(ss.Stderr(), ss)
		return ExitUsage
	}
	c := &Call{
		Args: args[1:], Player: p, Admin: srv.IsAdmin(ss.fp),
		Stdout: ss, Stderr: ss.Stderr(), Session: ss, srv: srv, cmd: cmd, ss: ss,
	}
	if cmd.JSON {
		c.Args, c.JSON = stripFlag(c.Args, "--json")
	}
	if !cmd.Anonymous && p.Name == "" {
		return c.Refuse("choose a name first:  %s", c.Hint("name NEW"))
	}
	defer func() {
		if r := recover(); r != nil {
			srv.log.Error("command panicked", "command", cmd.Name, "panic", r, "stack", string(debug.Stack()))
			code = c.Refuse("internal error")
		}
	}()
	ctx, cancel := context.WithTimeout(ss.Context(), CommandTimeout)
	defer cancel()
	return cmd.Run(ctx, c)
}

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

// writeHelp writes the list of commands.
func (srv *Server) writeHelp(w io.Writer, s ssh.Session) {
	fmt.Fprintf(w, "Mia, the dice bluffing game, over SSH.\n\n")
	fmt.Fprintf(w, "Play:      %s\n", srv.hint(s, "-t"))
	fmt.Fprintf(w, "Commands:  %s COMMAND [ARGS]\n\n", srv.hint(s, ""))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, name := range srv.commands.order {
		cmd := srv.commands.byName[name]
		fmt.Fprintf(tw, "  %s\t%s\n", cmd.usage(), cmd.Summary)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nExit status: 0 done, 1 refused (reason on stderr), 2 usage error.\n")
}

func runHelp(_ context.Context, c *Call) int {
	switch len(c.Args) {
	case 0:
		c.srv.writeHelp(c.Stdout, c.Session)
		return ExitOK
	case 1:
		if strings.HasPrefix(c.Args[0], "-") {
			return c.Usage()
		}
		cmd := c.srv.commands.byName[c.Args[0]]
		if cmd == nil {
			return c.Refuse("no command %q; run help for the list", clean(c.Args[0], 32))
		}
		fmt.Fprintf(c.Stdout, "%s %s\n  %s\n", c.srv.hint(c.Session, ""), cmd.usage(), cmd.Summary)
		return ExitOK
	}
	return c.Usage()
}
