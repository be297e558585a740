package sshapp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/sshapp/web"
)

// webEnv is a recEnv with the web window beside it, on the same lobby
// and store, as cmd/mia wires them.
type webEnv struct {
	*recEnv
	base string // the web window's address
}

// startWebServer starts it; public sets the web window's public address
// (--http-url), so that game links are printed; admins are the names of
// admin keys. The web window reads the lobby and the store the server
// starts with: restart is not for it.
func startWebServer(t *testing.T, public bool, admins ...string) *webEnv {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	links := web.NewLinks(base, public)
	e := startRecServerWith(t, lobby.Config{BotDelay: lobby.NoDelay}, func(c *Config) { c.Web = links }, admins...)
	ws, err := web.New(web.Config{Lobby: e.lobby, Events: e.events, Records: e.st, Links: links, Cast: tui.WriteCast})
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ws.Serve(ln) }()
	t.Cleanup(func() { // runs before the SSH server's shutdown, the lobby's and the store's
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ws.Shutdown(ctx); err != nil {
			t.Errorf("web shutdown: %v", err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("web Serve: %v", err)
		}
	})
	return &webEnv{recEnv: e, base: base}
}

// get fetches a web address.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// finishedGame waits for a finished game at table as who sees it.
func (e *webEnv) finishedGame(t *testing.T, who, table string) command.HistoryGame {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.as(t, who, "history --json --table "+table)
		var doc command.HistoryJSON
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("history --json: %v\n%s%s", err, r.stdout, r.stderr)
		}
		if len(doc.Games) > 0 {
			return doc.Games[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no finished game at %s", table)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTableLink drives the web link of a private table over SSH and
// checks it over HTTP: the host makes it (others may not), it opens the
// table and its games, the same link is printed again, history, replay
// and the table's games carry it; --revoke ends it at once; a public
// table's address needs none.
func TestTableLink(t *testing.T) {
	t.Parallel()
	e := startWebServer(t, true)
	e.key(t, "alice")
	e.key(t, "bob")
	e.steps(t, []step{
		{name: "create", who: "alice", cmd: "table create club --private --seats 3 --bots 3", code: 0},
		{name: "create public", who: "alice", cmd: "table create open --seats 3 --bots 3", code: 0},
		{name: "usage", who: "alice", cmd: "table link", code: 2, stderr: []string{"table link NAME"}},
		{name: "a stranger", who: "bob", cmd: "table link club", code: 1, stderr: []string{"mia: no such table: club"}},
		{name: "public", who: "bob", cmd: "table link open", code: 0, stdout: []string{"open is public", e.base + "/tables/open\n"}},
		{name: "help", who: "alice", cmd: "help table", code: 0, stdout: []string{"table link NAME [--revoke]"}},
	})
	r := e.as(t, "alice", "table link club --json")
	var doc command.TableDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("table link --json: %v %s %s", err, r.stdout, r.stderr)
	}
	link := doc.URL
	if !strings.HasPrefix(link, e.base+"/tables/club?link=") {
		t.Fatalf("the link %q", link)
	}
	if r := e.as(t, "alice", "table link club"); r.code != 0 || !strings.Contains(r.stdout, link+"\n") ||
		!strings.Contains(r.stdout, "table link club --revoke") {
		t.Errorf("the link asked again: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	token := strings.TrimPrefix(link, e.base+"/tables/club?link=")
	if code, body := get(t, link); code != 200 || !strings.Contains(body, "<h1>club") {
		t.Errorf("the link opens the table: %d", code)
	}
	if code, _ := get(t, e.base+"/tables/club"); code != 404 {
		t.Errorf("the table without its link: %d", code)
	}

	g := e.finishedGame(t, "alice", "club")
	gameLink := e.base + "/games/" + g.ID + "?link=" + token
	if g.URL != gameLink {
		t.Errorf("history --json url %q, want %q", g.URL, gameLink)
	}
	if r := e.as(t, "alice", "history --table club"); !strings.Contains(r.stdout, "On the web, move by move:") ||
		!strings.Contains(r.stdout, gameLink) {
		t.Errorf("history lacks the game's link:\n%s", r.stdout)
	}
	if r := e.as(t, "alice", "replay "+g.ID); !strings.Contains(r.stdout, "On the web, move by move:  "+gameLink) {
		t.Errorf("replay lacks the game's link:\n%s", r.stdout)
	}
	if code, body := get(t, gameLink); code != 200 || !strings.Contains(body, "Game "+g.ID) {
		t.Errorf("the game's link: %d", code)
	}
	// The web's JSON and recording are the very bytes of replay --json and --cast.
	for _, kind := range []string{"json", "cast"} {
		r := e.as(t, "alice", "replay "+g.ID+" --"+kind)
		code, body := get(t, e.base+"/games/"+g.ID+"."+kind+"?link="+token)
		if r.code != 0 || code != 200 || body != r.stdout {
			t.Errorf("replay --%s (exit %d, %d bytes) and /games/%s.%s (%d, %d bytes) differ", kind, r.code, len(r.stdout), g.ID, kind,
				code, len(body))
		}
	}
	e.steps(t, []step{
		{name: "cast and json", who: "alice", cmd: "replay " + g.ID + " --cast --json", code: 2, stderr: []string{"choose one"}},
		{name: "bob may not revoke", who: "bob", cmd: "table link club --revoke", code: 1},
		{name: "revoke", who: "alice", cmd: "table link club --revoke", code: 0, stdout: []string{"ended"}},
		{name: "revoked: no game links", who: "alice", cmd: "history --table club", code: 0, not: []string{"On the web"}},
		{name: "revoke again", who: "alice", cmd: "table link club --revoke --json", code: 0, stdout: []string{`"revoked": true`}},
	})
	for _, u := range []string{link, gameLink} {
		if code, _ := get(t, u); code != 404 {
			t.Errorf("%s after revoking: %d", u, code)
		}
	}
	// Public games are linked without a token.
	pg := e.finishedGame(t, "bob", "open")
	if pg.URL != e.base+"/games/"+pg.ID {
		t.Errorf("a public game's url %q", pg.URL)
	}
}

// TestNoWebWindow: without a web window table link is refused and no
// game link is printed; without its public address, table link works
// and games carry no link.
func TestNoWebWindow(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	e.key(t, "alice")
	e.steps(t, []step{
		{name: "create", who: "alice", cmd: "table create club --private --seats 3 --bots 3", code: 0},
		{name: "no web", who: "alice", cmd: "table link club", code: 1, stderr: []string{"no web window", "--http-addr"}},
	})
	w := startWebServer(t, false)
	w.key(t, "alice")
	w.steps(t, []step{
		{name: "create", who: "alice", cmd: "table create club --private --seats 3 --bots 3", code: 0},
		{name: "a link", who: "alice", cmd: "table link club", code: 0, stdout: []string{w.base + "/tables/club?link="}},
	})
	g := w.finishedGame(t, "alice", "club")
	if g.URL != "" {
		t.Errorf("a game link without a public address: %q", g.URL)
	}
	if r := w.as(t, "alice", "replay "+g.ID); strings.Contains(r.stdout, "On the web") {
		t.Errorf("replay prints a link without a public address:\n%s", r.stdout)
	}
}

// sseNext reads the next event of a Server-Sent Events stream: its name
// and its data lines joined (comments such as ": ping" skipped).
func sseNext(t *testing.T, r *bufio.Reader) (name, data string) {
	t.Helper()
	var lines []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream ended: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && (name != "" || lines != nil):
			return name, strings.Join(lines, "\n")
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			lines = append(lines, line[len("data: "):])
		}
	}
}

// TestWebShowsNamesNow: the web shows a person by the name they have now,
// looked up, never the name copied into a record: a rename over SSH
// reaches the open event stream of a table they sit at in its very next
// event, the finished game's page ("robert (played as bob)"), the player
// page (found by the name now, or one that looks like it, as the commands
// find a player; the old name finds nobody) and the leaderboard's link.
func TestWebShowsNamesNow(t *testing.T) {
	t.Parallel()
	e := startWebServer(t, true)
	alice, bob := e.player(t, "alice"), e.player(t, "bob")
	id := e.recEnv.finishedGame(t, "duel", alice, bob)

	ctx := context.Background()
	tbl, err := e.lobby.CreateTable(ctx, alice, lobby.TableConfig{Name: "live", Rules: engine.DefaultOptions(), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil { // the second starts the game
			t.Fatal(err)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, e.base+"/tables/live/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	stream := bufio.NewReader(resp.Body)
	if name, data := sseNext(t, stream); name != "table" || !strings.Contains(data, ">bob<") || !strings.Contains(data, "round 1") {
		t.Fatalf("the first event %q:\n%s", name, data)
	}

	if r := e.as(t, "bob", "name robert"); r.code != 0 {
		t.Fatalf("name robert: %d %s", r.code, r.stderr)
	}
	name, data := sseNext(t, stream)
	if name != "table" || !strings.Contains(data, ">robert<") || strings.Contains(data, ">bob<") {
		t.Errorf("the event after the rename %q does not name robert alone:\n%s", name, data)
	}
	if code, body := get(t, e.base+"/tables/live"); code != 200 || !strings.Contains(body, ">robert<") || strings.Contains(body, ">bob<") {
		t.Errorf("the table page after the rename: %d\n%s", code, body)
	}
	if code, body := get(t, e.base+"/"); code != 200 || !strings.Contains(body, "robert") || strings.Contains(body, "bob,") {
		t.Errorf("the lobby page after the rename: %d\n%s", code, body)
	}

	code, body := get(t, e.base+"/games/"+id)
	if code != 200 || !strings.Contains(body, `<a href="/players/robert">robert (played as bob)</a>`) {
		t.Errorf("the game page does not link robert, who played as bob: %d\n%s", code, body)
	}
	if strings.Contains(body, `/players/bob"`) {
		t.Error("the game page links the old name")
	}
	for _, p := range []string{"robert", "ROBERT", "rob3rt", "rob.ert", "roberts"} {
		code, body := get(t, e.base+"/players/"+p)
		if p == "roberts" { // not alike: one letter more
			if code != 404 {
				t.Errorf("/players/%s: %d, want 404", p, code)
			}
			continue
		}
		if code != 200 || !strings.Contains(body, "<h1>robert</h1>") || !strings.Contains(body, `href="/games/`+id+`"`) ||
			!strings.Contains(body, "robert (played as bob)") {
			t.Errorf("/players/%s: %d\n%s", p, code, body)
		}
	}
	if code, _ := get(t, e.base+"/players/bob"); code != 404 {
		t.Errorf("/players/bob after the rename: %d, want 404", code)
	}
	if code, body := get(t, e.base+"/players/AL1CE"); code != 200 || !strings.Contains(body, "<h1>alice</h1>") {
		t.Errorf("/players/AL1CE does not find alice by her name's look: %d", code)
	}
	if code, body := get(t, e.base+"/leaderboard"); code != 200 || !strings.Contains(body, `href="/players/robert"`) ||
		strings.Contains(body, `/players/bob"`) {
		t.Errorf("the leaderboard does not link robert by his name now: %d\n%s", code, body)
	}
}
