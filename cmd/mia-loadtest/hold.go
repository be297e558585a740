package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// counter counts the bytes a session was sent.
type counter struct{ n atomic.Int64 }

func (c *counter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// runHold connects c.n sessions with terminals for the scenario, holds
// them for c.hold and reports what they cost the server.
func runHold(c config, out io.Writer) error {
	switch c.scenario {
	case "prompt", "lobby", "watch", "web", "event":
	default:
		return fmt.Errorf("scenario %q: want prompt, lobby, watch, web or event", c.scenario)
	}
	if c.n < 1 || c.par < 1 {
		return errors.New("-n and -par must be at least 1")
	}
	if c.n > 250*250 {
		return fmt.Errorf("-n %d: at most %d sessions (one loopback source address each)", c.n, 250*250)
	}
	if c.hold < 5*time.Second {
		return fmt.Errorf("-hold %s: at least 5s (2s to settle, then the measurement)", c.hold)
	}
	if c.prefix == "" {
		b := make([]byte, 2)
		_, _ = rand.Read(b)
		c.prefix = "l" + hex.EncodeToString(b)
	}
	switch c.scenario {
	case "web":
		return runWeb(c, out)
	case "event":
		return runEvent(c, out)
	}
	perTable := 0
	if c.scenario == "watch" {
		if c.tables < 1 || c.tables > c.n {
			return fmt.Errorf("-tables %d: want 1 to -n (%d)", c.tables, c.n)
		}
		perTable = (c.n + c.tables - 1) / c.tables
		playing, err := setUpTables(c)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "scenario watch: %d tables of 4 built-in bots (%d playing), %d watchers a table\n", c.tables, playing, perTable)
	} else {
		fmt.Fprintf(out, "scenario %s\n", c.scenario)
	}

	rss0, rssErr := procRSS(c.pid)
	sessions := make([]counter, c.n)
	clients := make([]*gossh.Client, c.n)
	defer func() {
		for _, cl := range clients {
			if cl != nil {
				cl.Close()
			}
		}
	}()
	var (
		mu       sync.Mutex
		lat      []time.Duration
		steps    [len(stepNames)][]time.Duration
		failed   int
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, c.par)
	start := time.Now()
	for i := range c.n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t0 := time.Now()
			cl, took, err := holdSession(c, i, perTable, &sessions[i])
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			clients[i] = cl
			lat = append(lat, time.Since(t0))
			for j, d := range took {
				if d > 0 {
					steps[j] = append(steps[j], d)
				}
			}
		}()
	}
	wg.Wait()
	setup := time.Since(start)
	slices.Sort(lat)
	fmt.Fprintf(out, "connected %d failed %d in %s (%.0f/s); connect p50 %s p90 %s p99 %s max %s\n",
		len(lat), failed, setup.Round(time.Millisecond), float64(len(lat))/setup.Seconds(),
		percentile(lat, .5).Round(time.Millisecond), percentile(lat, .9).Round(time.Millisecond),
		percentile(lat, .99).Round(time.Millisecond), percentile(lat, 1).Round(time.Millisecond))
	var parts []string
	for j, ds := range steps {
		if len(ds) > 0 {
			slices.Sort(ds)
			parts = append(parts, fmt.Sprintf("%s %s/%s", stepNames[j],
				percentile(ds, .5).Round(100*time.Microsecond), percentile(ds, .99).Round(100*time.Microsecond)))
		}
	}
	fmt.Fprintf(out, "  of which (p50/p99): %s\n", strings.Join(parts, ", "))
	if firstErr != nil {
		fmt.Fprintln(out, "first failure:", firstErr)
	}
	ready(c.ready)

	// Let the last screens settle, then measure over the rest of the hold.
	held := time.Now()
	before := make([]int64, c.n)
	for i := range sessions {
		before[i] = sessions[i].n.Load()
	}
	time.Sleep(2 * time.Second)
	rss1, _ := procRSS(c.pid)
	cpu1, cpuErr := procCPU(c.pid)
	t1 := time.Now()
	time.Sleep(c.hold - 2*time.Second)
	cpu2, _ := procCPU(c.pid)
	rss2, _ := procRSS(c.pid)
	t2 := time.Now()

	live, sent := 0, int64(0)
	for i := range sessions {
		d := sessions[i].n.Load() - before[i]
		sent += d
		if d > 0 {
			live++
		}
	}
	fmt.Fprintf(out, "held %s: %d of %d sessions received output; %.0f bytes/s from the server in all\n",
		c.hold, live, len(lat), float64(sent)/t2.Sub(held).Seconds())
	if c.pid != 0 && rssErr == nil && cpuErr == nil && len(lat) > 0 {
		fmt.Fprintf(out, "server RSS %.1f -> %.1f MiB (%.1f at the end): %.0f KiB per session; server CPU while holding: %.1f%% of one core\n",
			float64(rss0)/1024, float64(rss1)/1024, float64(rss2)/1024, float64(rss1-rss0)/float64(len(lat)),
			100*(cpu2-cpu1).Seconds()/t2.Sub(t1).Seconds())
	}
	return nil
}

// stepNames name the steps of a connection that holdSession times.
var stepNames = [...]string{"handshake", "name", "screen"}

// holdSession connects session i from its own loopback source address
// and starts its screen for the scenario; what the screen is sent is
// counted in rx. It returns how long each step took (stepNames; 0 for a
// step not taken).
func holdSession(c config, i, perTable int, rx io.Writer) (*gossh.Client, [len(stepNames)]time.Duration, error) {
	var took [len(stepNames)]time.Duration
	t0 := time.Now()
	cl, err := dialFrom(c, i)
	if err != nil {
		return nil, took, err
	}
	fail := func(err error) (*gossh.Client, [len(stepNames)]time.Duration, error) {
		cl.Close()
		return nil, took, err
	}
	t1 := time.Now()
	took[0] = t1.Sub(t0)
	if c.scenario != "prompt" {
		if _, err := execute(cl, fmt.Sprintf("name %s%d", c.prefix, i)); err != nil {
			return fail(fmt.Errorf("name: %w", err))
		}
		took[1] = time.Since(t1)
	}
	t2 := time.Now()
	s, err := cl.NewSession()
	if err != nil {
		return fail(err)
	}
	s.Stdout, s.Stderr = rx, io.Discard
	// Input stays open, as a person's terminal does: the end of input ends a screen.
	s.Stdin, _ = io.Pipe()
	if err := s.RequestPty("dumb", 30, 100, gossh.TerminalModes{}); err != nil {
		return fail(fmt.Errorf("pty: %w", err))
	}
	if c.scenario == "watch" {
		err = s.Start(fmt.Sprintf("play %st%d", c.prefix, i/perTable))
	} else {
		err = s.Shell()
	}
	if err != nil {
		return fail(fmt.Errorf("start: %w", err))
	}
	took[2] = time.Since(t2)
	return cl, took, nil
}

// setUpTables names a host and has it open c.tables tables of 4 built-in
// bots, then waits (up to a minute) for them to play, returning how many do.
func setUpTables(c config) (int, error) {
	const lanes = 4 // connections creating tables at once
	signer, err := newSigner()
	if err != nil {
		return 0, err
	}
	cfg := &gossh.ClientConfig{User: "load", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second}
	host, err := gossh.Dial("tcp", c.addr, cfg)
	if err != nil {
		return 0, fmt.Errorf("set up: %w", err)
	}
	defer host.Close()
	if _, err := execute(host, "name "+c.prefix+"host"); err != nil {
		return 0, fmt.Errorf("set up: name: %w", err)
	}
	next := make(chan int)
	errs := make(chan error, lanes)
	for range lanes {
		go func() {
			cl, err := gossh.Dial("tcp", c.addr, cfg)
			if err != nil {
				for range next { // drain
				}
				errs <- err
				return
			}
			defer cl.Close()
			var first error
			for t := range next {
				cmd := fmt.Sprintf("table create %st%d --seats 4 --bots 4 --turn-seconds 30", c.prefix, t)
				if _, err := execute(cl, cmd); err != nil && first == nil {
					first = fmt.Errorf("%s: %w", cmd, err)
				}
			}
			errs <- first
		}()
	}
	for t := range c.tables {
		next <- t
	}
	close(next)
	var setupErr error
	for range lanes {
		setupErr = errors.Join(setupErr, <-errs)
	}
	if setupErr != nil {
		return 0, fmt.Errorf("set up: %w", setupErr)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		out, err := execute(host, "tables --json")
		if err != nil {
			return 0, fmt.Errorf("set up: tables: %w", err)
		}
		var doc struct {
			Tables []struct{ Name, State string } `json:"tables"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			return 0, fmt.Errorf("set up: tables --json: %w", err)
		}
		playing := 0
		for _, t := range doc.Tables {
			if strings.HasPrefix(t.Name, c.prefix+"t") && t.State == "playing" {
				playing++
			}
		}
		if playing == c.tables || time.Now().After(deadline) {
			return playing, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// execute runs one command on its own session and returns its standard
// output; a failure carries what it wrote on standard error.
func execute(cl *gossh.Client, cmd string) (string, error) {
	s, err := cl.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	var stdout, stderr strings.Builder
	s.Stdout, s.Stderr = &stdout, &stderr
	if err := s.Run(cmd); err != nil {
		return stdout.String(), fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func newSigner() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("key: %w", err)
	}
	return gossh.NewSignerFromKey(priv)
}

// ready, when path is set, creates the file path: all sessions are in
// (a script may now take profiles).
func ready(path string) {
	if path == "" {
		return
	}
	if f, err := os.Create(path); err == nil {
		f.Close()
	}
}
