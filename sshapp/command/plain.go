package command

import (
	"context"
	"io"
	"strings"

	"github.com/charmbracelet/ssh"
	"github.com/mia-game/mia/store"
)

// plainCommand is `plain [play TABLE]`: the plain mode, whatever the
// setting and the environment say.
var plainCommand = Command{
	Name: "plain",
	Args: "[play TABLE | play --event NAME]",
	Summary: "the plain mode for screen readers and simple terminals: lines one after another, never redrawn, " +
		"a line typed at a time (best with ssh -t); with play TABLE, straight to that table; with play --event, to the event",
	Anonymous: true,
	Run:       runPlain,
}

func runPlain(_ context.Context, c *Call) int {
	table, event := "", ""
	switch {
	case len(c.Args) == 0:
	case len(c.Args) == 2 && c.Args[0] == "play" && !strings.HasPrefix(c.Args[1], "-"):
		table = c.Args[1]
	case len(c.Args) == 3 && c.Args[0] == "play" && (c.Args[1] == "--event" || c.Args[1] == "-event"):
		event = c.Args[2]
	default:
		return c.Usage()
	}
	c.Session.Plain(table, event)
	return ExitOK
}

// Accessible reports whether an environment asks for the plain mode:
// ACCESSIBLE set (ssh -o SetEnv=ACCESSIBLE=1), to anything but "", 0,
// false, no or off, as the accessible modes of gh and huh read it.
func Accessible(env []string) bool {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "ACCESSIBLE="); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "", "0", "false", "no", "off":
				return false
			}
			return true
		}
	}
	return false
}

// WantsPlain reports whether a session of person p is the plain mode
// rather than the screens: its environment asks for it (Accessible), or
// p keeps the plain setting (settings plain on).
func WantsPlain(s ssh.Session, p store.Person) bool {
	return p.Settings.Plain || Accessible(s.Environ())
}

// RunWithin runs a command line for a door that says its output itself
// (the plain mode): as Run does, its output in out and errOut, and a
// command it says to type said as typed there, without the ssh before
// it; its text says in words what it would draw (stats' sparklines).
func (r *Router) RunWithin(s Session, out, errOut io.Writer, args []string) int {
	return r.run(within{Session: s, out: out, errOut: errOut}, args, true)
}

// within is a session whose output a door takes (RunWithin).
type within struct {
	Session
	out, errOut io.Writer
}

func (w within) Write(p []byte) (int, error) { return w.out.Write(p) }

func (w within) Stderr() io.ReadWriter {
	return struct {
		io.Reader
		io.Writer
	}{strings.NewReader(""), w.errOut}
}

// Hint is "": a command is typed there as it is.
func (within) Hint(string) string { return "" }
