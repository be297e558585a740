package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mia-game/mia/engine"
)

// flagSet is a command's flags, parsed by the standard flag package, its
// errors and usage written to the caller's stderr.
func (c *Call) flagSet(usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(c.cmd.Name, flag.ContinueOnError)
	fs.SetOutput(c.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(c.Stderr, "usage: %s %s\n", c.Session.Hint(""), usage)
		printFlags(c.Stderr, fs, "default")
	}
	return fs
}

// printFlags lists the flags as they are typed here, "--lives N", with
// their defaults: "(default 6)", or "(now 6)" when word is "now".
func printFlags(w io.Writer, fs *flag.FlagSet, word string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if arg != "" {
			name += " " + arg
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" {
			help += " (" + word + " " + def + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, help)
	})
	_ = tw.Flush()
}

// parseFlags parses args, flags and words in any order, and returns the
// words. An error was already written to stderr (with the usage).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		if rest[0] == "--" {
			return append(words, rest[1:]...), nil
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
}

// usageError writes a usage problem found after parsing and returns
// ExitUsage.
func (c *Call) usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(c.Stderr, "mia: "+format+"\n", args...)
	fs.Usage()
	return ExitUsage
}

// rulesFlags are the table options of RULES.md as flags, with the values
// of a base rule set as defaults: only the flags given change it.
type rulesFlags struct {
	fs          *flag.FlagSet
	o           engine.Options
	seats       int
	ranking     string
	nextOpener  string
	end         string
	pass        bool
	noPass      bool
	equalClaims bool
}

func addRulesFlags(fs *flag.FlagSet, base engine.Options, seats int) *rulesFlags {
	r := &rulesFlags{fs: fs, o: base, seats: seats, ranking: string(base.Ranking),
		nextOpener: string(base.NextOpener), end: string(base.End), pass: base.Pass, equalClaims: base.EqualClaims}
	names := make([]string, len(engine.Rankings))
	for i, rk := range engine.Rankings {
		names[i] = string(rk)
	}
	fs.IntVar(&r.o.Lives, "lives", base.Lives, fmt.Sprintf("lives per player, `N` from %d to %d", engine.MinLives, engine.MaxLives))
	fs.IntVar(&r.seats, "seats", seats, fmt.Sprintf("seats at the table, `N` from %d to %d", engine.MinSeats, engine.MaxSeats))
	fs.StringVar(&r.ranking, "ranking", r.ranking, "the order of the values, `R` one of "+strings.Join(names, ", "))
	fs.BoolVar(&r.pass, "pass", base.Pass, "a claim may be passed on without rolling")
	fs.BoolVar(&r.noPass, "no-pass", false, "no passing: every player rolls or challenges")
	fs.BoolVar(&r.equalClaims, "equal-claims", base.EqualClaims, "a claim may equal the last one (turns passing off)")
	fs.IntVar(&r.o.MiaPenalty, "mia-penalty", base.MiaPenalty, "lives lost for challenging a true Mia: `1|2`")
	fs.BoolVar(&r.o.MiaPenaltyBoth, "mia-penalty-both", base.MiaPenaltyBoth, "whoever loses a challenge of a Mia claim loses the Mia penalty")
	fs.StringVar(&r.nextOpener, "next-opener", r.nextOpener, "who opens after a lost life: `after-loser|loser`")
	fs.StringVar(&r.end, "end", r.end, "when the game ends: `last-standing|first-out`")
	fs.IntVar(&r.o.TurnSeconds, "turn-seconds", base.TurnSeconds, fmt.Sprintf("seconds a turn, `N` from %d to %d", engine.MinTurnSeconds, engine.MaxTurnSeconds))
	return r
}

// errPassFlags: --pass and --no-pass together.
var errPassFlags = errors.New("--pass and --no-pass contradict each other")

// rules is the rule set the flags ask for (not validated yet), and the
// seats. --equal-claims turns passing off unless --pass is given too
// (RULES.md: "at least equal" is allowed, and then pass is off), which
// the engine then refuses.
func (r *rulesFlags) rules() (engine.Options, int, error) {
	set := map[string]bool{}
	r.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o := r.o
	o.Ranking, o.NextOpener, o.End = engine.Ranking(r.ranking), engine.NextOpener(r.nextOpener), engine.End(r.end)
	o.EqualClaims = r.equalClaims
	switch {
	case set["pass"] && set["no-pass"] && r.pass && r.noPass:
		return o, 0, errPassFlags
	case set["no-pass"]:
		o.Pass = !r.noPass
	case set["pass"]:
		o.Pass = r.pass
	case set["equal-claims"] && r.equalClaims:
		o.Pass = false
	}
	return o, r.seats, nil
}
