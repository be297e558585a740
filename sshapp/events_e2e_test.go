package sshapp

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/plain/plaintest"
)

// eventDoc runs `event NAME --json` as who.
func (e *recEnv) eventDoc(t *testing.T, who, name string) command.EventJSON {
	t.Helper()
	r := e.run(t, e.key(t, who), "event "+name+" --json")
	if r.code != 0 {
		t.Fatalf("event %s: %+v", name, r)
	}
	var doc command.EventJSON
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("event %s --json: %v\n%s", name, err, r.stdout)
	}
	return doc
}

// TestArenaOverSSH plays an arena end to end through the server's doors:
// made and started by commands, two built-in bots and a bot of the line
// protocol entered with bot --event, which is seated at one table after
// another (each seating begun with JOINED) until the host stops the
// event: EVENT OVER with its place and points, and exit 0. `event NAME
// --json`, `history --event` and the wall on the web tell the same
// games and points.
func TestArenaOverSSH(t *testing.T) {
	t.Parallel()
	we := startWebServer(t, true)
	e := we.recEnv
	if r := e.run(t, e.key(t, "alice"), "event create spring --seats 2 --bots 2 --lasts 30m --lives 1"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	bot, err := dialBot(e.addr, e.key(t, "robo"), "robo", "--event spring")
	if err != nil {
		t.Fatal(err)
	}
	defer bot.close()
	if _, err := bot.expect("HELLO;robo;"); err != nil {
		t.Fatal(err)
	}
	if r := e.run(t, e.key(t, "alice"), "event start spring"); r.code != 0 || !strings.Contains(r.stdout, "has started") {
		t.Fatalf("start: %+v", r)
	}
	move := newSimpleMove(7)
	joined, over := 0, 0
	var last string
	for over < 3 {
		l, err := bot.line()
		if err != nil {
			t.Fatalf("after %d games: %v", over, err)
		}
		switch {
		case strings.HasPrefix(l, "JOINED;spring-"):
			joined++
		case strings.HasPrefix(l, "GAME OVER;"):
			over++
		case strings.HasPrefix(l, "ERROR;"):
			t.Fatalf("the server said %q", l)
		}
		if a := move.answer(l); a != "" {
			if err := bot.send(a); err != nil {
				t.Fatal(err)
			}
		}
		last = l
	}
	if joined != over || joined < 3 {
		t.Fatalf("%d seatings for %d games (last %q)", joined, over, last)
	}
	if r := e.run(t, e.key(t, "alice"), "event stop spring"); r.code != 0 {
		t.Fatalf("stop: %+v", r)
	}
	var end string
	for {
		l, err := bot.line()
		if err != nil {
			t.Fatalf("no EVENT OVER: %v", err)
		}
		if a := move.answer(l); a != "" {
			_ = bot.send(a)
		}
		if strings.HasPrefix(l, "EVENT OVER;") {
			end = l
			break
		}
	}
	if code, err := bot.exitCode(5 * time.Second); err != nil || code != 0 {
		t.Fatalf("the bot's session ended with %d, %v", code, err)
	}
	doc := e.eventDoc(t, "carol", "spring")
	if doc.Event.State != "over" || !doc.Final || doc.Champion == nil {
		t.Fatalf("after the end: %+v", doc.Event)
	}
	var robo *command.StandingJSON
	for i, s := range doc.Standings {
		if s.Name == "robo" {
			robo = &doc.Standings[i]
		}
	}
	if robo == nil || !robo.Bot || robo.Games < 3 || robo.Rating == nil {
		t.Fatalf("robo's standing: %+v", robo)
	}
	if want := "EVENT OVER;spring;" + strconv.Itoa(robo.Place) + ";" + strconv.Itoa(robo.Points); end != want {
		t.Errorf("the bot heard %q, the standings say %q", end, want)
	}
	r := e.run(t, e.key(t, "carol"), "history --event spring --json --limit 200")
	var hist command.HistoryJSON
	if err := json.Unmarshal([]byte(r.stdout), &hist); err != nil || r.code != 0 {
		t.Fatalf("history --event: %v %+v", err, r)
	}
	if len(hist.Games) != len(doc.Games) {
		t.Errorf("history --event lists %d games, the event %d", len(hist.Games), len(doc.Games))
	}
	status, page := get(t, we.base+"/events/spring")
	if status != http.StatusOK || !strings.Contains(page, "robo") || !strings.Contains(page, "Champion") || !strings.Contains(page, "<svg class=\"chart points\"") {
		t.Fatalf("the wall: %d\n%s", status, page)
	}
	if _, list := get(t, we.base+"/events"); !strings.Contains(list, `href="/events/spring"`) {
		t.Errorf("/events does not list spring")
	}
}

// TestPrivateEventAtEveryDoor: to a stranger, a private event is not
// there, at every door: `event NAME` and its subcommands, `events`,
// `history --event`, `bot --event`, the screen (`play --event`), the plain
// mode and the web window answer as they answer a name no event has (the
// Mäxchen gateway's door: TestDoorOnlyToAPublicArena in lobby/events). An invite code
// lets one in; its web link opens its wall.
func TestPrivateEventAtEveryDoor(t *testing.T) {
	t.Parallel()
	we := startWebServer(t, true)
	e := we.recEnv
	if r := e.run(t, e.key(t, "host"), "event create den --private --seats 2 --bots 1"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	for _, cmd := range []string{"event %s", "event join %s", "event leave %s", "event start %s", "event close %s", "event invite %s",
		"history --event %s"} {
		for _, name := range []string{"den", "nosuch"} {
			r := e.run(t, e.key(t, "eve"), strings.Replace(cmd, "%s", name, 1))
			want := "mia: no such event: " + name + "\n"
			if r.code != 1 || r.stderr != want {
				t.Errorf("%s: %+v, want %q", strings.Replace(cmd, "%s", name, 1), r, want)
			}
		}
	}
	if r := e.run(t, e.key(t, "eve"), "events"); strings.Contains(r.stdout, "den") {
		t.Errorf("events lists den to a stranger:\n%s", r.stdout)
	}
	for _, name := range []string{"den", "nosuch"} {
		got := e.botAnswer(t, "eve", "--event "+name)
		if got.code != 1 || !strings.HasSuffix(got.stdout, "ERROR;event "+name+": no such event") {
			t.Errorf("bot --event %s: %+v", name, got)
		}
		sc := playScreen(t, e.connect(t, e.key(t, "eve")), "play --event "+name)
		sc.waitFor(t, "could not open the event "+name+": no such event", 5*time.Second)
		status, _ := get(t, we.base+"/events/"+name)
		if status != http.StatusNotFound {
			t.Errorf("/events/%s: %d", name, status)
		}
	}
	// The plain mode: the same answer to a name no event has.
	pl := openPlain(t, e.connect(t, e.key(t, "eve")), nil, "plain")
	pl.next(t, "Lobby.")
	pl.line(t, "events")
	if said := pl.next(t, "No events now."); strings.Contains(said, "den") {
		t.Errorf("the plain mode lists den to a stranger:\n%s", said)
	}
	for _, name := range []string{"den", "nosuch"} {
		pl.line(t, "event "+name)
		pl.next(t, "No such event: "+name+".")
		pl.line(t, "event join "+name)
		pl.next(t, "No such event: "+name+".")
	}
	r := e.run(t, e.key(t, "host"), "event invite den --json")
	var inv command.EventInviteJSON
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil || inv.Code == "" {
		t.Fatalf("invite: %v %+v", err, r)
	}
	if r := e.run(t, e.key(t, "eve"), "event join den wrongcode1"); r.code != 1 || !strings.Contains(r.stderr, "no private event") {
		t.Errorf("a wrong code: %+v", r)
	}
	if r := e.run(t, e.key(t, "eve"), "event join den "+inv.Code); r.code != 0 {
		t.Fatalf("join with the code: %+v", r)
	}
	if doc := e.eventDoc(t, "eve", "den"); len(doc.Standings) != 2 {
		t.Fatalf("a member sees %d entrants", len(doc.Standings))
	}
	r = e.run(t, e.key(t, "host"), "event link den --json")
	var link command.EventLinkJSON
	if err := json.Unmarshal([]byte(r.stdout), &link); err != nil || !strings.Contains(link.URL, "?link=") {
		t.Fatalf("link: %v %+v", err, r)
	}
	if status, page := get(t, link.URL); status != http.StatusOK || !strings.Contains(page, "den") {
		t.Fatalf("the wall by its link: %d", status)
	}
	resp, err := http.Get(strings.Replace(link.URL, "/events/den?", "/events/den/events?", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	for {
		l, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended: %v", err)
		}
		if l == "event: table\n" {
			break
		}
	}
}

// TestEventScreenTakesYouToYourTable: a person who joins from the event's
// screen is seated and taken to their table as the game there begins,
// and back to the standings once it is over; from the lobby, the event
// is listed with its state and opened with enter.
func TestEventScreenTakesYouToYourTable(t *testing.T) {
	t.Parallel()
	e := startRecServerWith(t, lobbyConfigBots(), nil)
	if r := e.run(t, e.key(t, "host"), "event create spring --seats 2 --bots 1 --lasts 30m --lives 1 --starts now"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	// A table beside the event: the lobby lists both, the event first.
	if r := e.run(t, e.key(t, "bob"), "table create side"); r.code != 0 {
		t.Fatalf("table create: %+v", r)
	}
	sc := openScreen(t, e.connect(t, e.key(t, "ann")), 80, 24)
	sc.waitFor(t, "side", 5*time.Second)
	sc.waitFor(t, "spring", 5*time.Second)
	sc.waitFor(t, "arena · running", 5*time.Second)
	sc.send(t, "k")  // the first row, the event: the cursor stays on the table it was on when the event came
	sc.send(t, "\r") // open it
	sc.waitFor(t, "You are not in it: press J to join.", 5*time.Second)
	sc.send(t, "J")
	sc.waitFor(t, "mia  spring-1 · ", 10*time.Second) // the table screen: seated, the game begun
	at := len(sc.out.String())
	sc.send(t, "s")
	sc.waitFor(t, "yes, leave", 5*time.Second)
	sc.send(t, "y")
	deadline := time.Now().Add(15 * time.Second)
	// Back at the standings: a person rests a while before the next
	// table (events.Config.Breather).
	back := func() bool { return strings.Contains(sc.out.String()[at:], "POINTS") }
	for !back() {
		if time.Now().After(deadline) {
			out := sc.out.String()
			t.Fatalf("not back at the standings; the screen shows:\n%q", out[max(at, len(out)-2000):])
		}
		time.Sleep(10 * time.Millisecond)
	}
	doc := e.eventDoc(t, "host", "spring")
	for _, s := range doc.Standings {
		if s.Name == "ann" && s.Games < 1 {
			t.Errorf("ann's standing: %+v", s)
		}
	}
}

// lobbyConfigBots is a lobby whose built-in bots move at once.
func lobbyConfigBots() lobby.Config { return lobby.Config{BotDelay: lobby.NoDelay} }

// nextOf waits until what the session received after the last thing
// found holds one of wants, moves past the first found, and returns
// which it was and what came up to its end.
func (p *plainSession) nextOf(t *testing.T, wants ...string) (int, string) {
	t.Helper()
	changed := p.out.changed()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		text := p.text()
		best, at := -1, len(text)
		for i, w := range wants {
			if j := strings.Index(text[p.pos:], w); j >= 0 && p.pos+j < at {
				best, at = i, p.pos+j
			}
		}
		if best >= 0 {
			from := p.pos
			p.pos = at + len(wants[best])
			return best, text[from:p.pos]
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("the plain session said none of %q after:\n%s", wants, text[p.pos:])
		}
	}
}

// TestPlainEvent: in the plain mode a person lists the events (numbered),
// hears one's standings, joins it, is seated at its table when it
// starts, plays there, is back at the standings after the game, and
// hears their place at the end; every byte is plain.
func TestPlainEvent(t *testing.T) {
	t.Parallel()
	we := startWebServer(t, true)
	e := we.recEnv
	if r := e.run(t, e.key(t, "host"), "event create fall --seats 2 --bots 1 --lasts 30m --lives 1"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	alice := openPlain(t, e.connect(t, e.key(t, "alice")), nil, "plain")
	alice.next(t, "Lobby.")
	alice.line(t, "events")
	alice.next(t, "1 event: say a number for its standings.")
	alice.next(t, "1: fall, an arena of 30 minutes, starts when its host starts it, 1 entrant.")
	alice.line(t, "1")
	alice.next(t, "Event fall, hosted by host: an arena of 30 minutes")
	alice.next(t, "1. ")
	alice.next(t, "Say event join fall to enter it.")
	alice.line(t, "event join nosuch")
	alice.next(t, "No such event: nosuch.")
	alice.line(t, "event join fall")
	alice.next(t, "You are in fall.")
	alice.next(t, "You are there:")
	if r := e.run(t, e.key(t, "host"), "event start fall"); r.code != 0 {
		t.Fatalf("start: %+v", r)
	}
	alice.next(t, "The event fall seats you at fall-1.")
	alice.next(t, "At table fall-1, ")
	if said := alice.next(t, "Game "); strings.Contains(said, "You are back") {
		t.Errorf("a first seating told as a return:\n%s", said)
	}
	if r := e.run(t, e.key(t, "host"), "event stop fall"); r.code != 0 {
		t.Fatalf("stop: %+v", r)
	}
	for moves := 0; ; moves++ {
		if moves > 100 {
			t.Fatal("the game did not end")
		}
		// The game's end: back to the standings, or, as the event stopped
		// meanwhile, straight to its end.
		which, said := alice.nextOf(t, "Choose: ", "You are seated again as soon as enough are free.", "The event fall is over: you finished ")
		if which == 1 && !strings.Contains(said, "Event fall, hosted by host") {
			t.Errorf("after the game, no standings:\n%s", said)
		}
		if which == 1 {
			alice.next(t, "The event fall is over: you finished ")
		}
		if which > 0 {
			break
		}
		choices := alice.next(t, "\n")
		switch {
		case strings.Contains(choices, "announce another value"):
			alice.line(t, "announce")
			alice.next(t, "lowest first:\n1: ")
			alice.line(t, "1")
		default:
			alice.line(t, "1")
		}
	}
	alice.next(t, "Champion: ")
	if r := e.run(t, e.key(t, "alice"), "event fall --json"); r.code != 0 || !strings.Contains(r.stdout, `"final": true`) {
		t.Fatalf("the event after: %+v", r)
	}
	if bad := plaintest.Forbidden([]byte(alice.out.String())); bad != "" {
		t.Fatalf("alice received %s", bad)
	}
	// The event's table deals one game: nobody is said to stand up, and no
	// next game is waited for there.
	for _, no := range []string{"stood up.", "Waiting for a game"} {
		if strings.Contains(alice.text(), no) {
			t.Errorf("alice was told %q:\n%s", no, alice.text())
		}
	}
}

// TestPlainEventCall: a person who entered an event from the command line
// is in the plain mode's lobby as it begins: a notice calls them, and go
// takes them to it, where they are there and so seated.
func TestPlainEventCall(t *testing.T) {
	t.Parallel()
	we := startWebServer(t, true)
	e := we.recEnv
	if r := e.run(t, e.key(t, "host"), "event create fall --seats 2 --bots 1 --lasts 30m --lives 1"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	if r := e.run(t, e.key(t, "bob"), "event join fall"); r.code != 0 {
		t.Fatalf("join: %+v", r)
	}
	bob := openPlain(t, e.connect(t, e.key(t, "bob")), nil, "plain")
	bob.next(t, "Lobby.")
	if r := e.run(t, e.key(t, "host"), "event start fall"); r.code != 0 {
		t.Fatalf("start: %+v", r)
	}
	bob.next(t, "The event fall has begun: you are seated once you are at it. Say go to go there.")
	bob.line(t, "go")
	bob.next(t, "Event fall, hosted by host")
	bob.next(t, "You are there:")
	bob.next(t, "The event fall seats you at fall-1.")
	if bad := plaintest.Forbidden([]byte(bob.out.String())); bad != "" {
		t.Fatalf("bob received %s", bad)
	}
}

// TestEventScreenOpensTables: a person seated at an event's table who
// steps back to the event's screen mid-game goes back to their table with
// enter; anyone else opens a table in play there to watch it.
func TestEventScreenOpensTables(t *testing.T) {
	t.Parallel()
	e := startRecServerWith(t, lobbyConfigBots(), nil)
	if r := e.run(t, e.key(t, "host"), "event create spring --seats 2 --bots 1 --lasts 30m --starts now"); r.code != 0 {
		t.Fatalf("create: %+v", r)
	}
	ann := openScreen(t, e.connect(t, e.key(t, "ann")), 80, 24)
	ann.waitFor(t, "arena · running", 5*time.Second)
	ann.send(t, "\r")
	ann.waitFor(t, "You are not in it: press J to join.", 5*time.Second)
	ann.send(t, "J")
	ann.waitFor(t, "mia  spring-1 · ", 10*time.Second)
	ann.waitFor(t, "Your turn", 10*time.Second) // the bot opened; ann's clock runs
	at := len(ann.out.String())
	ann.send(t, "\x1b")
	ann.waitFor(t, "enter your table", 5*time.Second)
	waitAfter(t, ann, at, "POINTS") // the event's screen
	at = len(ann.out.String())
	ann.send(t, "\r")
	waitAfter(t, ann, at, "mia  spring-1 · ")

	bob := openScreen(t, e.connect(t, e.key(t, "bob")), 80, 24)
	bob.waitFor(t, "arena · running", 5*time.Second)
	bob.send(t, "\r")
	bob.waitFor(t, "enter watch spring-1", 5*time.Second)
	at = len(bob.out.String())
	bob.send(t, "\r")
	waitAfter(t, bob, at, "mia  spring-1 · ")
}

// waitAfter waits until what the screen received after its first at
// bytes shows want.
func waitAfter(t *testing.T, sc *screen, at int, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(sc.out.String()[at:], want) {
		if time.Now().After(deadline) {
			out := sc.out.String()
			t.Fatalf("the screen never showed %q; after, it shows:\n%q", want, out[max(at, len(out)-2000):])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
