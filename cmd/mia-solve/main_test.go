package main

import (
	"bytes"
	"errors"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine/solver"
)

// fast is a rule set that solves in a blink: no passing, pips.
var fast = []string{"--ranking", "pips", "--no-pass"}

// TestOneRuleSet solves the rule set its flags give and prints one line
// for it: the rules, the iterations, the time, the memory, the
// exploitability below the target, the gains and the value.
func TestOneRuleSet(t *testing.T) {
	var out bytes.Buffer
	if err := run(append(fast, "--check"), &out, solver.Target); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "rules") {
		t.Fatalf("want a header and one line, got:\n%s", out.String())
	}
	f := strings.Fields(lines[1])
	if len(f) < 9 || strings.Join(f[:len(f)-8], " ") != "--ranking pips --no-pass" {
		t.Fatalf("the line names another rule set: %q", lines[1])
	}
	n := len(f)
	iters, err := strconv.Atoi(f[n-8])
	if err != nil || iters <= 0 {
		t.Errorf("iterations %q", f[n-8])
	}
	expl, err := strconv.ParseFloat(f[n-4], 64)
	if err != nil || expl < 0 || expl >= solver.Target {
		t.Errorf("exploitability %q, want below %g", f[n-4], solver.Target)
	}
	if _, err := strconv.ParseFloat(f[n-1], 64); err != nil {
		t.Errorf("value %q: %v", f[n-1], err)
	}
}

// TestCheck: --check fails when an exploitability reaches the target
// (here 0, which every solve reaches), and without --check the same
// solve passes.
func TestCheck(t *testing.T) {
	var out bytes.Buffer
	if err := run(append(fast, "--check"), &out, 0); !errors.Is(err, errCheck) {
		t.Errorf("--check with a target of 0: %v, want errCheck", err)
	}
	out.Reset()
	if err := run(fast, &out, 0); err != nil {
		t.Errorf("without --check: %v", err)
	}
}

// TestBadFlags: a rule set that is none, or lives that are not two
// numbers, is refused before any solve.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--ranking", "nonsense"},
		{"--low-claim", "sometimes"},
		{"--mia-penalty", "3"},
		{"--mia-pass", "reroll", "--no-pass"},
		{"--lives-left", "1"},
		{"--lives-left", "0,2"},
		{"extra"},
	} {
		var out bytes.Buffer
		err := run(args, &out, solver.Target)
		if err == nil || errors.Is(err, errCheck) || errors.Is(err, flag.ErrHelp) {
			t.Errorf("%q: %v, want a refusal", args, err)
		}
		if strings.Contains(out.String(), "iters") {
			t.Errorf("%q: solved anyway:\n%s", args, out.String())
		}
	}
}
