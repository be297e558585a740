package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
)

// flagSet is a command's flags, parsed by the standard flag package
// (through parseFlags, which words its errors), its usage written to the
// caller's stderr.
func (c *Call) flagSet(usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(c.cmd.Name, flag.ContinueOnError)
	fs.SetOutput(c.Stderr)
	fs.Usage = func() {
		writeUsage(c.Stderr, c.Session.Hint(""), usage)
		printFlags(c.Stderr, fs, "default")
	}
	return fs
}

// HelpWidth is the width of help and usage text: it fits 80 columns.
const HelpWidth = 80

// flagColumn is where a flag's help starts; longer flags stand on a line
// of their own.
const flagColumn = 26

// printFlags lists the flags as they are typed here, "--lives N", with
// their defaults: "(default 6)", or "(now 6)" when word is "now"; the help
// wrapped to fit HelpWidth.
func printFlags(w io.Writer, fs *flag.FlagSet, word string) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if arg != "" {
			name += " " + arg
		}
		if strings.Contains(arg, "|") { // the choices stand beside the name already
			help = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(help, arg)), ":")
		}
		def := f.DefValue
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			def = map[string]string{"true": "on", "false": ""}[def] // switches are on or off, as the rules say
		}
		if def != "" && def != "0" {
			help += " (" + word + " " + def + ")"
		}
		writeColumns(w, "  "+name, help, flagColumn)
	})
}

// writeColumns writes left, then right wrapped into the column from col
// to HelpWidth: on the same line when left fits before col, else from the
// next line.
func writeColumns(w io.Writer, left, right string, col int) {
	lines := words.Wrap(right, HelpWidth-col)
	pad := strings.Repeat(" ", col)
	if n := len([]rune(left)); n+2 <= col && len(lines) > 0 {
		fmt.Fprintf(w, "%s%s%s\n", left, strings.Repeat(" ", col-n), lines[0])
		lines = lines[1:]
	} else {
		fmt.Fprintln(w, left)
	}
	for _, l := range lines {
		fmt.Fprintln(w, pad+l)
	}
}

// writeUsage writes "usage: HINT USAGE", broken between its words to fit
// HelpWidth; a bracketed group ("[--lives N]") is never broken.
func writeUsage(w io.Writer, hint, usage string) {
	for _, l := range usageLines(strings.TrimSpace("usage: "+hint), usage) { // within the plain mode, no hint
		fmt.Fprintln(w, l)
	}
}

// usageLines is lead, then usage, broken between its words into lines of
// HelpWidth, the next ones indented; a bracketed group ("[--lives N]")
// is never broken.
func usageLines(lead, usage string) []string {
	var groups []string
	depth := 0
	for _, word := range strings.Fields(usage) {
		if depth > 0 && len(groups) > 0 {
			groups[len(groups)-1] += " " + word
		} else {
			groups = append(groups, word)
		}
		depth += strings.Count(word, "[") - strings.Count(word, "]")
	}
	var lines []string
	line := lead
	for _, g := range groups {
		if len([]rune(line))+1+len([]rune(g)) > HelpWidth {
			lines = append(lines, line)
			line = "   "
		}
		if line == "" {
			line = g
		} else {
			line += " " + g
		}
	}
	return append(lines, line)
}

// wrongWords says what is wrong with args, the words given to the command
// name whose usage is spec ("NEW", "[TABLE | --event NAME]"): a flag the
// usage does not name, more or fewer words than it takes, or else that it
// does not take these words.
func wrongWords(name, spec string, args []string) string {
	known := map[string]bool{}
	for _, w := range strings.FieldsFunc(spec, func(r rune) bool { return strings.ContainsRune(" |[]", r) }) {
		if strings.HasPrefix(w, "--") {
			known[w[2:]] = true
		}
	}
	for _, a := range args {
		if f, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); len(a) > 1 && a[0] == '-' && a != "--" && !known[f] {
			return "unknown flag --" + words.Echo(strings.TrimLeft(a, "-"))
		}
	}
	least, most := arity(spec)
	n := len(args)
	switch {
	case least == most && n != least:
		return fmt.Sprintf("%s takes %s, got %d", name, argCount(least), n)
	case n > most:
		return fmt.Sprintf("%s takes at most %s, got %d", name, argCount(most), n)
	case n < least:
		return fmt.Sprintf("%s takes at least %s, got %d", name, argCount(least), n)
	}
	return fmt.Sprintf("%s does not take %q", name, words.Echo(strings.Join(args, " ")))
}

// manyArgs stands for no limit to the words of a usage ("TEXT…").
const manyArgs = 1 << 20

// arity is how few and how many words a usage takes: a bracketed group
// may be left out, " | " parts the choices, a word with "…" or OPTIONS
// stands for any number.
func arity(spec string) (least, most int) {
	least = manyArgs
	l, m, depth := 0, 0, 0
	var group []string
	for _, w := range strings.Fields(spec) {
		open := depth == 0 && strings.HasPrefix(w, "[")
		depth += strings.Count(w, "[") - strings.Count(w, "]")
		switch {
		case open || len(group) > 0:
			group = append(group, w)
			if depth == 0 {
				g := strings.Join(group, " ")
				_, gm := arity(g[1 : len(g)-1])
				m = min(m+gm, manyArgs)
				group = nil
			}
		case w == "|":
			least, most = min(least, l), max(most, m)
			l, m = 0, 0
		case strings.Contains(w, "…") || w == "OPTIONS":
			l, m = l+1, manyArgs
		default:
			l, m = l+1, min(m+1, manyArgs)
		}
	}
	return min(least, l), max(most, m)
}

// argCount is n arguments in words: "no arguments", "one argument", "2
// arguments".
func argCount(n int) string {
	if n == 0 {
		return "no arguments"
	}
	return words.Plural(n, "one argument", "arguments")
}

// parseFlags parses args, flags and words in any order, and returns the
// words. An error was already written to stderr, in the voice of the
// other errors ("mia: unknown flag --bogus"), with the usage.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var words []string
	for {
		if err := ParseFlags(fs, args); err != nil {
			if !errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(out, "mia: "+err.Error())
			}
			usage()
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

// FlagError is a command line the flag package refuses, worded as every
// error of the server is: "unknown flag --bogus", "flag --lives needs a
// value", `invalid value "many" for --lives: not a number`.
type FlagError struct{ say string }

func (e *FlagError) Error() string { return e.say }

// ParseFlags is fs.Parse(args), its errors a *FlagError (or
// flag.ErrHelp): the flags before the first word are checked first, by
// the flag package's rules (-name, --name, -name=value, "--" ends them),
// and a value a flag refuses is caught as it is set. It never reads the
// flag package's messages.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := checkFlags(fs, args); err != nil {
		return err
	}
	var bad *FlagError
	fs.VisitAll(func(f *flag.Flag) { f.Value = watch(f, &bad) })
	defer fs.VisitAll(func(f *flag.Flag) { f.Value = unwatch(f.Value) })
	err := fs.Parse(args)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return err
	case bad != nil:
		return bad
	}
	return &FlagError{say: words.Clean(err.Error(), 120)} // none that checkFlags knows: shown as it is
}

// checkFlags finds what the flag package would refuse in the flags of
// args before the first word, but their values: a flag of bad syntax
// ("---x", "-=x"), one not defined (but -h and -help, which ask for the
// usage), one without the value it needs.
func checkFlags(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return nil
		}
		name := strings.TrimPrefix(a[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return &FlagError{say: "bad flag " + words.Echo(a)}
		}
		name, _, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		switch {
		case f == nil && (name == "h" || name == "help"):
			return nil // the flag package answers flag.ErrHelp
		case f == nil:
			return &FlagError{say: "unknown flag --" + words.Echo(name)}
		case hasValue || isBool(f.Value):
		case i+1 < len(args):
			i++ // the value
		default:
			return &FlagError{say: "flag --" + name + " needs a value"}
		}
	}
	return nil
}

// isBool reports whether v is a switch, set without a value.
func isBool(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// watched is a flag's value while ParseFlags parses: the first value a
// flag refuses is kept, worded, in bad.
type watched struct {
	flag.Value
	name string
	bad  **FlagError
}

func (w *watched) Set(v string) error {
	err := w.Value.Set(v)
	if err != nil && *w.bad == nil {
		*w.bad = &FlagError{say: "invalid value " + strconv.Quote(words.Echo(v)) + " for --" + w.name + ": " + whyNot(w.Value, v, err)}
	}
	return err
}

// watchedBool is watched for a switch.
type watchedBool struct{ *watched }

func (watchedBool) IsBoolFlag() bool { return true }

func watch(f *flag.Flag, bad **FlagError) flag.Value {
	w := &watched{Value: f.Value, name: f.Name, bad: bad}
	if isBool(f.Value) {
		return watchedBool{w}
	}
	return w
}

func unwatch(v flag.Value) flag.Value {
	switch w := v.(type) {
	case *watched:
		return w.Value
	case watchedBool:
		return w.Value
	}
	return v
}

// whyNot says why the flag's value v refused s: for the flag package's
// own numbers and switches, by parsing s as they do (strconv's errors
// have kinds); for a flag of the commands' own (fs.Func), its error, a
// sentence that does not repeat the value (the error says it once).
func whyNot(v flag.Value, s string, err error) string {
	g, ok := v.(flag.Getter)
	if !ok {
		return words.Clean(err.Error(), 80)
	}
	var perr error
	switch g.Get().(type) {
	case bool:
		return "not true or false"
	case time.Duration:
		return "not a duration such as 30s"
	case int:
		_, perr = strconv.ParseInt(s, 0, strconv.IntSize)
	case int64:
		_, perr = strconv.ParseInt(s, 0, 64)
	case uint:
		_, perr = strconv.ParseUint(s, 0, strconv.IntSize)
	case uint64:
		_, perr = strconv.ParseUint(s, 0, 64)
	case float64:
		_, perr = strconv.ParseFloat(s, 64)
	default:
		return words.Clean(err.Error(), 80)
	}
	if errors.Is(perr, strconv.ErrRange) {
		return "out of range"
	}
	return "not a number"
}

// usageError writes a usage problem found after parsing and returns
// ExitUsage.
func (c *Call) usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(c.Stderr, "mia: "+format+"\n", args...)
	fs.Usage()
	return ExitUsage
}

// rulesFlags are the table options of RULES.md as flags named as the
// options, with the values of a base rule set as defaults: only the flags
// given change it. --preset puts a preset's rule set in place of the
// base first, and the other flags given go on top of it.
type rulesFlags struct {
	fs          *flag.FlagSet
	base        engine.Options
	o           engine.Options // the values of the numbers and switches given
	seats       int
	preset      string
	ranking     string
	miaPass     string
	miaReveal   string
	lowClaim    string
	nextOpener  string
	end         string
	pass        bool
	noPass      bool
	equalClaims bool
}

// choices lists an option's values for its flag: "off|reroll|wins".
func choices[T ~string](vs ...T) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, "|")
}

func addRulesFlags(fs *flag.FlagSet, base engine.Options, seats int) *rulesFlags {
	r := &rulesFlags{fs: fs, base: base, o: base, seats: seats}
	help := func(option string) string { return words.OptionSays(option).Help } // the rules' words
	fs.StringVar(&r.preset, "preset", "", help("preset")+"; `P` one of "+strings.Join(engine.PresetNames(), ", "))
	fs.IntVar(&r.o.Lives, "lives", base.Lives, help("lives")+fmt.Sprintf(", `N` from %d to %d", engine.MinLives, engine.MaxLives))
	fs.IntVar(&r.seats, "seats", seats, help("seats")+fmt.Sprintf(", `N` from %d to %d", engine.MinSeats, engine.MaxSeats))
	fs.StringVar(&r.ranking, "ranking", string(base.Ranking), help("ranking")+": `"+choices(engine.Rankings...)+"`")
	fs.BoolVar(&r.pass, "pass", base.Pass, help("pass"))
	fs.BoolVar(&r.noPass, "no-pass", false, "no passing: every player rolls or challenges")
	fs.BoolVar(&r.equalClaims, "equal-claims", base.EqualClaims, help("equal-claims"))
	fs.StringVar(&r.lowClaim, "low-claim", string(base.LowClaim), help("low-claim")+": `refused|loses`")
	fs.IntVar(&r.o.MiaPenalty, "mia-penalty", base.MiaPenalty, help("mia-penalty")+": `1|2`")
	fs.BoolVar(&r.o.MiaPenaltyBoth, "mia-penalty-both", base.MiaPenaltyBoth, help("mia-penalty-both"))
	fs.StringVar(&r.miaPass, "mia-pass", string(base.MiaPass), help("mia-pass")+
		": `"+choices(engine.MiaPassOff, engine.MiaPassReroll, engine.MiaPassWins)+"`")
	fs.StringVar(&r.miaReveal, "mia-reveal", string(base.MiaReveal), help("mia-reveal")+
		": `"+choices(engine.MiaRevealChallenge, engine.MiaRevealAtOnce)+"`")
	fs.StringVar(&r.nextOpener, "next-opener", string(base.NextOpener), help("next-opener")+": `"+
		choices(engine.AfterLoser, engine.Loser, engine.BeforeLoser)+"`")
	fs.StringVar(&r.end, "end", string(base.End), help("end")+": `"+choices(engine.LastStanding, engine.FirstOut)+"`")
	fs.IntVar(&r.o.TurnSeconds, "turn-seconds", base.TurnSeconds, help("turn-seconds")+
		fmt.Sprintf(", `N` from %d to %d", engine.MinTurnSeconds, engine.MaxTurnSeconds))
	return r
}

// errPassFlags: --pass and --no-pass together.
var errPassFlags = errors.New("--pass and --no-pass contradict each other")

// rules is the rule set the flags ask for (not validated yet), and the
// seats. --equal-claims turns passing off unless --pass is given too
// (RULES.md: "at least equal" is allowed, and then pass is off), which
// the engine then refuses. The rule set keeps the name of its preset
// while its rules are the preset's (the turn clock aside).
func (r *rulesFlags) rules() (engine.Options, int, error) {
	set := map[string]bool{}
	r.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// The engine repeats a value it refuses: one longer than words.EchoRunes is
	// cut to what an error repeats first (words.Echo). No choice is that long,
	// and a value cut ends in "…": it is refused all the same.
	word := func(v string) string {
		if utf8.RuneCountInString(v) > words.EchoRunes {
			return words.Echo(v)
		}
		return v
	}
	o := r.base
	if set["preset"] {
		if p, err := engine.Preset(r.preset); err == nil {
			o = p
		} else {
			o.Preset = word(r.preset) // for Validate to refuse, as other impossible options
		}
	}
	given := map[string]func(){
		"lives":            func() { o.Lives = r.o.Lives },
		"ranking":          func() { o.Ranking = engine.Ranking(word(r.ranking)) },
		"equal-claims":     func() { o.EqualClaims = r.equalClaims },
		"low-claim":        func() { o.LowClaim = engine.LowClaim(word(r.lowClaim)) },
		"mia-penalty":      func() { o.MiaPenalty = r.o.MiaPenalty },
		"mia-penalty-both": func() { o.MiaPenaltyBoth = r.o.MiaPenaltyBoth },
		"mia-pass":         func() { o.MiaPass = engine.MiaPass(word(r.miaPass)) },
		"mia-reveal":       func() { o.MiaReveal = engine.MiaReveal(word(r.miaReveal)) },
		"next-opener":      func() { o.NextOpener = engine.NextOpener(word(r.nextOpener)) },
		"end":              func() { o.End = engine.End(word(r.end)) },
		"turn-seconds":     func() { o.TurnSeconds = r.o.TurnSeconds },
	}
	for name, apply := range given {
		if set[name] {
			apply()
		}
	}
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
	return words.PresetKept(o), r.seats, nil
}
