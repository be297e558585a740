package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// diskSize is the tmpfs the data folder is on with -full-disk: room for
// a long run's games, and filled in a moment.
const diskSize = 256 << 20

// diskFullWhy is how the server's log says why a table paused when the
// disk is full (store.DiskError's reason).
const diskFullWhy = "the server's disk is full"

// mountDisk mounts a tmpfs of diskSize on dir (made if need be), for
// -full-disk; unmount takes it away.
func mountDisk(dir string) (unmount func() error, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", diskSize), "tmpfs", dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("-full-disk mounts a tmpfs for the data folder, which needs root (or a mount namespace): %v: %s", err, out)
	}
	return func() error {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			return fmt.Errorf("umount %s: %v: %s", dir, err, out)
		}
		return nil
	}, nil
}

// fullDisk fills the data folder's disk while the server runs, checks
// that every table of bots pauses, saying the disk is full, and that the
// server still answers; then frees the disk and checks that every paused
// table resumes by itself and plays on. The files are checked for what
// was lost at the next kill, as always.
func (c *chaos) fullDisk(ctx context.Context) error {
	filler := filepath.Join(c.cfg.data, "filler")
	start := time.Now()
	if err := fillUp(filler); err != nil {
		return err
	}
	pausedBefore, resumedBefore := c.srv.pauses()
	want := map[string]bool{}
	for _, sp := range c.specs {
		if sp.allBots {
			want[sp.name] = true
		}
	}
	// Every table of bots moves within moments, and each of its writes
	// now fails.
	paused := map[string]string{}
	deadline := time.Now().Add(30 * time.Second)
	for len(paused) < len(want) && time.Now().Before(deadline) && ctx.Err() == nil {
		ps, _ := c.srv.pauses()
		for _, p := range ps[len(pausedBefore):] {
			paused[p.table] = p.why
		}
		time.Sleep(50 * time.Millisecond)
	}
	for name := range want {
		switch why, ok := paused[name]; {
		case !ok:
			c.problem(fmt.Sprintf("full disk: table %s did not pause within 30 s", name))
		case why != diskFullWhy:
			c.problem(fmt.Sprintf("full disk: table %s paused for %q, want %q", name, why, diskFullWhy))
		}
	}
	c.disk.paused = len(paused)
	c.disk.pausedIn = time.Since(start)
	// The server answers meanwhile: a person may look around.
	if v, err := dial(c.srv, c.viewer); err != nil {
		c.problem(fmt.Sprintf("full disk: a login failed: %v", err))
	} else {
		if _, errs, code, err := v.run("tables"); err != nil || code != 0 {
			c.problem(fmt.Sprintf("full disk: tables: exit %d %v %s", code, err, errs))
		}
		v.close()
	}
	held := time.Now()
	time.Sleep(2 * time.Second) // paused, the tables try their writes again meanwhile
	if err := os.Remove(filler); err != nil {
		return err
	}
	freed := time.Now()
	resumed := map[string]bool{}
	deadline = time.Now().Add(30 * time.Second)
	for len(resumed) < len(paused) && time.Now().Before(deadline) && ctx.Err() == nil {
		_, rs := c.srv.pauses()
		for _, name := range rs[len(resumedBefore):] {
			resumed[name] = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	for name := range paused {
		if !resumed[name] {
			c.problem(fmt.Sprintf("full disk: table %s did not resume within 30 s of the disk having room", name))
		}
	}
	c.disk.resumed = len(resumed)
	c.disk.resumedIn = time.Since(freed)
	c.disk.held = freed.Sub(held) + held.Sub(start)
	names := make([]string, 0, len(paused))
	for n := range paused {
		names = append(names, n)
	}
	slices.Sort(names)
	fmt.Fprintf(c.out, "  full disk at kill %d: %d tables paused in %s (%v), %d resumed %s after the disk had room\n",
		c.kills, len(paused), c.disk.pausedIn.Round(time.Millisecond), names, len(resumed), c.disk.resumedIn.Round(time.Millisecond))
	return c.checkLive(ctx)
}

// diskReport is what -full-disk saw.
type diskReport struct {
	done                bool
	paused, resumed     int
	pausedIn, resumedIn time.Duration
	held                time.Duration // how long the disk was full
}

// fillUp writes path until the disk is full.
func fillUp(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("fill the disk: %w", err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for {
		if _, err := f.Write(buf); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return nil
			}
			return fmt.Errorf("fill the disk: %w", err)
		}
	}
}
