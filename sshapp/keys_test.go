package sshapp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/command"
)

// jsonOf runs cmd with key and decodes its --json document into v.
func (e *recEnv) jsonOf(t *testing.T, key gossh.Signer, cmd string, v any) result {
	t.Helper()
	r := e.run(t, key, cmd)
	if r.code == 0 {
		if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", cmd, err, r.stdout)
		}
	}
	return r
}

// finishedGame seats ps at a new table of two and plays a game to its end.
func (e *recEnv) finishedGame(t *testing.T, table string, ps ...lobby.Player) string {
	t.Helper()
	ctx := context.Background()
	rules := engine.DefaultOptions()
	rules.Lives = 1
	tbl, err := e.lobby.CreateTable(ctx, ps[0], lobby.TableConfig{Name: table, Rules: rules, Seats: len(ps)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil { // the last starts the game
			t.Fatal(err)
		}
	}
	return playGame(t, tbl, ps, nil)
}

// TestKeys: a second key joined with keys join is the same person, with
// the same name, games and rating in whoami; keys lists the keys with the
// one in use marked; a key whose person has games is refused, one whose
// person has none merges; a removed key is a stranger again and its open
// sessions end; the last key is never removed.
func TestKeys(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	alice, bob := e.player(t, "alice"), e.player(t, "bob")
	e.finishedGame(t, "duel", alice, bob)

	var before command.WhoamiJSON
	e.jsonOf(t, e.key(t, "alice"), "whoami --json", &before)
	if before.Games != 1 || before.RatedGames != 1 || before.Rating == 1500 || before.Keys != 1 {
		t.Fatalf("alice before: %+v", before)
	}
	var kc command.KeyCodeJSON
	if r := e.jsonOf(t, e.key(t, "alice"), "keys add --json", &kc); r.code != 0 || len(kc.Code) != command.InviteCodeLen ||
		!strings.HasSuffix(kc.Join, " keys join "+kc.Code) || !strings.HasPrefix(kc.Join, "ssh -p ") ||
		time.Until(kc.Expires) > command.KeyCodeTTL+time.Second {
		t.Fatalf("keys add: %+v %+v", r, kc)
	}

	laptop := newKey(t)
	laptopFP := Fingerprint(laptop.PublicKey())
	var stranger command.WhoamiJSON
	e.jsonOf(t, laptop, "whoami --json", &stranger)
	if stranger.Person != "" || stranger.Name != "" || stranger.Fingerprint != laptopFP {
		t.Fatalf("a new key: %+v", stranger)
	}
	// A screen the new key has open, at the name prompt, ends when the key
	// becomes alice's.
	prompt := openScreen(t, e.connect(t, laptop), 80, 24)
	prompt.waitFor(t, "Choose a display name", 5*time.Second)

	r := e.run(t, laptop, "keys join "+kc.Code)
	if r.code != 0 || !strings.Contains(r.stdout, "This key is alice's now ("+before.Person+")") {
		t.Fatalf("keys join: %+v", r)
	}
	if code := prompt.wait(t, 5*time.Second); code == -1 || !strings.Contains(prompt.out.String(), "this key is alice's now") {
		t.Errorf("the new key's open screen: %q", prompt.out.String())
	}
	var after command.WhoamiJSON
	e.jsonOf(t, laptop, "whoami --json", &after)
	if after.Person != before.Person || after.Name != "alice" || after.Games != before.Games || after.Wins != before.Wins ||
		after.Rating != before.Rating || after.RatedGames != before.RatedGames || after.Keys != 2 || after.Fingerprint != laptopFP {
		t.Errorf("whoami from the joined key: %+v, from the first: %+v", after, before)
	}
	var ks command.KeysJSON
	e.jsonOf(t, laptop, "keys --json", &ks)
	if len(ks.Keys) != 2 || ks.Keys[0].Fingerprint != e.fps["alice"] || ks.Keys[0].InUse || !ks.Keys[1].InUse || ks.Keys[1].Fingerprint != laptopFP {
		t.Errorf("keys --json: %+v", ks)
	}

	// erin has a name and a private table, no games: her key merges.
	erin := e.player(t, "erin")
	if _, err := e.lobby.CreateTable(context.Background(), erin, lobby.TableConfig{Name: "erins", Rules: engine.DefaultOptions(), Private: true}); err != nil {
		t.Fatal(err)
	}
	code := func() string {
		t.Helper()
		var kc command.KeyCodeJSON
		if r := e.jsonOf(t, laptop, "keys add --json", &kc); r.code != 0 {
			t.Fatalf("keys add: %+v", r)
		}
		return kc.Code
	}
	bobsCode := code()
	e.steps(t, []step{
		{name: "a used code", who: "carol", cmd: "keys join " + kc.Code, code: 1, stderr: []string{"not valid"}},
		{name: "bob has played", who: "bob", cmd: "keys join " + bobsCode, code: 1, stderr: []string{"this key is bob's, who has 1 game of their own"}},
		{name: "alice's own key", who: "alice", cmd: "keys join " + bobsCode, code: 1, stderr: []string{"yours already"}},
		{name: "erin merges", who: "erin", cmd: "keys join " + bobsCode, code: 0, stdout: []string{"This key is alice's now", "It was erin's, who had no games", "the name erin is free"}},
		{name: "erin's table is alice's", who: "alice", cmd: "tables", code: 0, stdout: []string{"erins", "alice", "waiting, private"}},
		{name: "nobody is called erin", who: "bob", cmd: "stats erin", code: 1, stderr: []string{"no player is called erin"}},
		{name: "keys, marked", who: "alice", cmd: "keys", code: 0, stdout: []string{"The keys of alice", "* " + e.fps["alice"], "  " + laptopFP, e.fps["erin"]}},
		{name: "keys usage", who: "alice", cmd: "keys remove", code: 2, stderr: []string{"usage:", "keys remove FINGERPRINT"}},
		{name: "keys remove a name", who: "alice", cmd: "keys remove bob", code: 2, stderr: []string{"usage:"}},
		{name: "keys of nothing", who: "alice", cmd: "keys nosuch", code: 2, stderr: []string{`no keys command "nosuch"`}},
		{name: "a flag", who: "alice", cmd: "keys --bogus", code: 2, stderr: []string{"unknown flag --bogus"}},
		{name: "remove another's key", who: "alice", cmd: "keys remove " + e.fps["bob"], code: 1, stderr: []string{"not one of your keys"}},
		{name: "remove erin's key", who: "alice", cmd: "keys remove " + e.fps["erin"], code: 0, stdout: []string{"it is nobody's now"}},
		{name: "erin's key is a stranger", who: "erin", cmd: "whoami", code: 0, stdout: []string{"(none yet"}},
	})
	for _, cmd := range []string{"keys", "keys add", "keys remove " + laptopFP} {
		if r := e.run(t, newKey(t), cmd); r.code != 1 || !strings.Contains(r.stderr, "nobody's yet") || !strings.Contains(r.stderr, "keys join CODE") {
			t.Errorf("a stranger's %s: %+v", cmd, r)
		}
	}
	// The laptop holds a screen open when it is removed: alice's, back at
	// the table where she is seated for the next game.
	sc := openScreen(t, e.connect(t, laptop), 80, 24)
	sc.waitFor(t, "(you)", 5*time.Second)
	e.steps(t, []step{
		{name: "remove the laptop", who: "alice", cmd: "keys remove " + laptopFP, code: 0, stdout: []string{"1 open session(s) closed"}},
		{name: "never the last key", who: "alice", cmd: "keys remove " + e.fps["alice"], code: 1, stderr: []string{"your only key"}},
	})
	if code := sc.wait(t, 5*time.Second); code == -1 || !strings.Contains(sc.out.String(), "this key was removed from alice's keys") {
		t.Errorf("the removed key's screen: %q", sc.out.String())
	}
	var gone command.WhoamiJSON
	e.jsonOf(t, laptop, "whoami --json", &gone)
	if gone.Person != "" || gone.Name != "" || gone.Games != 0 {
		t.Errorf("the removed key: %+v", gone)
	}
}

// TestRenameReachesEveryScreen: a person renamed while seated in a game
// is shown under the new name on every screen at the table (the other
// player's, a spectator's and their own), in the table list; the game,
// finished, is theirs in history, replay and stats under the new name,
// with the name played under beside it.
func TestRenameReachesEveryScreen(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay)
	alice, bob := e.player(t, "alice"), e.player(t, "bob")
	e.key(t, "carol")
	ctx := context.Background()
	tbl, err := e.lobby.CreateTable(ctx, alice, lobby.TableConfig{Name: "named", Rules: engine.DefaultOptions(), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// Seated in a running game, alice and bob land at the table; carol
	// opens it from the lobby.
	screens := map[string]*screen{}
	for _, n := range []string{"alice", "bob", "carol"} {
		screens[n] = openScreen(t, e.connect(t, e.key(t, n)), 100, 30)
	}
	screens["alice"].waitFor(t, "named ·", 5*time.Second)
	screens["bob"].waitFor(t, "named ·", 5*time.Second)
	screens["carol"].waitFor(t, "you are carol", 5*time.Second)
	screens["carol"].send(t, "\r")
	screens["carol"].waitFor(t, "named ·", 5*time.Second)
	if err := tbl.Say(ctx, alice, "hello from alice"); err != nil {
		t.Fatal(err)
	}

	if r := e.as(t, "alice", "name zelda"); r.code != 0 {
		t.Fatalf("name: %+v", r)
	}
	// The lobby was told before the command answered.
	if info := tbl.Info(); !strings.Contains(info.Host, "zelda") {
		t.Errorf("the table list still says %q", info.Host)
	}
	for n, sc := range screens {
		sc.waitFor(t, "zelda", 5*time.Second)
		_ = n
	}
	playGame(t, tbl, []lobby.Player{alice, bob}, nil)
	e.steps(t, []step{
		{name: "history", who: "bob", cmd: "history", code: 0, stdout: []string{"zelda (played as alice)"}},
		{name: "replay", who: "carol", cmd: "replay 1", code: 0, stdout: []string{"Players: ", "zelda (played as alice)", "zelda rolled"}},
		{name: "replay json", who: "carol", cmd: "replay 1 --json", code: 0, stdout: []string{`"name": "zelda"`, `"played_as": "alice"`, `"person": "` + alice.ID}},
		{name: "stats by the new name", who: "carol", cmd: "stats zelda", code: 0, stdout: []string{"zelda  " + alice.ID, "1 played"}},
		{name: "the old name is nobody's", who: "carol", cmd: "stats alice", code: 1, stderr: []string{"no player is called alice"}},
		{name: "leaderboard", who: "carol", cmd: "leaderboard", code: 0, stdout: []string{"zelda"}, not: []string{"alice"}},
		{name: "history by the new name", who: "carol", cmd: "history --player zelda", code: 0, stdout: []string{"zelda (played as alice)"}},
	})
}
