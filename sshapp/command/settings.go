package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/mia-game/mia/store"
)

// setting is one of a person's settings: a choice, on or off, kept with
// the person (store.Settings), the same from every key of theirs.
type setting struct {
	// Name is the word: `settings NAME on|off`.
	Name string
	// Says is what it does when on, for settings and help settings.
	Says string
	// Get reads it from the stored settings; Set changes it.
	Get func(store.Settings) bool
	Set func(*store.Settings, bool)
}

// settingsTable is every setting, in the order settings lists them: a
// new one is one more entry (and its field in store.Settings).
var settingsTable = []setting{
	{
		Name: "plain",
		Says: "the plain mode for screen readers and simple terminals: lines written one after another, " +
			"never redrawn, and you type a line at a time; every session of yours with no command, or play, " +
			"opens it instead of the screens",
		Get: func(s store.Settings) bool { return s.Plain },
		Set: func(s *store.Settings, on bool) { s.Plain = on },
	},
	{
		Name: "bell",
		Says: "a bell (BEL) with each notice on your screens: your game starts, your turn at a table you do not have " +
			"open, an invitation, a seat free at a table you watch; off, the notice shows without it",
		Get: func(s store.Settings) bool { return !s.BellOff },
		Set: func(s *store.Settings, on bool) { s.BellOff = !on },
	},
}

// settingsCommand is `settings [NAME on|off]`.
var settingsCommand = Command{
	Name:    "settings",
	Args:    "[NAME on|off]",
	Summary: "your settings, each on or off, kept for every key of yours; with NAME on|off, changes one",
	JSON:    true,
	More: func(c *Call) {
		for _, s := range settingsTable {
			writeColumns(c.Stdout, "  "+s.Name, s.Says, settingsColumn)
		}
	},
	Run: runSettings,
}

// settingsColumn is where the settings' words start.
const settingsColumn = 10

func runSettings(ctx context.Context, c *Call) int {
	var st store.Settings
	switch len(c.Args) {
	case 0:
		st = c.Person.Settings
	case 2:
		s, on, ok := parseSetting(c.Args[0], c.Args[1])
		if !ok {
			return c.Usage()
		}
		p, err := c.cfg.Players.ChangeSettings(ctx, c.Person.ID, func(v *store.Settings) { s.Set(v, on) })
		if err != nil {
			return c.fail("save the setting", err)
		}
		c.Session.SetPerson(p)
		st = p.Settings
		if !c.JSON {
			fmt.Fprintf(c.Stdout, "%s is %s now.\n", s.Name, onOff(on))
		}
	default:
		return c.Usage()
	}
	if c.JSON {
		doc := make(map[string]bool, len(settingsTable))
		for _, s := range settingsTable {
			doc[s.Name] = s.Get(st)
		}
		return c.WriteJSON(doc)
	}
	for _, s := range settingsTable {
		writeColumns(c.Stdout, fmt.Sprintf("%s %s", s.Name, onOff(s.Get(st))), s.Says, settingsColumn+4)
	}
	fmt.Fprintf(c.Stdout, "Change one:  %s\n", c.Hint("settings NAME on|off"))
	return ExitOK
}

// parseSetting reads `NAME on|off`; ok is false for a name no setting
// has or a value that is neither.
func parseSetting(name, value string) (s setting, on, ok bool) {
	for _, s := range settingsTable {
		if strings.EqualFold(s.Name, name) {
			switch strings.ToLower(value) {
			case "on":
				return s, true, true
			case "off":
				return s, false, true
			}
		}
	}
	return setting{}, false, false
}

// onOff is a setting's state in words.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
