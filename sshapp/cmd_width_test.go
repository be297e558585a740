package sshapp

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/store"
)

// TestTextFits80Columns: the plain text of the commands fits 80 columns
// under the longest rule set (a 12-seat table with every option that adds
// words), with names as long as they go: tables, table create, history,
// replay, stats (of a person and of a bot), and the others around them;
// people who played under names they no longer have ("robertwithalongn
// (played as bobwithalongname)" in history and replay), a person's keys
// (keys, keys add, whoami), bans of every kind listed, the Mäxchen bots'
// names held for their addresses.
func TestTextFits80Columns(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, time.Millisecond, "alicewithalongnm")
	const host, table = "alicewithalongnm", "thelongesttablen"
	longest := "--seats 12 --ranking pips --lives 3 --mia-pass wins --low-claim loses --mia-penalty 1 --mia-penalty-both " +
		"--next-opener before-loser --end first-out --turn-seconds 3600"
	runs := []string{
		"table create " + table + " --private --bots 12 --bot-level normal " + longest,
	}
	for _, cmd := range runs {
		if r := e.as(t, host, cmd); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
	}
	eventually(t, 60*time.Second, "a finished game", func() bool {
		gs, err := e.st.Games(context.Background(), store.Query{Limit: 1})
		return err == nil && len(gs) == 1
	})
	gs, err := e.st.Games(context.Background(), store.Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := gs[0].ID

	// Two people play a 12-seat game with bots under those rules, then
	// take other names.
	ctx := context.Background()
	first, err := e.lobby.Table(table)
	if err != nil {
		t.Fatal(err)
	}
	rules := first.Info().Rules
	hostP := e.player(t, host)
	played := []lobby.Player{e.player(t, "bobwithalongname"), e.player(t, "carolwithalongnm")}
	tbl, err := e.lobby.CreateTable(ctx, hostP, lobby.TableConfig{Name: "playedundernames", Rules: rules, Seats: engine.MaxSeats})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range played {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for range engine.MaxSeats - len(played) {
		if _, err := tbl.AddBot(ctx, hostP, ai.Normal); err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Start(ctx, hostP); err != nil && !errors.Is(err, lobby.ErrGameRunning) { // a full table starts
		t.Fatal(err)
	}
	playedID := playGame(t, tbl, played, nil)
	fits := func(cmd string, r result) {
		t.Helper()
		for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
			if n := ansi.StringWidth(l); n > 80 {
				t.Errorf("%s: a line of %d columns:\n%s", cmd, n, l)
			}
		}
		if testing.Verbose() {
			t.Logf("$ %s\n%s%s", cmd, r.stdout, r.stderr)
		}
	}
	run := func(key gossh.Signer, cmd string) result {
		t.Helper()
		r := e.run(t, key, cmd)
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
		fits(cmd, r)
		return r
	}
	as := func(who, cmd string) result { t.Helper(); return run(e.key(t, who), cmd) }
	for who, name := range map[string]string{"bobwithalongname": "robertwithalongn", "carolwithalongnm": "carolinewithlong"} {
		as(who, "name "+name)
	}
	// The host's second key, from a person without games (merged into
	// the host's), then removed.
	code := regexp.MustCompile(`Code: (\S+)`).FindStringSubmatch(as(host, "keys add").stdout)
	if code == nil {
		t.Fatal("keys add printed no code")
	}
	as("laptopwithalongn", "keys join "+code[1])
	as(host, "keys")
	as(host, "whoami")
	as(host, "keys remove "+e.fps["laptopwithalongn"])
	// Bans of every kind; a Mäxchen bot's name held for a long address.
	e.key(t, "mallorywithlongn")
	for _, target := range []string{"mallorywithlongn", Fingerprint(newKey(t).PublicKey()), "udp:2001:db8:ffff:ffff::/64",
		"maexchen:abcdefghijklmnopqrst"} {
		as(host, "ban "+target)
	}
	as(host, "ban")
	as(host, "unban maexchen:abcdefghijklmnopqrst")
	if err := e.st.KeepUDPNames(ctx, store.UDPName{Name: "abcdefghijklmnopqrsu", Addr: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
		Heard: time.Now(), Held: true}); err != nil {
		t.Fatal(err)
	}
	as(host, "maexchen names")
	as(host, "maexchen free abcdefghijklmnopqrsu")

	for _, cmd := range []string{
		"history --player robertwithalongn", "replay " + playedID, "stats robertwithalongn", "leaderboard",
		"table create " + "anotherlongtable " + longest,
		"tables", "history", "history --table " + table, "replay " + id, "stats", "stats ada", "stats ada --table " + table,
		"seed " + table, "rules " + table, "table rules anotherlongtable " + longest, "whoami", "leaderboard",
		"leaderboard --table " + table, "help", "help table", "help stats", "help keys", "help ban", "help maexchen", "rules",
		"verify " + id,
	} {
		as(host, cmd)
	}
}
