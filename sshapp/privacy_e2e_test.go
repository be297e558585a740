package sshapp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/store"
)

// playScreen is a session with a "dumb" PTY running cmd (such as "play
// club").
func playScreen(t *testing.T, c *gossh.Client, cmd string) *screen {
	t.Helper()
	return startScreen(t, c, "dumb", 80, 24, cmd)
}

// botAnswer is everything a `bot TABLE` session said and its status.
func (e *recEnv) botAnswer(t *testing.T, who, table string) result {
	t.Helper()
	b, err := dialBot(e.addr, e.key(t, who), who, table)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	var lines []string
	for {
		l, err := b.line()
		if err != nil {
			break // the session ended
		}
		lines = append(lines, l)
	}
	code, err := b.exitCode(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return result{stdout: strings.Join(lines, "\n"), code: code}
}

// TestPrivateTableAtEveryDoor: to a stranger, a private table and its
// games (one finished, one abandoned when the table closed) are not
// there, at every door of the server: each command, the bot protocol, the
// screen and the web window answer them byte for byte, exit code (or HTTP
// status) included, as they answer a name no table has (and a game that
// does not exist), and as they answer the same name once the table is
// closed. Its host, members and the admins find it. Its name is public:
// `table create` says it is taken (the README's choice).
func TestPrivateTableAtEveryDoor(t *testing.T) {
	t.Parallel()
	we := startWebServer(t, true, "root")
	e := we.recEnv
	ctx := context.Background()
	// carol's view of the tables and the boards before the private table
	// exists: its games, finished or abandoned, move none of it.
	tablesBefore := e.as(t, "carol", "tables")

	e.steps(t, []step{
		{name: "create", who: "ann", cmd: "table create secret --private --seats 2 --lives 1", code: 0, stdout: []string{"private"}},
	})
	code := e.as(t, "ann", "table invite secret --json")
	var inv command.TableDoc
	if err := json.Unmarshal([]byte(code.stdout), &inv); err != nil || inv.Code == "" {
		t.Fatalf("invite: %+v %v", code, err)
	}
	e.steps(t, []step{{name: "bob joins", who: "bob", cmd: "join secret " + inv.Code, code: 0}})
	boards := []string{"leaderboard", "leaderboard --all-time", "leaderboard --all-time --json", "stats bob --all-time --json"}
	boardsBefore := map[string]result{}
	for _, b := range boards {
		boardsBefore[b] = e.as(t, "carol", b)
	}
	tbl, err := e.lobby.Table("secret")
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := e.player(t, "ann"), e.player(t, "bob")
	for _, p := range []lobby.Player{ann, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	game := playGame(t, tbl, []lobby.Player{ann, bob}, nil)

	// The doors that take a table's name, as carol (a stranger) and
	// anyone would use them. NAME is the table's name, GAME its game.
	doors := []string{
		"rules NAME", "rules NAME --json",
		"seed NAME", "seed NAME lucky 7", "seed NAME --none", "seed NAME --json",
		"table invite NAME", "table kick NAME bob", "table rules NAME --lives 3", "table close NAME", "table close NAME --json",
		"table link NAME", "table link NAME --revoke", "table link NAME --json",
		"join NAME abcdefghij",
		"history --table NAME", "history --table NAME --json", "history --table NAME --player bob",
		"stats bob --table NAME", "stats bob --table NAME --json", "stats bob --table NAME --all-time",
		"leaderboard --table NAME", "leaderboard --table NAME --all-time", "leaderboard --table NAME --json",
		"leaderboard --table NAME --season 2026-11", "leaderboard --table NAME --people",
		"play NAME",
		"replay GAME", "replay GAME --json", "verify GAME",
	}
	const other = "secreu"      // a name no table ever had, as long as "secret"
	const missing = "987654321" // a game that does not exist (nor is in a port)
	ask := func(cmd, name, g string) result {
		return e.as(t, "carol", strings.NewReplacer("NAME", name, "GAME", g).Replace(cmd))
	}
	// back writes an answer about other as if it were about secret.
	back := func(r result) result {
		rp := strings.NewReplacer(other, "secret", missing, game)
		return result{stdout: rp.Replace(r.stdout), stderr: rp.Replace(r.stderr), code: r.code}
	}
	open := map[string]result{}
	for _, d := range doors {
		got := ask(d, "secret", game)
		open[d] = got
		if got.code == 0 {
			t.Errorf("%q: the stranger was answered (exit 0): %q", d, got.stdout)
		}
		if want := back(ask(d, other, missing)); got != want {
			t.Errorf("%q: private and missing differ:\nprivate %+v\nmissing %+v", d, got, want)
		}
	}
	if got, want := e.botAnswer(t, "carol", "secret"), e.botAnswer(t, "carol", other); got != back(want) || got.code != command.ExitRefused {
		t.Errorf("bot: private and missing differ:\nprivate %+v\nmissing %+v", got, want)
	}
	for _, name := range []string{"secret", other} {
		sc := playScreen(t, e.connect(t, e.key(t, "carol")), "play "+name)
		sc.waitFor(t, "could not open "+name+": no such table", 10*time.Second)
	}
	// The web window's doors: no key, no link.
	pages := []string{"/tables/NAME", "/tables/NAME/events", "/tables/NAME?link=", "/tables/NAME?link=abc",
		"/games/GAME", "/games/GAME.json", "/games/GAME.cast", "/games/GAME?m=1", "/leaderboard?table=NAME",
		"/leaderboard?table=NAME&season=all-time", "/leaderboard?table=NAME&season=2026-11"}
	type page struct {
		code int
		body string
	}
	fetch := func(path, name, g string) page {
		code, body := get(t, we.base+strings.NewReplacer("NAME", name, "GAME", g).Replace(path))
		return page{code, strings.NewReplacer(other, "secret", missing, game).Replace(body)}
	}
	webOpen := map[string]page{}
	webDoors := func(when, g string) {
		t.Helper()
		for _, p := range pages {
			got := fetch(p, "secret", g)
			if want := fetch(p, other, missing); got != want || got.code != 404 {
				t.Errorf("%s: web %s: private %d and missing %d differ (or were found)", when, p, got.code, want.code)
			}
			if when == "open" {
				webOpen[p] = got
			} else if got != webOpen[p] {
				t.Errorf("%s: web %s: open and closed differ", when, p)
			}
		}
		for _, p := range []string{"/", "/players/ann", "/players/bob", "/leaderboard"} {
			if _, body := get(t, we.base+p); strings.Contains(body, "secret") || strings.Contains(body, "/games/"+g+`"`) {
				t.Errorf("%s: web %s names the private table or its game %s", when, p, g)
			}
		}
	}
	webDoors("open", game)
	if got := e.as(t, "carol", "tables"); got != tablesBefore {
		t.Errorf("carol's tables changed:\n%+v\nwas\n%+v", got, tablesBefore)
	}
	// Those it admits find it.
	e.steps(t, []step{
		{name: "member's rules", who: "bob", cmd: "rules secret", code: 0, stdout: []string{"Rules of secret"}},
		{name: "admin's rules", who: "root", cmd: "rules secret", code: 0, stdout: []string{"Rules of secret"}},
		{name: "member's replay", who: "bob", cmd: "replay " + game, code: 0, stdout: []string{"Game " + game + " at secret"}},
		{name: "the name is taken, and says no more", who: "carol", cmd: "table create SECRET", code: 1,
			stderr: []string{"a table with that name is open already"}, not: []string{"private", "ann"}},
	})
	// A second game, cut short by the close: abandoned.
	watch, err := tbl.Watch(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	if err := tbl.Start(ctx, ann); err != nil && !errors.Is(err, lobby.ErrGameRunning) {
		t.Fatal(err)
	}
	var cut string
	for cut == "" {
		snap, ok := watch.Wait(ctx)
		if !ok {
			t.Fatal("the table's second game never started")
		}
		if snap.Playing && snap.GameID != game {
			cut = snap.GameID
		}
	}
	// Closed, the table answers the stranger as it did while open, about
	// either game.
	e.steps(t, []step{{name: "close", who: "ann", cmd: "table close secret", code: 0, stdout: []string{"Game " + cut + " was running there"}}})
	for _, d := range doors {
		if got := ask(d, "secret", game); got != open[d] {
			t.Errorf("%q: open and closed differ:\nopen   %+v\nclosed %+v", d, open[d], got)
		}
		if !strings.Contains(d, "GAME") {
			continue
		}
		got, miss := ask(d, "secret", cut), ask(d, other, missing)
		rp := strings.NewReplacer(other, "secret", missing, cut)
		if want := (result{stdout: rp.Replace(miss.stdout), stderr: rp.Replace(miss.stderr), code: miss.code}); got != want {
			t.Errorf("%q of the abandoned game: private and missing differ:\nprivate %+v\nmissing %+v", d, got, want)
		}
	}
	webDoors("closed", game)
	for _, p := range []string{"/games/" + cut, "/games/" + cut + ".json", "/games/" + cut + ".cast"} {
		code, body := get(t, we.base+p)
		mcode, mbody := get(t, we.base+strings.ReplaceAll(p, cut, missing))
		if code != 404 || code != mcode || body != strings.ReplaceAll(mbody, missing, cut) {
			t.Errorf("web %s, the abandoned game: %d, missing %d, same page %v", p, code, mcode, body == mbody)
		}
	}
	// The members see the abandoned game.
	e.steps(t, []step{{name: "member's replay of the abandoned game", who: "bob", cmd: "replay " + cut, code: 0,
		stdout: []string{"Abandoned: ann closed the table while it ran."}}})
	for _, b := range boards {
		if got := e.as(t, "carol", b); got != boardsBefore[b] {
			t.Errorf("carol's %q moved with the private table's games:\n%+v\nwas\n%+v", b, got, boardsBefore[b])
		}
	}
}

// TestCapsPerPerson: one person, with two keys, holds at most
// MaxSessionsPerPerson sessions at once and hosts at most MaxTables open
// tables, whichever key they use; the refusal names the limit; a server
// admin's key is exempt; another person is not touched; a session closed
// frees its place.
func TestCapsPerPerson(t *testing.T) {
	t.Parallel()
	e := startRecServerWith(t, lobby.Config{BotDelay: lobby.NoDelay, MaxTables: 2},
		func(c *Config) { c.Limits.MaxSessionsPerPerson = 3 }, "root")
	// ann's second key, joined from another machine.
	r := e.as(t, "ann", "keys add --json")
	var kc command.KeyCodeJSON
	if err := json.Unmarshal([]byte(r.stdout), &kc); err != nil || r.code != 0 {
		t.Fatalf("keys add: %+v %v", r, err)
	}
	laptop := newKey(t)
	if r := e.run(t, laptop, "keys join "+kc.Code); r.code != 0 {
		t.Fatalf("keys join: %+v", r)
	}

	// Tables: one from each key, then the third is refused from either.
	if r := e.as(t, "ann", "table create a1"); r.code != 0 {
		t.Fatalf("a1: %+v", r)
	}
	if r := e.run(t, laptop, "table create a2 --private"); r.code != 0 {
		t.Fatalf("a2: %+v", r)
	}
	for _, k := range []gossh.Signer{e.key(t, "ann"), laptop} {
		r := e.run(t, k, "table create a3")
		if r.code != command.ExitRefused || r.stderr != "mia: you host 2 open tables, the most one person may: close one first (table close NAME)\n" {
			t.Errorf("the third table: %+v", r)
		}
	}
	e.steps(t, []step{
		{name: "bob is not touched", who: "bob", cmd: "table create b1", code: 0},
		{name: "admins are exempt", who: "root", cmd: "table create r1", code: 0},
		{name: "admins are exempt, twice", who: "root", cmd: "table create r2", code: 0},
		{name: "admins are exempt, thrice", who: "root", cmd: "table create r3", code: 0},
		{name: "a closed table frees its place", who: "ann", cmd: "table close a1", code: 0},
		{name: "then one more", who: "ann", cmd: "table create a3", code: 0},
	})

	// Sessions: two screens on one key, one on the other: the fourth, a
	// command from either key, is refused.
	s1 := openScreen(t, e.connect(t, e.key(t, "ann")), 80, 24)
	s1.waitFor(t, "ann", 10*time.Second)
	desk := e.connect(t, e.key(t, "ann"))
	s2 := openScreen(t, desk, 80, 24)
	s2.waitFor(t, "ann", 10*time.Second)
	s3 := openScreen(t, e.connect(t, laptop), 80, 24)
	s3.waitFor(t, "ann", 10*time.Second)
	const refusal = "mia: you have 3 sessions open, the most one person may have at once (every key of yours counts): close one, then connect again\n"
	for _, k := range []gossh.Signer{e.key(t, "ann"), laptop} {
		if r := e.run(t, k, "whoami"); r.code != command.ExitRefused || r.stderr != refusal {
			t.Errorf("a fourth session: %+v", r)
		}
	}
	if r := runOn(t, desk, "whoami"); r.code != command.ExitRefused || r.stderr != refusal {
		t.Errorf("a fourth session on an open connection: %+v", r)
	}
	b := playScreen(t, e.connect(t, laptop), "play a2")
	b.waitFor(t, "you have 3 sessions open", 10*time.Second)
	if code := b.wait(t, 10*time.Second); code != command.ExitRefused {
		t.Errorf("a refused screen exits %d", code)
	}
	e.steps(t, []step{{name: "bob is not touched", who: "bob", cmd: "whoami", code: 0, stdout: []string{"bob"}}})
	// A key that is nobody's yet counts alone, at its name prompt too.
	stranger := newKey(t)
	for range 3 {
		sc := openScreen(t, e.connect(t, stranger), 80, 24)
		sc.waitFor(t, "name", 10*time.Second)
	}
	if r := e.run(t, stranger, "whoami"); r.code != command.ExitRefused || r.stderr != refusal {
		t.Errorf("a stranger's fourth session: %+v", r)
	}
	// root, an admin, holds as many as he likes.
	for range 4 {
		sc := openScreen(t, e.connect(t, e.key(t, "root")), 80, 24)
		sc.waitFor(t, "root", 10*time.Second)
	}
	e.steps(t, []step{{name: "an admin past the cap", who: "root", cmd: "whoami", code: 0, stdout: []string{"root"}}})
	// ann closes a screen: a session is hers again.
	s3.send(t, "q")
	if code := s3.wait(t, 10*time.Second); code != 0 {
		t.Errorf("the screen quit with %d", code)
	}
	eventually(t, 10*time.Second, "a session freed", func() bool { return e.run(t, laptop, "whoami").code == 0 })
	_, _ = s1, s2
}

// TestCloseRunningTable: the host closes a table while its game runs,
// with two players and a spectator on screens and a protocol bot seated:
// the game ends abandoned; every screen says who closed it and that the
// game was abandoned; the bot reads GAME ABANDONED then ERROR and its
// session ends; history, replay (text and JSON) and verify show the game
// as abandoned; no rating, game count or win moved; and all of it holds
// after a restart.
func TestCloseRunningTable(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay, "root")
	ctx := context.Background()
	ann, bob := e.player(t, "ann"), e.player(t, "bob")
	e.key(t, "carol")
	e.key(t, "robo")

	// A finished game first, so that ann and bob have ratings to keep.
	warm, err := e.lobby.CreateTable(ctx, ann, lobby.TableConfig{Name: "warm", Rules: fastRules(1), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{ann, bob} {
		if err := warm.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	playGame(t, warm, []lobby.Player{ann, bob}, nil)

	e.steps(t, []step{{name: "create", who: "ann", cmd: "table create club --seats 3 --lives 3 --turn-seconds 120", code: 0}})
	club, err := e.lobby.Table("club")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{ann, bob} {
		if err := club.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	screens := map[string]*screen{}
	for _, who := range []string{"ann", "bob", "carol"} {
		screens[who] = playScreen(t, e.connect(t, e.key(t, who)), "play club")
		screens[who].waitFor(t, "club", 10*time.Second)
	}
	before := map[string]result{}
	for _, cmd := range []string{"leaderboard --json", "stats ann --json", "stats bob --json", "stats robo --json", "leaderboard --table club --json"} {
		before[cmd] = e.as(t, "root", cmd)
	}
	robo, err := dialBot(e.addr, e.key(t, "robo"), "robo", "club") // the last seat: the game starts
	if err != nil {
		t.Fatal(err)
	}
	defer robo.close()
	started, err := robo.expect("HELLO;")
	for err == nil && !strings.HasPrefix(started, "GAME STARTING;") {
		started, err = robo.line()
	}
	if err != nil {
		t.Fatal(err)
	}
	game := strings.Split(started, ";")[1]

	r := e.as(t, "ann", "table close club")
	if r.code != 0 || !strings.Contains(r.stdout, "Table club is closed.") ||
		!strings.Contains(r.stdout, "Game "+game+" was running there: it is abandoned, with no result\n(no one won, no rating moved).") {
		t.Fatalf("close: %+v", r)
	}
	told := "ann closed the table club: game " + game + " abandoned, not rated"
	for who, sc := range screens {
		if who == "ann" { // the host closed it herself
			sc.waitFor(t, "you closed the table club: game "+game+" abandoned", 10*time.Second)
			continue
		}
		sc.waitFor(t, told, 10*time.Second)
	}
	var last []string
	for {
		l, err := robo.line()
		if err != nil {
			break
		}
		last = append(last, l)
	}
	if n := len(last); n < 2 || last[n-2] != "GAME ABANDONED;"+game || last[n-1] != "ERROR;"+told {
		t.Errorf("the bot's last lines: %q", last)
	}
	if code, err := robo.exitCode(5 * time.Second); err != nil || code != command.ExitRefused {
		t.Errorf("the bot's session: exit %d, %v", code, err)
	}

	check := func(t *testing.T) {
		e.steps(t, []step{
			{name: "not listed", who: "bob", cmd: "tables", code: 0, not: []string{"club"}},
			{name: "history", who: "bob", cmd: "history --table club", code: 0, stdout: []string{game, "club", "(abandoned)", "ann", "bob", "robo (bot)"}},
			{name: "replay", who: "carol", cmd: "replay " + game, code: 0,
				stdout: []string{"Game " + game + " at club", "abandoned", "Abandoned: ann closed the table while it ran.\nNo one won; no rating moved."},
				not:    []string{"Standings"}},
			{name: "verify", who: "carol", cmd: "verify " + game, code: 0, stdout: []string{"Re-derived"}},
		})
		r := e.as(t, "bob", "history --table club --json")
		var h command.HistoryJSON
		if err := json.Unmarshal([]byte(r.stdout), &h); err != nil || len(h.Games) != 1 {
			t.Fatalf("history --json: %+v %v", r, err)
		}
		if g := h.Games[0]; g.ID != game || g.Winner != -1 || g.Abandoned == nil ||
			*g.Abandoned != (store.Abandonment{Reason: store.AbandonClosed, By: ann.ID, Name: "ann"}) {
			t.Errorf("history --json: %+v (abandoned %+v)", g, g.Abandoned)
		}
		r = e.as(t, "carol", "replay "+game+" --json")
		if r.code != 0 {
			t.Fatalf("replay --json: %+v", r)
		}
		want := []string{"id", "table", "rules", "players", "started", "ended", "winner", "abandoned", "fair", "events"}
		if keys := objectKeys(t, json.RawMessage(r.stdout)); !slices.Equal(keys, want) {
			t.Errorf("replay --json keys %v, want %v", keys, want)
		}
		var doc store.Replay
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Winner != -1 || doc.Standings != nil || doc.Abandoned == nil || doc.Abandoned.By != ann.ID {
			t.Errorf("replay --json: winner %d, standings %v, abandoned %+v", doc.Winner, doc.Standings, doc.Abandoned)
		}
		if st, err := engine.Replay(doc.Rules, len(doc.Players), doc.Events, nil); err != nil || st.Over() {
			t.Errorf("the abandoned game's events: over %v, %v", st != nil && st.Over(), err)
		}
		for cmd, was := range before {
			if now := e.as(t, "root", cmd); now != was {
				t.Errorf("%s moved:\n%s\nwas\n%s", cmd, now.stdout, was.stdout)
			}
		}
	}
	t.Run("at once", check)
	e.restart(t)
	t.Run("after a restart", check)
}

// TestKickedWatcherIsTold: a member watching a private table by screen
// whom the host removes is told so, not that the table closed, and finds
// it gone from the lobby.
func TestKickedWatcherIsTold(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay, "root")
	e.steps(t, []step{{name: "create", who: "ann", cmd: "table create bobpriv --private", code: 0}})
	r := e.as(t, "ann", "table invite bobpriv --json")
	var inv command.TableDoc
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil {
		t.Fatal(err)
	}
	e.steps(t, []step{{name: "join", who: "bob", cmd: "join bobpriv " + inv.Code, code: 0}})
	sc := playScreen(t, e.connect(t, e.key(t, "bob")), "play bobpriv")
	sc.waitFor(t, "seats taken", 10*time.Second) // open: its title shows while it opens
	e.steps(t, []step{{name: "kick", who: "ann", cmd: "table kick bobpriv bob", code: 0, stdout: []string{"Removed bob from bobpriv"}}})
	sc.waitFor(t, "ann removed you from the table bobpriv", 10*time.Second)
	if strings.Contains(sc.out.String(), "was closed") || strings.Contains(sc.out.String(), "closed the table") {
		t.Errorf("the kicked member was told the table closed: %q", sc.out.String())
	}
	e.steps(t, []step{{name: "gone for bob", who: "bob", cmd: "rules bobpriv", code: 1, stderr: []string{"no such table: bobpriv"}}})
}
