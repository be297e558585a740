package store

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
)

// crashEnv, when set to a file's path, makes TestCrashChild the writer
// that TestCrash kills.
const crashEnv = "MIA_STORE_CRASH_CHILD"

// crashTables is how many games the child plays at once.
const crashTables = 24

// TestCrashChild is the child process of TestCrash: it opens the store,
// resumes the games in progress, and plays games on many goroutines
// forever, printing "committed GAME SEQ" after each Append returns. It
// does nothing in a normal test run.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("the child of TestCrash")
	}
	out := func(format string, args ...any) { // one write per line
		_, _ = os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n")
	}
	s, err := Open(path)
	if err != nil {
		out("FATAL open: %v", err)
		os.Exit(3)
	}
	ctx := context.Background()
	recs, err := s.InProgress(ctx)
	if err != nil {
		out("FATAL recover: %v", err)
		os.Exit(3)
	}
	out("ready %d", len(recs))
	seed := uint64(time.Now().UnixNano())
	fail := func(err error) {
		out("FATAL %v", err)
		os.Exit(3)
	}
	play := func(w int, id string, g *engine.Game) {
		r := newRand(seed + uint64(w))
		for {
			if g == nil {
				opts := engine.DefaultOptions()
				opts.Lives = 1 + r.IntN(3)
				n := 2 + r.IntN(5)
				var first []engine.Event
				var err error
				g, first, err = engine.New(opts, n, randSource{r})
				if err != nil {
					fail(err)
				}
				gm, err := s.CreateGame(ctx, Game{Table: fmt.Sprintf("t%d", w), Seats: seats(n), Rules: opts})
				if err != nil {
					fail(err)
				}
				id = gm.ID
				if err := s.Append(ctx, id, first, nil); err != nil {
					fail(err)
				}
				out("committed %s %d", id, first[len(first)-1].Seq)
			}
			evs, err := g.Apply(randomAction(g, r))
			if err != nil {
				fail(err)
			}
			if err := s.Append(ctx, id, evs, resultOf(g)); err != nil {
				fail(err)
			}
			out("committed %s %d", id, evs[len(evs)-1].Seq)
			if g.Over() {
				g = nil
			}
		}
	}
	for i, rc := range recs {
		go play(i, rc.Game.ID, rc.State)
	}
	for i := len(recs); i < crashTables; i++ {
		go play(i, "", nil)
	}
	time.Sleep(20 * time.Second) // the parent kills it long before
	out("FATAL not killed")
	os.Exit(3)
}

// crashRuns is how many times TestCrash kills its child: a third of CI's
// run by default, which .ci/run makes in full (-crash-runs 60, without the
// race detector); -short makes it 10.
var crashRuns = flag.Int("crash-runs", 20, "how many times TestCrash kills its child")

// TestCrash kills a writing child process (SIGKILL) at random moments
// (crashRuns times), and after each kill checks the file: bbolt's page
// checks, gap-free event sequences, every event the child reported as
// committed present, and every game in progress replayable.
func TestCrash(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	runs := *crashRuns
	if testing.Short() {
		runs = min(runs, 10)
	}
	path := filepath.Join(t.TempDir(), "mia.db")
	committed := map[string]int{} // game -> highest seq reported committed
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	ctx := context.Background()
	var appends, early int
	start := time.Now()
	for run := 0; run < runs; run++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.v=false")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			defer close(lines)
			br := bufio.NewReader(pipe)
			for {
				l, err := br.ReadString('\n')
				if err != nil { // a line cut by the kill is not counted
					if err != io.EOF {
						t.Logf("read child: %v", err)
					}
					return
				}
				lines <- strings.TrimSuffix(l, "\n")
			}
		}()
		var got []string
		// Every fifth run is killed at a random moment after the start,
		// maybe during Open or recovery; the others a random while after
		// the child has recovered and started writing.
		var delay time.Duration
		if run%5 == 4 {
			early++
			delay = time.Duration(5+r.IntN(100)) * time.Millisecond
		} else {
			timeout := time.After(30 * time.Second)
		wait:
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("run %d: child ended before ready: %q\n%s", run, got, stderr.String())
					}
					got = append(got, l)
					if strings.HasPrefix(l, "ready") {
						break wait
					}
				case <-timeout:
					t.Fatalf("run %d: child not ready", run)
				}
			}
			delay = time.Duration(20+r.IntN(131)) * time.Millisecond
		}
		time.Sleep(delay)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for l := range lines {
			got = append(got, l)
		}
		_ = cmd.Wait()
		for _, l := range got {
			if strings.HasPrefix(l, "FATAL") {
				t.Fatalf("run %d: child: %s\n%s", run, l, stderr.String())
			}
			f := strings.Fields(l)
			if len(f) == 3 && f[0] == "committed" {
				seq, _ := strconv.Atoi(f[2])
				committed[f[1]] = max(committed[f[1]], seq)
				appends++
			}
		}

		s, err := Open(path)
		if err != nil {
			t.Fatalf("run %d: reopen after kill: %v", run, err)
		}
		if err := s.Check(ctx); err != nil { // tx.Check and gap-free seqs
			s.Close()
			t.Fatalf("run %d: %v", run, err)
		}
		if err := s.db.View(func(tx *bolt.Tx) error {
			c := tx.Bucket(bucketEvents).Cursor()
			for id, seq := range committed {
				n, _ := parseID(id)
				if last := lastSeq(c, n); last < seq {
					return fmt.Errorf("game %s: %d events, %d were committed", id, last, seq)
				}
			}
			return nil
		}); err != nil {
			s.Close()
			t.Fatalf("run %d: %v", run, err)
		}
		if run%10 == 9 { // replay everything in progress now and then (the child does each time)
			if _, err := s.InProgress(ctx); err != nil {
				s.Close()
				t.Fatalf("run %d: %v", run, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if appends < runs {
		t.Errorf("only %d appends reported in %d runs: the kills came too early to test much", appends, runs)
	}
	st, _ := os.Stat(path)
	t.Logf("%d kills (%d early) in %v; %d appends reported committed over %d games, all present; file %d KiB",
		runs, early, time.Since(start).Round(time.Millisecond), appends, len(committed), st.Size()/1024)
}
