package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args  []string
		usage bool
	}{
		{nil, false},
		{[]string{"-kills", "1000", "-tables", "20", "-seed", "7"}, false},
		{[]string{"-kills", "0"}, true},
		{[]string{"-max-gap", "0s"}, true},
		{[]string{"-waiting", "-1"}, true},
		{[]string{"extra"}, true},
		{[]string{"-nope"}, true},
	}
	for _, tt := range tests {
		_, err := parse(tt.args, &bytes.Buffer{})
		var ue usageError
		if got := errors.As(err, &ue); got != tt.usage {
			t.Errorf("parse(%v) = %v, want a usage error: %v", tt.args, err, tt.usage)
		}
	}
}

// A short run against the server of this module finds nothing wrong:
// every check runs (kills, liveness, a reused name) and reports.
func TestShortRun(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"-kills", "4", "-tables", "3", "-waiting", "1", "-live-every", "2",
		"-reuse-every", "2", "-max-gap", "400ms", "-bot-delay", "5ms", "-seed", "42"}, &out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{"4 kills (SIGKILL)", "lost or changed: 0, overlapping (duplicated): 0", "database checks (bbolt pages and the store's invariants): 5, failed: 0",
		"liveness checks: 2, tables that stopped playing: 0", "names reused: 2", "missing: 0", "problems: 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
