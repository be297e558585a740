package command

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// rawText is what a store's failure says: it must never reach a caller.
const rawText = "bbolt: write /data/mia.db: input/output error"

// TestFailByKind: an error of each kind, as a command meets it, exits 1
// (PROTOCOL.md §1) with the sentence lobby.Shown gives; one whose text is
// not shown (a fault, a wait without words) is logged with it.
func TestFailByKind(t *testing.T) {
	t.Parallel()
	raw := errors.New(rawText)
	opts := engine.DefaultOptions()
	opts.Lives = 99
	cases := []struct {
		name   string
		err    error
		kind   lobby.ErrorKind
		stderr string
		logged string // "" for none
	}{
		{"refused", fmt.Errorf("save table club: %w", lobby.ErrNotHost), lobby.Refused,
			"mia: only the table's host may do that\n", ""},
		{"refused by the engine", opts.Validate(), lobby.Refused, "mia: " + opts.Validate().Error() + "\n", ""},
		{"refused, the command's own", lobby.Reword(errAmbiguous, "2 players are called ada; name one: bot:easy:ada, bot:hard:ada"),
			lobby.Refused, "mia: 2 players are called ada; name one: bot:easy:ada, bot:hard:ada\n", ""},
		{"not found", lobby.ErrNoTable, lobby.NotFound, "mia: no such table\n", ""},
		{"not found, the command's own", noPlayer("zed"), lobby.NotFound, "mia: no player is called zed\n", ""},
		{"unavailable, with its sentence", lobby.ErrPaused, lobby.Unavailable, "mia: " + lobby.ErrPaused.Error() + "\n", ""},
		{"unavailable, without", fmt.Errorf("save table club: %w: %w", raw, context.DeadlineExceeded), lobby.Unavailable,
			"mia: " + lobby.Shown(context.DeadlineExceeded) + "\n", "WARN"},
		{"internal", fmt.Errorf("use invite to club: %w", raw), lobby.Internal,
			"mia: " + lobby.Shown(raw) + "\n", "ERRO"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			var logs bytes.Buffer
			h.r.cfg.Log = log.New(&logs)
			h.r.Handle(Command{Name: "fail", Run: func(_ context.Context, call *Call) int { return call.fail("do it", c.err) }})
			if k := lobby.KindOf(c.err); k != c.kind {
				t.Fatalf("the error is %v, want %v", k, c.kind)
			}
			r := h.run(h.person("ann"), "fail")
			if r.code != ExitRefused || r.stderr != c.stderr || r.stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit %d, stderr %q", r.code, r.stderr, r.stdout, ExitRefused, c.stderr)
			}
			if strings.Contains(r.stderr, "bbolt") {
				t.Errorf("the raw error is shown: %q", r.stderr)
			}
			switch got := logs.String(); {
			case c.logged == "" && got != "":
				t.Errorf("logged %q, want nothing", got)
			case c.logged != "" && (!strings.Contains(got, c.logged) || !strings.Contains(got, rawText) ||
				!strings.Contains(got, "could not do it") || !strings.Contains(got, "command=fail")):
				t.Errorf("logged %q, want a %s line with the raw error, what and the command", got, c.logged)
			}
		})
	}
}

// TestFailFromAStoreThatFails: a disk failure while a table is written is
// a fault, logged and never shown (it once read as a refusal, its raw
// text shown, when a command sorted errors by their text).
func TestFailFromAStoreThatFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var logs bytes.Buffer
	h.r.cfg.Log = log.New(&logs)
	ann := h.person("ann")
	h.run(ann, "table", "create", "club", "--private").expect(t, ExitOK, nil, nil)
	if err := h.st.Close(); err != nil {
		t.Fatal(err)
	}
	r := h.run(ann, "table", "invite", "club")
	r.expect(t, ExitRefused, nil, []string{"mia: " + lobby.Shown(errors.New("any fault"))})
	if strings.Contains(r.stderr, "database") || strings.Contains(r.stderr, "invite to") {
		t.Errorf("the store's error is shown: %q", r.stderr)
	}
	if got := logs.String(); !strings.Contains(got, "ERRO") || !strings.Contains(got, "database not open") {
		t.Errorf("the fault is not logged: %q", got)
	}
}

// commandErrors is every sentinel and error type of the package, with its
// kind; an Internal one says why it is no refusal (a usage error exits 2,
// written by usageError or parseFlags, and has none of the lobby's kinds).
// TestEveryCommandErrorHasAKind reads the package's source and fails on
// one missing here.
var commandErrors = []struct {
	name string
	err  error
	kind lobby.ErrorKind
	why  string // for an Internal one
}{
	{"errNoPlayer", errNoPlayer, lobby.NotFound, ""},
	{"errAmbiguous", errAmbiguous, lobby.Refused, ""},
	{"errPanicked", errPanicked, lobby.Internal, "a fault: the command panicked"},
	{"errPassFlags", errPassFlags, lobby.Internal, "a usage error"},
	{"FlagError", &FlagError{say: "unknown flag --x"}, lobby.Internal, "a usage error"},
}

func TestEveryCommandErrorHasAKind(t *testing.T) {
	t.Parallel()
	listed := map[string]bool{}
	for _, c := range commandErrors {
		listed[c.name] = true
		if got := lobby.KindOf(c.err); got != c.kind || got == lobby.Internal && c.why == "" {
			t.Errorf("%s is %v, want %v", c.name, got, c.kind)
		}
		if typ := reflect.TypeOf(c.err); !strings.HasPrefix(strings.ToLower(c.name), "err") && typ.Elem().Name() != c.name {
			t.Errorf("the example of %s is a %v", c.name, typ)
		}
	}
	declared, err := lobbytest.ErrorsDeclared(".", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range declared {
		if !listed[n] {
			t.Errorf("%s is declared without a line in commandErrors: give it a kind (lobby.NewError) and list it", n)
		}
		delete(listed, n)
	}
	for n := range listed {
		t.Errorf("commandErrors lists %s, which the package does not declare", n)
	}
}

// TestFlagErrors: the flag package's refusals in the server's words,
// found without reading its messages; ParseFlags refuses what fs.Parse
// refuses, and takes what it takes.
func TestFlagErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // "" for none
	}{
		{[]string{"--bogus"}, "unknown flag --bogus"},
		{[]string{"-bogus=1"}, "unknown flag --bogus"},
		{[]string{"--n", "2", "--bogus"}, "unknown flag --bogus"},
		{[]string{"--n"}, "flag --n needs a value"},
		{[]string{"--n", "many"}, `invalid value "many" for --n: not a number`},
		{[]string{"--n=99999999999999999999"}, `invalid value "99999999999999999999" for --n: out of range`},
		{[]string{"--on=maybe"}, `invalid value "maybe" for --on: not true or false`},
		{[]string{"--d", "soon"}, `invalid value "soon" for --d: not a duration such as 30s`},
		{[]string{"--level", "x"}, `invalid value "x" for --level: one of easy, normal, hard`},
		{[]string{"---x"}, "bad flag ---x"},
		{[]string{"-=x"}, "bad flag -=x"},
		{[]string{"--n", "2", "--on", "word", "--bogus"}, ""}, // flags end at the first word
		{[]string{"--", "--bogus"}, ""},
		{[]string{"-", "--bogus"}, ""},
		{[]string{"--on", "--n=-3", "--d=2s", "--level", "easy"}, ""},
	}
	newSet := func() *flag.FlagSet {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Int("n", 0, "")
		fs.Bool("on", false, "")
		fs.Duration("d", 0, "")
		fs.Func("level", "", func(s string) error {
			if s != "easy" {
				return errors.New("one of easy, normal, hard")
			}
			return nil
		})
		return fs
	}
	for _, c := range cases {
		err := ParseFlags(newSet(), c.args)
		var fe *FlagError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v, want none", c.args, err)
		case c.want != "" && (!errors.As(err, &fe) || err.Error() != c.want):
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
		if std := newSet().Parse(c.args); (std == nil) != (err == nil) {
			t.Errorf("%q: ParseFlags says %v, the flag package %v", c.args, err, std)
		}
	}
	fs := newSet()
	if err := ParseFlags(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Value.(type) {
		case *watched, watchedBool:
			t.Errorf("--%s keeps the value ParseFlags watched it with", f.Name)
		}
	})
}
