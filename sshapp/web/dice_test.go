package web

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestNoHiddenDie plays a game with the dice known and scans every byte
// the web window serves while it runs — the table's page after every
// move, its whole event stream, the lobby, the game's page, JSON and
// recording, the players and the leaderboard — for the two rolls that
// stay hidden (54 both times: each is rolled, claimed as something else
// and replaced by the next player's roll, never lifted). Once the game is
// over they are shown, and the same scan finds them: it can fail.
func TestNoHiddenDie(t *testing.T) {
	dice := &lobbytest.Script{}
	dice.Push(1) // the seating: alice and bob in the order they sat
	dice.Push(0) // alice opens
	dice.Roll(5, 4)
	dice.Roll(3, 2)
	dice.Roll(5, 4)
	dice.Roll(4, 1)
	e := newEnv(t, dice, nil)
	ctx := ctxT(t)
	alice, bob := e.player("alice"), e.player("bob")
	stream := e.stream("/tables/duel/events")
	if stream.resp.StatusCode != 404 {
		t.Fatalf("a table not yet open: %d", stream.resp.StatusCode)
	}
	g := e.newGame("duel", quickRules(), false, alice, bob)
	stream = e.stream("/tables/duel/events")
	id := g.last[0].GameID
	roll := engine.Action{Kind: engine.Roll, Look: true}
	claim := func(v engine.Value) engine.Action { return engine.Action{Kind: engine.Claim, Value: v} }
	moves := []struct {
		who lobby.Player
		a   engine.Action
	}{
		{alice, roll}, {alice, claim(61)}, {bob, roll}, {bob, claim(62)}, {alice, engine.Action{Kind: engine.Challenge}},
		{alice, roll}, {alice, claim(63)}, {bob, roll}, {bob, claim(64)}, {alice, engine.Action{Kind: engine.Challenge}},
	}
	var served strings.Builder
	look := func() {
		for _, p := range []string{"/tables/duel", "/", "/games/" + id, "/games/" + id + ".json", "/games/" + id + ".cast",
			"/players/alice", "/players/bob", "/leaderboard"} { // (and the stream, read all along)
			_, body := e.get(p)
			served.WriteString(body)
		}
	}
	look()
	for i, m := range moves[:len(moves)-1] {
		if err := g.tbl.Act(ctx, m.who, m.a); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		g.catchUp()
		stream.next(func(ev sseEvent) bool { return ev.id == strconv.FormatUint(g.last[0].Version, 10) })
		look()
	}
	if g.over() {
		t.Fatal("the game ended early")
	}
	served.WriteString(stream.bytes())
	if leaks := hiddenDice(served.String()); len(leaks) > 0 {
		t.Errorf("a hidden die was served while the game ran: %q", leaks)
	}
	if !strings.Contains(served.String(), "alice rolled") || !strings.Contains(served.String(), "caught bluffing") &&
		!strings.Contains(served.String(), "called bob a liar: 32") {
		t.Error("the scan did not see the game being played")
	}

	last := moves[len(moves)-1]
	if err := g.tbl.Act(ctx, last.who, last.a); err != nil {
		t.Fatal(err)
	}
	g.catchUp()
	if !g.over() {
		t.Fatal("the game did not end")
	}
	over := stream.next(func(ev sseEvent) bool { return strings.Contains(ev.data, "game over") })
	if hiddenDice(over.data) == nil {
		t.Error("the end of the game does not show the rolls: the scan could not fail")
	}
	if _, body := e.get("/games/" + id); hiddenDice(body) == nil {
		t.Error("the finished game's page does not show the rolls")
	}
}

// hiddenDice finds the dice 5 and 4 in served bytes, in any way a page
// could write them: as the value, the faces, or the dice one by one. Event
// ids and the assets' hashes are numbers of their own, left out.
func hiddenDice(served string) []string {
	served = regexp.MustCompile(`(?m)^id: \d+$`).ReplaceAllString(served, "")
	served = regexp.MustCompile(`\?v=[0-9a-f]+`).ReplaceAllString(served, "")
	var out []string
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(^|[^0-9])54([^0-9]|$)`),
		regexp.MustCompile(`⚄⚃|⚃⚄`),
		regexp.MustCompile(`5\s*,\s*4|5 and 4`),
	} {
		out = append(out, re.FindAllString(served, 3)...)
	}
	return out
}
