package sshapp

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

var (
	claimPara = regexp.MustCompile(`<p class="claim"[^>]*>(.*?)</p>`)
	dataClaim = regexp.MustCompile(`data-claim="([^"]*)"`)
	dataWords = regexp.MustCompile(`data-verdict="([^"]*)"`)
	tags      = regexp.MustCompile(`<[^>]*>`)
)

// TestEveryDoorNamesTheClaimAlike walks one game under pips through the
// doors that show the claim on the table: a player's and a spectator's
// table screen over SSH, the web's table page and, once the game is
// over, the web's page of the game, move by move. At "double 1s" and at
// Mia each says the words words.ClaimWords gives (the player's own claim
// told as "you"), and the game's page ends with Narrator.Won.
func TestEveryDoorNamesTheClaimAlike(t *testing.T) {
	t.Parallel()
	e := startWebServer(t, false)
	alice, bob := e.player(t, "alice"), e.player(t, "bob")
	rules := engine.DefaultOptions()
	rules.Lives, rules.Ranking = 1, engine.Pips
	rules = words.PresetKept(rules)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tbl, err := e.lobby.CreateTable(ctx, alice, lobby.TableConfig{Name: "duel", Rules: rules, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	screens := map[string]*screen{}
	for _, who := range []string{"alice", "bob", "carol"} {
		screens[who] = playScreen(t, e.connect(t, e.key(t, who)), "play duel")
		screens[who].waitFor(t, "duel", 10*time.Second)
	}
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil { // the second starts the game
			t.Fatal(err)
		}
	}
	snapshot := func(p lobby.Player) lobby.Snapshot {
		t.Helper()
		sub, err := tbl.Watch(ctx, p)
		if err != nil {
			t.Fatalf("watch: %v", err)
		}
		defer sub.Close()
		s, ok := sub.Wait(ctx)
		if !ok {
			t.Fatal("no snapshot")
		}
		return s
	}
	byName := map[string]lobby.Player{"alice": alice, "bob": bob}
	players := map[string]lobby.Player{"alice": alice, "bob": bob, "carol": e.player(t, "carol")}
	turn := func() lobby.Player {
		s := snapshot(alice)
		return byName[s.Name(s.Game.Turn)]
	}
	act := func(p lobby.Player, a engine.Action) {
		t.Helper()
		if err := tbl.Act(ctx, p, a); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}

	// each door at the claim now standing
	var said []string
	doors := func(wantValue string) {
		t.Helper()
		for who, sc := range screens {
			s := snapshot(players[who])
			words := s.Narrator().ClaimWords(s.Game.Claim, s.Game.Claimant)
			if words.Value != wantValue {
				t.Fatalf("%s: the claim is %q, want %q", who, words.Value, wantValue)
			}
			sc.waitFor(t, words.String(), 10*time.Second)
			if who == "carol" {
				said = append(said, words.String())
			}
		}
		code, body := get(t, e.base+"/tables/duel")
		m := claimPara.FindStringSubmatch(body)
		if code != 200 || m == nil {
			t.Fatalf("the web's table page: %d, no claim:\n%s", code, body)
		}
		if got, want := html.UnescapeString(tags.ReplaceAllString(m[1], "")), said[len(said)-1]; got != want {
			t.Errorf("the web's table page says %q, the table screen %q", got, want)
		}
		if want := "<strong>" + html.EscapeString(wantValue) + "</strong>"; !strings.Contains(m[1], want) {
			t.Errorf("the web's table page marks out %q, want %s", m[1], want)
		}
	}

	first := turn()
	act(first, engine.Action{Kind: engine.Roll, Look: true})
	act(first, engine.Action{Kind: engine.Claim, Value: 11})
	doors("double 1s")
	second := turn()
	act(second, engine.Action{Kind: engine.Roll, Look: true})
	act(second, engine.Action{Kind: engine.Claim, Value: engine.Mia})
	doors("Mia!")
	act(turn(), engine.Action{Kind: engine.Challenge})

	end := snapshot(alice)
	if end.Playing {
		t.Fatal("the game goes on after a round at one life")
	}
	code, body := get(t, e.base+"/games/"+end.GameID)
	if code != 200 {
		t.Fatalf("the game's page: %d", code)
	}
	var steps []string
	for _, m := range dataClaim.FindAllStringSubmatch(body, -1) {
		steps = append(steps, html.UnescapeString(m[1]))
	}
	// the start, the roll, the claim, the roll, the claim, the challenge
	want := []string{"No claim yet", "No claim yet", said[0], said[0], said[1], said[1]}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("the game's page names the claims\n%q\nthe table screen\n%q", steps, want)
	}
	verdicts := dataWords.FindAllStringSubmatch(body, -1)
	won := end.Narrator().Won(end.Game.Winner)
	if len(verdicts) == 0 || html.UnescapeString(verdicts[len(verdicts)-1][1]) != won {
		t.Errorf("the game's page does not end with %q: %q", won, verdicts)
	}
}
