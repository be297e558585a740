package store

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/ident"
)

// The fixture of schema 1: testdata/schema1.db is a data file as the
// server of schema 1 left it, and testdata/schema1.json what that server
// read from it, both written by TestWriteSchema1Fixture of
// store/lobbystore at commit bfdaad1 (the last commit of schema 1's code;
// `git show bfdaad1:store/lobbystore/schema1_fixture_test.go`), run with
// `go test ./store/lobbystore -run TestWriteSchema1Fixture -write-schema1`:
// through the real lobby on the real store, people (alice, red renamed bob
// after playing, carol, dave marked a bot by the bot command, erin without
// games, mallory banned, aIice whose name looks like alice's), built-in
// bots, the Mäxchen gateway's table and two UDP bots, public and private
// tables (old closed and its name used again) with members, seats and an
// unspent invite, finished games, two games in progress with their seeds
// (one with carol's seed), tallies, ratings and bans.

// schema1 is testdata/schema1.json.
type schema1 struct {
	Keys    map[string]string `json:"keys"`
	Players []struct {
		Fingerprint string    `json:"fingerprint"`
		Name        string    `json:"name"`
		Bot         bool      `json:"bot"`
		Created     time.Time `json:"created"`
		LastSeen    time.Time `json:"last_seen"`
	} `json:"players"`
	Games   []json.RawMessage `json:"games"`
	Seeds   map[string]string `json:"seeds"`
	Tallies map[string]Tally  `json:"tallies"`
	Ratings map[string][]struct {
		Fingerprint string  `json:"fingerprint"`
		Name        string  `json:"name"`
		Bot         bool    `json:"bot"`
		Rating      float64 `json:"rating"`
		Games       int     `json:"games"`
		Wins        int     `json:"wins"`
	} `json:"ratings"`
	ByKey map[string][]string `json:"by_key"`
	Bans  []struct {
		Fingerprint string    `json:"fingerprint"`
		By          string    `json:"by"`
		At          time.Time `json:"at"`
	} `json:"bans"`
	Tables map[string][]struct {
		Host    string   `json:"host"`
		Members []string `json:"members"`
		Created time.Time
		Closed  time.Time
		Private bool
		Seats   int
		Rules   engine.Options
		Seated  []struct {
			Name        string `json:"name"`
			Fingerprint string `json:"fingerprint"`
			Bot         bool   `json:"bot"`
		} `json:"seated"`
	} `json:"tables"`
	Invite struct {
		Table string `json:"table"`
		Code  string `json:"code"`
	} `json:"invite"`
}

// openSchema1 opens a copy of the fixture, after edit (if not nil) has
// changed the copy with bbolt (still schema 1); it returns the store and
// what schema 1 read.
func openSchema1(t *testing.T, edit func(tx *bolt.Tx) error) (*Store, schema1) {
	t.Helper()
	var want schema1
	doc, err := os.ReadFile(filepath.Join("testdata", "schema1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &want); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mia.db")
	in, err := os.Open(filepath.Join("testdata", "schema1.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(edit); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("open the schema-1 file: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, want
}

// idOf maps an identity of schema 1 to its person id after the migration.
func idOf(t *testing.T, s *Store, who string) string {
	t.Helper()
	switch {
	case who == "maexchen-gateway":
		return ident.GatewayHost
	case !ident.IsKey(who):
		return who
	}
	p, err := s.PersonByKey(context.Background(), who)
	if errors.Is(err, ErrNotFound) {
		return "" // a key banned before it chose a name: a stranger
	}
	if err != nil {
		t.Fatalf("the key %s: %v", who, err)
	}
	return p.ID
}

// TestMigrateSchema1 opens the fixture of schema 1 and finds everything
// schema 1 read in it, now under person ids: people and their keys, every
// game (its replay document as before, with each seat's person, its name
// now and the name played under), the secret seeds of the games in
// progress, tallies, ratings, the index of games by player, tables with
// their hosts, members and seated players, bans and the invite; old games'
// fair dice still verify; Check is clean, and a reopen changes nothing.
func TestMigrateSchema1(t *testing.T) {
	s, want := openSchema1(t, nil)
	ctx := context.Background()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check after the migration: %v", err)
	}

	// People: each profile a person with its key, in order of creation.
	for i, old := range want.Players {
		p, err := s.PersonByKey(ctx, old.Fingerprint)
		if err != nil {
			t.Fatalf("%s: %v", old.Name, err)
		}
		name := old.Name
		if name == "aIice" {
			name = "aIice-2" // looks like alice, who was first
		}
		if p.ID != "p:"+strconv.Itoa(i+1) || p.Name != name || !p.Created.Equal(old.Created) || len(p.Keys) != 1 ||
			p.Keys[0].Fingerprint != old.Fingerprint || !p.Keys[0].LastSeen.Equal(old.LastSeen) || !p.Keys[0].Added.Equal(old.Created) {
			t.Errorf("%s became %+v", old.Name, p)
		}
		if byName, err := s.PersonByName(ctx, name); err != nil || byName.ID != p.ID {
			t.Errorf("PersonByName(%s) = %+v, %v", name, byName, err)
		}
	}
	if p, err := s.PersonByName(ctx, "red"); !errors.Is(err, ErrNotFound) {
		t.Errorf("red, bob's old name, finds %+v, %v", p, err)
	}

	// Games: the replay document of each, as schema 1 wrote it, but for
	// each seat's person and name.
	for _, oldDoc := range want.Games {
		var old map[string]any
		if err := json.Unmarshal(oldDoc, &old); err != nil {
			t.Fatal(err)
		}
		id := old["id"].(string)
		g, evs, err := s.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		newDoc, err := json.Marshal(g.Replay(evs))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(newDoc, &got); err != nil {
			t.Fatal(err)
		}
		for i, p := range got["players"].([]any) {
			seat := p.(map[string]any)
			oldSeat := old["players"].([]any)[i].(map[string]any)
			if wantID := idOf(t, s, oldSeat["fingerprint"].(string)); seat["person"] != wantID {
				t.Errorf("game %s seat %d: person %v, want %s", id, i, seat["person"], wantID)
			}
			if played, ok := seat["played_as"]; ok {
				if played != oldSeat["name"] || seat["name"] == played {
					t.Errorf("game %s seat %d: %v played as %v, was %v", id, i, seat["name"], played, oldSeat["name"])
				}
				seat["name"] = played
				delete(seat, "played_as")
			}
			delete(seat, "person")
		}
		if !reflect.DeepEqual(got, old) {
			t.Errorf("game %s:\n got %s\nwant %s", id, newDoc, oldDoc)
		}
		if g.Fair != nil && g.Finished() {
			fps := make([]string, len(g.Seats))
			for i, st := range g.Seats {
				fps[i] = st.Fingerprint
			}
			if _, err := fair.Verify(*g.Fair, g.Rules, fps, evs); err != nil {
				t.Errorf("game %s no longer verifies: %v", id, err)
			}
		}
	}
	g1, _, _ := s.Game(ctx, "1")
	if g1.Seats[1].Name != "bob" || g1.Seats[1].PlayedAs != "red" || g1.Seats[1].Shown() != "bob (played as red)" {
		t.Errorf("red's seat in game 1: %+v", g1.Seats[1])
	}

	// The games in progress keep their secret seeds.
	rec, err := s.InProgress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec) != len(want.Seeds) {
		t.Fatalf("%d games in progress, want %d", len(rec), len(want.Seeds))
	}
	for _, r := range rec {
		if r.Game.Fair == nil || r.Game.Fair.ServerSeed != want.Seeds[r.Game.ID] {
			t.Errorf("game %s in progress: its seed is lost", r.Game.ID)
		}
	}

	// Tallies and the games of each player. Schema 1's bluffs counted
	// understated claims too: they are counted apart now, by the games
	// (referenceTally), every other counter as it was.
	var (
		all  []Game
		logs [][]engine.Event
	)
	for id := 1; ; id++ {
		g, evs, err := s.Game(ctx, strconv.Itoa(id))
		if errors.Is(err, ErrNotFound) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all, logs = append(all, g), append(logs, evs)
	}
	recount := referenceTally(all, logs)
	// Schema 1 counted the moves of a game still running; they count now
	// once it ends, so its players' figures are the games' alone.
	playing := seatedInRunningGames(t, all)
	understated := 0
	for who, tl := range want.Tallies {
		id := idOf(t, s, who)
		if id == "" {
			if tl != (Tally{}) {
				t.Errorf("%s played and has no person", who)
			}
			continue
		}
		got, err := s.Tally(ctx, id)
		understated += got.Understated
		asV1 := got
		asV1.Bluffs, asV1.Understated = got.Bluffs+got.Understated, 0
		if err != nil || asV1 != tl && !playing[id] || got != recount[id] {
			t.Errorf("tally of %s (%s) = %+v, %v; want %+v, bluffs and understated apart: %+v", who, id, got, err, tl, recount[id])
		}
		// Carol's and alice's game 2 was at a private table: it is not
		// in what everyone reads.
		pub, err := s.PublicTally(ctx, id)
		if wantGames := tl.Games - map[string]int{"carol": 1, "alice": 1}[nameOfKey(want, who)]; err != nil || pub.Games != wantGames {
			t.Errorf("public tally of %s = %+v, %v; want %d games", who, pub, err, wantGames)
		}
		gs, err := s.Games(ctx, Query{Player: id, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		if wantIDs := want.ByKey[who]; !slices.Equal(ids, wantIDs) && (len(ids) > 0 || len(wantIDs) > 0) {
			t.Errorf("games of %s = %v, want %v", who, ids, wantIDs)
		}
	}

	// Ratings: rebuilt from the games (schema 1's Elo is dropped), by
	// person, named now.
	checkRebuilt(t, s, want)
	sameAsFreshReplay(t, s)

	// Tables: hosts, members and seats by person.
	for name, recs := range want.Tables {
		got, err := s.TableRecords(ctx, name)
		if err != nil || len(got) != len(recs) {
			t.Fatalf("table %s: %d records, %v; want %d", name, len(got), err, len(recs))
		}
		for i, w := range recs {
			g := got[i]
			if g.Host != idOf(t, s, w.Host) || !g.Created.Equal(w.Created) || !g.Closed.Equal(w.Closed) || g.Private != w.Private ||
				g.Seats != w.Seats || g.Rules != w.Rules || len(g.Members) != len(w.Members) || len(g.Seated) != len(w.Seated) {
				t.Errorf("table %s record %d = %+v, want %+v", name, i, g, w)
				continue
			}
			for j, m := range w.Members {
				if g.Members[j] != idOf(t, s, m) {
					t.Errorf("table %s member %d = %s, want %s's", name, j, g.Members[j], m)
				}
			}
			for j, st := range w.Seated {
				if g.Seated[j].Person != idOf(t, s, st.Fingerprint) || g.Seated[j].Fingerprint != st.Fingerprint || g.Seated[j].Bot != st.Bot {
					t.Errorf("table %s seat %d = %+v, want %+v", name, j, g.Seated[j], st)
				}
			}
		}
	}
	if mx, _ := s.Table(ctx, "maexchen"); mx.Host != ident.GatewayHost {
		t.Errorf("the gateway's table is hosted by %q", mx.Host)
	}

	// Bans: of the same keys.
	bans, err := s.Bans(ctx)
	if err != nil || len(bans) != len(want.Bans) {
		t.Fatalf("bans %+v, %v", bans, err)
	}
	for _, w := range want.Bans {
		b, err := s.Banned(ctx, w.Fingerprint)
		if err != nil || b.Key != w.Fingerprint || b.Person != "" || b.By != w.By || !b.At.Equal(w.At) {
			t.Errorf("ban of %s = %+v, %v", w.Fingerprint, b, err)
		}
	}

	// The invite left unspent still works, for a person.
	bob := idOf(t, s, want.Keys["bob"])
	alice := idOf(t, s, want.Keys["alice"])
	if err := s.UseInvite(ctx, want.Invite.Table, want.Invite.Code, alice, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Errorf("the invite: %v", err)
	}
	if club, _ := s.Table(ctx, "club"); !slices.Equal(club.Members, []string{bob, alice}) {
		t.Errorf("club's members: %v", club.Members)
	}

	if understated == 0 {
		t.Error("no understated claim in the fixture's games: the recount is not tested")
	}

	// A reopen finds the current schema and changes nothing.
	before := snapshot(t, s)
	s = reopen(t, s)
	if after := snapshot(t, s); !reflect.DeepEqual(before, after) {
		t.Errorf("the reopen changed the ratings")
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestMigrateSchema1Backfill: a schema-1 file from before the ratings and
// bans buckets existed migrates, its ratings made from its finished
// games, by person.
func TestMigrateSchema1Backfill(t *testing.T) {
	s, want := openSchema1(t, func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketOldRatings, bucketBans} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
	ctx := context.Background()
	checkRebuilt(t, s, want)
	if bans, err := s.Bans(ctx); err != nil || len(bans) != 0 {
		t.Errorf("bans: %+v, %v", bans, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// checkRebuilt checks the migrated file's ratings against the fixture's
// finished games folded through the model, in the order they ended (the
// order they finished in, for a file without finishing numbers): overall
// the games of public tables, and each table record's own games on its
// board; each row's name now, wins and games in a bot's seat.
func checkRebuilt(t *testing.T, s *Store, want schema1) {
	t.Helper()
	ctx := context.Background()
	type game struct {
		ID        string
		Table     string
		Started   time.Time
		Ended     time.Time
		Winner    int
		Standings []int
		Players   []struct {
			Fingerprint string
			Bot         bool
		}
	}
	var games []game
	for _, doc := range want.Games {
		var g game
		if err := json.Unmarshal(doc, &g); err != nil {
			t.Fatal(err)
		}
		if g.Winner >= 0 {
			games = append(games, g)
		}
	}
	slices.SortStableFunc(games, func(a, b game) int { return a.Ended.Compare(b.Ended) })
	type row struct {
		r              rating.Rating
		wins, botGames int
	}
	boards := map[string]map[string]*row{} // "" overall, else table name and creation
	ladders := map[string]*rating.Ladder[string]{}
	rated := 0
	for _, g := range games {
		records, err := s.TableRecords(ctx, g.Table)
		if err != nil {
			t.Fatal(err)
		}
		rec := RecordAt(records, g.Started)
		var keys []string
		if rec != nil && !g.Started.Before(rec.Created) {
			if !rec.Private {
				keys = append(keys, "")
			}
			keys = append(keys, rec.Name+" "+rec.Created.String())
		}
		ids := make([]string, len(g.Players))
		for i, p := range g.Players {
			ids[i] = idOf(t, s, p.Fingerprint)
		}
		for _, k := range keys {
			if ladders[k] == nil {
				ladders[k], boards[k] = rating.NewLadder[string](rating.Default), map[string]*row{}
			}
			cs, err := ladders[k].Play(ids, places(len(ids), g.Standings, g.Winner))
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				r := boards[k][id]
				if r == nil {
					r = &row{}
					boards[k][id] = r
				}
				r.r = cs[i].After
				if i == g.Winner {
					r.wins++
				}
				if g.Players[i].Bot {
					r.botGames++
				}
			}
			rated++
		}
	}
	if rated < 5 {
		t.Fatalf("only %d games rated", rated)
	}
	for k, rows := range boards {
		b := Board{Season: rating.AllTime}
		if k != "" {
			name, _, _ := strings.Cut(k, " ")
			records, _ := s.TableRecords(ctx, name)
			for i := range records {
				if name+" "+records[i].Created.String() == k {
					b.Table = &records[i]
				}
			}
		}
		got, err := s.Leaderboard(ctx, BoardQuery{Board: b})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(rows) {
			t.Errorf("board %q: %d rows, want %d", k, len(got), len(rows))
		}
		for _, g := range got {
			w := rows[g.Person]
			if w == nil || g.Rating != w.r || g.Wins != w.wins || g.BotGames != w.botGames || g.Name == "" {
				t.Errorf("board %q: %+v, want %+v", k, g, w)
			}
		}
	}
}

// A schema-1 file that lacks a bucket schema 1 always had is refused, and
// left as it was.
func TestMigrateSchema1Refused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mia.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		return meta.Put(keySchema, u64(1))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(path)
	if s, err := Open(path); !errors.Is(err, ErrSchema) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open = %v, want ErrSchema", err)
	}
	if after, _ := os.ReadFile(path); !slices.Equal(before, after) {
		t.Error("the file was changed")
	}
}

// TestMigrateSchema1Odds: the corners schema 1's server never wrote but a
// file could hold: a key that played without a profile becomes a person
// of its own (named playerN), a ban of a key-less player bans that
// player, and the gateway's old identity hosts as ident.GatewayHost.
func TestMigrateSchema1Odds(t *testing.T) {
	s, _ := openSchema1(t, func(tx *bolt.Tx) error {
		// A game whose second seat is a key without a profile.
		g := []byte(`{"id":"99","table":"pub","rules":{"ranking":"classic","lives":1,"pass":true,"equal_claims":false,` +
			`"mia_penalty":2,"mia_penalty_both":false,"mia_pass":"off","mia_reveal":"challenge","low_claim":"refused",` +
			`"next_opener":"after-loser","end":"last-standing","turn_seconds":60},"players":[` +
			`{"seat":0,"name":"ada","fingerprint":"bot:easy:ada","bot":true},{"seat":1,"name":"ghost","fingerprint":"SHA256:ghost","bot":false}],` +
			`"started":"2026-11-20T10:00:00Z","ended":"2026-11-20T10:01:00Z","winner":0,"standings":[0,1]}`)
		if err := tx.Bucket(bucketGames).Put(u64(99), g); err != nil {
			return err
		}
		if err := tx.Bucket(bucketFinished).Put(u64(99), nil); err != nil {
			return err
		}
		if err := tx.Bucket(bucketByTable).Put(indexKey("pub", 99), nil); err != nil {
			return err
		}
		for _, who := range []string{"bot:easy:ada", "SHA256:ghost"} {
			if err := tx.Bucket(bucketByPlayer).Put(indexKey(who, 99), nil); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucketTallies).Put([]byte("SHA256:ghost"), Tally{Games: 1}.encode()); err != nil {
			return err
		}
		return tx.Bucket(bucketBans).Put([]byte("maexchen:spam"), []byte(`{"fingerprint":"maexchen:spam","name":"spam","by":"SHA256:x","at":"2026-11-20T10:00:00Z"}`))
	})
	ctx := context.Background()
	ghost, err := s.PersonByKey(ctx, "SHA256:ghost")
	if err != nil || !strings.HasPrefix(ghost.Name, "player") || len(ghost.Keys) != 1 {
		t.Fatalf("the key without a profile: %+v, %v", ghost, err)
	}
	if tl, _ := s.Tally(ctx, ghost.ID); tl.Games != 1 {
		t.Errorf("its tally: %+v", tl)
	}
	g, _, err := s.Game(ctx, "99")
	if err != nil || g.Seats[1].Person != ghost.ID || g.Seats[1].PlayedAs != "ghost" || g.Seats[0].Person != "bot:easy:ada" {
		t.Errorf("game 99: %+v, %v", g.Seats, err)
	}
	if b, err := s.BanOf(ctx, "maexchen:spam"); err != nil || b.Person != "maexchen:spam" || b.Key != "" {
		t.Errorf("the ban of a UDP bot: %+v, %v", b, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestMigrateSchema1UDP: a file of schema 1 that holds what the Mäxchen
// gateway's limits kept there (held names keyed by name, bans of UDP
// addresses and of bots) migrates: the names keyed by their look, held,
// the one heard last of two alike, none that looks like a person's; the
// ban of addresses of its own kind, the bot's a ban of its person. A file
// of schema 1 without them gains the bucket.
func TestMigrateSchema1UDP(t *testing.T) {
	ctx := context.Background()
	plain, _ := openSchema1(t, nil)
	if held, err := plain.HeldUDPNames(ctx); err != nil || len(held) != 0 {
		t.Errorf("the names held in a file that had none: %+v, %v", held, err)
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s, _ := openSchema1(t, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(bucketUDPNames)
		if err != nil {
			return err
		}
		for _, n := range []udpName1{
			{"u1", "127.0.0.1", at},
			{"U1", "127.0.0.2", at.Add(time.Hour)}, // alike, heard last
			{"deep", "127.0.0.3", at},
			{"ALICE", "127.0.0.4", at}, // a person's name
		} {
			v, _ := json.Marshal(n)
			if err := b.Put([]byte(n.Name), v); err != nil {
				return err
			}
		}
		bans := tx.Bucket(bucketBans)
		if err := bans.Put([]byte("udp:203.0.113.0/24"), []byte(`{"fingerprint":"udp:203.0.113.0/24","by":"SHA256:x","at":"2026-11-20T10:00:00Z"}`)); err != nil {
			return err
		}
		return bans.Put([]byte("maexchen:u1"), []byte(`{"fingerprint":"maexchen:u1","name":"u1","by":"SHA256:x","at":"2026-11-20T10:00:00Z"}`))
	})
	held, err := s.HeldUDPNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]UDPName{
		"U1":   {Name: "U1", Addr: "127.0.0.2", Heard: at.Add(time.Hour), Held: true},
		"deep": {Name: "deep", Addr: "127.0.0.3", Heard: at, Held: true},
	}
	if len(held) != len(want) {
		t.Errorf("held after the migration: %+v", held)
	}
	for _, n := range held {
		if w, ok := want[n.Name]; !ok || n.Addr != w.Addr || !n.Heard.Equal(w.Heard) || !n.Held || n.Registered {
			t.Errorf("held %+v, want %+v", n, w)
		}
	}
	if n, err := s.HeldUDPName(ctx, "u1"); err != nil || n.Name != "U1" {
		t.Errorf("u1 looks like %+v, %v", n, err)
	}
	if b, err := s.BanOf(ctx, "udp:203.0.113.0/24"); err != nil || b.UDP != "203.0.113.0/24" || b.Person != "" || b.Key != "" {
		t.Errorf("the ban of addresses: %+v, %v", b, err)
	}
	if b, err := s.BanOf(ctx, "maexchen:u1"); err != nil || b.Person != "maexchen:u1" {
		t.Errorf("the ban of a bot: %+v, %v", b, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// The fixture of schema 2: testdata/schema2.db is the data file of schema
// 1 (above) as the server of schema 2 (commit 7fae65a) migrated it and
// then went on writing: bob renamed robert, a second key of alice's, a
// new person frank, a pips table where alice, robert and frank played a
// game with claims above, at and below their dice and left a second one
// running with frank's seed, a Mäxchen bot's name held.
// testdata/schema2.json is what that server read from it; both written by
// testdata/schema2_fixture_test.go (see there how to run it).

// schema2 is testdata/schema2.json.
type schema2 struct {
	Keys    map[string]string `json:"keys"`
	People  []Person          `json:"people"`
	Tallies map[string]Tally  `json:"tallies"` // bluffs count understated claims
	Games   []json.RawMessage `json:"games"`
	Open    []string          `json:"open"`
}

// copyFixture copies testdata/name to a new file and returns its path.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mia.db")
	in, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// dumpBuckets is every top-level bucket's keys and values in tx.
func dumpBuckets(tx *bolt.Tx) map[string]map[string]string {
	out := map[string]map[string]string{}
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		kv := map[string]string{}
		_ = b.ForEach(func(k, v []byte) error { kv[string(k)] = string(v); return nil })
		out[string(name)] = kv
		return nil
	})
	return out
}

// TestMigrateSchema2 opens the fixture of schema 2: it becomes the
// current schema in one go, with the buckets of what open tables keep
// (empty: a table draws its next dice when the lobby starts it), every
// tally counted again from the games, understated claims apart from
// bluffs and every other counter as schema 2 had it, and the ratings made
// from the games (schema 2's bucket dropped): tallies and ratings are
// what a fresh replay of its games gives. Nothing else in the file
// changes, byte for byte. Check is clean, and a reopen changes nothing.
func TestMigrateSchema2(t *testing.T) {
	var want schema2
	doc, err := os.ReadFile(filepath.Join("testdata", "schema2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &want); err != nil {
		t.Fatal(err)
	}
	path := copyFixture(t, "schema2.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var before map[string]map[string]string
	_ = db.View(func(tx *bolt.Tx) error { before = dumpBuckets(tx); return nil })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if v := before["meta"]["schema"]; v != string(u64(2)) {
		t.Fatalf("the fixture is of schema %x", v)
	}
	for _, b := range [][]byte{bucketNextDice, bucketChat} {
		if _, ok := before[string(b)]; ok {
			t.Fatalf("the fixture of schema 2 has a bucket %s", b)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("open the schema-2 file: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check after the migration: %v", err)
	}
	var after map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { after = dumpBuckets(tx); return nil })
	if v := after["meta"]["schema"]; v != string(u64(SchemaVersion)) {
		t.Errorf("schema %x after the migration", v)
	}
	for name, kv := range before {
		if name == string(bucketTallies) || name == string(bucketMeta) || name == string(bucketOldRatings) {
			continue
		}
		if !reflect.DeepEqual(after[name], kv) {
			t.Errorf("the migration changed bucket %s", name)
		}
	}
	if _, ok := before[string(bucketOldRatings)]; !ok {
		t.Error("the fixture of schema 2 has no ratings bucket")
	}
	if _, ok := after[string(bucketOldRatings)]; ok {
		t.Error("schema 2's ratings bucket is still there")
	}
	for _, k := range []string{"schema", "ratings", "tallies"} {
		if after["meta"][k] == "" {
			t.Errorf("meta %q not set", k)
		}
	}
	sameAsFreshReplay(t, s)
	for _, b := range [][]byte{bucketNextDice, bucketChat} {
		if kv, ok := after[string(b)]; !ok || len(kv) != 0 {
			t.Errorf("bucket %s after the migration: %d entries, made %t", b, len(kv), ok)
		}
	}

	// Tallies: counted from the games (referenceTally), understated
	// claims apart; schema 2's figures otherwise.
	var (
		all  []Game
		logs [][]engine.Event
	)
	for id := 1; ; id++ {
		g, evs, err := s.Game(ctx, strconv.Itoa(id))
		if errors.Is(err, ErrNotFound) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all, logs = append(all, g), append(logs, evs)
	}
	if len(all) != len(want.Games) {
		t.Fatalf("%d games, schema 2 read %d", len(all), len(want.Games))
	}
	recount := referenceTally(all, logs)
	// Schema 2 counted the moves of a game still running; they count now
	// once it ends, so its players' figures are the games' alone.
	playing := seatedInRunningGames(t, all)
	understated := 0
	for id, old := range want.Tallies {
		got, err := s.Tally(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		understated += got.Understated
		asV1 := got
		asV1.Bluffs, asV1.Understated = got.Bluffs+got.Understated, 0
		if asV1 != old && !playing[id] || got != recount[id] {
			t.Errorf("tally of %s = %+v; schema 2 had %+v; the games count %+v", id, got, old, recount[id])
		}
	}
	if understated == 0 {
		t.Error("no understated claim in the fixture's games: the recount is not tested")
	}
	frank := want.People[len(want.People)-1]
	if got, _ := s.Tally(ctx, frank.ID); frank.Name != "frank" || got.Understated == 0 {
		t.Errorf("frank (%s) understated nothing: %+v", frank.Name, got)
	}

	// A reopen finds the current schema and changes nothing.
	s = reopen(t, s)
	var again map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { again = dumpBuckets(tx); return nil })
	if !reflect.DeepEqual(again, after) {
		t.Error("the reopen changed the file")
	}
}

// TestMigrateSchema1WebLink: a private table's web link (`table link`,
// kept in the table's record of schema 1 as written by the web window's
// first version) survives the migration, on an open table and on a closed
// one, beside its host and members now as person ids.
func TestMigrateSchema1WebLink(t *testing.T) {
	ctx := context.Background()
	s, want := openSchema1(t, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketTables, bucketClosed} {
			b := tx.Bucket(name)
			type kv struct{ k, v []byte }
			var puts []kv
			err := b.ForEach(func(k, v []byte) error {
				var rec map[string]any
				if err := json.Unmarshal(v, &rec); err != nil {
					return err
				}
				if rec["private"] != true {
					return nil
				}
				rec["link"] = "tok-" + rec["name"].(string)
				nv, err := json.Marshal(rec)
				puts = append(puts, kv{clone(k), nv})
				return err
			})
			if err != nil {
				return err
			}
			for _, p := range puts {
				if err := b.Put(p.k, p.v); err != nil {
					return err
				}
			}
		}
		return nil
	})
	linked := 0
	for name, recs := range want.Tables {
		got, err := s.TableRecords(ctx, name)
		if err != nil || len(got) != len(recs) {
			t.Fatalf("table %s: %d records, %v", name, len(got), err)
		}
		for _, g := range got {
			wantLink := ""
			if g.Private {
				wantLink = "tok-" + name
				linked++
			}
			if g.Link != wantLink {
				t.Errorf("table %s (created %s): link %q, want %q", name, g.Created, g.Link, wantLink)
			}
			if g.Private && !ident.HasKeys(g.Host) {
				t.Errorf("table %s: host %q is no person", name, g.Host)
			}
		}
	}
	if linked < 2 {
		t.Errorf("only %d private tables in the fixture: the test covers nothing", linked)
	}
	if club, err := s.Table(ctx, "club"); err != nil || club.Link != "tok-club" || !club.IsOpen() {
		t.Errorf("club: %+v, %v", club, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// nameOfKey is the schema-1 name of a key.
func nameOfKey(want schema1, key string) string {
	for name, k := range want.Keys {
		if k == key && name != "red" {
			return name
		}
	}
	return ""
}

// sameAsFreshReplay plays every game of s again, through CreateGame and
// Append, into a new file that has s's table records: games created in
// the order of their ids, their events appended, and the finished ones
// finished in the order they ended (the order a rebuild numbers the games
// of a file without finishing numbers). The new file's tallies, public
// and private, and its ratings (every board in every season, each game's
// changes, the finishing numbers and the stamps) must equal s's, byte for
// byte.
func sameAsFreshReplay(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	fresh, _ := openTemp(t)
	if err := s.db.View(func(from *bolt.Tx) error {
		return fresh.db.Update(func(to *bolt.Tx) error {
			for _, name := range [][]byte{bucketTables, bucketClosed} {
				if err := from.Bucket(name).ForEach(func(k, v []byte) error {
					return to.Bucket(name).Put(clone(k), clone(v))
				}); err != nil {
					return err
				}
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	type played struct {
		g   Game
		evs []engine.Event
	}
	var games []played
	for id := 1; ; id++ {
		g, evs, err := s.Game(ctx, strconv.Itoa(id))
		if errors.Is(err, ErrNotFound) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		games = append(games, played{g, evs})
	}
	finished := 0
	for _, p := range games {
		g := p.g
		g.Fair = nil // the dice are in the events; neither tallies nor ratings read the proof
		got, err := fresh.CreateGame(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != p.g.ID {
			t.Fatalf("game %s replayed as %s", p.g.ID, got.ID)
		}
		if len(p.evs) > 0 {
			if err := fresh.Append(ctx, got.ID, p.evs, nil); err != nil {
				t.Fatal(err)
			}
		}
		if !p.g.Ended.IsZero() && !p.g.Finished() {
			if err := fresh.Abandon(ctx, got.ID, p.g.Ended, p.g.Abandoned); err != nil {
				t.Fatal(err)
			}
		}
	}
	slices.SortStableFunc(games, func(a, b played) int { return a.g.Ended.Compare(b.g.Ended) })
	for _, p := range games {
		if !p.g.Finished() {
			continue
		}
		res := engine.Result{Ended: p.g.Ended, Winner: p.g.Winner, Standings: p.g.Standings}
		if err := fresh.Append(ctx, p.g.ID, nil, &res); err != nil {
			t.Fatal(err)
		}
		finished++
	}
	if finished < 5 {
		t.Fatalf("only %d finished games replayed", finished)
	}
	sameSnapshot(t, "the ratings of a fresh replay", snapshot(t, fresh), snapshot(t, s))
	tallies := func(s *Store) map[string]string {
		out := map[string]string{}
		_ = s.db.View(func(tx *bolt.Tx) error {
			out["meta"] = string(tx.Bucket(bucketMeta).Get(keyTallies))
			return tx.Bucket(bucketTallies).ForEach(func(k, v []byte) error {
				out[string(k)] = string(v)
				return nil
			})
		})
		return out
	}
	want, got := tallies(fresh), tallies(s)
	private := 0
	for k := range want {
		if _, public := tallyPerson([]byte(k)); !public {
			private++
		}
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("tallies differ from a fresh replay's\n got %q\nwant %q", got, want)
	}
	if len(want) < 4 || private == 0 {
		t.Errorf("%d tallies, %d of private games: the comparison covers too little", len(want), private)
	}
}

// TestOlderFileOfTheCurrentSchema: a file of the current schema as the
// server before the boards wrote it (no stamps in meta; every tally under
// its person, public and private games together; its ratings in a bucket
// "ratings" of JSON rows; no finishing numbers) has its tallies counted
// again and its ratings made on open, once: the result is a fresh
// replay's, and a reopen changes nothing.
func TestOlderFileOfTheCurrentSchema(t *testing.T) {
	path := copyFixture(t, "schema2.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketBoards, bucketRatingGames, bucketFinishOrder} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		old, err := tx.CreateBucket(bucketOldRatings)
		if err != nil {
			return err
		}
		if err := old.Put([]byte("\x00p:1"), []byte(`{"rating":1516,"games":3,"wins":2}`)); err != nil {
			return err
		}
		// One tally per person, as that server kept it.
		tallies := tx.Bucket(bucketTallies)
		sums := map[string]Tally{}
		var keys [][]byte
		if err := tallies.ForEach(func(k, v []byte) error {
			tl, err := decodeTally(v)
			if err != nil {
				return err
			}
			person, _ := tallyPerson(k)
			sum := sums[person]
			sum.add(tl)
			sums[person] = sum
			keys = append(keys, clone(k))
			return nil
		}); err != nil {
			return err
		}
		for _, k := range keys {
			if err := tallies.Delete(k); err != nil {
				return err
			}
		}
		for person, tl := range sums {
			if err := tallies.Put([]byte(person), tl.encode()); err != nil {
				return err
			}
		}
		for _, k := range [][]byte{keyTallies, keyRatings} {
			if err := tx.Bucket(bucketMeta).Delete(k); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	sameAsFreshReplay(t, s)
	var first map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { first = dumpBuckets(tx); return nil })
	if _, ok := first[string(bucketOldRatings)]; ok {
		t.Error("the old ratings bucket is still there")
	}
	s = reopen(t, s)
	var again map[string]map[string]string
	_ = s.db.View(func(tx *bolt.Tx) error { again = dumpBuckets(tx); return nil })
	if !reflect.DeepEqual(first, again) {
		t.Error("the second open changed the file")
	}
}
