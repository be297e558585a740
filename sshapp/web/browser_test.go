package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// The end-to-end tests in a real browser: Debian's headless Chromium,
// driven by chromedp. They run where Chromium is installed and skip,
// saying so, where it is not, unless MIA_BROWSER_TESTS=require (CI sets
// it, and installs Chromium), which fails instead.

// chromium finds the browser, or skips (or fails when it is required).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MIA_BROWSER_TESTS") == "require" {
		t.Fatal("MIA_BROWSER_TESTS=require, but no Chromium is installed (apt-get install chromium)")
	}
	t.Skip("no Chromium on this machine: the browser tests need Debian's chromium (apt-get install chromium); CI installs it and runs them")
	return ""
}

// page is a tab of a headless Chromium of its own, and the console's
// errors (a refused script or style is one).
type page struct {
	t      *testing.T
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// openBrowser starts Chromium with the flags this machine needs (no
// sandbox as root, nothing fetched from the network, a fresh profile) at
// width×height.
func openBrowser(t *testing.T, width, height int) *page {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	p := &page{t: t, ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *cdplog.EventEntryAdded:
			if e.Entry != nil && e.Entry.Level == cdplog.EntryLevelError {
				msg = string(e.Entry.Source) + ": " + e.Entry.Text
			}
		case *runtime.EventExceptionThrown:
			msg = "exception: " + e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				msg = "console.error"
			}
		}
		if msg != "" {
			p.mu.Lock()
			p.errors = append(p.errors, msg)
			p.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return p
}

// do runs actions, failing the test on an error.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page (as the DevTools
// do: the page's Content-Security-Policy holds for the page's own
// scripts, not for this).
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// until waits, with a generous deadline, for a JavaScript condition.
func (p *page) until(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !eval[bool](p, "!!("+expr+")") {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: not after 60 s (%s); the page shows:\n%s", what, expr, eval[string](p, "document.body.innerText"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clean fails the test if the console showed an error.
func (p *page) clean() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errors {
		p.t.Errorf("the browser's console: %s", e)
	}
}

// TestBrowserLiveTable: a table's page in Chromium follows the game as it
// is played, each move (its line in the log, the turn) shown as it
// happens; then it is photographed for the README (MIA_WEB_SCREENSHOT=
// FILE writes the PNG there).
func TestBrowserLiveTable(t *testing.T) {
	p := openBrowser(t, 1280, 960)
	e := newEnv(t, nil, nil) // provably fair dice: the commitment is on the page
	ctx := ctxT(t)
	ann, ben, cat := e.player("ann"), e.player("ben"), e.player("cat")
	g := e.newGame("team-a", engine.DefaultOptions(), false, ann, ben, cat)
	spectator, err := g.tbl.Watch(ctx, e.player("dan"))
	if err != nil {
		t.Fatal(err)
	}
	defer spectator.Close()
	p.do("open the table", chromedp.Navigate(e.base+"/tables/team-a"))
	p.until("the stream is live", `document.getElementById("stream-state").textContent.includes("Live")`)
	for i, line := range []string{"good luck all", "ben, you bluff too much", "we'll see"} {
		who := []lobby.Player{ann, cat, ben}[i]
		if err := g.tbl.Say(ctx, who, line); err != nil {
			t.Fatal(err)
		}
	}
	var snap lobby.Snapshot
	shown := func(what string) {
		t.Helper()
		lines := snap.LogLines(1)
		p.until(what, fmt.Sprintf(
			`document.getElementById("live").dataset.version === %q && document.querySelector("#live .log li:last-child").textContent === %q`,
			fmt.Sprint(snap.Version), lines[len(lines)-1]))
	}
	for n := 0; !g.over(); n++ {
		if n > 3000 {
			t.Fatal("the game does not end")
		}
		g.step()
		if s, ok := spectator.Take(); ok {
			snap = s
		}
		switch {
		case n < 20 && n%4 == 0: // every move is sent; the page is checked now and then
			shown(fmt.Sprintf("move %d is shown", n))
		case n == 20 && !g.over():
			shown("the game in its middle is shown")
			if shot := os.Getenv("MIA_WEB_SCREENSHOT"); shot != "" {
				png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(shot, png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	shown("the end of the game is shown")
	p.until("the winner is shown", `document.querySelector("#live .won") !== null && document.querySelector("#live .won").textContent.includes("wins!")`)
	p.clean()
}

// TestBrowserReplayKeys: a finished game's page in Chromium steps through
// the moves by ← and →, Home and End, and its links, without a reload:
// the panel says what the server's page of that move says, and the
// address follows.
func TestBrowserReplayKeys(t *testing.T) {
	p := openBrowser(t, 1280, 900)
	e := newEnv(t, nil, nil)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	id := e.newGame("alpha", quickRules(), false, a, b, c).playOut(nil)
	p.do("open the game", chromedp.Navigate(e.base+"/games/"+id))
	p.until("the stepper is ready", `document.getElementById("stepper").dataset.ready === "true"`)
	last := eval[int](p, `document.querySelectorAll("li.move").length - 1`)
	at := func(m int) {
		t.Helper()
		p.until(fmt.Sprintf("move %d is shown", m), fmt.Sprintf(
			`new URLSearchParams(location.search).get("m") === "%d" && document.querySelector("#m%d.current") !== null && document.querySelectorAll("li.move.current").length === 1`, m, m))
		// The panel as the server draws the page of that move.
		_, body := e.get(fmt.Sprintf("/games/%s?m=%d", id, m))
		for _, field := range []string{"pos", "claim", "cup", "verdict"} {
			got := eval[string](p, fmt.Sprintf(`document.getElementById(%q).textContent`, field))
			if !strings.Contains(body, `id="`+field+`">`+htmlEscape(got)+`</`) {
				t.Errorf("move %d: the page's %s %q is not the server's", m, field, got)
			}
		}
	}
	keys := []struct {
		key  string
		want int
	}{
		{kb.ArrowRight, 1}, {kb.ArrowRight, 2}, {kb.ArrowRight, 3}, {kb.ArrowLeft, 2}, {kb.End, last}, {kb.ArrowRight, last},
		{kb.Home, 0}, {kb.ArrowLeft, 0},
	}
	for _, k := range keys {
		p.do("press a key", chromedp.KeyEvent(k.key))
		at(k.want)
	}
	p.do("click next", chromedp.Click("#to-next", chromedp.NodeVisible))
	at(1)
	p.do("click a move", chromedp.Click("#m5 a.n", chromedp.NodeVisible))
	at(5)
	if eval[int](p, `performance.getEntriesByType("navigation").length`) != 1 {
		t.Error("stepping reloaded the page")
	}
	p.clean()
}

// htmlEscape escapes text as html/template writes it in an element.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestBrowserFairness: Chromium re-derives a real game's dice from its
// JSON and finds them fair (a game in which a person with two keys sat
// down with her second and gave a seed: the seating hashes the key she
// sat with); given the same game's JSON with one roll changed (as a lying
// server would send it), it finds the roll and says the game does not
// match its proof.
func TestBrowserFairness(t *testing.T) {
	p := openBrowser(t, 1280, 900)
	e := newEnv(t, nil, nil)
	id, _ := twoKeyGame(t, e)
	p.do("open the game", chromedp.Navigate(e.base+"/games/"+id))
	p.until("the check is done", `document.getElementById("fair-result").dataset.verdict`)
	verdict := eval[string](p, `document.getElementById("fair-result").dataset.verdict`)
	text := eval[string](p, `document.getElementById("fair-result").textContent`)
	if verdict != "fair" || !strings.Contains(text, "✓ Checked in your browser") || !strings.Contains(text, "rolls follow") {
		t.Fatalf("a real game: %s: %s", verdict, text)
	}

	// The same game's document with its second roll changed.
	_, doc := e.get("/games/" + id + ".json")
	var g2 map[string]any
	if err := json.Unmarshal([]byte(doc), &g2); err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for _, ev := range g2["events"].([]any) {
		m := ev.(map[string]any)
		if m["type"] == "roll" {
			if rolls++; rolls == 2 {
				if m["dice"] == "66" {
					m["dice"] = "55"
				} else {
					m["dice"] = "66"
				}
			}
		}
	}
	altered, err := json.Marshal(g2)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(p.ctx, func(ev any) {
		paused, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		go func() {
			_ = chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: paused.RequestID,
					ResponseCode: 200, Body: altered,
					ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}})
				return err
			}))
		}()
	}); err != nil {
		t.Fatal(err)
	}
	p.do("intercept the game's JSON", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/games/" + id + ".json*"}}})
		return err
	}))
	p.do("open the game again", chromedp.Navigate(e.base+"/games/"+id))
	p.until("the check is done", `document.getElementById("fair-result").dataset.verdict`)
	verdict = eval[string](p, `document.getElementById("fair-result").dataset.verdict`)
	text = eval[string](p, `document.getElementById("fair-result").textContent`)
	if verdict != "unfair" || !strings.Contains(text, "do not match") || !strings.Contains(text, "roll 2 ") {
		t.Errorf("an altered game: %s: %s", verdict, text)
	}
	p.clean()
}

// TestBrowserWithoutScripts: with scripts off in Chromium the pages are
// whole: the table is a snapshot of the game that says so, and a game
// steps by its links, a page a move.
func TestBrowserWithoutScripts(t *testing.T) {
	p := openBrowser(t, 1100, 800)
	e := newEnv(t, nil, nil)
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)
	g.step()
	p.do("turn scripts off", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	p.do("open the table", chromedp.Navigate(e.base+"/tables/alpha"))
	text := eval[string](p, `document.body.innerText`)
	for _, want := range []string{"alpha", "round 1", "alice", "bob", "round log", "without scripts this page is a snapshot"} {
		if !strings.Contains(strings.ToLower(text), want) {
			t.Errorf("the table without scripts lacks %q:\n%s", want, text)
		}
	}
	if eval[bool](p, `!document.getElementById("stream-state").hidden`) {
		t.Error("the live line shows without scripts")
	}
	id := g.playOut(nil)
	p.do("open the game", chromedp.Navigate(e.base+"/games/"+id))
	p.do("follow next", chromedp.Click("#to-next", chromedp.NodeVisible))
	p.until("move 1 by its own page", `new URLSearchParams(location.search).get("m") === "1" && document.querySelector("#m1.current") !== null`)
	text = eval[string](p, `document.getElementById("fair").innerText`)
	if !strings.Contains(text, "your browser checks every roll") || !strings.Contains(text, "verify "+id) {
		t.Errorf("the fairness section without scripts:\n%s", text)
	}
	p.clean()
}

// TestBrowserRatingPages: the leaderboard in Chromium, at a phone's width
// and a desktop's, steps between seasons by its links (the season before,
// all time, back to the season running) and to people only and back,
// each figure as the store has it
// with its "?" explained; a player's page shows their rating and the
// season's. Nothing is refused by the page's policy. MIA_WEB_RATINGS_SCREENSHOT=
// DIR writes the two pages' PNGs there.
func TestBrowserRatingPages(t *testing.T) {
	p := openBrowser(t, 1100, 900)
	e := newEnv(t, lobbytest.NewDice(7), nil)
	ctx := ctxT(t)
	// cat's name is as long as names go; ben is a bot on the board, which
	// "people" leaves out
	ann, ben, cat := e.player("ann"), e.player("ben"), e.player("catherinewinters")
	ben.Bot = true
	e.newGame("pub", quickRules(), false, ann, ben, cat).playOut(nil)
	e.newGame("duel", quickRules(), false, ann, ben).playOut(nil)
	season := rating.Monthly.Of(e.clock.Now())
	board, err := e.st.Leaderboard(ctx, store.BoardQuery{Board: store.Board{Season: season}})
	if err != nil || len(board) != 3 {
		t.Fatalf("the board: %+v %v", board, err)
	}
	cells := func() string {
		return eval[string](p, `Array.from(document.querySelectorAll("table.list tbody tr")).map(r => Array.from(r.cells).slice(0, 4).map(c => c.textContent).join("|")).join("\n")`)
	}
	var want []string
	for i, r := range board {
		want = append(want, fmt.Sprintf("%d|%s|%s|%d", i+1, words.Label(r.Name, r.Bot()), words.Figure(r.Rating), r.Games))
	}
	p.do("open the leaderboard", chromedp.Navigate(e.base+"/leaderboard"))
	p.until("the board", `document.querySelector("table.list tbody tr") !== null`)
	if got := cells(); got != strings.Join(want, "\n") {
		t.Errorf("the board reads\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	text := eval[string](p, `document.body.innerText`)
	for _, w := range []string{"season " + season.String() + ", " + words.SeasonWords(season), words.ProvisionalNote, "all time"} {
		if !strings.Contains(text, w) {
			t.Errorf("the leaderboard lacks %q:\n%s", w, text)
		}
	}
	shot := func(name string) {
		t.Helper()
		if dir := os.Getenv("MIA_WEB_RATINGS_SCREENSHOT"); dir != "" {
			png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	shot("leaderboard.png")
	p.do("the season before", chromedp.Click(`p.seasons a:first-child`, chromedp.NodeVisible))
	p.until("the season before, empty", `location.search === "?season=`+season.Prev().String()+`" && document.body !== null && document.body.innerText.includes("No rated games yet.")`)
	p.do("all time", chromedp.Click(`//p[@class="seasons"]/a[text()="all time"]`, chromedp.NodeVisible))
	p.until("all time", `document.body !== null && document.body.innerText.includes("all time (UTC)") && document.querySelectorAll("table.list tbody tr").length === 3`)
	p.do("back to the season running", chromedp.Click(`//p[@class="seasons"]/a[starts-with(text(), "the season running")]`, chromedp.NodeVisible))
	p.until("the season running", `location.search === "?season=`+season.String()+`" && document.querySelectorAll("table.list tbody tr").length === 3`)
	if got := cells(); got != strings.Join(want, "\n") {
		t.Errorf("the season running again reads\n%s", got)
	}

	// People only: ben sat in a bot's seat, so the board of people is
	// the store's without him, and the season stays the one shown.
	people, err := e.st.Leaderboard(ctx, store.BoardQuery{Board: store.Board{Season: season}, Kind: store.People})
	if err != nil || len(people) != 2 {
		t.Fatalf("the board of people: %+v %v", people, err)
	}
	var wantPeople []string
	for i, r := range people {
		wantPeople = append(wantPeople, fmt.Sprintf("%d|%s|%s|%d", i+1, words.Label(r.Name, r.Bot()), words.Figure(r.Rating), r.Games))
	}
	p.do("people", chromedp.Click(`//p[@class="kinds"]/a[text()="people"]`, chromedp.NodeVisible))
	p.until("the board of people", `location.search === "?kind=people&season=`+season.String()+`" && document.querySelectorAll("table.list tbody tr").length === 2`)
	if got := cells(); got != strings.Join(wantPeople, "\n") {
		t.Errorf("the board of people reads\n%s\nwant\n%s", got, strings.Join(wantPeople, "\n"))
	}
	if text := eval[string](p, `document.querySelector("p.kinds").innerText`); text != "everyone · people · bots" {
		t.Errorf("the kinds read %q", text)
	}
	if n := eval[float64](p, `document.querySelectorAll("p.kinds a").length`); n != 2 {
		t.Errorf("%v kinds are links, want 2: the one shown is not", n)
	}
	shot("leaderboard-people.png")
	p.do("everyone again", chromedp.Click(`//p[@class="kinds"]/a[text()="everyone"]`, chromedp.NodeVisible))
	p.until("everyone again", `location.search === "?season=`+season.String()+`" && document.querySelectorAll("table.list tbody tr").length === 3`)

	p.do("a player", chromedp.Click(`table.list tbody tr:first-child a`, chromedp.NodeVisible))
	top := board[0]
	p.until("the player's page", `location.pathname === "/players/`+top.Name+`" && document.querySelector("dl.stats") !== null`)
	text = eval[string](p, `document.querySelector("dl.stats").innerText`)
	for _, w := range []string{words.Figure(top.Rating) + " overall, all time", "in " + season.String()} {
		if !strings.Contains(text, w) {
			t.Errorf("the player's page lacks %q:\n%s", w, text)
		}
	}
	shot("player.png")

	// At a phone's width the board still reads whole.
	p.do("a phone's width", chromedp.EmulateViewport(390, 844), chromedp.Navigate(e.base+"/leaderboard"))
	p.until("the board at a phone's width", `document.querySelector("table.list tbody tr") !== null`)
	if got := cells(); got != strings.Join(want, "\n") {
		t.Errorf("the board at a phone's width reads\n%s", got)
	}
	// every column in sight, the last (σ) too: nothing scrolled out
	if cut := eval[string](p, `Array.from(document.querySelectorAll("table.list th, table.list td")).filter(c => c.getBoundingClientRect().right > document.documentElement.clientWidth).map(c => c.textContent).join(", ")`); cut != "" {
		t.Errorf("at a phone's width the board's cells %s are cut off", cut)
	}
	shot("leaderboard-phone.png")
	p.clean()
}
