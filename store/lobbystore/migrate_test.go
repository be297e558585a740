package lobbystore

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

// TestLobbyOnASchema1File opens the lobby on a copy of the data file of
// schema 1 (store/testdata, see store/migrate_test.go): every table comes
// back, its seats named as the people are called now (red, renamed bob
// after sitting down, is bob), the games in progress resume with their
// dice and, played to the end, verify; the gateway's table is the
// gateway's.
func TestLobbyOnASchema1File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mia.db")
	in, err := os.Open(filepath.Join("..", "testdata", "schema1.db"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	in.Close()
	out.Close()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	clock := lobbytest.NewClock()
	l, err := lobby.New(ctx, lobby.Config{Store: New(st), Clock: clock, BotDelay: lobby.NoDelay})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	table := func(name string) *lobby.Table {
		t.Helper()
		tb, err := l.Table(name)
		if err != nil {
			t.Fatalf("table %s: %v", name, err)
		}
		return tb
	}
	names := func(info lobby.TableInfo) []string {
		var out []string
		for _, s := range info.Players {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(table("pub").Info()); len(got) != 2 || got[0] != "alice" || got[1] != "bob" {
		t.Errorf("pub's seats: %v", got)
	}
	if info := table("pub").Info(); info.Host != "alice" {
		t.Errorf("pub's host: %q", info.Host)
	}
	if info := table("maexchen").Info(); info.HostID != ident.GatewayHost || info.Host != "maexchen" {
		t.Errorf("the gateway's table: %s %q", info.HostID, info.Host)
	}
	club := table("club")
	info := club.Info()
	if info.State != "playing" || len(info.Players) != 2 {
		t.Fatalf("club: %+v", info)
	}
	// Play the game in progress at club to its end, as its players.
	r := rand.New(rand.NewPCG(1, 2))
	subs := map[string]*lobby.Subscription{}
	for _, s := range info.Players {
		p := lobby.Player{ID: s.ID}
		sub, err := club.Watch(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		subs[s.ID] = sub
	}
	gameID := info.Players[0].ID // replaced by the game's id below
	last := map[string]lobby.Snapshot{}
	for deadline := time.Now().Add(30 * time.Second); club.Info().State == "playing"; {
		if time.Now().After(deadline) {
			t.Fatal("the game did not end")
		}
		moved := false
		for id, sub := range subs {
			if snap, ok := sub.Take(); ok {
				last[id] = snap
			}
			if snap := last[id]; snap.Game != nil && snap.Game.MyTurn() {
				gameID = snap.GameID
				if err := club.Act(ctx, lobby.Player{ID: id}, lobbytest.Move(snap.Game, r)); err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				moved = true
				clock.Skip(time.Second)
			}
		}
		if !moved {
			t.Fatalf("nobody's turn: %+v", last)
		}
	}
	g, evs, err := st.Game(ctx, gameID)
	if err != nil || !g.Finished() || g.Fair == nil {
		t.Fatalf("game %s: %+v, %v", gameID, g, err)
	}
	fps := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		fps[i] = s.Fingerprint
	}
	if _, err := fair.Verify(*g.Fair, g.Rules, fps, evs); err != nil {
		t.Errorf("the game begun under schema 1 does not verify: %v", err)
	}
	if g.Seats[0].Name != "carol" && g.Seats[1].Name != "carol" {
		t.Errorf("seats %+v", g.Seats)
	}
	l.Close() // the table of bots plays on: Check wants a file nobody writes
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestLobbyOnASchema2File opens the lobby on a copy of the data file of
// schema 2 (store/testdata, see store/migrate_test.go): every open table
// draws its next dice and keeps them; the game left running at pips
// resumes with frank's seed, seated under the names of now; a line alice
// says from her second key and the seed she gives come back after a
// restart under her name; the file checks clean.
func TestLobbyOnASchema2File(t *testing.T) {
	var fixture struct {
		Keys map[string]string `json:"keys"`
		Open []string          `json:"open"`
	}
	doc, err := os.ReadFile(filepath.Join("..", "testdata", "schema2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &fixture); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mia.db")
	in, err := os.Open(filepath.Join("..", "testdata", "schema2.db"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	in.Close()
	out.Close()
	ctx := context.Background()
	open := func() (*store.Store, *lobby.Lobby) {
		t.Helper()
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		l, err := lobby.New(ctx, lobby.Config{Store: New(st), Clock: lobbytest.NewClock(), BotDelay: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return st, l
	}
	st, l := open()
	commitments := map[string]string{}
	for _, name := range fixture.Open {
		tb, err := l.Table(name)
		if err != nil {
			t.Fatalf("table %s: %v", name, err)
		}
		d, err := st.NextDice(ctx, name)
		if err != nil {
			t.Errorf("%s keeps no next dice: %v", name, err)
			continue
		}
		commitments[name] = d.Seed.Commitment()
		if info := tb.Info(); info.State != "playing" && info.Fair.Commitment != "" && info.Fair.Commitment != commitments[name] {
			t.Errorf("%s shows commitment %s, keeps %s", name, info.Fair.Commitment, commitments[name])
		}
	}
	pips, err := l.Table("pips")
	if err != nil {
		t.Fatal(err)
	}
	info := pips.Info()
	var seated []string
	for _, s := range info.Players {
		seated = append(seated, s.Name)
	}
	slices.Sort(seated) // in the order the fair dice seated them
	if info.State != "playing" || !slices.Equal(seated, []string{"alice", "frank", "robert"}) {
		t.Errorf("pips: %s, seated %q", info.State, seated)
	}
	if len(info.Fair.Seeds) != 1 || info.Fair.Seeds[0].Name != "frank" || info.Fair.Seeds[0].Seed != "frank's dice" {
		t.Errorf("the running game's seeds: %+v", info.Fair.Seeds)
	}
	alice, err := st.PersonByKey(ctx, fixture.Keys["alice-laptop"])
	if err != nil {
		t.Fatal(err)
	}
	laptop := lobby.Player{ID: alice.ID, Key: fixture.Keys["alice-laptop"]}
	if err := pips.Say(ctx, laptop, "from my laptop"); err != nil {
		t.Fatal(err)
	}
	pub, err := l.Table("pub")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pub.SetSeed(ctx, laptop, "alice's laptop seed"); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, l = open()
	defer st.Close()
	defer l.Close()
	for name, c := range commitments {
		if d, err := st.NextDice(ctx, name); err != nil {
			t.Errorf("%s after a restart: %v", name, err)
		} else if d.Seed.Commitment() != c {
			t.Errorf("%s's next dice changed across a restart", name)
		}
	}
	if pips, err = l.Table("pips"); err != nil {
		t.Fatal(err)
	}
	sub, err := pips.Watch(ctx, laptop)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := sub.Wait(ctx)
	sub.Close()
	if n := len(snap.Chat); n == 0 || snap.Chat[n-1].From != "alice" || snap.Chat[n-1].FromID != alice.ID {
		t.Errorf("the chat after the restart: %+v", snap.Chat)
	}
	if pub, err = l.Table("pub"); err != nil {
		t.Fatal(err)
	}
	if s, ok := pub.Info().Fair.Seed(alice.ID); !ok || s != "alice's laptop seed" {
		t.Errorf("alice's seed at pub after the restart: %q %v", s, ok)
	}
	l.Close() // bots play on otherwise: Check wants a file nobody writes
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
}
