package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// maxProblems stops the run early: past it, more kills tell nothing new.
const maxProblems = 50

// chaos is one run: the server, the tables it was given, what was checked.
type chaos struct {
	cfg           config
	out           io.Writer
	admin, viewer gossh.Signer
	adminsFile    string
	srv           *server
	specs         []tableSpec
	v             *verifier

	kills, liveChecks, reuses, reuseChecks int
	problems                               []string
	errorLines                             []string
	pendingReuse                           map[string][]string // table -> the closed table's games, to look for
	started                                time.Time
	disk                                   diskReport // -full-disk
}

func newChaos(cfg config, work string, out io.Writer) (*chaos, error) {
	c := &chaos{cfg: cfg, out: out, v: newVerifier(filepath.Join(cfg.data, "mia.db")),
		pendingReuse: map[string][]string{}, started: time.Now()}
	var err error
	if c.admin, err = newSigner(); err != nil {
		return nil, err
	}
	if c.viewer, err = newSigner(); err != nil {
		return nil, err
	}
	c.adminsFile = filepath.Join(work, "admin_keys")
	if err := os.WriteFile(c.adminsFile, gossh.MarshalAuthorizedKey(c.admin.PublicKey()), 0o600); err != nil {
		return nil, err
	}
	if err := c.start(); err != nil {
		return nil, err
	}
	if err := c.setup(); err != nil {
		c.shutdown()
		return nil, err
	}
	return c, nil
}

func (c *chaos) env() []string {
	return []string{"MIA_DATA=" + c.cfg.data, "MIA_BOT_DELAY=" + c.cfg.botDelay.String(), "MIA_ADMIN_KEYS=" + c.adminsFile,
		"MIA_ALLOW_KEYS=", "MIA_METRICS_ADDR="}
}

func (c *chaos) start() error {
	s, err := startServer(c.cfg.mia, c.env())
	if err != nil {
		return err
	}
	c.srv = s
	return nil
}

// collectErrors keeps the error lines of the server run that just ended.
func (c *chaos) collectErrors() {
	if c.srv != nil {
		c.errorLines = append(c.errorLines, c.srv.errorLines()...)
	}
}

// shutdown stops the server, if it runs.
func (c *chaos) shutdown() {
	if c.srv != nil {
		_ = c.srv.kill()
		c.collectErrors()
		c.srv = nil
	}
}

// setup names the tool's keys and opens its tables.
func (c *chaos) setup() error {
	a, err := dial(c.srv, c.admin)
	if err != nil {
		return err
	}
	defer a.close()
	if _, err := a.must("name chaos"); err != nil {
		return err
	}
	v, err := dial(c.srv, c.viewer)
	if err != nil {
		return err
	}
	defer v.close()
	if _, err := v.must("name onlooker"); err != nil {
		return err
	}
	for i := range c.cfg.tables {
		seats := 2 + i%3
		c.specs = append(c.specs, tableSpec{name: fmt.Sprintf("c%02d", i+1), seats: seats, bots: seats, lives: 1 + i%2, allBots: true})
	}
	for i := range c.cfg.waiting {
		c.specs = append(c.specs, tableSpec{name: fmt.Sprintf("w%02d", i+1), seats: 4, bots: 1 + i%3, lives: 2})
	}
	for _, sp := range c.specs {
		if _, err := a.must(createLine(sp)); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.out, "mia-chaos: %d tables of bots and %d waiting at %s (data %s), seed %d\n",
		c.cfg.tables, c.cfg.waiting, c.srv.addr, c.cfg.data, c.cfg.seed)
	return nil
}

func createLine(sp tableSpec) string {
	return fmt.Sprintf("table create %s --seats %d --bots %d --lives %d --bot-level easy", sp.name, sp.seats, sp.bots, sp.lives)
}

// loop deals the kills.
func (c *chaos) loop(ctx context.Context, r *rand.Rand) error {
	for c.kills < c.cfg.kills && len(c.problems) < maxProblems {
		if c.cfg.fullDisk && !c.disk.done && c.kills >= c.cfg.kills/2 {
			c.disk.done = true
			if err := c.fullDisk(ctx); err != nil {
				return c.finish(err)
			}
		}
		gap := time.Duration(r.Int64N(int64(c.cfg.maxGap)))
		select {
		case <-ctx.Done():
			return c.finish(ctx.Err())
		case <-time.After(gap):
		}
		if err := c.srv.kill(); err != nil {
			return c.finish(err)
		}
		c.collectErrors()
		c.srv = nil
		c.kills++
		if err := c.checkDown(ctx, fmt.Sprintf("after kill %d", c.kills)); err != nil {
			return c.finish(err)
		}
		if err := c.start(); err != nil {
			return c.finish(fmt.Errorf("restart after kill %d: %w", c.kills, err))
		}
		if err := c.checkReuse(); err != nil {
			return c.finish(err)
		}
		if c.kills%c.cfg.liveEvery == 0 || c.kills == c.cfg.kills {
			if err := c.checkLive(ctx); err != nil {
				return c.finish(err)
			}
		}
		if c.kills%c.cfg.reuseEvery == 0 {
			if err := c.reuse(); err != nil {
				return c.finish(err)
			}
		}
		if c.kills%50 == 0 {
			fmt.Fprintf(c.out, "  %d kills, %d finished games checked, %d problems, %s\n", c.kills, len(c.v.games),
				len(c.problems), time.Since(c.started).Round(time.Second))
		}
	}
	return c.finish(nil)
}

// checkDown runs the offline checks.
func (c *chaos) checkDown(ctx context.Context, when string) error {
	problems, err := c.v.check(ctx, c.specs)
	if err != nil {
		return fmt.Errorf("%s: %w", when, err)
	}
	for _, p := range problems {
		c.problem(when + ": " + p)
	}
	return nil
}

// checkLive waits until every table of bots has finished a game newer
// than the newest the last check found.
func (c *chaos) checkLive(ctx context.Context) error {
	a, err := dial(c.srv, c.admin)
	if err != nil {
		return err
	}
	defer a.close()
	c.liveChecks++
	deadline := time.Now().Add(60 * time.Second)
	for _, sp := range c.specs {
		if !sp.allBots {
			continue
		}
		was := c.v.newest[sp.name]
		for {
			id, err := a.newest(sp.name)
			if err != nil {
				return err
			}
			if atoi(id) > was {
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				c.problem(fmt.Sprintf("after kill %d: table %s finished no game since the restart (newest %d)", c.kills, sp.name, was))
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// reuse closes a table of bots and opens one of the same name; its old
// games are looked for after the next restart.
func (c *chaos) reuse() error {
	i := c.reuses % c.cfg.tables
	sp := c.specs[i]
	a, err := dial(c.srv, c.admin)
	if err != nil {
		return err
	}
	defer a.close()
	// A close ends the table at once, a game running there abandoned.
	_, errs, code, err := a.run("table close " + sp.name)
	if err != nil {
		return err
	}
	if code != 0 {
		c.problem(fmt.Sprintf("after kill %d: table close %s: %s", c.kills, sp.name, strings.TrimSpace(errs)))
		return nil
	}
	old, err := a.history(sp.name)
	if err != nil {
		return err
	}
	if _, err := a.must(createLine(sp)); err != nil {
		return err
	}
	c.v.forget(sp.name)
	c.pendingReuse[sp.name] = old
	c.reuses++
	return nil
}

// checkReuse looks, as a player who never sat there, for the games of the
// tables closed before their names were used again.
func (c *chaos) checkReuse() error {
	if len(c.pendingReuse) == 0 {
		return nil
	}
	v, err := dial(c.srv, c.viewer)
	if err != nil {
		return err
	}
	defer v.close()
	for table, old := range c.pendingReuse {
		got, err := v.history(table)
		if err != nil {
			return err
		}
		for _, id := range old {
			if !slices.Contains(got, id) {
				c.problem(fmt.Sprintf("after kill %d: game %s of the closed %s is not in its history", c.kills, id, table))
			}
		}
		for _, id := range old[:min(3, len(old))] {
			if out, errs, code, err := v.run("replay " + id); err != nil || code != 0 || !strings.Contains(out, "Game "+id) {
				c.problem(fmt.Sprintf("after kill %d: replay %s of the closed %s: exit %d %v %s", c.kills, id, table, code, err, errs))
			}
		}
		c.reuseChecks++
		delete(c.pendingReuse, table)
	}
	return nil
}

// finish stops the server cleanly, checks the file once more and reports.
func (c *chaos) finish(cause error) error {
	if c.srv != nil {
		if err := c.srv.stop(); err != nil {
			c.problem("the last stop (SIGTERM): " + err.Error())
		}
		c.collectErrors()
		c.srv = nil
		if err := c.checkDown(context.Background(), "after the last stop"); err != nil && cause == nil {
			cause = err
		}
	}
	c.report()
	switch {
	case cause != nil:
		return cause
	case len(c.problems) > 0 || len(c.errorLines) > 0:
		return fmt.Errorf("%d problems, %d error lines in the server's log", len(c.problems), len(c.errorLines))
	}
	return nil
}

func (c *chaos) report() {
	w := c.out
	fmt.Fprintf(w, "mia-chaos: %d kills (SIGKILL) in %s over %d tables of bots and %d waiting, seed %d\n",
		c.kills, time.Since(c.started).Round(time.Second), c.cfg.tables, c.cfg.waiting, c.cfg.seed)
	fmt.Fprintf(w, "  finished games checked: %d (each replayed to its stored result once), lost or changed: %d, overlapping (duplicated): %d\n",
		c.v.replays, c.count("is gone", "changed"), c.count("overlap"))
	fmt.Fprintf(w, "  database checks (bbolt pages and the store's invariants): %d, failed: %d\n", c.v.checks, c.count("store check"))
	fmt.Fprintf(w, "  tables back as they were after every kill: %d problems; liveness checks: %d, tables that stopped playing: %d\n",
		c.count("table "), c.liveChecks, c.count("finished no game"))
	fmt.Fprintf(w, "  names reused: %d, the closed tables' games looked for after a restart: %d times, missing: %d\n",
		c.reuses, c.reuseChecks, c.count("closed"))
	if c.cfg.fullDisk {
		fmt.Fprintf(w, "  full disk: %d tables of bots paused within %s of the disk filling, %d resumed within %s of it having room (full for %s)\n",
			c.disk.paused, c.disk.pausedIn.Round(time.Millisecond), c.disk.resumed, c.disk.resumedIn.Round(time.Millisecond), c.disk.held.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "  error lines in the server's log: %d\n", len(c.errorLines))
	for _, l := range c.errorLines[:min(5, len(c.errorLines))] {
		fmt.Fprintf(w, "    %s\n", l)
	}
	fmt.Fprintf(w, "  problems: %d\n", len(c.problems))
	for _, p := range c.problems[:min(20, len(c.problems))] {
		fmt.Fprintf(w, "    %s\n", p)
	}
}

// problem notes a problem, and says it at once.
func (c *chaos) problem(p string) {
	c.problems = append(c.problems, p)
	fmt.Fprintf(c.out, "  problem: %s\n", p)
}

// count is the number of problems that mention any of words.
func (c *chaos) count(words ...string) int {
	n := 0
	for _, p := range c.problems {
		for _, w := range words {
			if strings.Contains(p, w) {
				n++
				break
			}
		}
	}
	return n
}
