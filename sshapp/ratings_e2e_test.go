package sshapp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/command"
)

// TestRatingsOfPrivateTables, over SSH: a private table's games never move
// anything an outsider reads (the overall boards in every season, people
// and bots, another person's stats, trend and championships: their JSON
// is the same bytes before and after), as sshapp/command/README.md
// promises; the player sees their own private games counted; the table's
// board is its members'. Once the table closes and a public table takes
// its name, `leaderboard --table` and `stats --table` of that name show
// the new table's own board, never the closed one's, to outsiders and to
// the old members alike.
func TestRatingsOfPrivateTables(t *testing.T) {
	e := startRecServer(t, lobby.NoDelay, "root")
	alice, bob, carol := e.player(t, "alice"), e.player(t, "bob"), e.player(t, "carol")
	ctx := context.Background()
	e.finishedGame(t, "pub", alice, carol)

	outsider := []string{
		"leaderboard --json", "leaderboard --all-time --json", "leaderboard --people --all-time --json",
		"leaderboard --bots --all-time --json", "stats alice --json", "stats bob --json", "stats alice --all-time --json",
		"leaderboard --all-time", "stats alice",
	}
	read := func() map[string]string {
		out := map[string]string{}
		for _, cmd := range outsider {
			r := e.as(t, "carol", cmd)
			if r.code != 0 {
				t.Fatalf("carol: %s: exit %d: %s", cmd, r.code, r.stderr)
			}
			out[cmd] = r.stdout
		}
		return out
	}
	before := read()

	// alice's private table, with bob and a bot; three games.
	e.steps(t, []step{
		{name: "create", who: "alice", cmd: "table create secret --private --seats 3 --bots 1 --lives 1", code: 0, stdout: []string{"Table secret is open: private"}},
	})
	r := e.as(t, "alice", "table invite secret --json")
	var inv command.TableDoc
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil {
		t.Fatalf("invite: %v %s", err, r.stderr)
	}
	if r := e.as(t, "bob", "join secret "+inv.Code); r.code != 0 {
		t.Fatalf("join: %+v", r)
	}
	tbl, err := e.lobby.Table("secret")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	const games = 3
	for i := range games {
		if i > 0 {
			if err := tbl.Start(ctx, alice); err != nil {
				t.Fatalf("game %d: %v", i+1, err)
			}
		}
		playGame(t, tbl, []lobby.Player{alice, bob}, nil)
	}

	after := read()
	for _, cmd := range outsider {
		if before[cmd] != after[cmd] {
			t.Errorf("carol's %q changed with the private games:\nbefore %s\nafter  %s", cmd, before[cmd], after[cmd])
		}
	}
	var own command.StatsJSON
	if r := e.jsonOf(t, e.key(t, "alice"), "stats --json", &own); r.code != 0 || own.Counted != "all" || own.PrivateGames != games || own.Games != games+1 {
		t.Errorf("alice's own stats: %+v %+v", r, own)
	}
	var seen command.StatsJSON
	if r := e.jsonOf(t, e.key(t, "carol"), "stats alice --json", &seen); r.code != 0 || seen.Counted != "public" || seen.PrivateGames != 0 || seen.Games != 1 {
		t.Errorf("alice's stats as carol sees them: %+v %+v", r, seen)
	}
	var board command.LeaderboardJSON
	if r := e.jsonOf(t, e.key(t, "bob"), "leaderboard --table secret --all-time --json", &board); r.code != 0 || len(board.Players) != 3 {
		t.Errorf("the members' board: %+v %+v", r, board)
	}
	for _, p := range board.Players {
		if p.Games != games {
			t.Errorf("the private board: %+v", p)
		}
	}
	e.steps(t, []step{
		{name: "outsider's board of the table", who: "carol", cmd: "leaderboard --table secret", code: 1, stderr: []string{"no such table: secret"}},
		{name: "outsider's stats at the table", who: "carol", cmd: "stats alice --table secret", code: 1, stderr: []string{"no such table: secret"}},
		{name: "member's stats at the table", who: "bob", cmd: "stats alice --table secret --all-time", code: 0, stdout: []string{"at secret", "after 3 rated games"}},
		{name: "alice's own figures say where", who: "alice", cmd: "stats", code: 0, stdout: []string{"4 played", "3 at private tables"}},
		{name: "closed", who: "alice", cmd: "table close secret", code: 0, stdout: []string{"Table secret is closed"}},
		{name: "carol takes the name", who: "carol", cmd: "table create secret", code: 0, stdout: []string{"Table secret is open"}},
		{name: "the new table's board", who: "carol", cmd: "leaderboard --table secret --all-time", code: 0, stdout: []string{"Leaderboard at secret", "No rated games yet."}, not: []string{"alice", "bob"}},
		{name: "the new table's board, as an old member", who: "bob", cmd: "leaderboard --table secret --all-time", code: 0, stdout: []string{"No rated games yet."}, not: []string{"alice", "ada"}},
		{name: "alice at the new table", who: "carol", cmd: "stats alice --table secret", code: 0, stdout: []string{"no rated game yet (its own games)"}, not: []string{"after 3"}},
		{name: "an admin: the newest table too", who: "root", cmd: "leaderboard --table secret --all-time", code: 0, stdout: []string{"No rated games yet."}},
	})
	var newBoard command.LeaderboardJSON
	if r := e.jsonOf(t, e.key(t, "bob"), "stats alice --table secret --json", &seen); r.code != 0 || seen.TableRating == nil || seen.TableRating.Games != 0 || seen.TableRating.Wins != 0 {
		t.Errorf("alice at the new secret, as bob sees it: %+v %+v", r, seen.TableRating)
	}
	if r := e.jsonOf(t, e.key(t, "carol"), "leaderboard --table SECRET --all-time --json", &newBoard); r.code != 0 || len(newBoard.Players) != 0 {
		t.Errorf("the new table's board: %+v %+v", r, newBoard)
	}
	// A game at the new public table counts on its board and overall.
	ntbl, err := e.lobby.Table("secret")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{carol, bob} {
		if err := ntbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := ntbl.Start(ctx, carol); err != nil {
		t.Fatal(err)
	}
	playGame(t, ntbl, []lobby.Player{carol, bob}, nil)
	if r := e.jsonOf(t, e.key(t, "alice"), "leaderboard --table secret --all-time --json", &newBoard); r.code != 0 || len(newBoard.Players) != 2 {
		t.Errorf("the new table's board after its game: %+v %+v", r, newBoard)
	}
	if r := e.as(t, "carol", "stats bob --json"); !strings.Contains(r.stdout, `"games": 1,`) {
		t.Errorf("bob's public game: %s", r.stdout)
	}
}
