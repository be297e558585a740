package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// twoKeyGame plays a game with fair dice in which alice, a person with
// two keys, sits down with her second (her laptop's) and gives a seed of
// her own; it returns the game's ID, alice and the key she played with.
func twoKeyGame(t *testing.T, e *env) (id string, alice lobby.Player) {
	t.Helper()
	alice = e.joinKey(e.player("alice"), "SHA256:alice-laptop")
	bob, carol := e.player("bob"), e.player("carol")
	return e.newGameSeeded("alpha", quickRules(), false, map[int]string{0: "alice's own seed", 2: "carol's"}, alice, bob, carol).
		playOut(nil), alice
}

// TestFairTwoKeys: the replay document the web serves (and its fair.js
// reads) seats a person with two keys by the key she sat down with, her
// person beside it; its dice, seating and opener verify (engine/fair, the
// scheme fair.js follows) from that fingerprint and the seeds given by
// person; the game page names her seed's giver.
func TestFairTwoKeys(t *testing.T) {
	e := newEnv(t, nil, nil)
	id, alice := twoKeyGame(t, e)
	resp, body := e.get("/games/" + id + ".json")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/games/%s.json: %d", id, resp.StatusCode)
	}
	var r store.Replay
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	fps := make([]string, len(r.Players))
	seat := -1
	for i, p := range r.Players {
		fps[i] = p.Fingerprint
		if p.Person == alice.ID {
			seat = i
		}
	}
	if seat < 0 || r.Players[seat].Fingerprint != alice.Key || r.Players[seat].Name != "alice" {
		t.Fatalf("alice's seat in the document: %+v", r.Players)
	}
	if r.Fair == nil || len(r.Fair.PlayerSeeds) != 2 {
		t.Fatalf("the proof: %+v", r.Fair)
	}
	given := false
	for _, ps := range r.Fair.PlayerSeeds {
		given = given || (ps.Seat == seat && ps.Seed == "alice's own seed")
	}
	if !given {
		t.Errorf("alice's seed is not at her seat %d: %+v", seat, r.Fair.PlayerSeeds)
	}
	rolls, err := fair.Verify(*r.Fair, r.Rules, fps, r.Events)
	if err != nil || rolls == 0 {
		t.Errorf("verify from the document's fingerprints: %d rolls, %v", rolls, err)
	}
	_, page := e.get("/games/" + id)
	if !strings.Contains(page, htmlEscape(`alice: "alice's own seed"`)) {
		t.Errorf("the game page does not name alice's seed")
	}
}
