package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// miaBinary is the server of this module, built once for the tests.
var miaBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mia-chaos-test-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mia")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mia-game/mia/cmd/mia").CombinedOutput(); err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})

func mia(t *testing.T) string {
	t.Helper()
	bin, err := miaBinary()
	if err != nil {
		t.Fatalf("build mia: %v", err)
	}
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := miaBinary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

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
	err := run(context.Background(), []string{"-mia", mia(t), "-kills", "4", "-tables", "3", "-waiting", "1", "-live-every", "2",
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

// A run with a full disk halfway (-full-disk): every table of bots
// pauses saying the disk is full, resumes by itself once it has room, and
// nothing is lost. It mounts a tmpfs: where that is not allowed it is
// skipped, saying so, unless MIA_TMPFS_TESTS=require (CI sets it).
func TestFullDiskRun(t *testing.T) {
	probe := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe).CombinedOutput(); err != nil {
		if os.Getenv("MIA_TMPFS_TESTS") == "require" {
			t.Fatalf("MIA_TMPFS_TESTS=require, but a tmpfs cannot be mounted: %v: %s", err, out)
		}
		t.Skipf("a tmpfs cannot be mounted here (run as root): %v: %s", err, out)
	}
	if out, err := exec.Command("umount", probe).CombinedOutput(); err != nil {
		t.Fatalf("umount: %v: %s", err, out)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"-mia", mia(t), "-kills", "4", "-tables", "3", "-waiting", "1", "-live-every", "2",
		"-reuse-every", "100", "-max-gap", "400ms", "-bot-delay", "5ms", "-seed", "43", "-full-disk"}, &out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{"full disk: 3 tables of bots paused within", "3 resumed within", "lost or changed: 0",
		"failed: 0", "tables that stopped playing: 0", "error lines in the server's log: 0", "problems: 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
