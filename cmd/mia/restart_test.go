package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/store"
)

// jsonOf runs a --json command and decodes its document.
func jsonOf(t *testing.T, c *gossh.Client, cmd string, v any) {
	t.Helper()
	out, code := command(t, c, cmd)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", cmd, code, out)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%s: %v: %s", cmd, err, out)
	}
}

type tablesDoc struct {
	Tables []struct {
		Name  string `json:"name"`
		Seats int    `json:"seats"`
		Taken int    `json:"taken"`
		State string `json:"state"`
	} `json:"tables"`
}

// tableState is "TAKEN/SEATS STATE" of an open table, "" if it is not open.
func tableState(t *testing.T, c *gossh.Client, name string) string {
	t.Helper()
	var doc tablesDoc
	jsonOf(t, c, "tables --json", &doc)
	for _, tb := range doc.Tables {
		if tb.Name == name {
			return fmt.Sprintf("%d/%d %s", tb.Taken, tb.Seats, tb.State)
		}
	}
	return ""
}

// finished lists the finished games of a table that c may see, oldest
// first.
func finished(t *testing.T, c *gossh.Client, table string) []string {
	t.Helper()
	var doc struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	jsonOf(t, c, "history --limit 200 --json --table "+table, &doc)
	var ids []string
	for _, g := range doc.Games {
		ids = append([]string{g.ID}, ids...)
	}
	return ids
}

// waitUntil polls cond until it holds.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The server stopped by SIGTERM or SIGKILL comes back with every table as
// it was: a table waiting keeps its bots, a table of bots plays on, and a
// closed table's games stay in history and replay although its name was
// used again.
func TestRestartKeepsTablesAndHistory(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			env := "MIA_BOT_DELAY=50ms"
			cmd, logs, addr, _ := startMia(t, dir, env)
			hostKey, viewerKey := newKey(t), newKey(t)
			host, _ := dial(t, addr, hostKey)
			for _, line := range []string{
				"name host",
				"table create g1 --seats 4 --bots 2",
				"table create g2 --seats 3 --bots 3 --lives 1",
				"table create g3 --seats 2 --bots 2 --lives 1",
			} {
				if out, code := command(t, host, line); code != 0 {
					t.Fatalf("%s: exit %d: %s", line, code, out)
				}
			}
			// g3 plays a game or two, then closes between games and opens
			// again under the same name, by another host.
			waitUntil(t, 30*time.Second, "a game at g3", func() bool { return len(finished(t, host, "g3")) > 0 })
			waitUntil(t, 30*time.Second, "g3 closed between games", func() bool {
				_, code := command(t, host, "table close g3")
				return code == 0
			})
			closedGames := finished(t, host, "g3")
			viewer, _ := dial(t, addr, viewerKey)
			for _, line := range []string{"name vera", "table create g3 --seats 3"} {
				if out, code := command(t, viewer, line); code != 0 {
					t.Fatalf("%s: exit %d: %s", line, code, out)
				}
			}
			waitUntil(t, 30*time.Second, "a game at g2", func() bool { return len(finished(t, host, "g2")) > 0 })
			before := map[string]string{"g1": tableState(t, host, "g1"), "g2": tableState(t, host, "g2")}
			playedG2 := finished(t, host, "g2")
			if before["g1"] != "2/4 waiting" {
				t.Fatalf("g1 before the stop: %q", before["g1"])
			}

			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); sig == syscall.SIGTERM && err != nil {
				t.Fatalf("exit after SIGTERM: %v; logs:\n%s", err, logs.String())
			}
			cmd, _, addr, _ = startMia(t, dir, env)
			host, _ = dial(t, addr, hostKey)
			viewer, _ = dial(t, addr, viewerKey)

			if got := tableState(t, host, "g1"); got != "2/4 waiting" {
				t.Errorf("g1 after the restart: %q, before: %q", got, before["g1"])
			}
			if got := tableState(t, host, "g2"); !strings.HasPrefix(got, "3/3 ") {
				t.Errorf("g2 after the restart: %q, before: %q", got, before["g2"])
			}
			// The bots' table plays on: more games end after the restart.
			waitUntil(t, 30*time.Second, "g2 playing on", func() bool {
				return len(finished(t, viewer, "g2")) > len(playedG2)+1
			})
			if got := finished(t, viewer, "g2"); !slices.Equal(got[:len(playedG2)], playedG2) {
				t.Errorf("g2's games before the stop %v, after %v", playedG2, got)
			}
			// The closed g3's games: listed and replayable, for anyone.
			if got := finished(t, viewer, "g3"); !slices.Equal(got, closedGames) {
				t.Errorf("the closed g3's games after the restart: %v, want %v", got, closedGames)
			}
			for _, id := range closedGames {
				if out, code := command(t, viewer, "replay "+id); code != 0 || !strings.Contains(out, "Game "+id+" at g3") {
					t.Errorf("replay %s: exit %d: %s", id, code, out)
				}
			}

			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v", err)
			}
			st, err := store.Open(filepath.Join(dir, "mia-data", "mia.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.Check(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestCloseRunningTableThenKill: the host closes a table while its game
// runs (two protocol bots seated, waiting on their turn), and the server
// is killed at once: after the restart the table stays closed, and the
// game is in the history as abandoned, not resumed.
func TestCloseRunningTableThenKill(t *testing.T) {
	dir := t.TempDir()
	cmd, logs, addr, _ := startMia(t, dir)
	hostKey := newKey(t)
	host, _ := dial(t, addr, hostKey)
	for _, line := range []string{"name host", "table create arena --seats 2 --turn-seconds 120"} {
		if out, code := command(t, host, line); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, out)
		}
	}
	for _, name := range []string{"b1", "b2"} {
		c, _ := dial(t, addr, newKey(t))
		if out, code := command(t, c, "name "+name); code != 0 {
			t.Fatalf("name %s: exit %d: %s", name, code, out)
		}
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		in, err := s.StdinPipe() // held open: a bot whose input ends leaves
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { in.Close() })
		if err := s.Start("bot arena"); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		go func() {
			for lines.Scan() { // a bot that reads and never answers
			}
		}()
	}
	waitUntil(t, 30*time.Second, "the game at arena", func() bool { return tableState(t, host, "arena") == "2/2 playing" })
	out, code := command(t, host, "table close arena")
	if code != 0 || !strings.Contains(out, "was running there: it is abandoned") {
		t.Fatalf("close: exit %d: %s", code, out)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	cmd, _, addr, _ = startMia(t, dir)
	host, _ = dial(t, addr, hostKey)
	if got := tableState(t, host, "arena"); got != "" {
		t.Errorf("arena after the restart: %q", got)
	}
	var doc struct {
		Games []struct {
			ID        string `json:"id"`
			Winner    int    `json:"winner"`
			Abandoned *struct {
				Reason string `json:"reason"`
				Name   string `json:"name"`
			} `json:"abandoned"`
		} `json:"games"`
	}
	jsonOf(t, host, "history --json --table arena", &doc)
	if len(doc.Games) != 1 || doc.Games[0].Winner != -1 || doc.Games[0].Abandoned == nil ||
		doc.Games[0].Abandoned.Reason != "closed" || doc.Games[0].Abandoned.Name != "host" {
		t.Fatalf("history after the restart: %+v (logs:\n%s)", doc, logs.String())
	}
	if out, code := command(t, host, "replay "+doc.Games[0].ID); code != 0 || !strings.Contains(out, "Abandoned: host closed the table while it ran") {
		t.Errorf("replay: exit %d: %s", code, out)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	st, err := store.Open(filepath.Join(dir, "mia-data", "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(context.Background()); err != nil {
		t.Error(err)
	}
	if gs, err := st.InProgress(context.Background()); err != nil || len(gs) != 0 {
		t.Errorf("games in progress after the restart: %d, %v", len(gs), err)
	}
}
