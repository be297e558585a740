package sshapp

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"

	"github.com/mia-game/mia/sshapp/command"
)

// TestBotGamesReplayAndRatings: a table of built-in bots plays games on
// its own; every finished game's `replay --json` re-checks through the
// engine, the text replay tells it, history pages through them, and the
// leaderboard and stats show the players.
func TestBotGamesReplayAndRatings(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, time.Millisecond)
	e.steps(t, []step{
		{name: "bots", who: "alice", code: 0,
			cmd:    "table create arena --seats 3 --bots 3 --bot-level hard --lives 2 --ranking little-mia --mia-penalty-both",
			stdout: []string{"Seated: ada, bert, cleo (hard bots)", "bots are playing", "little-mia"}},
	})
	const want = 6
	eventually(t, 60*time.Second, "six finished games", func() bool {
		gs, err := e.st.Games(context.Background(), store.Query{Limit: want})
		return err == nil && len(gs) >= want
	})
	if _, err := e.st.SetName(context.Background(), "SHA256:before-the-rule", "Ada"); err != nil {
		t.Fatal(err)
	}
	ids := e.historyIDs(t, "carol", "--limit 50")
	if len(ids) < want {
		t.Fatalf("history lists %d games", len(ids))
	}
	for _, id := range ids {
		g := e.checkReplayJSON(t, "carol", id)
		if g.Table != "arena" || g.Rules.Ranking != engine.LittleMia || !g.Rules.MiaPenaltyBoth || len(g.Players) != 3 {
			t.Errorf("game %s: %+v", id, g)
		}
		for _, p := range g.Players {
			if !p.Bot || !strings.HasPrefix(p.Fingerprint, lobby.BotIDPrefix) {
				t.Errorf("game %s: player %+v", id, p)
			}
		}
	}

	// Paging: two pages of 2 are the first four games, newest first. The
	// bots play on, so the pages start below a fixed game.
	n, _ := strconv.Atoi(ids[0])
	top := strconv.Itoa(n + 1)
	r := e.as(t, "carol", "history --limit 2 --json --before "+top)
	var p1 command.HistoryJSON
	if err := json.Unmarshal([]byte(r.stdout), &p1); err != nil || len(p1.Games) != 2 || p1.Next != p1.Games[1].ID {
		t.Fatalf("page 1: %v %+v", err, p1)
	}
	p2 := e.historyIDs(t, "carol", "--limit 2 --before "+p1.Next)
	if got := append([]string{p1.Games[0].ID, p1.Games[1].ID}, p2...); !slices.Equal(got, ids[:4]) {
		t.Errorf("pages %v, want %v", got, ids[:4])
	}
	for _, g := range p1.Games {
		if g.Rounds < 2 || g.Table != "arena" || len(g.Standings) != 3 {
			t.Errorf("history game %+v", g)
		}
	}

	e.steps(t, []step{
		{name: "history text", who: "carol", cmd: "history --limit 2 --before " + top, code: 0,
			stdout: []string{"GAME  TABLE  ENDED (UTC)", "arena", "(hard bot), ", "More:", "history --before " + p1.Next + " --limit 2", ids[0] + "  ", "replay GAME"}},
		{name: "history by player", who: "carol", cmd: "history --player bot:hard:ada --limit 1", code: 0, stdout: []string{"ada (hard bot)"}},
		{name: "history of an unknown player", who: "carol", cmd: "history --player nobody", code: 1, stderr: []string{"no player is called nobody"}},
		{name: "history: bad limit", who: "carol", cmd: "history --limit 0", code: 2, stderr: []string{"--limit is 1 to 200"}},
		{name: "history: bad before", who: "carol", cmd: "history --before yesterday", code: 2, stderr: []string{"--before takes a game ID"}},
		{name: "history: stray word", who: "carol", cmd: "history arena", code: 2, stderr: []string{"unexpected"}},
		{name: "replay text", who: "carol", cmd: "replay " + ids[0], code: 0,
			stdout: []string{"Game " + ids[0] + " at arena: little-mia, 2 lives", "Round 1: ", "rolled", "announced", "called", "a liar", "wins the game", "Standings: 1. ", "Lives after each round:", "♥", "→ 2 "}},
		{name: "leaderboard", who: "carol", cmd: "leaderboard --all-time", code: 0, stdout: []string{"Leaderboard overall · all time (UTC):", "RANK", "RATING", "μ", "σ", "ada (hard bot)", "bert (hard bot)", "cleo (hard bot)"}},
		{name: "leaderboard at the table", who: "carol", cmd: "leaderboard --table arena --limit 2 --all-time", code: 0, stdout: []string{"Leaderboard at arena · all time", "1 "}},
		{name: "leaderboard of people", who: "carol", cmd: "leaderboard --people --all-time", code: 0, stdout: []string{"people only", "No rated games yet."}},
		{name: "leaderboard of bots", who: "carol", cmd: "leaderboard --bots --all-time", code: 0, stdout: []string{"bots only", "ada (hard bot)"}},
		{name: "leaderboard of a season without games", who: "carol", cmd: "leaderboard --season 2020-W07", code: 0,
			stdout: []string{"season 2020-W07, week 7 of 2020 (10–16 Feb), ended (UTC)", "No rated games yet."}},
		{name: "leaderboard: bad season", who: "carol", cmd: "leaderboard --season 2026-13", code: 2, stderr: []string{`"2026-13" is not a season: a month as 2026-11`}},
		{name: "leaderboard: two seasons", who: "carol", cmd: "leaderboard --season 2026-11 --all-time", code: 2, stderr: []string{"--season and --all-time do not go together"}},
		{name: "leaderboard: people and bots", who: "carol", cmd: "leaderboard --people --bots", code: 2, stderr: []string{"--people and --bots do not go together"}},
		{name: "ratings rebuild, not an admin", who: "carol", cmd: "ratings rebuild", code: 1, stderr: []string{"only server admins may rebuild the ratings"}},
		{name: "leaderboard of an unknown table", who: "carol", cmd: "leaderboard --table nowhere", code: 1, stderr: []string{"no such table: nowhere"}},
		{name: "stats of a bot", who: "carol", cmd: "stats bot:hard:ada", code: 0,
			stdout: []string{"ada (hard bot)  bot:hard:ada", "games", "counted at public tables only", "rating", "overall, all time, after", "μ ", "σ ", "μ − 3σ", "trend", "lives lost", "bluffs", "understated", "caught bluffing", "challenges", "bluffs: claims above the dice you saw; understated: below them (never caught);", "caught bluffing: claims or passes", "form", "last games"}},
		{name: "stats of a bot by name", who: "carol", cmd: "stats cleo", code: 0, stdout: []string{"cleo (hard bot)  bot:hard:cleo"}},
		// A person who took a bot's name before bots' names were reserved
		// does not hide the bot.
		{name: "stats of a bot by a name a person took", who: "carol", cmd: "stats Ada", code: 0, stdout: []string{"ada (hard bot)  bot:hard:ada"}},
		{name: "stats of oneself, no games", who: "carol", cmd: "stats", code: 0, stdout: []string{"carol", "0 played", "none yet"}},
		{name: "stats of nobody", who: "carol", cmd: "stats nobody", code: 1, stderr: []string{"no player is called nobody"}},
	})

	// The leaderboard is in the model's order (engine/rating.Compare: the
	// conservative figure first), and its games and wins are the stored
	// games'.
	r = e.as(t, "carol", "leaderboard --table arena --all-time --json")
	var lb command.LeaderboardJSON
	if err := json.Unmarshal([]byte(r.stdout), &lb); err != nil || len(lb.Players) != 3 || lb.Table != "arena" ||
		lb.Season.Name != "all-time" || lb.Kind != "everyone" {
		t.Fatalf("leaderboard: %v %s", err, r.stdout)
	}
	games, wins := 0, 0
	for i, p := range lb.Players {
		games += p.Games
		wins += p.Wins
		r := rating.Rating{Mu: p.Mu, Sigma: p.Sigma, Games: p.Games}
		if p.Rank != i+1 || p.Rating != r.Points() || p.Provisional != r.Provisional() || p.Conservative != r.Conservative() ||
			(i > 0 && rating.Compare(rating.Rating{Mu: lb.Players[i-1].Mu, Sigma: lb.Players[i-1].Sigma, Games: lb.Players[i-1].Games}, r) > 0) {
			t.Errorf("leaderboard order: %+v", lb.Players)
		}
	}
	if games != 3*wins {
		t.Errorf("leaderboard: %d games, %d wins", games, wins)
	}
	r = e.as(t, "carol", "stats bot:hard:ada --json")
	var st command.StatsJSON
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.Games < want || st.Rating.Games < want || len(st.Form) == 0 || len(st.Recent) == 0 || st.Counted != "public" ||
		len(st.Trend) != min(st.Rating.Games, 30) || st.Trend[len(st.Trend)-1] != st.Rating.Rating ||
		st.Claims == 0 || st.BluffRate != float64(st.Bluffs)/float64(st.Claims) {
		t.Errorf("stats: %+v", st)
	}
}
