package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/store"
)

// historyIDs lists the finished games c may see, newest first.
func historyIDs(t *testing.T, c *gossh.Client) []string {
	t.Helper()
	var doc struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	jsonOf(t, c, "history --limit 200 --json", &doc)
	var ids []string
	for _, g := range doc.Games {
		ids = append(ids, g.ID)
	}
	return ids
}

// A backup taken while tables play, restored into a fresh data folder,
// serves the same history and replays; only admins may take one, and not
// onto a terminal.
func TestBackupRestoresHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	admin, guest := newKey(t), newKey(t)
	admins := filepath.Join(dir, "admins")
	if err := os.WriteFile(admins, gossh.MarshalAuthorizedKey(admin.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	serve := func(data string) (string, func() error) {
		logs, stop := runInProcess(t, map[string]string{"MIA_DATA": data, "MIA_LOG_FORMAT": "json", "MIA_BOT_DELAY": "5ms",
			"MIA_ADMIN_KEYS": admins}, "--addr", "127.0.0.1:0")
		addr, _ := logs.address(t)
		return addr, stop
	}
	addr, stop := serve(filepath.Join(dir, "live"))
	c, _ := dial(t, addr, admin)
	for _, line := range []string{"name boss", "table create busy --seats 3 --bots 3 --lives 1", "table create idle --seats 4 --bots 1"} {
		if out, code := command(t, c, line); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, out)
		}
	}
	waitUntil(t, 30*time.Second, "three finished games", func() bool { return len(historyIDs(t, c)) >= 3 })

	g, _ := dial(t, addr, guest)
	if out, code := command(t, g, "name guest"); code != 0 {
		t.Fatalf("name guest: %d %s", code, out)
	}
	if out, code := command(t, g, "backup"); code != 1 || !strings.Contains(out, "only server admins") {
		t.Errorf("a guest's backup: exit %d: %q", code, out)
	}
	if out, code := command(t, c, "backup --now"); code != 2 {
		t.Errorf("backup with an argument: exit %d: %q", code, out)
	}
	tty, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := tty.RequestPty("dumb", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	var ttyOut syncBuffer
	tty.Stdout, tty.Stderr = &ttyOut, &ttyOut
	if err := tty.Run("backup"); err == nil || !strings.Contains(ttyOut.String(), "without -t") {
		t.Errorf("a backup onto a terminal: %v: %q", err, ttyOut.String())
	}

	before := historyIDs(t, c)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(dir, "restored")
	if err := os.MkdirAll(restored, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(restored, "mia.db"), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var errOut syncBuffer
	sess.Stdout, sess.Stderr = f, &errOut
	if err := sess.Run("backup"); err != nil {
		t.Fatalf("backup: %v: %s", err, errOut.String())
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	after := historyIDs(t, c)

	// The copy in a fresh data folder, served beside the live server.
	addr2, stop2 := serve(restored)
	c2, _ := dial(t, addr2, admin)
	got := historyIDs(t, c2)
	// Newest first: the games of before are the copy's oldest, the copy's
	// are the oldest of after.
	if len(got) < len(before) || !slices.Equal(got[len(got)-len(before):], before) ||
		len(got) > len(after) || !slices.Equal(after[len(after)-len(got):], got) {
		t.Fatalf("the copy's history %v; before the backup %v, after %v", got, before, after)
	}
	for _, id := range got {
		want, _ := command(t, c, "replay --json "+id)
		have, code := command(t, c2, "replay --json "+id)
		// The verdicts on the moves come when the rule set is solved
		// (seconds, a minute under -race): the record is what is compared.
		if code != 0 || withoutVerdicts(t, have) != withoutVerdicts(t, want) {
			t.Errorf("replay %s differs: exit %d", id, code)
		}
	}
	if state := tableState(t, c2, "idle"); state != "1/4 waiting" {
		t.Errorf("the copy's idle table: %q", state)
	}
	if err := stop2(); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(restored, "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(context.Background()); err != nil {
		t.Error(err)
	}
}

// withoutVerdicts is a replay document (PROTOCOL.md §3) without its
// optional verdicts: each event's analysis and the accuracy.
func withoutVerdicts(t *testing.T, doc string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("a replay document: %v: %.200s", err, doc)
	}
	delete(m, "accuracy")
	evs, _ := m["events"].([]any)
	for _, e := range evs {
		if e, ok := e.(map[string]any); ok {
			delete(e, "analysis")
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
