package alerts

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
)

// verify checks a delivery's signature as a receiver would: the HMAC of
// the body it read, under the secret, against the header.
func verify(secret string, r received) bool {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(r.body)
	want := "sha256=" + hex.EncodeToString(m.Sum(nil))
	return hmac.Equal([]byte(want), []byte(r.header.Get(HeaderSignature)))
}

var uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestEveryTypeInEveryFormat: the server's hooks, one of each format,
// are sent every type of the lobby's news of a public table, each signed,
// with its type and a delivery id in its headers; the json document,
// Slack's text and ntfy's title and body say what happened.
func TestEveryTypeInEveryFormat(t *testing.T) {
	rj, rs, rn := newReceiver(t, nil), newReceiver(t, nil), newReceiver(t, nil)
	const secret = "It's a Secret to Everybody"
	e := newEnv(t, Config{Secret: secret, Hooks: []ServerHook{{rj.URL, JSON}, {rs.URL, Slack}, {rn.URL, Ntfy}},
		Links: gameLinks{}})
	alice := e.person("alice")
	tbl := e.table("den", false, 2, alice)
	if err := tbl.Sit(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	e.bots(tbl, alice) // the last seat: the game starts, and alice plays it
	e.lob.Publish(lobby.News{Kind: lobby.NewsSeasonEnded, Season: rating.Monthly.Of(e.now.Now()).Prev()})
	kinds := []lobby.NewsKind{lobby.NewsTableOpened, lobby.NewsTableWaiting, lobby.NewsGameStarted, lobby.NewsSeasonEnded}
	for _, k := range kinds {
		for _, rc := range []*receiver{rj, rs, rn} {
			got := rc.wait(t, string(k))
			if !verify(secret, got) {
				t.Errorf("%s to %s: the signature %q does not check", k, rc.URL, got.header.Get(HeaderSignature))
			}
			if !uuidRe.MatchString(got.header.Get(HeaderDelivery)) {
				t.Errorf("%s: delivery id %q", k, got.header.Get(HeaderDelivery))
			}
		}
	}
	var doc Doc
	if err := json.Unmarshal(rj.wait(t, "table.opened").body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "table.opened" || doc.Table == nil || doc.Table.Name != "den" || doc.Table.Host != "alice" || doc.Table.Seats != 2 ||
		doc.Play != "ssh -t -p 23234 mia.example.org play den" || !strings.Contains(doc.Text, "alice opened the table den") {
		t.Errorf("table.opened %+v %+v", doc, doc.Table)
	}
	doc = Doc{}
	if err := json.Unmarshal(rj.wait(t, "table.waiting").body, &doc); err != nil || doc.Table.Taken != 1 {
		t.Errorf("table.waiting %+v %v", doc, err)
	}
	doc = Doc{}
	if err := json.Unmarshal(rj.wait(t, "game.started").body, &doc); err != nil || doc.Game == nil || len(doc.Game.Players) != 2 {
		t.Fatalf("game.started %+v %v", doc, err)
	}
	// alice does not move: the clock is a minute. Kick her out of the game
	// to end it (she leaves): game.ended, with its standings.
	if err := tbl.Stand(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	ended := rj.wait(t, "game.ended")
	for _, rc := range []*receiver{rj, rs, rn} {
		if got := rc.wait(t, "game.ended"); !verify(secret, got) || !uuidRe.MatchString(got.header.Get(HeaderDelivery)) {
			t.Errorf("game.ended to %s: signature %q, delivery id %q", rc.URL, got.header.Get(HeaderSignature), got.header.Get(HeaderDelivery))
		}
	}
	doc = Doc{}
	if err := json.Unmarshal(ended.body, &doc); err != nil || doc.Game == nil || len(doc.Game.Standings) != 2 {
		t.Fatalf("game.ended %s %v", ended.body, err)
	}
	if doc.Game.Standings[1].Name != "alice" || doc.Game.Standings[0].Place != 1 || doc.Game.Winner != doc.Game.Standings[0].Name ||
		!doc.Game.Standings[0].Bot || doc.URL != "https://mia.example.org/games/"+doc.Game.ID {
		t.Errorf("game.ended %s", ended.body)
	}
	doc = Doc{}
	if err := json.Unmarshal(rj.wait(t, "season.ended").body, &doc); err != nil || doc.Season == nil || doc.Season.ID != "2026-10" ||
		doc.Season.Name != "October 2026" || doc.Season.Champion != nil {
		t.Errorf("season.ended %+v %v", doc.Season, err)
	}
	// A season with a rated game has its champion: the game's winner, the
	// only rated player with a win (rated as the game ended).
	now := rating.Monthly.Of(time.Now())
	e.lob.Publish(lobby.News{Kind: lobby.NewsSeasonEnded, Season: now})
	var champ Doc
	eventually(t, func() bool {
		for _, g := range rj.all("season.ended") {
			if json.Unmarshal(g.body, &champ) == nil && champ.Season != nil && champ.Season.ID == now.String() {
				return true
			}
		}
		return false
	})
	if c := champ.Season.Champion; c == nil || c.Rating == "" || !strings.Contains(champ.Text, "is its champion, at "+c.Rating) {
		t.Errorf("season.ended with a rated game: %+v %+v", champ.Season, c)
	}
	// Slack: a text, its markup escaped.
	var msg struct{ Text string }
	if err := json.Unmarshal(rs.wait(t, "game.ended").body, &msg); err != nil || !strings.Contains(msg.Text, " won game ") ||
		!strings.Contains(msg.Text, "2. alice — ") || !strings.Contains(msg.Text, "Play: `ssh -t -p 23234 mia.example.org play den`") ||
		!strings.Contains(msg.Text, "<https://mia.example.org/games/") {
		t.Errorf("slack game.ended %q %v", msg.Text, err)
	}
	// ntfy: the line as its title, the standings as its body, the link to
	// open.
	n := rn.wait(t, "game.ended")
	if title := n.header.Get("Title"); !strings.Contains(title, " won game ") || n.header.Get("Click") == "" ||
		!strings.HasPrefix(string(n.body), "1. ") || n.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("ntfy game.ended: title %q click %q body %q", title, n.header.Get("Click"), n.body)
	}
}

// gameLinks are a web window's links with a public address.
type gameLinks struct{}

func (gameLinks) Game(id string, g lobby.GameAccess) string {
	if !(lobby.Viewer{}).SeesGame(g) {
		return ""
	}
	return "https://mia.example.org/games/" + id
}

// TestSlackEscapesMarkup: a name or a table cannot write Slack markup.
func TestSlackEscapesMarkup(t *testing.T) {
	if got := slackEscape("<!channel> & <http://x|y>"); got != "&lt;!channel&gt; &amp; &lt;http://x|y&gt;" {
		t.Fatalf("escaped %q", got)
	}
}

// TestPrivateTableNeverReachesServerHooks: nothing of a private table goes
// to the server's hooks; its own hook hears it.
func TestPrivateTableNeverReachesServerHooks(t *testing.T) {
	server, own := newReceiver(t, nil), newReceiver(t, nil)
	e := newEnv(t, Config{Hooks: []ServerHook{{server.URL, JSON}}, Allow: mustAllow(t, "127.0.0.1")})
	alice := e.person("alice")
	den := e.table("den", true, 2, alice)
	if _, err := e.alerts.SetHook(ctxT(t), alice, den, own.URL, JSON); err != nil {
		t.Fatal(err)
	}
	e.bots(den, alice)
	own.wait(t, "game.ended")
	pub := e.table("pub", false, 2, alice)
	e.bots(pub, alice)
	server.wait(t, "game.ended") // the public table's news came; the private one's never did
	server.mu.Lock()
	defer server.mu.Unlock()
	for _, g := range server.got {
		if strings.Contains(string(g.body), `"den"`) {
			t.Fatalf("the server's hook heard of the private table: %s", g.body)
		}
	}
}

func mustAllow(t *testing.T, s string) Allow {
	t.Helper()
	a, err := ParseAllow(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestHangingHooksDelayNothing: a hook that hangs (for a minute: longer
// than the test) and one that answers 500 for ever, beside a good one:
// the games of a table of bots keep finishing, and the good hook hears
// each end, while the bad hooks' queues stay within their bound.
func TestHangingHooksDelayNothing(t *testing.T) {
	release := make(chan struct{})
	hanging := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	})
	defer close(release)
	failing := newReceiver(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	good := newReceiver(t, nil)
	e := newEnv(t, Config{Hooks: []ServerHook{{hanging.URL, JSON}, {failing.URL, JSON}, {good.URL, JSON}},
		Timeout: time.Minute, Backoff: 10 * time.Millisecond, QueueBound: 8})
	alice := e.person("alice")
	tbl := e.table("busy", false, 3, alice)
	e.bots(tbl, alice)
	const games = 30
	deadline := time.After(60 * time.Second)
	for good.count("game.ended") < games {
		select {
		case <-good.arrive:
		case <-deadline:
			t.Fatalf("%d games ended at the good hook in a minute", good.count("game.ended"))
		}
	}
	st := e.alerts.Stats()
	if st.Queued["server"] > 2*8 {
		t.Fatalf("%d deliveries queued for the bad hooks, bound 8 each", st.Queued["server"])
	}
	if hanging.count("") != 1 {
		t.Fatalf("the hanging hook was sent %d requests: one at a time, the first still waits", hanging.count(""))
	}
	if st.Deliveries["game.ended"]["dropped"] == 0 {
		t.Fatalf("no delivery dropped: %+v", st.Deliveries)
	}
	t.Logf("after %d games: %+v, queued %v", games, st.Deliveries["game.ended"], st.Queued)
}

// TestQueueBoundUnder10000Events: 10,000 pieces of news, published as
// the lobby publishes, to a hook that hangs: its queue never holds more
// than its bound, the lobby's queue to the alerts never more than its
// own, and every piece is accounted for: under way, waiting, or dropped
// and counted.
func TestQueueBoundUnder10000Events(t *testing.T) {
	release := make(chan struct{})
	hanging := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	const bound, news = 64, 10_000
	e := newEnv(t, Config{Hooks: []ServerHook{{hanging.URL, JSON}}, Timeout: time.Minute, QueueBound: bound})
	h := e.alerts.servers[0]
	most, feedMost := 0, 0
	for i := range news {
		e.lob.Publish(lobby.News{Kind: lobby.NewsTableOpened, Table: fmt.Sprint("t", i), Seats: 4})
		most, feedMost = max(most, h.queue.Len()), max(feedMost, e.alerts.feed.Len())
	}
	<-hanging.arrive // the one under way
	var st HookState
	eventually(t, func() bool { // the alerts have taken every piece the lobby kept for them
		st = h.State()
		return e.alerts.feed.Len() == 0 && st.Queued+int(st.Dropped)+1+int(e.lob.NewsStats().Dropped) == news
	})
	if most > bound || st.Queued > bound || feedMost > lobby.FollowBound {
		t.Fatalf("the hook's queue held %d (bound %d), the lobby's %d (bound %d)", most, bound, feedMost, lobby.FollowBound)
	}
	t.Logf("10,000 news to a hanging hook: at most %d queued at the hook, %d in the lobby's queue; %d dropped by the hook, %d by the lobby's queue",
		most, feedMost, st.Dropped, e.lob.NewsStats().Dropped)
}

// TestRetries: a 5xx is tried again with backoff until it answers; a
// 4xx is not; a redirect is neither followed nor tried again.
func TestRetries(t *testing.T) {
	var calls atomic.Int32
	flaky := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusBadGateway)
		}
	})
	refusing := newReceiver(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	elsewhere := newReceiver(t, nil)
	redirecting := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/hook", http.StatusTemporaryRedirect)
	})
	e := newEnv(t, Config{Hooks: []ServerHook{{flaky.URL, JSON}, {refusing.URL, JSON}, {redirecting.URL, JSON}},
		Backoff: 5 * time.Millisecond})
	e.lob.Publish(lobby.News{Kind: lobby.NewsTableOpened, Table: "t", Seats: 2})
	for _, h := range e.alerts.servers {
		waitState(t, h, func(s HookState) bool { return s.Delivered+s.Failed > 0 })
	}
	if n := flaky.count(""); n != 3 || e.alerts.servers[0].State().Delivered != 1 {
		t.Errorf("the flaky hook was tried %d times: %+v", n, e.alerts.servers[0].State())
	}
	if n := refusing.count(""); n != 1 || e.alerts.servers[1].State().LastError != "answered 403 Forbidden" {
		t.Errorf("the refusing hook was tried %d times: %+v", n, e.alerts.servers[1].State())
	}
	st := e.alerts.servers[2].State()
	if redirecting.count("") != 1 || elsewhere.count("") != 0 || !strings.Contains(st.LastError, "a redirect to "+elsewhere.URL+"/hook: not followed") {
		t.Errorf("redirect: sent %d, followed %d, %+v", redirecting.count(""), elsewhere.count(""), st)
	}
	if d := e.alerts.Stats().Deliveries["table.opened"]; d["ok"] != 1 || d["failed"] != 1 || d["refused"] != 1 {
		t.Errorf("counted %v", d)
	}
}

// waitState waits until the hook's state passes ok.
func waitState(t *testing.T, h *hook, ok func(HookState) bool) HookState {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s := h.State(); ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("hook state %+v", h.State())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAnswerReadCapped: an answer of 64 MiB is read no further than
// MaxBody: the receiver cannot write it all.
func TestAnswerReadCapped(t *testing.T) {
	wrote := make(chan int64, 1)
	big := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		var n int64
		for n < 64<<20 {
			k, err := w.Write(chunk)
			n += int64(k)
			if err != nil {
				break
			}
		}
		wrote <- n
	})
	e := newEnv(t, Config{Hooks: []ServerHook{{big.URL, JSON}}})
	e.lob.Publish(lobby.News{Kind: lobby.NewsTableOpened, Table: "t", Seats: 2})
	select {
	case n := <-wrote:
		if n >= 64<<20 {
			t.Fatalf("the whole answer was taken: %d bytes", n)
		}
		t.Logf("the receiver wrote %d bytes before the hook stopped reading", n)
	case <-time.After(20 * time.Second):
		t.Fatal("the receiver is still writing")
	}
}

// TestTableHookAddresses: a table's hook goes only to an allowed host,
// and never to a loopback, private or link-local address unless a listed
// network holds it, whatever its name resolves to; the host only sets it.
func TestTableHookAddresses(t *testing.T) {
	rc := newReceiver(t, nil)
	port := rc.URL[strings.LastIndex(rc.URL, ":")+1:]
	for _, tc := range []struct {
		name, allow, url string
		set              error  // SetHook's error
		test             string // in the test delivery's error; "": delivered
	}{
		{"no host allowed", "", rc.URL, ErrNoTableHooks, ""},
		{"a host not listed", "hooks.example.org", rc.URL, ErrHostNotAllowed, ""},
		{"a private literal, not listed", "localhost", "http://10.1.2.3:" + port, ErrHostNotAllowed, ""},
		{"a listed name to loopback", "localhost", "http://localhost:" + port, nil, "is loopback"},
		{"loopback listed", "127.0.0.0/8", rc.URL, nil, ""},
		{"a listed name and its network", "localhost,127.0.0.1,::1", "http://localhost:" + port, nil, ""},
		{"no scheme", "localhost", "localhost:" + port, ErrBadURL, ""},
		{"a user in it", "localhost", "http://me:pw@localhost:" + port, ErrBadURL, ""},
		{"too long", "localhost", "http://localhost/" + strings.Repeat("a", MaxURL), ErrURLTooLong, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Config{Allow: mustAllow(t, tc.allow)})
			alice, bob := e.person("alice"), e.person("bob")
			tbl := e.table("den", false, 2, alice)
			if _, err := e.alerts.SetHook(ctxT(t), bob, tbl, rc.URL, JSON); !errors.Is(err, lobby.ErrNotHost) {
				t.Fatalf("bob, not the host, set a hook: %v", err)
			}
			_, err := e.alerts.SetHook(ctxT(t), alice, tbl, tc.url, JSON)
			if !errors.Is(err, tc.set) || tc.set != nil && lobby.KindOf(err) != lobby.Refused {
				t.Fatalf("set: %v, want %v", err, tc.set)
			}
			if tc.set != nil {
				return
			}
			res, err := e.alerts.TestHook(ctxT(t), alice, tbl, "")
			if err != nil || len(res) != 1 {
				t.Fatalf("test: %+v %v", res, err)
			}
			switch {
			case tc.test == "" && (res[0].Status != 200 || res[0].Body != "ok"):
				t.Fatalf("test answer %+v", res[0])
			case tc.test != "" && !strings.Contains(res[0].Error, tc.test):
				t.Fatalf("test answer %+v, want %q", res[0], tc.test)
			}
		})
	}
}

// TestSpecial: the ranges a table's hook never reaches unless allowed.
func TestSpecial(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1": "loopback", "::1": "loopback", "::ffff:127.0.0.1": "loopback", "10.0.0.1": "private",
		"172.16.5.4": "private", "192.168.1.1": "private", "fd00::1": "private", "169.254.169.254": "link-local",
		"fe80::1": "link-local", "0.0.0.0": "reserved", "100.64.0.1": "reserved", "224.0.0.1": "link-local", "239.1.2.3": "reserved",
		"64:ff9b::a00:1": "reserved", "93.184.216.34": "", "2606:4700::1111": "",
	} {
		if got := Special(netipAddr(t, addr)); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}

// TestAllowHost: the hosts a table's hook may name.
func TestAllowHost(t *testing.T) {
	a := mustAllow(t, "Hooks.Slack.com, *.example.org, 10.1.0.0/16, 192.0.2.7, ::1")
	for host, want := range map[string]bool{
		"hooks.slack.com": true, "HOOKS.SLACK.COM.": true, "slack.com": false, "evil-hooks.slack.com": false,
		"chat.example.org": true, "a.b.example.org": true, "example.org": false, "badexample.org": false,
		"10.1.2.3": true, "10.2.0.1": false, "192.0.2.7": true, "::1": true, "[::1]": true, "127.0.0.1": false,
	} {
		if got := a.Host(host); got != want {
			t.Errorf("%s: %v, want %v", host, got, want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "http://x", "a b", "*."} {
		if _, err := ParseAllow(bad); !errors.Is(err, ErrBadAllow) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if s := a.String(); s != "hooks.slack.com,*.example.org,10.1.0.0/16,192.0.2.7/32,::1/128" {
		t.Errorf("String %q", s)
	}
}

// TestPausedAfterAnHour: a table's hook that fails for an hour is paused
// and its host told; a delivery is tried once an hour; a test that
// answers resumes it.
func TestPausedAfterAnHour(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	e := newEnv(t, Config{Allow: mustAllow(t, "127.0.0.1"), Retries: -1})
	alice := e.person("alice")
	notices := e.lob.Notices(alice.ID)
	defer e.lob.Unfollow(notices)
	tbl := e.table("den", false, 4, alice)
	if _, err := e.alerts.SetHook(ctxT(t), alice, tbl, rc.URL, Ntfy); err != nil {
		t.Fatal(err)
	}
	h := e.alerts.tables["den"][0]
	sit := func(p lobby.Player) {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	sit(alice) // table.waiting: fails
	st := waitState(t, h, func(s HookState) bool { return s.Failed == 1 })
	if st.Paused || st.FailingSince.IsZero() || st.LastStatus != 503 {
		t.Fatalf("after one failure %+v", st)
	}
	e.now.Add(time.Hour)
	sit(e.person("bob")) // table.waiting (an hour since the last: it goes at once), fails

	st = waitState(t, h, func(s HookState) bool { return s.Failed == 2 })
	if !st.Paused {
		t.Fatalf("failing for an hour, not paused: %+v", st)
	}
	select {
	case <-notices.Ready():
		got := notices.Take()
		if len(got) != 1 || got[0].Kind != lobby.NewsHookPaused || got[0].Detail != "127.0.0.1" {
			t.Fatalf("alice heard %+v", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the host was not told")
	}
	hooks, err := e.alerts.Hooks(alice, tbl)
	if err != nil || len(hooks) != 1 || !hooks[0].Paused || hooks[0].Secret == "" {
		t.Fatalf("hooks %+v %v", hooks, err)
	}
	// Paused: news is dropped, but for one try an hour.
	before := rc.count("")
	e.now.Add(time.Minute)
	sit(e.person("carol"))
	eventually(t, func() bool { return e.alerts.Stats().Deliveries["table.waiting"]["dropped"] == 1 })
	if rc.count("") != before || e.alerts.Stats().Hooks["table"]["paused"] != 1 {
		t.Fatalf("a paused hook was sent news (%d requests, %d before)", rc.count(""), before)
	}
	// Its receiver is back: a test resumes it.
	down.Store(false)
	res, err := e.alerts.TestHook(ctxT(t), alice, tbl, rc.URL)
	if err != nil || res[0].Status != 200 {
		t.Fatalf("test %+v %v", res, err)
	}
	if st := h.State(); st.Paused || !st.FailingSince.IsZero() {
		t.Fatalf("after a good test %+v", st)
	}
	if got := rc.wait(t, string(Ping)); got.header.Get("Title") == "" || !verify(hooks[0].Secret, got) {
		t.Fatalf("the test delivery %+v", got.header)
	}
}

// TestHooksPerTable: a table has at most MaxHooksPerTable hooks; setting
// one again keeps its secret; removed, it hears nothing more; a table
// closed and opened again under its name has none of the old one's.
func TestHooksPerTable(t *testing.T) {
	rc := newReceiver(t, nil)
	e := newEnv(t, Config{Allow: mustAllow(t, "127.0.0.1")})
	alice := e.person("alice")
	tbl := e.table("den", false, 4, alice)
	var first TableHook
	for i := range MaxHooksPerTable {
		h, err := e.alerts.SetHook(ctxT(t), alice, tbl, fmt.Sprintf("%s/%d", rc.URL, i), JSON)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = h
		}
	}
	if _, err := e.alerts.SetHook(ctxT(t), alice, tbl, rc.URL+"/3", JSON); !errors.Is(err, ErrTooManyHooks) {
		t.Fatalf("a fourth hook: %v", err)
	}
	again, err := e.alerts.SetHook(ctxT(t), alice, tbl, rc.URL+"/0", Slack)
	if err != nil || again.Secret != first.Secret || again.Format != Slack {
		t.Fatalf("set again: %+v %v (secret was %s)", again, err, first.Secret)
	}
	if n, err := e.alerts.RemoveHook(ctxT(t), alice, tbl, rc.URL+"/1"); err != nil || n != 1 {
		t.Fatalf("remove: %d %v", n, err)
	}
	if _, err := e.alerts.RemoveHook(ctxT(t), alice, tbl, rc.URL+"/1"); !errors.Is(err, ErrNoHook) {
		t.Fatalf("removed twice: %v", err)
	}
	if hs, _ := e.alerts.Hooks(alice, tbl); len(hs) != 2 {
		t.Fatalf("hooks %+v", hs)
	}
	e.alerts.mu.Lock()
	old := append([]*hook(nil), e.alerts.tables["den"]...)
	e.alerts.mu.Unlock()
	if err := tbl.Close(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	tbl = e.table("den", false, 4, alice)
	if hs, _ := e.alerts.Hooks(alice, tbl); len(hs) != 0 {
		t.Fatalf("a new table of the name has %d hooks", len(hs))
	}
	fresh, err := e.alerts.SetHook(ctxT(t), alice, tbl, rc.URL+"/new", JSON)
	if err != nil || fresh.Secret == first.Secret {
		t.Fatalf("a new table's hook: %+v %v", fresh, err)
	}
	if err := tbl.Sit(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	if got := rc.wait(t, "table.waiting"); got.path != "/new" {
		t.Fatalf("table.waiting went to %s", got.path)
	}
	for _, h := range old {
		if st := h.State(); st.Queued+int(st.Delivered+st.Failed) != 0 {
			t.Fatalf("the closed table's hook to %s heard the new one's news: %+v", h.url, st)
		}
	}
}

// TestWaitingHeldForgottenAsTheGameStarts: a table.waiting held back by
// the once-a-while rule is not told after the table's game started: its
// seats are no longer free.
func TestWaitingHeldForgottenAsTheGameStarts(t *testing.T) {
	rc := newReceiver(t, nil)
	e := newEnv(t, Config{Hooks: []ServerHook{{rc.URL, JSON}}, WaitingEvery: 50 * time.Millisecond})
	waiting := func(taken int) lobby.News {
		return lobby.News{Kind: lobby.NewsTableWaiting, Table: "den", Seats: 3, Taken: taken}
	}
	e.lob.Publish(waiting(1), waiting(2), lobby.News{Kind: lobby.NewsGameStarted, Table: "den", Game: "1"})
	rc.wait(t, "game.started")
	eventually(t, func() bool { // the held one's time has come and gone
		e.alerts.mu.Lock()
		th := e.alerts.waiting["den"]
		e.alerts.mu.Unlock()
		if th == nil {
			return false
		}
		th.mu.Lock()
		defer th.mu.Unlock()
		return th.timer == nil
	})
	e.alerts.later.Put(lobby.News{Kind: lobby.NewsTableOpened, Table: "after", Seats: 2}) // behind anything the throttle let go
	rc.wait(t, "table.opened")
	if n := rc.count("table.waiting"); n != 1 {
		t.Fatalf("%d table.waiting told, want the first alone", n)
	}
}

// TestTableHookHearsFromItsSetting: a table's hook is told what happens
// at the table from the moment it was set: the table's opening, told by
// its actor a moment after the table was created (here after the hook
// was set), is not its news; the seat taken after is.
func TestTableHookHearsFromItsSetting(t *testing.T) {
	rc := newReceiver(t, nil)
	e := newEnv(t, Config{Allow: mustAllow(t, "127.0.0.1")})
	alice := e.person("alice")
	tbl := e.table("den", false, 4, alice)
	if _, err := e.alerts.SetHook(ctxT(t), alice, tbl, rc.URL+"/den", JSON); err != nil {
		t.Fatal(err)
	}
	opened := lobby.News{Kind: lobby.NewsTableOpened, Table: "den", Access: tbl.Info().Access(), Seats: 4, At: tbl.Info().Access().Created}
	e.lob.Publish(opened) // as late as the actor's may come
	if err := tbl.Sit(ctxT(t), alice); err != nil {
		t.Fatal(err)
	}
	rc.wait(t, "table.waiting")
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, got := range rc.got {
		if strings.Contains(string(got.body), "table.opened") {
			t.Fatalf("a hook set after its table opened was told of the opening: %s", got.body)
		}
	}
}
