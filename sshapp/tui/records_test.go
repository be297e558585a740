package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

var (
	keyRight = tea.KeyMsg{Type: tea.KeyRight}
	keyLeft  = tea.KeyMsg{Type: tea.KeyLeft}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyUp    = tea.KeyMsg{Type: tea.KeyUp}
	keyEnd   = tea.KeyMsg{Type: tea.KeyEnd}
	keyHome  = tea.KeyMsg{Type: tea.KeyHome}
)

// records is a store with public and private games, for the history
// tests: alpha (public) holds alice and bob's games, beta (public) bob
// and carol's, club (private: host bob, member carol) bob and carol's.
type records struct {
	st                *store.Store
	alice, bob, carol lobby.Player
	alpha, beta, club []string // game IDs, oldest first
	all               []string // every ID, oldest first
	start             time.Time
}

func newRecords(t *testing.T, e *env, nAlpha, nBeta, nClub int) *records {
	t.Helper()
	ctx := ctxT(t)
	r := &records{st: e.st, alice: e.player("alice"), bob: e.player("bob"), carol: e.player("carol"), start: e.clock.Now()}
	if _, err := e.lobby.CreateTable(ctx, r.alice, lobby.TableConfig{Name: "alpha", Rules: engine.DefaultOptions(), Seats: 4}); err != nil {
		t.Fatal(err)
	}
	for _, tbl := range []store.TableRecord{
		{Name: "beta", Host: r.bob.ID, Rules: engine.DefaultOptions(), Seats: 4, Created: r.start},
		{Name: "club", Host: r.bob.ID, Rules: engine.DefaultOptions(), Seats: 4, Private: true,
			Members: []string{r.carol.ID}, Created: r.start},
	} {
		if err := e.st.CreateTable(ctx, tbl); err != nil {
			t.Fatal(err)
		}
	}
	rules := engine.DefaultOptions()
	rules.Lives = 1
	at := r.start
	add := func(list *[]string, table string, ps ...lobby.Player) {
		at = at.Add(time.Minute)
		g := playGame(t, e.st, table, seatsOf(ps...), rules, uint64(len(r.all)+1), at)
		*list = append(*list, g.ID)
		r.all = append(r.all, g.ID)
	}
	// Interleaved, so that every filter skips games.
	for i := 0; i < max(nAlpha, nBeta, nClub); i++ {
		if i < nAlpha {
			add(&r.alpha, "alpha", r.alice, r.bob)
		}
		if i < nBeta {
			add(&r.beta, "beta", r.bob, r.carol)
		}
		if i < nClub {
			add(&r.club, "club", r.bob, r.carol)
		}
	}
	return r
}

// newestFirst is ids reversed.
func newestFirst(ids ...[]string) []string {
	var out []string
	for _, l := range ids {
		out = append(out, l...)
	}
	slices.SortFunc(out, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return y - x
	})
	return out
}

func ids(gs []store.Game) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.ID
	}
	return out
}

// TestVisibleGames pages through the games a viewer may see: the private
// table's games are skipped for those who are not its host or members,
// and pages stay full.
func TestVisibleGames(t *testing.T) {
	e := newEnv(t)
	r := newRecords(t, e, 4, 3, 5)
	ctx := ctxT(t)
	dave := e.player("dave")
	tests := []struct {
		viewer lobby.Player
		q      store.Query
		want   []string
	}{
		{dave, store.Query{}, newestFirst(r.alpha, r.beta)},
		{r.alice, store.Query{}, newestFirst(r.alpha, r.beta)},
		{r.carol, store.Query{}, newestFirst(r.alpha, r.beta, r.club)},
		{r.bob, store.Query{}, newestFirst(r.alpha, r.beta, r.club)},
		{lobby.Player{ID: dave.ID, Key: dave.Key, Admin: true}, store.Query{}, newestFirst(r.alpha, r.beta, r.club)},
		{dave, store.Query{Table: "club"}, nil},
		{r.carol, store.Query{Table: "CLUB"}, newestFirst(r.club)},
		{r.alice, store.Query{Player: r.alice.ID}, newestFirst(r.alpha)},
	}
	for _, tc := range tests {
		for _, limit := range []int{1, 2, 5, 100} {
			var got []string
			q := tc.q
			q.Limit = limit
			for pages := 0; ; pages++ {
				gs, next, err := visibleGames(ctx, e.st, tc.viewer, q)
				if err != nil {
					t.Fatal(err)
				}
				if len(gs) > limit || (next != "" && len(gs) < limit) {
					t.Fatalf("%s %+v: page of %d, next %q", nameOf(tc.viewer), q, len(gs), next)
				}
				got = append(got, ids(gs)...)
				if next == "" {
					break
				}
				q.Before = next
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s (admin %v) %+v limit %d: %v, want %v", nameOf(tc.viewer), tc.viewer.Admin, tc.q, limit, got, tc.want)
			}
		}
	}
}

// TestHistoryScreenPagesAndFilters drives the list's keys: pages of
// five, older and newer, and the three filters.
func TestHistoryScreenPagesAndFilters(t *testing.T) {
	e := newEnv(t)
	r := newRecords(t, e, 7, 4, 3)
	m := newHistoryScreen(e.common(r.alice), "beta", 5)
	do := func(cmd tea.Cmd) {
		t.Helper()
		if cmd == nil {
			t.Fatal("no load")
		}
		m.loaded(answer(cmd).(historyLoaded))
	}
	key := func(k tea.KeyMsg) {
		t.Helper()
		do(m.key(k))
	}
	page := func(want []string, more bool) {
		t.Helper()
		if got := ids(m.games); !slices.Equal(got, want) || (m.next != "") != more {
			t.Errorf("filter %d page %d: %v next %q, want %v more %v", m.filter, len(m.pages), got, m.next, want, more)
		}
	}
	do(m.load())
	mine := newestFirst(r.alpha)
	page(mine[:5], true)
	key(keyRight)
	page(mine[5:], false)
	if cmd := m.key(keyRight); cmd != nil {
		t.Error("→ on the last page loads")
	}
	key(keyLeft)
	page(mine[:5], true)

	key(keyRunes("f")) // this table's: beta
	page(newestFirst(r.beta), false)
	key(keyRunes("f")) // everyone's: not club's
	all := newestFirst(r.alpha, r.beta)
	page(all[:5], true)
	key(keyRunes("l"))
	key(keyRunes("l"))
	page(all[10:], false)
	key(keyRunes("h"))
	page(all[5:10], true)
	key(keyRunes("f")) // back to mine, first page
	page(mine[:5], true)

	// An answer to an older request is dropped.
	stale := m.query()
	oldReq := m.req
	cmd := m.key(keyRunes("f"))
	late := loadGames(e.st, r.alice, stale, oldReq)().(historyLoaded)
	m.loaded(late)
	if !m.loading {
		t.Error("a stale answer was taken")
	}
	do(cmd)
	page(newestFirst(r.beta), false)

	// Without a table, f skips the table filter.
	m = newHistoryScreen(e.common(r.carol), "", 50)
	do(m.load())
	page(newestFirst(r.beta, r.club), false)
	key(keyRunes("f"))
	if m.filter != filterAll {
		t.Errorf("filter %d, want everyone's", m.filter)
	}
	page(newestFirst(r.alpha, r.beta, r.club), false)
}

// TestHistoryListScreen opens the list from the lobby at 80×24: rows with
// table, age, players and winner; f changes the filter; enter replays;
// esc goes back.
func TestHistoryListScreen(t *testing.T) {
	e := newEnv(t)
	r := newRecords(t, e, 3, 2, 2)
	e.clock.Skip(3*time.Hour + 30*time.Minute)
	newest, _, err := e.st.Game(ctxT(t), r.alpha[len(r.alpha)-1])
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.config(r.alice, 80, 24)
	cfg.Records = e.st
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "alpha", "h history", "L stats")
	tm.Send(keyRunes("h"))
	winner := newest.Seats[newest.Winner].Name
	waitOutput(t, tm, "history", "[mine]", "table alpha", "GAME", "WINNER",
		"#"+newest.ID, "3h ago", "alice (you), bob", winner, "no older games")

	tm.Send(keyRunes("f"))
	waitOutput(t, tm, "[table alpha]")
	tm.Send(keyRunes("f"))
	waitOutput(t, tm, "[everyone's]", "#"+r.beta[len(r.beta)-1], "bob, carol")

	tm.Send(keyEnter) // the newest game
	newestAll := newestFirst(r.alpha, r.beta)[0]
	waitOutput(t, tm, "replay · game #"+newestAll+" at alpha", "Round 1 of", "Lives per round")
	tm.Send(keyEsc)
	tm.Send(keyEsc)
	waitOutput(t, tm, "Lobby chat")
	frame := finalView(t, tm)
	assertContains(t, frame, "alpha", "h history")
}

// TestReplaySteps cuts the scripted game into steps and checks the state
// at each, the verdicts, the chart and the round keys' targets.
func TestReplaySteps(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	sg := bluffGame(t, e.st, "alpha", e.clock.Now(), a, b, c)
	g, evs, err := e.st.Game(ctxT(t), sg.ID)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := newReplay(g, evs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.steps) != 16 || rp.rounds() != 4 {
		t.Fatalf("%d steps, %d rounds; want 16 and 4", len(rp.steps), rp.rounds())
	}
	wantChart := [][]int{{2, 1, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 0}}
	for s, want := range wantChart {
		if !slices.Equal(rp.chart[s], want) {
			t.Errorf("seat %d lives per round %v, want %v", s, rp.chart[s], want)
		}
	}
	// The lives at each round's end are the engine's at that step.
	for i, st := range rp.steps {
		if st.Done > 0 && (i == len(rp.steps)-1 || rp.steps[i+1].Done > st.Done) {
			for s := range st.Lives {
				if st.Lives[s] != rp.chart[s][st.Done-1] {
					t.Errorf("step %d seat %d: %d lives, chart %d", i, s, st.Lives[s], rp.chart[s][st.Done-1])
				}
			}
		}
	}
	verdicts := map[int]engine.Verdict{}
	for i := range rp.events {
		if k, _ := rp.verdict(i); k != engine.Unjudged {
			verdicts[i] = k
		}
	}
	words := func(step int) string {
		st := rp.steps[step]
		for i := st.First; i < st.End; i++ {
			if k, w := rp.verdict(i); k != engine.Unjudged {
				return w
			}
		}
		return ""
	}
	for step, want := range map[int]string{
		2:  "bluff: 65 claimed, 43 in the cup",
		3:  "the dice were below the claim: 65 passed on, 43 in the cup",
		4:  "caught: 43 under bob's 65, bob loses a life",
		6:  "true: 52 claimed, 52 in the cup",
		7:  "the 52 stood: 52 in the cup, alice loses a life",
		9:  "blind: 41 claimed unseen, 31 in the cup",
		11: "bluff: Mia claimed, 66 in the cup",
		15: "the Mia stood: Mia in the cup, carol loses 2 lives",
	} {
		if got := words(step); got != want {
			t.Errorf("step %d: %q, want %q", step, got, want)
		}
	}
	// Step 4 is the challenge: the claim and cup it lifted, lives after.
	st := rp.steps[4]
	if st.Claim != 65 || st.Claimant != 1 || st.Cup != 43 || st.Roller != 0 || !slices.Equal(st.Lives, []int{2, 1, 2}) || st.Round != 1 {
		t.Errorf("step 4: %+v", st)
	}
	if st.Turn != 2 { // carol opens round 2
		t.Errorf("step 4: turn %d, want 2", st.Turn)
	}
	last := rp.steps[len(rp.steps)-1]
	if !last.Over || last.Turn != -1 || g.Winner != 1 {
		t.Errorf("last step %+v, winner %d", last, g.Winner)
	}
	// Rounds begin at steps 0, 5 (carol's roll), 8 and 13.
	if !slices.Equal(rp.starts, []int{0, 5, 8, 13}) {
		t.Errorf("round starts %v", rp.starts)
	}
	for _, tc := range []struct{ from, prev, next int }{
		{0, 0, 5}, {3, 0, 5}, {5, 0, 8}, {6, 5, 8}, {13, 8, 15}, {15, 13, 15},
	} {
		if p, n := rp.prevRound(tc.from), rp.nextRound(tc.from); p != tc.prev || n != tc.next {
			t.Errorf("from step %d: round back %d, on %d; want %d, %d", tc.from, p, n, tc.prev, tc.next)
		}
	}
}

// TestReplayViewer replays the scripted game at 80×24 from the history
// list: it steps forward and back, shows the dice under every claim,
// marks the bluffs and the caught bluff, and draws the lives per round.
func TestReplayViewer(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	if _, err := e.lobby.CreateTable(ctxT(t), a, lobby.TableConfig{Name: "alpha", Rules: engine.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	g := bluffGame(t, e.st, "alpha", e.clock.Now().Add(time.Minute), a, b, c)
	e.clock.Skip(3 * time.Hour)
	cfg := e.config(a, 80, 24)
	cfg.Records = e.st
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Lobby chat")
	tm.Send(keyRunes("h"))
	waitOutput(t, tm, "#"+g.ID, "alice (you), bob, carol")
	tm.Send(keyEnter)
	waitOutput(t, tm, "replay · game #"+g.ID+" at alpha", "ended 2h ago", "Round 1 of 4", "step 0 of 15",
		"Lives per round", "No claim yet", "— round 1: alice opens —")

	tm.Send(keyRight) // alice rolls 43
	waitOutput(t, tm, "step 1 of 15", "In the cup: ⚃⚂ 43 (alice's roll, seen)", "alice rolled 43")
	tm.Send(keyRight) // alice claims 65
	waitOutput(t, tm, "Claim: 65 by alice", "bluff: 65 claimed, 43 in the cup",
		"alice announced 65 to bob — bluff! · cup ⚃⚂ 43")
	tm.Send(keyRight) // bob passes it on
	waitOutput(t, tm, "Claim: 65 by bob", "the dice were below the claim: 65 passed on, 43 in the cup")
	tm.Send(keyRight) // carol challenges
	waitOutput(t, tm, "caught: 43 under bob's 65, bob loses a life",
		"carol called bob a liar: 43, bob loses a life — caught bluffing!")
	tm.Send(keyLeft) // back to the pass
	waitOutput(t, tm, "step 3 of 15")

	tm.Send(keyDown) // round 2
	waitOutput(t, tm, "Round 2 of 4", "step 5 of 15", "— round 2: carol opens —")
	tm.Send(keyRight)
	waitOutput(t, tm, "true: 52 claimed, 52 in the cup")
	tm.Send(keyUp)
	waitOutput(t, tm, "step 5 of 15")
	tm.Send(keyEnd)
	waitOutput(t, tm, "step 15 of 15", "bob won the game", "the Mia stood: Mia in the cup, carol loses 2 lives")

	m := finalModel(t, tm)
	frame := m.View()
	assertFits(t, frame, 80, 24)
	// The chart: alice 2 1 0 0, bob 1 1 1 1, carol 2 2 2 0 of 2 lives.
	assertContains(t, frame, "alice          (you)  out        █▄··", "★ bob", "♥♡", "▄▄▄▄", "███·",
		"Round 4 of 4", "carol called bob a liar: Mia, carol loses 2 lives — the claim stood")
	t.Logf("the replay viewer at 80×24:\n%s", frame)

	// Home goes back to the start; the model answers keys without I/O.
	m.Update(keyHome)
	assertContains(t, m.View(), "step 0 of 15", "No claim yet")
	for range 4 {
		m.Update(keyRunes("l"))
	}
	caught := m.View()
	assertFits(t, caught, 80, 24)
	assertContains(t, caught, "step 4 of 15", "Claim: 65 by bob · In the cup: ⚃⚂ 43 (alice's roll, seen)",
		"caught: 43 under bob's 65, bob loses a life", "alice announced 65 to bob — bluff! · cup ⚃⚂ 43",
		"bob passed 65 to carol — the dice were below the claim · cup ⚃⚂ 43", "▶ carol", "♥♡")
	t.Logf("the caught bluff at 80×24:\n%s", caught)
}

// finalModel quits the program and returns its model.
func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	tm.Send(keyRunes("q"))
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
}

// TestReplayRefusesGameInProgress never opens a game still being played,
// nor one the viewer may not see.
func TestReplayRefusesGameInProgress(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	ctx := ctxT(t)
	if err := e.st.CreateTable(ctx, store.TableRecord{Name: "club", Host: b.ID, Rules: engine.DefaultOptions(),
		Seats: 4, Private: true, Created: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	at := e.clock.Now().Add(time.Minute)
	running := recordGame(t, e.st, "alpha", seatsOf(a, b), engine.DefaultOptions(), 0, at,
		roll(0, true, 43), claim(0, 65))
	if !running.Ended.IsZero() {
		t.Fatal("the scripted game ended")
	}
	private := bluffGame(t, e.st, "club", at, b, c, e.player("dave"))

	cfg := e.config(a, 80, 24)
	cfg.Records = e.st
	m := New(cfg).(*Model)
	cmd := m.goTo(goTo{to: screenReplay, game: running.ID})
	run(m, cmd)
	frame := m.View()
	assertContains(t, frame, "this game is still being played", "esc: back")
	assertLacks(t, frame, "43", "Claim", "Lives per round")

	cmd = m.goTo(goTo{to: screenReplay, game: private.ID})
	run(m, cmd)
	assertContains(t, m.View(), "there is no game "+private.ID)

	// esc: a replay not opened from the list goes back to the lobby.
	_, cmd = m.Update(keyEsc)
	if _, ok := m.cur.(*lobbyScreen); !ok || cmd == nil {
		t.Errorf("after esc: screen %T", m.cur)
	}
	m.Close()

	// The player who sat in it may.
	cfg.Player = b
	m = New(cfg).(*Model)
	cmd = m.goTo(goTo{to: screenReplay, game: private.ID})
	run(m, cmd)
	assertContains(t, m.View(), "Lives per round", "Round 1 of 4")
}

// TestStatsScreen shows the viewer's tally and rating, and the
// leaderboard, as the store has them.
func TestStatsScreen(t *testing.T) {
	e := newEnv(t)
	r := newRecords(t, e, 6, 3, 0)
	a, b, c := r.alice, r.bob, r.carol
	bluffGame(t, e.st, "alpha", r.start.Add(time.Hour), a, b, c)
	ctx := ctxT(t)
	tally, err := e.st.Tally(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	season := rating.DefaultPeriod.Of(e.clock.Now())
	board, err := e.st.Leaderboard(ctx, store.BoardQuery{Board: store.Board{Season: season}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := e.st.Rating(ctx, a.ID, store.Board{})
	if err != nil {
		t.Fatal(err)
	}
	if tally.Games != 7 || tally.Bluffs == 0 || len(board) != 3 {
		t.Fatalf("tally %+v, board %+v", tally, board)
	}
	cfg := e.config(a, 80, 24)
	cfg.Records = e.st
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Lobby chat")
	tm.Send(keyRunes("L"))
	pct := func(p, w int) string { return fmt.Sprintf("%d%%", (p*100+w/2)/w) }
	want := []string{
		"Your games", fmt.Sprintf("games           %d, %d won · %s", tally.Games, tally.Wins, pct(tally.Wins, tally.Games)),
		fmt.Sprintf("lives lost      %d", tally.LivesLost),
		fmt.Sprintf("bluffs          %d of %d claims · %s", tally.Bluffs, tally.Claims, pct(tally.Bluffs, tally.Claims)),
		fmt.Sprintf("understated     %d · %s", tally.Understated, pct(tally.Understated, tally.Claims)),
		fmt.Sprintf("caught bluffing %s", words.Plural(tally.BluffsCaught, "1 time", "times")),
		fmt.Sprintf("challenges      %d, right %d", tally.Challenges, tally.ChallengesWon),
		fmt.Sprintf("rating          %s · %s", words.Figure(mine.Rating), words.Plural(mine.Games, "1 game", "games")),
		fmt.Sprintf("μ %.2f σ %.2f", mine.Mu, mine.Sigma), "in " + season.String(), "trend",
		// the bluff counts explained: a claim made unseen is no bluff, nor
		// one below the dice
		"bluffs: claims above the dice you", "understated: below them (never", "caught bluffing:",
		"Win rate, your last 7 games",
		"Leaderboard · overall", "(f: at alpha)", season.String() + " · ends in", "RATING",
	}
	for i, rt := range board {
		who := rt.Name
		if rt.Person == a.ID {
			who += " (you)"
		}
		want = append(want, fmt.Sprintf("%d %s", i+1, who), words.Figure(rt.Rating))
	}
	waitOutput(t, tm, want...)
	tm.Send(keyRunes("f"))
	waitOutput(t, tm, "Leaderboard · at alpha", "(f: overall)")
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	assertContains(t, frame, "●", "Leaderboard · at alpha")
	t.Logf("the stats at 80×24:\n%s", frame)
}

// TestNoRecords: without Records the keys say so and the lobby stays.
func TestNoRecords(t *testing.T) {
	e := newEnv(t)
	tm := teatest.NewTestModel(t, New(e.config(e.player("alice"), 80, 24)), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Lobby chat")
	tm.Send(keyRunes("h"))
	waitOutput(t, tm, errNoRecords)
	tm.Send(keyRunes("L"))
	frame := finalView(t, tm)
	assertContains(t, frame, errNoRecords, "Lobby chat")
}

// TestRecordsSizes draws the records screens at odd sizes: too small
// shows only the size notice; never more than the window.
func TestRecordsSizes(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	if _, err := e.lobby.CreateTable(ctxT(t), a, lobby.TableConfig{Name: "alpha", Rules: engine.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	at := e.clock.Now().Add(time.Minute)
	g := bluffGame(t, e.st, "alpha", at, a, b, c)
	rules := engine.DefaultOptions()
	rules.Lives = 9
	ps := []lobby.Player{a, b, c}
	for i := 3; i < 10; i++ {
		ps = append(ps, e.player(fmt.Sprintf("player-%d-longest", i)))
	}
	big := playGame(t, e.st, "alpha", seatsOf(ps...), rules, 99, at.Add(time.Minute))
	for _, tc := range []struct {
		w, h  int
		small bool
	}{{80, 24, false}, {79, 24, true}, {80, 23, true}, {60, 20, true}, {120, 40, false}, {100000, 100000, false}} {
		cfg := e.config(a, tc.w, tc.h)
		cfg.Records = e.st
		m := New(cfg).(*Model)
		screens := map[string]func(){
			"history": func() { cmd := m.goTo(goTo{to: screenHistory, table: "alpha"}); run(m, cmd) },
			"replay":  func() { cmd := m.goTo(goTo{to: screenReplay, game: g.ID}); run(m, cmd); m.Update(keyRunes("l")) },
			"big replay": func() {
				cmd := m.goTo(goTo{to: screenReplay, game: big.ID})
				run(m, cmd)
				m.Update(keyDown)
			},
			"stats": func() { cmd := m.goTo(goTo{to: screenStats, table: "alpha"}); run(m, cmd) },
		}
		for name, show := range screens {
			for _, full := range []bool{false, true} {
				show()
				m.c.help.ShowAll = full
				m.resize()
				frame := m.View()
				if got := strings.Contains(frame, "make the window at least 80×24"); got != tc.small {
					t.Errorf("%s at %d×%d: size notice %v, want %v:\n%s", name, tc.w, tc.h, got, tc.small, frame)
				}
				if !tc.small && strings.Contains(frame, "loading") {
					t.Errorf("%s at %d×%d: still loading:\n%s", name, tc.w, tc.h, frame)
				}
				assertFits(t, frame, min(tc.w, MaxWidth), min(tc.h, MaxHeight))
				if !tc.small && tc.w == 80 && !full && name == "big replay" {
					assertContains(t, frame, "player-9-long…", "Round 2 of", "←/→ step")
				}
			}
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		10 * time.Second:             "just now",
		5 * time.Minute:              "5m ago",
		3*time.Hour + 59*time.Minute: "3h ago",
		49 * time.Hour:               "2d ago",
		40 * 24 * time.Hour:          "12 Oct 2026",
		-time.Minute:                 "just now",
	} {
		if got := ago(now, now.Add(-d)); got != want {
			t.Errorf("%v ago: %q, want %q", d, got, want)
		}
	}
}

func TestLifeBarAndRateBar(t *testing.T) {
	for _, tc := range []struct {
		lives, most int
		want        rune
	}{{0, 6, '·'}, {1, 6, '▂'}, {3, 6, '▄'}, {6, 6, '█'}, {1, 2, '▄'}, {2, 2, '█'}, {1, 9, '▁'}, {9, 9, '█'}} {
		if got := lifeBar(tc.lives, tc.most); got != tc.want {
			t.Errorf("lifeBar(%d, %d) = %c, want %c", tc.lives, tc.most, got, tc.want)
		}
	}
	if rateBar(0, 5) != '▁' || rateBar(5, 5) != '█' || rateBar(1, 2) != '▅' {
		t.Errorf("rateBar: %c %c %c", rateBar(0, 5), rateBar(5, 5), rateBar(1, 2))
	}
	if got := chartStart(100, 80, 45); got != 55 {
		t.Errorf("chartStart(100, 80, 45) = %d", got)
	}
	if got := chartStart(10, 8, 45); got != 0 {
		t.Errorf("chartStart(10, 8, 45) = %d", got)
	}
}

// TestStatsOfOneGame: after one game the stats say it in words, not as a
// one-bar sparkline (▁·), which says nothing.
func TestStatsOfOneGame(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	bluffGame(t, e.st, "alpha", e.clock.Now(), a, b, c) // bob wins
	for _, who := range []struct {
		p    lobby.Player
		want string
	}{{a, "lost at alpha"}, {b, "won at alpha"}} {
		cm := e.common(who.p)
		m := &Model{c: cm, width: 80, height: 24}
		cm.nav = m
		sc := newStatsScreen(cm, "")
		m.show(sc)
		run(m, sc.Init())
		f := m.View()
		assertContains(t, f, "Your one game so far", who.want)
		assertLacks(t, f, "Win rate, your last", "▁")
	}
}

// TestAbandonedGameOnScreens: a game abandoned when its table closed is
// in the history with "(abandoned)" for its winner, and its replay ends by
// saying who closed the table; a game the server could not resume is
// neither listed nor replayed.
func TestAbandonedGameOnScreens(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	at := e.clock.Now().Add(time.Minute)
	cut := recordGame(t, e.st, "alpha", seatsOf(a, b), engine.DefaultOptions(), 0, at, roll(0, true, 43), claim(0, 65))
	if err := e.st.Abandon(ctx, cut.ID, at.Add(time.Minute), &store.Abandonment{Reason: store.AbandonClosed, By: a.ID}); err != nil {
		t.Fatal(err)
	}
	lost := recordGame(t, e.st, "alpha", seatsOf(a, b), engine.DefaultOptions(), 0, at, roll(0, true, 43))
	if err := e.st.Abandon(ctx, lost.ID, at.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}

	cfg := e.config(b, 80, 24)
	cfg.Records = e.st
	m := New(cfg).(*Model)
	defer m.Close()
	run(m, m.goTo(goTo{to: screenHistory}))
	list := m.View()
	assertFits(t, list, 80, 24)
	assertContains(t, list, "#"+cut.ID, "(abandoned)")
	assertLacks(t, list, "#"+lost.ID)

	run(m, m.goTo(goTo{to: screenReplay, game: cut.ID}))
	m.Update(keyEnd)
	end := m.View()
	assertFits(t, end, 80, 24)
	assertContains(t, end, "abandoned: alice closed the table while it ran; no one won", "alice announced 65", "abandoned ")
	assertLacks(t, end, "ended ")

	run(m, m.goTo(goTo{to: screenReplay, game: lost.ID}))
	assertContains(t, m.View(), "game "+lost.ID+" was cut short by the server and never resumed")
}
