package lobbystore

// This file writes the fixture of the migration from schema 2
// (store/testdata/schema2.db and schema2.json). It builds with the code of
// schema 2 only (commit 7fae65a, main before the truth branch joined it);
// the repository keeps it as store/testdata/schema2_fixture_test.go, out
// of the build. To write the fixture again:
//
//	git worktree add /tmp/schema2 7fae65a
//	cp store/testdata/schema2_fixture_test.go /tmp/schema2/store/lobbystore/
//	cp store/testdata/schema1.db /tmp/schema2/store/testdata/
//	cd /tmp/schema2 && go test ./store/lobbystore -run TestWriteSchema2Fixture -write-schema2
//	cp /tmp/schema2/store/testdata/schema2.* store/testdata/

import (
	"context"
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
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

var writeSchema2 = flag.Bool("write-schema2", false, "write store/testdata/schema2.db and schema2.json with this version's code")

// Schema2Capture is what the server of schema 2 reads from the fixture,
// in its own types, for the migration's test to compare against.
type Schema2Capture struct {
	Keys    map[string]string      `json:"keys"`    // who -> a key of theirs
	People  []store.Person         `json:"people"`  // every person with keys
	Tallies map[string]store.Tally `json:"tallies"` // person id -> tally (bluffs count understated claims)
	Games   []json.RawMessage      `json:"games"`   // every game as replay --json writes it (in progress: sealed)
	Open    []string               `json:"open"`    // the open tables
}

// TestWriteSchema2Fixture opens a copy of the schema-1 fixture (which
// the code of schema 2 migrates) and goes on through the real lobby on
// the real store: bob (red in schema 1) renamed robert, a second key
// joined to alice's, a new person frank, a pips table (mia-pass wins)
// where alice, robert and frank play a game to the end with claims above,
// at and below their dice, then a second game left running with a seed
// frank gave, and a UDP name held.
func TestWriteSchema2Fixture(t *testing.T) {
	if !*writeSchema2 {
		t.Skip("writes the fixture only with -write-schema2")
	}
	ctx := context.Background()
	var s1 struct {
		Keys map[string]string `json:"keys"`
	}
	doc, err := os.ReadFile(filepath.Join("..", "testdata", "schema1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &s1); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mia.db")
	copyFile(t, filepath.Join("..", "testdata", "schema1.db"), path)
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := lobbytest.NewClock()
	keys := map[string]string{"alice": s1.Keys["alice"], "robert": s1.Keys["bob"], "carol": s1.Keys["carol"],
		"alice-laptop": "SHA256:mia-fixture-schema2-alice-laptop", "frank": "SHA256:mia-fixture-schema2-frank"}
	if _, err := st.SetName(ctx, keys["robert"], "robert"); err != nil {
		t.Fatal(err)
	}
	alice, err := st.PersonByKey(ctx, keys["alice"])
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddKeyCode(ctx, alice.ID, "laptopcode", clock.Now().Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.JoinKey(ctx, "laptopcode", keys["alice-laptop"], clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SetName(ctx, keys["frank"], "frank"); err != nil {
		t.Fatal(err)
	}
	player := func(who string) lobby.Player {
		p, err := st.PersonByKey(ctx, keys[who])
		if err != nil {
			t.Fatal(err)
		}
		return lobby.Player{ID: p.ID, Key: keys[who]}
	}
	if _, err := st.ClaimUDPName(ctx, store.UDPName{Name: "gamma", Addr: "192.0.2.7", Heard: clock.Now(), Held: true},
		func(store.UDPName) bool { return false }); err != nil {
		t.Fatal(err)
	}

	l, err := lobby.New(ctx, lobby.Config{Store: New(st), Clock: clock, BotDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	people := []lobby.Player{player("alice"), player("robert"), player("frank")}
	o := engine.DefaultOptions()
	o.Ranking, o.MiaPass, o.Lives = engine.Pips, engine.MiaPassWins, 2
	pips, err := l.CreateTable(ctx, people[0], lobby.TableConfig{Name: "pips", Rules: o, Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		if err := pips.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(22, 2026))
	play := func(moves int) {
		subs := map[string]*lobby.Subscription{}
		byID := map[string]lobby.Player{}
		for _, p := range people {
			sub, err := pips.Watch(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			subs[p.ID], byID[p.ID] = sub, p
		}
		last := map[string]lobby.Snapshot{}
		deadline := time.Now().Add(time.Minute)
		for made := 0; moves < 0 || made < moves; {
			if time.Now().After(deadline) {
				t.Fatal("the game did not end in time")
			}
			info := pips.Info()
			if info.State != "playing" {
				return
			}
			moved := false
			for id, sub := range subs {
				if snap, ok := sub.Take(); ok {
					last[id] = snap
				}
				snap := last[id]
				if snap.Game == nil || !snap.Playing || !snap.Game.MyTurn() {
					continue
				}
				if err := pips.Act(ctx, byID[id], move(snap.Game, r)); err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				moved, made = true, made+1
				clock.Skip(time.Second)
				break
			}
			if !moved {
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	if err := pips.Start(ctx, people[0]); err != nil {
		t.Fatal(err)
	}
	play(-1)
	if _, err := pips.SetSeed(ctx, people[2], "frank's dice"); err != nil {
		t.Fatal(err)
	}
	if err := pips.Start(ctx, people[0]); err != nil {
		t.Fatal(err)
	}
	play(6)
	l.Close()

	capture := Schema2Capture{Keys: keys, Tallies: map[string]store.Tally{}}
	ids := map[string]bool{}
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
			ids[s.Person] = true
		}
	}
	for n := 1; ; n++ {
		p, err := st.Person(ctx, "p:"+strconv.Itoa(n))
		if err != nil {
			break
		}
		capture.People = append(capture.People, p)
		ids[p.ID] = true
	}
	for id := range ids {
		if capture.Tallies[id], err = st.Tally(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	tables, err := New(st).OpenTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		capture.Open = append(capture.Open, tb.Name)
	}
	if err := st.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "testdata")
	copyFile(t, path, filepath.Join(out, "schema2.db"))
	doc, err = json.MarshalIndent(capture, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "schema2.json"), append(doc, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d games, %d people", len(capture.Games), len(capture.People))
}

// move is a legal move at v's turn, with claims above the dice (bluffs),
// at them and below them (understated).
func move(v *engine.View, r *rand.Rand) engine.Action {
	switch {
	case v.Can(engine.Roll) && (v.Claim == engine.NoValue || r.IntN(3) > 0) && !v.Can(engine.Claim):
		return engine.Action{Kind: engine.Roll, Look: true}
	case v.Can(engine.Claim):
		rk := v.Options.Ranking
		var below, at []engine.Value
		for _, c := range v.Claims {
			switch rk.Compare(c, v.Dice) {
			case -1:
				below = append(below, c)
			case 0:
				at = append(at, c)
			}
		}
		switch {
		case len(below) > 0 && r.IntN(2) == 0:
			return engine.Action{Kind: engine.Claim, Value: below[r.IntN(len(below))]}
		case len(at) > 0:
			return engine.Action{Kind: engine.Claim, Value: at[0]}
		}
		return engine.Action{Kind: engine.Claim, Value: v.Claims[r.IntN(len(v.Claims))]}
	case v.Can(engine.Pass) && len(v.Passes) > 0 && r.IntN(4) == 0:
		return engine.Action{Kind: engine.Pass, Value: v.Passes[0]}
	}
	return engine.Action{Kind: engine.Challenge}
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
