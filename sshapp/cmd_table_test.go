package sshapp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/store"
)

// TestTeamTables walks a private table through its life over SSH: created
// with options, invisible and unjoinable to strangers, an invite used once,
// a game played, its history, replay and stats seen by members only, a
// member kicked, the host's rights refused to others, closed by an admin;
// then a ban.
func TestTeamTables(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay, "root")
	for _, n := range []string{"alice", "bob", "carol"} {
		e.key(t, n)
	}
	e.steps(t, []step{
		{name: "no name", who: "alice", cmd: "table", code: 2, stderr: []string{"usage:"}},
		{name: "unknown subcommand", who: "alice", cmd: "table bogus x", code: 2, stderr: []string{`no table command "bogus"`, "table create NAME"}},
		{name: "create without name", who: "alice", cmd: "table create --private", code: 2, stderr: []string{"one NAME", "--lives N"}},
		{name: "two names", who: "alice", cmd: "table create a b", code: 2, stderr: []string{"one NAME"}},
		{name: "not a number", who: "alice", cmd: "table create x --lives many", code: 2, stderr: []string{"invalid value", "--lives"}},
		{name: "unknown flag", who: "alice", cmd: "table create x --colour red", code: 2, stderr: []string{"mia: unknown flag --colour"}},
		{name: "bad bot level", who: "alice", cmd: "table create x --bot-level genius", code: 2, stderr: []string{"bot-level"}},
		{name: "pass and no-pass", who: "alice", cmd: "table create x --pass --no-pass", code: 2, stderr: []string{"contradict"}},
		{name: "impossible lives", who: "alice", cmd: "table create x --lives 0", code: 1, stderr: []string{"option lives: 0 is not between 1 and 9"}},
		{name: "equal claims and passing", who: "alice", cmd: "table create x --equal-claims --pass", code: 1, stderr: []string{"option equal-claims:"}},
		{name: "bad ranking", who: "alice", cmd: "table create x --ranking upside-down", code: 1, stderr: []string{"option ranking:"}},
		{name: "bad penalty", who: "alice", cmd: "table create x --mia-penalty 3", code: 1, stderr: []string{"option mia-penalty:"}},
		{name: "bad seats", who: "alice", cmd: "table create x --seats 13", code: 1, stderr: []string{"2 to 12 seats"}},
		{name: "too many bots", who: "alice", cmd: "table create x --seats 3 --bots 4", code: 1, stderr: []string{"0 to 3 bots"}},
		{name: "bad name", who: "alice", cmd: "table create no/slash", code: 1, stderr: []string{"table name"}},
		{name: "create", who: "alice", code: 0,
			cmd:    "table create club --private --lives 1 --seats 3 --bots 1 --bot-level easy --no-pass --mia-penalty 1 --end first-out --turn-seconds 30",
			stdout: []string{"Table club is open: private, 3 seats", "1 life, no pass, mia-penalty 1, first out, 30s a turn", "Seated: ada (an easy bot).", "not seated yet", "ssh -t -p", "play club", "table invite club"}},
		{name: "equal claims turn passing off", who: "alice", cmd: "table create eq --equal-claims --next-opener loser", code: 0, stdout: []string{"no pass, equal claims, loser opens"}},
		{name: "taken", who: "bob", cmd: "table create CLUB", code: 1, stderr: []string{"open already"}},
		{name: "host sees it", who: "alice", cmd: "tables", code: 0, stdout: []string{"club", "waiting, private"}},
		{name: "stranger does not", who: "carol", cmd: "tables", code: 0, stdout: []string{"eq"}, not: []string{"club"}},
		{name: "admin does", who: "root", cmd: "tables", code: 0, stdout: []string{"club"}},
		{name: "stranger cannot invite", who: "carol", cmd: "table invite club", code: 1, stderr: []string{"no such table: club"}},
		{name: "no invites to public tables", who: "alice", cmd: "table invite eq", code: 1, stderr: []string{"public"}},
		{name: "stranger guesses a code", who: "carol", cmd: "join club abcdefghij", code: 1, stderr: []string{"no private table club takes that invite code"}},
		{name: "same answer without a table", who: "carol", cmd: "join nosuch abcdefghij", code: 1, stderr: []string{"no private table nosuch takes that invite code"}},
		{name: "join usage", who: "carol", cmd: "join club", code: 2, stderr: []string{"join NAME CODE"}},
		{name: "stranger cannot kick", who: "carol", cmd: "table kick club alice", code: 1, stderr: []string{"no such table: club"}},
		{name: "stranger cannot close", who: "carol", cmd: "table close club", code: 1, stderr: []string{"no such table: club"}},
	})

	// An invite works once, for one key.
	r := e.as(t, "alice", "table invite club --json")
	var inv command.TableDoc
	if err := json.Unmarshal([]byte(r.stdout), &inv); r.code != 0 || err != nil {
		t.Fatalf("invite: exit %d, %v: %s %s", r.code, err, r.stdout, r.stderr)
	}
	if len(inv.Code) != command.InviteCodeLen || !strings.Contains(inv.Join, "join club "+inv.Code) ||
		time.Until(inv.Expires) < command.InviteTTL-time.Minute {
		t.Errorf("invite: %+v", inv)
	}
	r = e.as(t, "alice", "table invite club")
	code2 := strings.Fields(strings.SplitN(r.stdout, "\n", 2)[0])[4]
	e.steps(t, []step{
		{name: "text invite", who: "alice", cmd: "table invite club", code: 0, stdout: []string{"Invite code for club:", "works once", "join club"}},
		{name: "bob joins", who: "bob", cmd: "join club " + strings.ToUpper(inv.Code), code: 0, stdout: []string{"member of club now", "play club"}},
		{name: "bob again", who: "bob", cmd: "join club " + code2, code: 1, stderr: []string{"member of club already", "not spent"}},
		{name: "carol reuses bob's code", who: "carol", cmd: "join club " + inv.Code, code: 1, stderr: []string{"takes that invite code"}},
		{name: "bob sees the table", who: "bob", cmd: "tables", code: 0, stdout: []string{"club"}},
		{name: "bob cannot change the rules", who: "bob", cmd: "table rules club --lives 3", code: 1, stderr: []string{"only the table's host"}},
		{name: "bob cannot kick", who: "bob", cmd: "table kick club alice", code: 1, stderr: []string{"only the table's host"}},
		{name: "bob cannot close", who: "bob", cmd: "table close club", code: 1, stderr: []string{"only the table's host"}},
		{name: "bob cannot invite", who: "bob", cmd: "table invite club", code: 1, stderr: []string{"only the table's host"}},
		{name: "rules usage", who: "alice", cmd: "table rules --lives 2", code: 2, stderr: []string{"NAME first"}},
		{name: "rules: impossible", who: "alice", cmd: "table rules club --turn-seconds 1", code: 1, stderr: []string{"option turn-seconds"}},
		{name: "rules: too few seats", who: "alice", cmd: "table rules club --seats 1", code: 1, stderr: []string{"2 to 12 seats"}},
		{name: "rules", who: "alice", cmd: "table rules club --lives 2 --pass --end last-standing", code: 0, stdout: []string{"Rules of club from the next game: 3 seats", "2 lives", "mia-penalty 1", "30s a turn"}, not: []string{"no pass", "first out"}},
		{name: "rules help shows the current values", who: "alice", cmd: "table rules club --help", code: 2, stderr: []string{"--lives N", "(now 2)"}},
		{name: "the next game's dice", who: "bob", cmd: "seed club", code: 0, stdout: []string{"Dice of the next game at club", "commitment  ", "none given yet", "none given (allowed)", "seed club TEXT"}},
		{name: "bob gives a seed", who: "bob", cmd: "seed club lucky 7", code: 0, stdout: []string{`bob "lucky 7" (not seated yet)`, `yours        "lucky 7": ` + words.SeedSays(true, false)}},
		{name: "bob's seed in JSON", who: "bob", cmd: "seed club --json", code: 0, stdout: []string{`"name": "bob"`, `"person": "` + e.ids["bob"] + `"`, `"seated": false`}},
		{name: "a seed of 3 KB is refused with the limit, not cut", who: "bob", cmd: "seed club " + strings.Repeat("x", 3*1024), code: 1,
			stderr: []string{"a seed is 1 to 64 characters of printable text: yours is longer"}},
		{name: "a seed of 100 KB: the command line is refused before it is read", who: "bob", cmd: "seed club " + strings.Repeat("x", 100*1024), code: 2,
			stderr: []string{"the command line is 102410 bytes long; the most this server takes is 4096"}},
		{name: "bob's seed stands", who: "bob", cmd: "seed club", code: 0, stdout: []string{`bob "lucky 7"`}},
		{name: "alice gives one and takes it back", who: "alice", cmd: "seed club mine", code: 0, stdout: []string{`alice "mine"`}},
		{name: "alice takes it back", who: "alice", cmd: "seed club --none", code: 0, stdout: []string{`bob "lucky 7"`, "none given (allowed)"}, not: []string{`"mine"`}},
		{name: "a stranger's seed", who: "carol", cmd: "seed club x", code: 1, stderr: []string{"no such table: club"}},
		{name: "seed usage", who: "bob", cmd: "seed", code: 2, stderr: []string{"seed TABLE"}},
		{name: "seed and --none", who: "bob", cmd: "seed club x --none", code: 2, stderr: []string{"seed TABLE"}},
	})

	// alice and bob play with the bot; mid-game the game is refused by
	// replay, and the rules cannot change.
	tbl, err := e.lobby.Table("club")
	if err != nil {
		t.Fatal(err)
	}
	alice, bob := e.player(t, "alice"), e.player(t, "bob")
	ctx := context.Background()
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatalf("%s sits: %v", nameOf(p), err)
		}
	}
	id := playGame(t, tbl, []lobby.Player{alice, bob}, func(id string) {
		e.steps(t, []step{
			{name: "replay in progress", who: "alice", cmd: "replay " + id, code: 1, stderr: []string{"still being played", "hidden"}},
			{name: "json too", who: "root", cmd: "replay " + id + " --json", code: 1, stderr: []string{"still being played"}},
			{name: "rules mid-game", who: "alice", cmd: "table rules club --lives 3", code: 1, stderr: []string{"game is running"}},
			{name: "verify mid-game", who: "alice", cmd: "verify " + id, code: 1, stderr: []string{"still being played", "verify it then"}},
			{name: "seed mid-game", who: "bob", cmd: "seed club again", code: 1, stderr: []string{"a game is running", "before a game starts"}},
			{name: "the running game's dice", who: "alice", cmd: "seed club", code: 0, stdout: []string{"the game running now", `bob "lucky 7"`}},
		})
	})
	g := e.checkReplayJSON(t, "bob", id)
	if g.Table != "club" || len(g.Players) != 3 || g.Rules.Lives != 2 {
		t.Errorf("replay: %+v", g)
	}
	e.steps(t, []step{
		{name: "member's history", who: "bob", cmd: "history", code: 0, stdout: []string{"GAME", "club", id, "alice", "bob", "ada (easy bot)"}},
		{name: "member's history of the table", who: "bob", cmd: "history --table club --player alice", code: 0, stdout: []string{"club"}},
		{name: "stranger's history", who: "carol", cmd: "history", code: 0, stdout: []string{"No finished games"}},
		{name: "stranger's history by player", who: "carol", cmd: "history --player bob", code: 0, stdout: []string{"No finished games"}},
		{name: "stranger names the table", who: "carol", cmd: "history --table club", code: 1, stderr: []string{"no such table: club"}},
		{name: "stranger's replay", who: "carol", cmd: "replay " + id, code: 1, stderr: []string{"no game " + id}},
		{name: "stranger's replay json", who: "carol", cmd: "replay " + id + " --json", code: 1, stderr: []string{"no game " + id}},
		{name: "stranger's stats at the table", who: "carol", cmd: "stats bob --table club", code: 1, stderr: []string{"no such table: club"}},
		{name: "stranger's leaderboard of the table", who: "carol", cmd: "leaderboard --table club", code: 1, stderr: []string{"no such table: club"}},
		{name: "member's stats at the table", who: "bob", cmd: "stats --table club", code: 0, stdout: []string{"at club", "1 played"}},
		{name: "member's leaderboard of the table", who: "bob", cmd: "leaderboard --table club", code: 0, stdout: []string{"Leaderboard at club", "alice", "bob", "ada (easy bot)"}},
		{name: "admin's replay", who: "root", cmd: "replay " + id, code: 0, stdout: []string{"Game " + id + " at club", "Round 1", "wins the game", "Lives after each round"}},
		{name: "no such game", who: "bob", cmd: "replay 999", code: 1, stderr: []string{"no game 999"}},
		{name: "not a game id", who: "bob", cmd: "replay x", code: 1, stderr: []string{"no game x"}},
		{name: "replay usage", who: "bob", cmd: "replay", code: 2, stderr: []string{"replay GAME"}},
		{name: "the replay tells how to check", who: "bob", cmd: "replay " + id, code: 0, stdout: []string{"Dice of game " + id, "server seed  ", `bob "lucky 7"`, "verify " + id, "engine/fair/README.md"}},
		{name: "verify", who: "bob", cmd: "verify " + id, code: 0, stdout: []string{"Dice of game " + id, "commitment   ", `bob "lucky 7"`, "rolls match"}},
		{name: "stranger's verify", who: "carol", cmd: "verify " + id, code: 1, stderr: []string{"no game " + id}},
		{name: "verify usage", who: "bob", cmd: "verify", code: 2, stderr: []string{"verify GAME"}},
		{name: "the next game's new dice", who: "bob", cmd: "seed club", code: 0, stdout: []string{"Dice of the next game at club", "none given yet"}},
	})

	// Kicked, bob loses the table and its games; the host stays.
	e.steps(t, []step{
		{name: "kick nobody", who: "alice", cmd: "table kick club nobody", code: 1, stderr: []string{"no player is called nobody"}},
		{name: "kick a stranger", who: "alice", cmd: "table kick club carol", code: 1, stderr: []string{"neither a member"}},
		{name: "kick the bot", who: "alice", cmd: "table kick club ada", code: 0, stdout: []string{"Removed ada from club"}},
		{name: "kick bob", who: "alice", cmd: "table kick club bob", code: 0, stdout: []string{"Removed bob from club"}},
		{name: "bob's tables", who: "bob", cmd: "tables", code: 0, not: []string{"club"}},
		{name: "bob's history", who: "bob", cmd: "history", code: 0, stdout: []string{"No finished games"}},
		{name: "bob's replay", who: "bob", cmd: "replay " + id, code: 1, stderr: []string{"no game"}},
		{name: "bob cannot sit", who: "bob", cmd: "table rules club", code: 1, stderr: []string{"no such table: club"}},
		{name: "alice still sees", who: "alice", cmd: "history --limit 1", code: 0, stdout: []string{id}},
		{name: "host's close is refused to the kicked", who: "bob", cmd: "table close club", code: 1, stderr: []string{"no such table"}},
		{name: "admin closes any table", who: "root", cmd: "table close club", code: 0, stdout: []string{"Table club is closed"}},
		{name: "gone", who: "alice", cmd: "tables", code: 0, not: []string{"club"}},
		{name: "closed table's games stay", who: "alice", cmd: "history --table club", code: 0, stdout: []string{id}},
	})
	if info := tbl.Info(); !slices.ContainsFunc(info.Players, func(s lobby.SeatInfo) bool { return s.Name == "alice" }) {
		t.Logf("seats after the game: %+v", info.Players)
	}
}

// TestBans: only admins ban; a ban names a person (every key of theirs,
// one added later too) or a key; a banned key is refused at the start of
// every session, its open sessions are closed, and unban lets it back.
func TestBans(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay, "root", "boss")
	e.key(t, "bob")
	e.key(t, "carol")
	// bob holds a session open (a screen) when the ban comes.
	sc := openScreen(t, e.connect(t, e.key(t, "bob")), 80, 24)
	sc.waitFor(t, "bob", 5*time.Second)
	// carol adds a second key, from another machine.
	code := e.as(t, "carol", "keys add --json")
	var kc command.KeyCodeJSON
	if err := json.Unmarshal([]byte(code.stdout), &kc); err != nil || code.code != 0 {
		t.Fatalf("keys add: %+v %v", code, err)
	}
	laptop := newKey(t)
	if r := e.run(t, laptop, "keys join "+kc.Code); r.code != 0 {
		t.Fatalf("keys join: %+v", r)
	}
	unknown := Fingerprint(newKey(t).PublicKey()) // a key no one used
	// A built-in bot that has played, and so is found by its name.
	tbl, err := e.lobby.CreateTable(context.Background(), e.player(t, "root"), lobby.TableConfig{Name: "bots", Rules: fastRules(1), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	var cleo lobby.Player
	for range 2 {
		b, err := tbl.AddBot(context.Background(), e.player(t, "root"), ai.Easy)
		if err != nil {
			t.Fatal(err)
		}
		cleo = b
	}
	eventually(t, 30*time.Second, "a game of bots finished", func() bool {
		gs, err := e.st.Games(context.Background(), store.Query{Table: "bots"})
		return err == nil && len(gs) > 0
	})
	if err := tbl.Close(context.Background(), e.player(t, "root")); err != nil {
		t.Fatal(err)
	}
	cleoName := e.lobby.Name(cleo.ID)
	e.steps(t, []step{
		{name: "not an admin", who: "carol", cmd: "ban bob", code: 1, stderr: []string{"only server admins"}},
		{name: "not an admin, unban", who: "carol", cmd: "unban bob", code: 1, stderr: []string{"only server admins"}},
		{name: "no bans yet", who: "root", cmd: "ban", code: 0, stdout: []string{"Nobody is banned"}},
		{name: "nobody", who: "root", cmd: "ban nobody", code: 1, stderr: []string{"no player is called nobody"}},
		{name: "not oneself", who: "root", cmd: "ban root", code: 1, stderr: []string{"cannot ban yourself"}},
		{name: "not oneself by key", who: "root", cmd: "ban " + e.fps["root"], code: 1, stderr: []string{"cannot ban yourself"}},
		{name: "not an admin", who: "root", cmd: "ban boss", code: 1, stderr: []string{"server admin"}},
		{name: "not an admin key", who: "root", cmd: "ban " + e.fps["boss"], code: 1, stderr: []string{"server admin"}},
		{name: "ban", who: "root", cmd: "ban bob", code: 0, stdout: []string{"Banned bob", e.ids["bob"], "every key of theirs", "1 open session(s) closed", "unban " + e.ids["bob"]}},
		{name: "refused", who: "bob", cmd: "whoami", code: 1, stderr: []string{"you are banned from this server"}},
		{name: "listed", who: "root", cmd: "ban --json", code: 0, stdout: []string{`"person": "` + e.ids["bob"], `"name": "bob"`}},
		{name: "not a fingerprint", who: "root", cmd: "ban SHA256:unknownkey", code: 1, stderr: []string{"SHA256:unknownkey is not a key's fingerprint", "ssh-keygen -lf"}},
		{name: "a built-in bot never seated", who: "root", cmd: "ban greta", code: 1, stderr: []string{"greta is the name of a built-in bot", "cannot be banned"}},
		{name: "a built-in bot that played", who: "root", cmd: "ban " + cleoName, code: 1, stderr: []string{cleoName + " (" + cleo.ID + ") is a built-in bot", "cannot be banned"}},
		{name: "ban by fingerprint", who: "root", cmd: "ban " + unknown, code: 0, stdout: []string{"Banned the key " + unknown + ": no one has used this key yet; it is refused from now on."}},
		{name: "the unknown key is refused", who: "root", cmd: "ban", code: 0, stdout: []string{"the key " + unknown}},
		{name: "one key of carol's", who: "root", cmd: "ban " + e.fps["carol"], code: 0, stdout: []string{"Banned the key", "carol's; their other keys are not banned"}},
		{name: "that key refused", who: "carol", cmd: "whoami", code: 1, stderr: []string{"this key is banned from this server"}},
		{name: "the list names both", who: "root", cmd: "ban", code: 0, stdout: []string{"every key of " + e.ids["bob"], "the key " + e.fps["carol"], "carol"}},
		{name: "unban a key of a banned person", who: "root", cmd: "unban " + e.fps["bob"], code: 1, stderr: []string{"the key is bob's, who is banned", "unban " + e.ids["bob"]}},
		{name: "unban", who: "root", cmd: "unban bob", code: 0, stdout: []string{"bob", "may connect again"}},
		{name: "unban twice", who: "root", cmd: "unban bob", code: 1, stderr: []string{"not banned"}},
		{name: "back", who: "bob", cmd: "whoami", code: 0, stdout: []string{"bob"}},
		{name: "unban carol's key", who: "root", cmd: "unban " + e.fps["carol"], code: 0, stdout: []string{"may connect again"}},
		{name: "carol back", who: "carol", cmd: "whoami", code: 0, stdout: []string{"carol"}},
		{name: "ban carol", who: "root", cmd: "ban carol", code: 0, stdout: []string{"Banned carol"}},
	})
	if r := e.run(t, laptop, "whoami"); r.code != 1 || !strings.Contains(r.stderr, "you are banned") {
		t.Errorf("carol's other key after her ban: %+v", r)
	}
	if code := sc.wait(t, 5*time.Second); code == -1 {
		t.Error("bob's screen stayed open after the ban")
	}
	if !strings.Contains(sc.out.String(), "banned") {
		t.Errorf("bob's screen did not say why it closed: %q", sc.out.String())
	}
}

// TestGatewayBansAndNames: the ban and unban commands take a Mäxchen bot
// (the person maexchen:NAME, its name by the one name rule) and UDP
// addresses, a ban of its own kind; the maexchen command lists and frees
// the names taken for their addresses; all for admins only. A person may
// not take a name a bot holds or is registered under, nor one that looks
// like it.
func TestGatewayBansAndNames(t *testing.T) {
	t.Parallel()
	e := startRecServer(t, lobby.NoDelay, "root")
	e.key(t, "carol")
	e.key(t, "dave")
	ctx := context.Background()
	heard := time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC)
	free := func(store.UDPName) bool { return false }
	if _, err := e.st.ClaimUDPName(ctx, store.UDPName{Name: "u1", Addr: "192.0.2.7", Heard: heard, Registered: true}, free); err != nil {
		t.Fatal(err)
	}
	if err := e.st.KeepUDPNames(ctx, store.UDPName{Name: "u1", Addr: "192.0.2.7", Heard: heard, Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.ClaimUDPName(ctx, store.UDPName{Name: "busy", Addr: "192.0.2.8", Heard: heard, Registered: true}, free); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("y", lobby.MaxUDPNameLen+1)
	unknown := Fingerprint(newKey(t).PublicKey())
	e.steps(t, []step{
		{name: "not an admin", who: "carol", cmd: "ban maexchen:u1", code: 1, stderr: []string{"only server admins"}},
		{name: "not an admin, names", who: "carol", cmd: "maexchen names", code: 1, stderr: []string{"only server admins"}},
		{name: "not an admin, free", who: "carol", cmd: "maexchen free u1", code: 1, stderr: []string{"only server admins"}},
		{name: "a held name", who: "dave", cmd: "name u1", code: 1, stderr: []string{"Mäxchen bot"}},
		{name: "a name like a held one", who: "dave", cmd: "name U1", code: 1, stderr: []string{"Mäxchen bot"}},
		{name: "a name registered", who: "dave", cmd: "name BUSY", code: 1, stderr: []string{"Mäxchen bot"}},
		{name: "dave still dave", who: "dave", cmd: "whoami", code: 0, stdout: []string{"dave"}},
		{name: "a bot", who: "root", cmd: "ban maexchen:u1", code: 0, stdout: []string{"Banned the Mäxchen bot u1 (maexchen:u1)", "REJECTED;BANNED", "names that look like it", "unban maexchen:u1"}},
		{name: "a bot by its name", who: "root", cmd: "ban maexchen:busy --json", code: 0, stdout: []string{`"person": "maexchen:busy"`, `"name": "busy"`, `"banned": true`}},
		{name: "an address", who: "root", cmd: "ban udp:203.0.113.7", code: 0, stdout: []string{"Banned the UDP address 203.0.113.7", "unban udp:203.0.113.7"}},
		{name: "a network", who: "root", cmd: "ban udp:10.1.2.3/8 --json", code: 0, stdout: []string{`"udp": "10.0.0.0/8"`, `"banned": true`}, not: []string{`"person"`, `"key"`}},
		{name: "IPv6", who: "root", cmd: "ban udp:2001:db8::/64", code: 0, stdout: []string{"Banned the UDP addresses 2001:db8::/64"}},
		{name: "no name", who: "root", cmd: "ban maexchen:", code: 1, stderr: []string{"a name is 1 to 20 of the characters"}},
		{name: "a name too long for the gateway", who: "root", cmd: "ban maexchen:" + long, code: 1, stderr: []string{"21 characters long: a name has at most 20"}},
		{name: "a name no bot may take", who: "root", cmd: "ban maexchen:Ada2", code: 1, stderr: []string{"Ada2 is reserved"}},
		{name: "not an address", who: "root", cmd: "ban udp:example.org", code: 1, stderr: []string{"not an address such as udp:203.0.113.7"}},
		{name: "a built-in bot", who: "root", cmd: "ban bot:hard:ada", code: 1, stderr: []string{"cannot be banned"}},
		{name: "the gateway", who: "root", cmd: "ban gateway:maexchen", code: 1, stderr: []string{"cannot be banned"}},
		{name: "listed", who: "root", cmd: "ban", code: 0, stdout: []string{"the Mäxchen bot maexchen:u1", "udp:203.0.113.7", "udp:10.0.0.0/8", "udp:2001:db8::/64"}},
		{name: "listed, JSON", who: "root", cmd: "ban --json", code: 0, stdout: []string{`"person": "maexchen:u1"`, `"udp": "203.0.113.7"`, `"udp": "2001:db8::/64"`}},
		{name: "unban a network", who: "root", cmd: "unban udp:10.0.0.0/8", code: 0, stdout: []string{"The UDP addresses 10.0.0.0/8 may register again"}},
		{name: "unban twice", who: "root", cmd: "unban udp:10.0.0.0/8", code: 1, stderr: []string{"the UDP addresses 10.0.0.0/8 is not banned"}},
		{name: "unban a bot", who: "root", cmd: "unban maexchen:u1 --json", code: 0, stdout: []string{`"person": "maexchen:u1"`}},
		{name: "unban a bot, words", who: "root", cmd: "unban maexchen:busy", code: 0, stdout: []string{"The Mäxchen bot busy may register again"}},
		{name: "names", who: "root", cmd: "maexchen names", code: 0, stdout: []string{"NAME", "u1", "192.0.2.7", "2026-03-04 05:06", "LAST HEARD (UTC)", "held", "busy", "registered"}},
		{name: "names, JSON", who: "root", cmd: "maexchen names --json", code: 0, stdout: []string{`"name": "u1"`, `"person": "maexchen:u1"`, `"addr": "192.0.2.7"`, `"last_heard": "2026-03-04T05:06:00Z"`, `"held": true`, `"registered": true`}},
		{name: "free while registered", who: "root", cmd: "maexchen free busy", code: 1, stderr: []string{"registered now, from 192.0.2.8", "ban maexchen:busy"}},
		{name: "free by a name alike", who: "root", cmd: "maexchen free maexchen:U1", code: 0, stdout: []string{"Freed the name u1 (held for 192.0.2.7)"}},
		{name: "free again", who: "root", cmd: "maexchen free u1", code: 1, stderr: []string{"no address holds the name u1"}},
		{name: "a name freed", who: "dave", cmd: "name U1", code: 0, stdout: []string{"U1"}},
		{name: "usage", who: "root", cmd: "maexchen", code: 2, stderr: []string{"maexchen names | free NAME"}},
		{name: "a key's ban still", who: "root", cmd: "ban " + unknown, code: 0, stdout: []string{"Banned the key " + unknown}},
	})
	if _, err := e.st.FreeUDPName(ctx, "busy"); !errors.Is(err, store.ErrRegistered) {
		t.Fatalf("busy: %v", err)
	}
	if err := e.st.KeepUDPNames(ctx, store.UDPName{Name: "busy", Addr: "192.0.2.8"}); err != nil {
		t.Fatal(err)
	}
	e.steps(t, []step{
		{name: "none taken", who: "root", cmd: "maexchen names", code: 0, stdout: []string{"No Mäxchen bot's name is taken"}},
	})
}
