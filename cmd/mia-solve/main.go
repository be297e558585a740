// Command mia-solve solves the heads-up round of Mia (engine/solver) and
// prints, for each rule set that plays a different round (or the one its
// flags give), the iterations, the time and the memory of the solve (MiB
// allocated along the way, MiB the strategy keeps), the exploitability
// in lives per round, what a best response gains in each seat, and the
// round's value for its opener (README.md beside this file):
//
//	go run ./cmd/mia-solve                      # every rule set (240)
//	go run ./cmd/mia-solve --ranking pips --mia-pass reroll
//	go run ./cmd/mia-solve --check              # exit 1 if any is 0.001 or more
//
// The rule flags are those of `table create`; --lives-left A,B gives the
// lives the opener and the other player have left (a Mia penalty of 2
// costs a player with 1 life only 1).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/solver"
)

func main() {
	err := run(os.Args[1:], os.Stdout, solver.Target)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errCheck):
		fmt.Fprintln(os.Stderr, "mia-solve:", err)
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "mia-solve:", err)
		os.Exit(2)
	}
}

// errCheck is --check's failure: an exploitability at the target or above.
var errCheck = errors.New("exploitability at or above the target")

// run solves the rule sets args name and prints a line each; with
// --check, an exploitability at target or above is errCheck.
func run(args []string, out io.Writer, target float64) error {
	fs := flag.NewFlagSet("mia-solve", flag.ContinueOnError)
	fs.SetOutput(out)
	o := engine.DefaultOptions()
	given := false
	fs.Func("ranking", "the ranking: "+rankings(), func(s string) error {
		r, err := engine.ParseRanking(s)
		o.Ranking, given = r, true
		return err
	})
	noPass := fs.Bool("no-pass", false, "a claim may not be passed on")
	equal := fs.Bool("equal-claims", false, "a claim may equal the last (turns passing off)")
	fs.Func("low-claim", "refused|loses", func(s string) error {
		o.LowClaim, given = engine.LowClaim(s), true
		return nil
	})
	fs.Func("mia-penalty", "1|2", func(s string) error {
		n, err := strconv.Atoi(s)
		o.MiaPenalty, given = n, true
		return err
	})
	both := fs.Bool("mia-penalty-both", false, "every life lost in a Mia round costs the penalty")
	fs.Func("mia-reveal", "challenge|at-once", func(s string) error {
		o.MiaReveal, given = engine.MiaReveal(s), true
		return nil
	})
	fs.Func("mia-pass", "off|reroll|wins", func(s string) error {
		o.MiaPass, given = engine.MiaPass(s), true
		return nil
	})
	left := fs.String("lives-left", "", "`A,B`: the lives the opener and the other have left")
	check := fs.Bool("check", false, "exit 1 if any exploitability is 0.001 or more")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("no arguments are taken, only flags: %q", fs.Args())
	}
	if *noPass || *equal {
		o.Pass, given = false, true
	}
	if *equal {
		o.EqualClaims = true
	}
	if *both {
		o.MiaPenaltyBoth, given = true, true
	}
	a, b := 0, 0
	if *left != "" {
		x, y, ok := strings.Cut(*left, ",")
		var err1, err2 error
		a, err1 = strconv.Atoi(x)
		b, err2 = strconv.Atoi(y)
		if !ok || err1 != nil || err2 != nil || a < 1 || b < 1 {
			return fmt.Errorf("--lives-left %q: two numbers of lives, like 1,6", *left)
		}
		given = true
	}
	sets := solver.All()
	if given {
		r, err := solver.Of(o, a, b)
		if err != nil {
			return err
		}
		sets = []solver.Rules{r}
	}
	fmt.Fprintf(out, "%-62s %6s %7s %7s %6s %9s %9s %9s %8s\n", "rules", "iters", "seconds", "alloc", "kept", "exploit", "gain 1st", "gain 2nd", "value")
	if !*check {
		target = math.Inf(1)
	}
	bad := 0
	for _, r := range sets {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		s, err := solver.Solve(r)
		took := time.Since(start)
		if err != nil {
			// A solve that stops short of the target: said, counted, and
			// the others solved all the same.
			fmt.Fprintf(out, "%-62s %v\n", r, err)
			if *check {
				bad++
			}
			continue
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		rp := s.Report()
		runtime.KeepAlive(s)
		alloc := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
		kept := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		fmt.Fprintf(out, "%-62s %6d %7.1f %7.0f %6.1f %9.6f %9.6f %9.6f %+8.4f\n", r, rp.Iterations, took.Seconds(), alloc, kept,
			rp.Exploitability, rp.Gain[0], rp.Gain[1], rp.Value)
		if rp.Exploitability >= target {
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%w: %d of %d rule sets", errCheck, bad, len(sets))
	}
	return nil
}

func rankings() string {
	names := make([]string, len(engine.Rankings))
	for i, r := range engine.Rankings {
		names[i] = string(r)
	}
	return strings.Join(names, "|")
}
