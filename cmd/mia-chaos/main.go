// Command mia-chaos kills a running mia server with SIGKILL at random
// moments while many tables of built-in bots play, starts it again each
// time, and checks after every kill, with the server down:
//
//   - the database passes bbolt's page checks and the store's own
//     (store.Check);
//   - no finished game was lost or changed, and every new one replays to
//     its stored result with one end;
//   - no game is duplicated: no two finished games of a table overlap in
//     time;
//   - every table is open with its seats, and its seated bots, as before.
//
// Every few kills it also checks, with the server up, that every table of
// bots plays on (a new game ends), and it closes a table between games and
// opens one of the same name, then checks that the closed table's games
// are still listed and replayable by a player who never sat there.
//
//	go run ./cmd/mia-chaos -kills 1000 -tables 20
//
// With -full-disk the data folder is on a small tmpfs, which it fills
// halfway through the run while the server runs: every table of bots
// must pause, its log saying the disk is full, the server must go on
// answering, and once the disk has room every paused table must resume by
// itself and play on; the checks after the next kill find nothing lost.
//
// It serves on 127.0.0.1 only, in a data folder of its own (a temporary one
// unless -data is given), builds the server from this module unless -mia
// names a binary, stops the server at the end, and exits 1 if any check
// failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "mia-chaos:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "mia-chaos:", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

// config is the command line.
type config struct {
	kills      int
	tables     int
	waiting    int
	maxGap     time.Duration
	botDelay   time.Duration
	liveEvery  int
	reuseEvery int
	seed       uint64
	mia        string
	data       string
	fullDisk   bool
}

func parse(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("mia-chaos", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.IntVar(&c.kills, "kills", 100, "SIGKILLs to deal")
	fs.IntVar(&c.tables, "tables", 20, "tables of bots that play all along")
	fs.IntVar(&c.waiting, "waiting", 2, "tables that wait with some bots seated and a seat free")
	fs.DurationVar(&c.maxGap, "max-gap", 1500*time.Millisecond, "the longest time the server runs between kills (each is random from 0)")
	fs.DurationVar(&c.botDelay, "bot-delay", 20*time.Millisecond, "the server's --bot-delay")
	fs.IntVar(&c.liveEvery, "live-every", 25, "check every this many kills that every table of bots plays on")
	fs.IntVar(&c.reuseEvery, "reuse-every", 100, "close and reopen a table under its name every this many kills")
	fs.Uint64Var(&c.seed, "seed", 0, "seed of the kill moments (0: from the clock)")
	fs.StringVar(&c.mia, "mia", "", "the mia binary (default: built from this module)")
	fs.StringVar(&c.data, "data", "", "the server's data folder (default: a temporary one, removed at the end)")
	fs.BoolVar(&c.fullDisk, "full-disk", false, "put the data folder on a small tmpfs (needs root) and fill it up halfway through: every table must pause, say why, and resume by itself once there is room")
	if err := fs.Parse(args); err != nil {
		return c, usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return c, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case c.kills < 1, c.tables < 1, c.waiting < 0, c.maxGap <= 0, c.liveEvery < 1, c.reuseEvery < 1:
		return c, usageError{errors.New("-kills, -tables, -live-every and -reuse-every must be at least 1, -max-gap positive")}
	case c.fullDisk && c.data != "":
		return c, usageError{errors.New("-full-disk puts the data in a folder of its own: leave -data out")}
	}
	if c.seed == 0 {
		c.seed = uint64(time.Now().UnixNano())
	}
	return c, nil
}

// run is the whole tool: a report on out, and an error if a check failed.
func run(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := parse(args, out)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "mia-chaos-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if cfg.mia == "" {
		cfg.mia = filepath.Join(work, "mia")
		fmt.Fprintln(out, "building mia…")
		if b, err := exec.CommandContext(ctx, "go", "build", "-o", cfg.mia, "github.com/mia-game/mia/cmd/mia").CombinedOutput(); err != nil {
			return fmt.Errorf("build mia: %v: %s", err, b)
		}
	}
	if cfg.data == "" {
		cfg.data = filepath.Join(work, "data")
	}
	if cfg.fullDisk {
		unmount, err := mountDisk(cfg.data)
		if err != nil {
			return err
		}
		defer func() {
			if err := unmount(); err != nil {
				fmt.Fprintln(out, "mia-chaos:", err)
			}
		}()
	}
	ch, err := newChaos(cfg, work, out)
	if err != nil {
		return err
	}
	defer ch.shutdown()
	return ch.loop(ctx, rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15)))
}
