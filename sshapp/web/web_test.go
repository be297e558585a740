package web

import (
	"bytes"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/sshapp/tui"
)

// TestNoRecorder: a web window given no recorder (Config.Cast nil)
// offers no recording of a game and has none to give; the rest of the
// game's page stands.
func TestNoRecorder(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(11), func(c *Config) { c.Cast = nil })
	a, b := e.player("alice"), e.player("bob")
	id := e.newGame("alpha", quickRules(), false, a, b).playOut(nil)
	resp, body := e.get("/games/" + id)
	if resp.StatusCode != http.StatusOK || strings.Contains(body, ".cast") || strings.Contains(body, "terminal recording") {
		t.Errorf("/games/%s without a recorder: %d, offers a recording: %v", id, resp.StatusCode, strings.Contains(body, ".cast"))
	}
	if m := missing(body, `href="/games/`+id+`.json"`, "Standings"); m != nil {
		t.Errorf("the game page lacks %q", m)
	}
	if resp, _ := e.get("/games/" + id + ".cast"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/games/%s.cast without a recorder: %d, want 404", id, resp.StatusCode)
	}
}

// TestPaths asks every path over HTTP while a game is played and after:
// the lobby, the table and its stream, the game's page, move by move, its
// JSON and its recording (the same bytes as replay --json and --cast
// write), players, the leaderboard, the assets; HEAD as GET; what is not
// there, 404.
func TestPaths(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(11), nil)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	g := e.newGame("alpha", quickRules(), false, a, b, c)
	for range 3 {
		g.step()
	}
	resp, body := e.get("/tables/alpha")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/tables/alpha: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if m := missing(body, "<h1>alpha", "round 1", "alice", "bob", "carol", `data-events="/tables/alpha/events"`,
		"Round log", "Table chat", "ssh -t -p 23234 mia.test play alpha", "classic, 2 lives"); m != nil {
		t.Errorf("the table page lacks %q:\n%s", m, body)
	}
	st := e.stream("/tables/alpha/events")
	if ct := st.resp.Header.Get("Content-Type"); st.resp.StatusCode != http.StatusOK || ct != "text/event-stream; charset=utf-8" {
		t.Fatalf("events: %d %q", st.resp.StatusCode, ct)
	}
	first := st.next(nil)
	if first.name != "table" || missing(first.data, "round 1", "alice") != nil {
		t.Errorf("first event %q: %s", first.name, first.data)
	}
	// The page and the stream carry the same fragment.
	if !strings.Contains(body, first.data) {
		t.Errorf("the first event is not the page's fragment:\n%s", first.data)
	}
	id := g.playOut(nil)
	over := st.next(func(ev sseEvent) bool { return strings.Contains(ev.data, "game over") })
	if m := missing(over.data, "wins!", `href="/games/`+id+`"`); m != nil {
		t.Errorf("the game-over event lacks %q:\n%s", m, over.data)
	}

	sg, evs, err := e.st.Game(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	resp, body = e.get("/games/" + id)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/games/%s: %d", id, resp.StatusCode)
	}
	cut, err := engine.CutSteps(sg.Rules, len(sg.Seats), evs)
	if err != nil {
		t.Fatal(err)
	}
	winner := sg.Seats[sg.Winner].Name
	if m := missing(body, "Game "+id+" at", `href="/tables/alpha"`, "Standings", "Lives after each round",
		`<svg class="chart lives"`, "— round 1:", winner+" won the game", `id="m0"`, `aria-current="step"`,
		`data-json="/games/`+id+`.json"`, "This game has no proof of fair dice"); m != nil {
		t.Errorf("the game page lacks %q", m)
	}
	if n := strings.Count(body, `<li id="m`); n != len(cut.Steps) {
		t.Errorf("%d moves listed, the replay has %d steps", n, len(cut.Steps))
	}
	_, body = e.get("/games/" + id + "?m=3")
	if !regexp.MustCompile(`<li id="m3" class="move current"[^>]*aria-current="step"`).MatchString(body) {
		t.Error("?m=3 does not open move 3")
	}
	if m := missing(body, `href="/games/`+id+`?m=2"`, `href="/games/`+id+`?m=4"`, `href="/games/`+id+`?m=0"`); m != nil {
		t.Errorf("move 3 lacks the links %q", m)
	}
	_, body = e.get("/games/" + id + "?m=99999")
	if !strings.Contains(body, `id="m`+strconv.Itoa(len(cut.Steps)-1)+`" class="move current"`) {
		t.Error("a move past the end does not open the last")
	}

	var want bytes.Buffer
	if err := sg.Replay(evs).Encode(&want); err != nil {
		t.Fatal(err)
	}
	resp, body = e.get("/games/" + id + ".json")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || body != want.String() {
		t.Errorf(".json: %d %q, the replay document: %v", resp.StatusCode, resp.Header.Get("Content-Type"), body == want.String())
	}
	want.Reset()
	if err := tui.WriteCast(&want, sg, evs); err != nil {
		t.Fatal(err)
	}
	resp, body = e.get("/games/" + id + ".cast")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-asciicast" || body != want.String() {
		t.Errorf(".cast: %d %q, the recording: %v", resp.StatusCode, resp.Header.Get("Content-Type"), body == want.String())
	}

	_, notFound := e.get("/no/such/page")
	for _, p := range []string{"/games/99999", "/games/99999.json", "/games/" + id + ".txt", "/games/x", "/players/nobody",
		"/tables/nosuch", "/tables/nosuch/events", "/leaderboard?table=nosuch", "/assets/nope.js", "/tables/alpha/", "/games/"} {
		resp, body := e.get(p)
		if resp.StatusCode != http.StatusNotFound || body != notFound {
			t.Errorf("%s: %d, the not-found page: %v", p, resp.StatusCode, body == notFound)
		}
	}

	resp, body = e.get("/players/alice")
	if m := missing(body, "<h1>alice", "Games", "Rating", "Bluffs", "Caught bluffing", "Last games", `href="/games/`+id+`"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("/players/alice: %d, lacks %q", resp.StatusCode, m)
	}
	resp, body = e.get("/leaderboard")
	if m := missing(body, "Leaderboard", `href="/players/alice"`, `<svg class="chart ratings"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("/leaderboard: %d, lacks %q", resp.StatusCode, m)
	}
	resp, body = e.get("/leaderboard?table=alpha")
	if m := missing(body, "rating at alpha", "alice"); resp.StatusCode != 200 || m != nil {
		t.Errorf("/leaderboard?table=alpha: %d, lacks %q", resp.StatusCode, m)
	}
	resp, body = e.get("/")
	if m := missing(body, "Open tables", `href="/tables/alpha"`, `href="/games/`+id+`"`, "Finished games", "ssh -p 23234 mia.test"); resp.StatusCode != 200 || m != nil {
		t.Errorf("/: %d, lacks %q", resp.StatusCode, m)
	}
	for name, ct := range map[string]string{"style.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
		"fair.js": "text/javascript; charset=utf-8", "icon.svg": "image/svg+xml"} {
		resp, body := e.get("/assets/" + name)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ct || body != string(assets[name].body) {
			t.Errorf("/assets/%s: %d %q", name, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if resp, _ := e.do(http.MethodGet, "/assets/"+name, http.Header{"If-None-Match": {`"` + assets[name].hash + `"`}}); resp.StatusCode != http.StatusNotModified {
			t.Errorf("/assets/%s again: %d, want 304", name, resp.StatusCode)
		}
	}

	// HEAD answers as GET, without a body; nothing else is taken.
	for _, p := range []string{"/", "/tables/alpha", "/tables/alpha/events", "/games/" + id, "/games/" + id + ".json",
		"/games/" + id + ".cast", "/players/alice", "/leaderboard", "/assets/app.js", "/nope"} {
		var get *http.Response
		if strings.HasSuffix(p, "/events") { // a GET would never end
			get = st.resp
		} else {
			get, _ = e.get(p)
		}
		head, body := e.do(http.MethodHead, p, nil)
		if head.StatusCode != get.StatusCode || body != "" || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q (GET %d), %d bytes", p, head.StatusCode, head.Header.Get("Content-Type"), get.StatusCode, len(body))
		}
		for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
			resp, _ := e.do(m, p, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d, Allow %q", m, p, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
}

// TestRunningGame: a game still played has no page of its dice, no JSON,
// no recording; its page points to the live table.
func TestRunningGame(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(3), nil)
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)
	g.step()
	id := g.last[0].GameID
	resp, body := e.get("/games/" + id)
	if m := missing(body, "still being played", `href="/tables/alpha"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("a running game's page: %d, lacks %q", resp.StatusCode, m)
	}
	for _, p := range []string{".json", ".cast"} {
		resp, body := e.get("/games/" + id + p)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "still being played") {
			t.Errorf("a running game's %s: %d %s", p, resp.StatusCode, body)
		}
	}
}

// TestHeaders: every answer — pages, errors, refusals, assets, documents,
// the stream — carries the strict Content-Security-Policy and nosniff,
// and no page needs an inline script or style.
func TestHeaders(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(5), func(c *Config) { c.Limits.Burst = 400 })
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)
	id := g.playOut(nil)
	e.newGame("beta", quickRules(), false, a, b).step()
	if strings.Contains(csp, "unsafe") || !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("the policy is not strict: %s", csp)
	}
	inline := []*regexp.Regexp{
		regexp.MustCompile(`<script(?:\s[^>]*)?>`), // checked below: only with src
		regexp.MustCompile(`(?i)\sstyle\s*=`),
		regexp.MustCompile(`(?i)<style`),
		regexp.MustCompile(`(?i)\son[a-z]+\s*=`),
		regexp.MustCompile(`(?i)javascript:`),
	}
	paths := []string{"/", "/tables/alpha", "/tables/beta", "/games/" + id, "/games/" + id + "?m=2", "/players/alice",
		"/leaderboard", "/nope", "/games/" + id + ".json", "/games/" + id + ".cast", "/assets/style.css", "/assets/app.js",
		"/games/" + g.last[0].GameID}
	for _, p := range paths {
		resp, body := e.get(p)
		if resp.Header.Get("Content-Security-Policy") != csp || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
			resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: headers %v", p, resp.Header)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			continue
		}
		for _, m := range inline[0].FindAllString(body, -1) {
			if !strings.Contains(m, ` src="/assets/`) {
				t.Errorf("%s: an inline script %s", p, m)
			}
		}
		for _, re := range inline[1:] {
			if m := re.FindString(body); m != "" {
				t.Errorf("%s: %q needs 'unsafe-inline'", p, m)
			}
		}
	}
	resp, _ := e.do(http.MethodPost, "/", nil)
	if resp.Header.Get("Content-Security-Policy") != csp || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("405: headers %v", resp.Header)
	}
	st := e.stream("/tables/beta/events")
	if st.resp.Header.Get("Content-Security-Policy") != csp || st.resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the stream: headers %v", st.resp.Header)
	}
	// The assets hold nothing that needs eval or a remote fetch.
	for name, a := range assets {
		for _, bad := range []string{"eval(", "new Function", "http://", "https://", "document.write", "@import"} {
			if strings.Contains(string(a.body), bad) && !(name == "icon.svg" && bad == "http://") {
				t.Errorf("asset %s holds %q", name, bad)
			}
		}
	}
}

// TestClock: the turn clock is written in when a fragment is sent, not
// when it was made: a page asked for later says the seconds left then.
func TestClock(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(5), nil)
	a, b := e.player("alice"), e.player("bob")
	rules := quickRules()
	rules.TurnSeconds = 60
	e.newGame("alpha", rules, false, a, b)
	_, body := e.get("/tables/alpha")
	if m := missing(body, `data-left="60000">60s</span>`); m != nil {
		t.Fatalf("the fresh turn's clock: %s", body)
	}
	e.clock.Skip(17 * time.Second)
	_, body = e.get("/tables/alpha")
	if m := missing(body, `data-left="43000">43s</span>`); m != nil {
		t.Errorf("17 s later the page lacks %q", m)
	}
	ev := e.stream("/tables/alpha/events").next(nil)
	if !strings.Contains(ev.data, `data-left="43000">43s</span>`) {
		t.Errorf("a stream opened 17 s into the turn says %s", ev.data)
	}
	if strings.ContainsAny(body+ev.data, markLeft+markClock) {
		t.Error("a clock mark was sent")
	}
}

// TestPausedTableSays: a table paused because the server's storage does
// not save (a full disk, say) says so on its live page, with why, and
// shows no running turn clock.
func TestPausedTableSays(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(3), nil)
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)
	snap := g.last[0]
	fr, err := e.web.makeFrame(snap)
	if err != nil {
		t.Fatal(err)
	}
	if html := string(fr.html(e.clock.Now())); strings.Contains(html, "Table paused") {
		t.Fatalf("a table at play says it is paused:\n%s", html)
	}
	snap.Table.Paused, snap.Table.PausedFor, snap.Deadline = true, "the server's disk is full", time.Time{}
	fr, err = e.web.makeFrame(snap)
	if err != nil {
		t.Fatal(err)
	}
	html := string(fr.html(e.clock.Now()))
	if m := missing(html, `<p class="paused" role="alert"><strong>Table paused</strong> — the server&#39;s disk is full: moves wait.</p>`); m != nil {
		t.Fatalf("a paused table's page lacks %q:\n%s", m, html)
	}
	if strings.Contains(html, `class="clock"`) {
		t.Fatalf("a paused table shows a running clock:\n%s", html)
	}
}
