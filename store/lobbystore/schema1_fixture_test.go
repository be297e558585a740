package lobbystore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

// writeSchema1 makes TestWriteSchema1Fixture write the fixture of the
// migration from schema 1: ../testdata/schema1.db, a data file as the
// server of schema 1 leaves it, and ../testdata/schema1.json, what that
// server reads from it. Run:
//
//	go test ./store/lobbystore -run TestWriteSchema1Fixture -write-schema1
var writeSchema1 = flag.Bool("write-schema1", false, "write store/testdata/schema1.db and schema1.json with this version's code")

// Schema1Capture is what the schema-1 server reads from the fixture, in
// its own types, for the migration's test to compare against.
type Schema1Capture struct {
	Keys    map[string]string         `json:"keys"`    // who -> key fingerprint
	Players []store.Player            `json:"players"` // every profile, by key
	Games   []json.RawMessage         `json:"games"`   // every game as replay --json writes it (in progress: sealed)
	Seeds   map[string]string         `json:"seeds"`   // game id -> the secret seed of a game in progress
	Tallies map[string]store.Tally    `json:"tallies"` // identity -> tally
	Ratings map[string][]store.Rating `json:"ratings"` // table ("" overall) -> leaderboard
	ByKey   map[string][]string       `json:"by_key"`  // identity -> finished games (newest first)
	Bans    []store.Ban               `json:"bans"`
	Tables  map[string][]store.Table  `json:"tables"` // name -> TableRecords
	Invite  struct {
		Table string `json:"table"`
		Code  string `json:"code"`
	} `json:"invite"` // an invite not spent yet
}

// fakeKey is a fingerprint in the shape of a real one.
func fakeKey(who string) string {
	h := sha256.Sum256([]byte("mia fixture key " + who))
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(h[:])
}

// TestWriteSchema1Fixture writes the fixture (see writeSchema1) through
// the real lobby on the real store: people with names, a person renamed
// after playing, a key marked a bot by the bot command playing a bot's
// seat, built-in bots, a table of the Mäxchen gateway and its UDP bots,
// public and private tables (one closed and its name used again) with
// members and seats, finished games, two games in progress with their
// seeds (one with a player's seed), tallies, ratings, bans, an invite,
// and two names that look alike (alice, aIice).
func TestWriteSchema1Fixture(t *testing.T) {
	if !*writeSchema1 {
		t.Skip("writes the fixture only with -write-schema1")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "mia.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := lobbytest.NewClock()
	l, err := lobby.New(ctx, lobby.Config{Store: New(st), Clock: clock, BotDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(21, 2026))
	keys := map[string]string{}
	person := func(name string, bot bool) lobby.Player {
		t.Helper()
		fp := fakeKey(name)
		keys[name] = fp
		if _, err := st.SetName(ctx, fp, name, bot); err != nil {
			t.Fatal(err)
		}
		return lobby.Player{Fingerprint: fp, Name: name, Bot: bot}
	}
	alice, red, carol := person("alice", false), person("red", false), person("carol", false)
	dave := person("dave", true) // as the bot command left it
	person("erin", false) // a profile, no games
	mallory := person("mallory", false)
	person("aIice", false) // a capital i: looks like alice, which schema 1 allowed
	keys["stranger"] = fakeKey("stranger") // banned, never named

	rules := func(lives int) engine.Options {
		o := engine.DefaultOptions()
		o.Lives = lives
		return o
	}
	create := func(host lobby.Player, name string, seats, lives int, private bool) *lobby.Table {
		t.Helper()
		tb, err := l.CreateTable(ctx, host, lobby.TableConfig{Name: name, Rules: rules(lives), Seats: seats, Private: private})
		if err != nil {
			t.Fatal(err)
		}
		clock.Skip(time.Minute)
		return tb
	}
	watch := func(tb *lobby.Table, p lobby.Player) *lobby.Subscription {
		t.Helper()
		s, err := tb.Watch(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// play moves at tb: people (by fingerprint) by lobbytest.Move, built-in
	// bots by the clock, until the game is over or moves people's moves
	// were made (moves < 0: no limit).
	play := func(tb *lobby.Table, people []lobby.Player, moves int) {
		t.Helper()
		spec := watch(tb, people[0])
		defer spec.Close()
		subs := map[string]*lobby.Subscription{}
		byFP := map[string]lobby.Player{}
		for _, p := range people {
			subs[p.Fingerprint] = watch(tb, p)
			byFP[p.Fingerprint] = p
			defer subs[p.Fingerprint].Close()
		}
		last := map[*lobby.Subscription]lobby.Snapshot{}
		take := func(s *lobby.Subscription) lobby.Snapshot {
			if snap, ok := s.Take(); ok {
				last[s] = snap
			}
			return last[s]
		}
		deadline := time.Now().Add(time.Minute)
		for made := 0; moves < 0 || made < moves; {
			if time.Now().After(deadline) {
				t.Fatal("the game did not end in time")
			}
			snap := take(spec)
			if snap.Game == nil || !snap.Playing {
				if snap.Game != nil && snap.Game.Phase == engine.PhaseOver {
					return
				}
				select {
				case <-spec.Ready():
				case <-time.After(time.Second):
				}
				continue
			}
			fp := snap.Table.Players[snap.Game.Turn].Fingerprint
			p, human := byFP[fp]
			if !human {
				clock.Advance(2 * time.Second)
				select {
				case <-spec.Ready():
				case <-time.After(time.Second):
				}
				continue
			}
			mine := take(subs[fp])
			a := lobbytest.Move(mine.Game, r)
			if err := tb.Act(ctx, p, a); err != nil {
				t.Fatalf("%s: %v at %+v", p.Name, err, mine.Game)
			}
			made++
			clock.Skip(3 * time.Second)
		}
	}

	// pub: alice and red play to the end, stay seated for the next game;
	// then red is renamed bob.
	pub := create(alice, "pub", 2, 2, false)
	for _, p := range []lobby.Player{alice, red} {
		if err := pub.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	play(pub, []lobby.Player{alice, red}, -1)
	bob := red
	if _, err := st.SetName(ctx, red.Fingerprint, "bob", false); err != nil {
		t.Fatal(err)
	}
	bob.Name = "bob"
	keys["bob"] = bob.Fingerprint

	// old: a private table of carol's where alice played, closed; then a
	// public table takes its name.
	old := create(carol, "old", 2, 2, true)
	code, err := newCode(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Invite(ctx, carol, code, clock.Now().Add(7*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := old.Redeem(ctx, alice, code); err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{carol, alice} {
		if err := old.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	play(old, []lobby.Player{carol, alice}, -1)
	for _, p := range []lobby.Player{carol, alice} {
		if err := old.Stand(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(ctx, carol); err != nil {
		t.Fatal(err)
	}
	create(alice, "old", 4, 3, false)

	// arena: alice, dave as a bot on the line protocol, and a hard bot.
	arena := create(alice, "arena", 3, 2, false)
	if err := arena.Sit(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if err := arena.Sit(ctx, dave); err != nil {
		t.Fatal(err)
	}
	if _, err := arena.AddBot(ctx, alice, ai.Hard); err != nil {
		t.Fatal(err)
	}
	play(arena, []lobby.Player{alice, dave}, -1)

	// bots: three built-in bots play by themselves: two games to the end,
	// the third left running.
	bots := create(carol, "bots", 3, 2, false)
	for _, lv := range []ai.Level{ai.Easy, ai.Normal, ai.Hard} {
		if _, err := bots.AddBot(ctx, carol, lv); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(time.Minute); ; {
		gs, err := st.Games(ctx, store.Query{Table: "bots"})
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) >= 2 && bots.Info().State == "playing" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bots did not play two games")
		}
		clock.Advance(2 * time.Second)
		time.Sleep(5 * time.Millisecond)
	}

	// maexchen: the gateway's table, dealt to two UDP bots.
	gw := lobby.Player{Fingerprint: "maexchen-gateway", Name: "maexchen", Bot: true}
	mx := create(gw, "maexchen", 10, 1, false)
	if err := mx.Drive(ctx, gw, true); err != nil {
		t.Fatal(err)
	}
	udp := []lobby.Player{
		{Fingerprint: "maexchen:alpha-bot", Name: "alpha-bot", Bot: true, TurnClock: 250 * time.Millisecond},
		{Fingerprint: "maexchen:beta", Name: "beta", Bot: true, TurnClock: 250 * time.Millisecond},
	}
	host := watch(mx, gw)
	defer host.Close()
	if _, err := mx.Deal(ctx, gw, udp); err != nil {
		t.Fatal(err)
	}
	play(mx, udp, -1)

	// club: carol's private table; bob joins with an invite, another
	// invite is left unspent; carol gives a seed; a game runs.
	club := create(carol, "club", 3, 3, true)
	for _, c := range []string{"joinclub01", "spareinvit"} {
		if err := club.Invite(ctx, carol, c, clock.Now().Add(7*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := club.Redeem(ctx, bob, "joinclub01"); err != nil {
		t.Fatal(err)
	}
	if _, err := club.SetSeed(ctx, carol, "carol's lucky dice"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{carol, bob} {
		if err := club.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := club.Start(ctx, carol); err != nil {
		t.Fatal(err)
	}
	play(club, []lobby.Player{carol, bob}, 5)

	// bans: mallory by her name, a key that never chose one.
	for _, b := range []store.Ban{
		{Fingerprint: mallory.Fingerprint, Name: "mallory", By: alice.Fingerprint, At: clock.Now()},
		{Fingerprint: keys["stranger"], By: alice.Fingerprint, At: clock.Now()},
	} {
		if err := st.Ban(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()

	capture := Schema1Capture{Keys: keys, Seeds: map[string]string{}, Tallies: map[string]store.Tally{},
		Ratings: map[string][]store.Rating{}, ByKey: map[string][]string{}, Tables: map[string][]store.Table{}}
	capture.Invite.Table, capture.Invite.Code = "club", "spareinvit"
	for _, who := range []string{"alice", "bob", "carol", "dave", "erin", "mallory", "aIice"} {
		p, err := st.Player(ctx, keys[who])
		if err != nil {
			t.Fatal(err)
		}
		capture.Players = append(capture.Players, p)
	}
	identities := map[string]bool{}
	for id := 1; ; id++ {
		g, evs, err := st.Game(ctx, strconv.Itoa(id))
		if err != nil {
			break
		}
		doc, err := json.Marshal(g.Replay(evs))
		if err != nil {
			t.Fatal(err)
		}
		capture.Games = append(capture.Games, doc)
		for _, s := range g.Seats {
			identities[s.Fingerprint] = true
		}
	}
	for _, fp := range keys {
		identities[fp] = true
	}
	for id := range identities {
		tl, err := st.Tally(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		capture.Tallies[id] = tl
		gs, err := st.Games(ctx, store.Query{Player: id, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			capture.ByKey[id] = append(capture.ByKey[id], g.ID)
		}
	}
	recovered, err := st.InProgress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range recovered {
		capture.Seeds[rg.Game.ID] = rg.Game.Fair.ServerSeed
	}
	for _, name := range []string{"pub", "old", "arena", "bots", "maexchen", "club"} {
		recs, err := st.TableRecords(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		capture.Tables[name] = recs
		board, err := st.Leaderboard(ctx, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		capture.Ratings[name] = board
	}
	if capture.Ratings[""], err = st.Leaderboard(ctx, "", 0); err != nil {
		t.Fatal(err)
	}
	if capture.Bans, err = st.Bans(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join("..", "testdata")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, path, filepath.Join(out, "schema1.db"))
	doc, err := json.MarshalIndent(capture, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "schema1.json"), append(doc, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d games, %d tables", len(capture.Games), len(capture.Tables))
}

// newCode is an invite code as the table command makes them.
func newCode(r *rand.Rand) (string, error) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b), nil
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
