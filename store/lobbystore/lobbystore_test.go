package lobbystore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestHistoryByTheLobbysRule pages through the history of a real store
// with the lobby's access rule: private tables, a removed member, a
// reused table name, admins.
func TestHistoryByTheLobbysRule(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	const (
		host     = "SHA256:host"
		member   = "SHA256:member"
		stranger = "SHA256:stranger"
		old      = "SHA256:old" // sat at the earlier table of a reused name, a member there
	)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(name string, private bool, created time.Time, members ...string) {
		t.Helper()
		tb := store.TableRecord{Name: name, Host: host, Private: private, Members: members, Created: created,
			Rules: engine.DefaultOptions(), Seats: 4}
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	play := func(tableName string, at time.Time, fps ...string) string {
		t.Helper()
		st := make([]store.Seat, len(fps))
		for i, fp := range fps {
			st[i] = store.Seat{PlayedAs: fmt.Sprintf("s%d", i), Person: fp, Fingerprint: fp}
		}
		g, err := s.CreateGame(ctx, store.Game{Table: tableName, Seats: st, Rules: engine.DefaultOptions(), Started: at})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	// "reuse" is first a private table where old played, then closed, then
	// a public table of the same name.
	mk("reuse", true, t0, old)
	oldGame := play("reuse", t0.Add(time.Minute), host, old)
	if err := s.UpdateTable(ctx, "reuse", func(tb *store.TableRecord) error { tb.Closed = t0.Add(time.Hour); return nil }); err != nil {
		t.Fatal(err)
	}
	mk("reuse", false, t0.Add(2*time.Hour))
	newGame := play("reuse", t0.Add(3*time.Hour), host, member)
	mk("pub", false, t0)
	mk("club", true, t0, member)
	var pub, club []string // newest last
	for i := range 30 {
		at := t0.Add(4*time.Hour + time.Duration(i)*time.Minute)
		if i%5 == 0 {
			pub = append(pub, play("pub", at, host, member))
		} else {
			club = append(club, play("club", at, host, member))
		}
	}
	rev := func(ids ...string) []string { out := slices.Clone(ids); slices.Reverse(out); return out }
	ids := func(v lobby.Viewer, q store.Query) []string {
		t.Helper()
		gs, err := s.History(ctx, q, Shows(v))
		out := make([]string, len(gs))
		for i, g := range gs {
			out[i] = g.ID
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	type V = lobby.Viewer
	type Q = store.Query
	cases := []struct {
		name string
		v    V
		q    Q
		want []string
	}{
		{"stranger sees public games only", V{ID: stranger}, Q{Limit: 100}, append(rev(pub...), newGame)},
		{"stranger's page skips hidden games", V{ID: stranger}, Q{Limit: 3}, rev(pub...)[:3]},
		{"stranger's next page", V{ID: stranger}, Q{Limit: 3, Before: rev(pub...)[2]}, append(rev(pub...)[3:], newGame)[:3]},
		{"stranger asks for the private table", V{ID: stranger}, Q{Table: "CLUB"}, []string{}},
		{"stranger asks for a player there", V{ID: stranger}, Q{Player: member, Table: "club"}, []string{}},
		{"member sees the private table", V{ID: member}, Q{Table: "club", Limit: 4}, rev(club...)[:4]},
		{"host too", V{ID: host}, Q{Table: "club", Limit: 2}, rev(club...)[:2]},
		{"admin sees all", V{ID: stranger, Admin: true}, Q{Table: "reuse"}, []string{newGame, oldGame}},
		{"a reused name keeps the old table's privacy", V{ID: member}, Q{Table: "reuse"}, []string{newGame}},
		{"and its members", V{ID: old}, Q{Table: "reuse"}, []string{newGame, oldGame}},
		{"by player", V{ID: old}, Q{Player: old}, []string{oldGame}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ids(c.v, c.q); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	// GameShown agrees, and a removed member loses the games.
	g, _, err := s.Game(ctx, club[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    V
		want bool
	}{{V{ID: member}, true}, {V{ID: stranger}, false}, {V{Admin: true}, true}, {V{}, false}} {
		if ok, err := s.GameShown(ctx, g, Shows(c.v)); err != nil || ok != c.want {
			t.Errorf("GameShown(%+v) = %v, %v; want %v", c.v, ok, err, c.want)
		}
	}
	if err := s.UpdateTable(ctx, "club", func(tb *store.TableRecord) error { tb.Members = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.GameShown(ctx, g, Shows(V{ID: member})); ok {
		t.Error("a removed member still sees the table's games")
	}
	// A web link, stored with the table, opens its games to whoever holds
	// it, through the lobby's adapter as through the store, until revoked.
	storage := New(s)
	if err := storage.UpdateTable(ctx, "club", func(r *lobby.TableRecord) error { r.Link = "tok"; return nil }); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.GameShown(ctx, g, Shows(V{Link: "tok"})); err != nil || !ok {
		t.Errorf("the link holder: GameShown = %v, %v", ok, err)
	}
	if got := ids(V{Link: "tok"}, Q{Table: "club", Limit: 2}); !slices.Equal(got, rev(club...)[:2]) {
		t.Errorf("the link holder's history of the table: %v", got)
	}
	if recs, err := storage.OpenTables(ctx); err != nil || !slices.ContainsFunc(recs, func(r lobby.TableRecord) bool { return r.Link == "tok" }) {
		t.Errorf("the link does not come back with the open tables: %v", err)
	}
	if ok, _ := s.GameShown(ctx, g, Shows(V{Link: "other"})); ok {
		t.Error("a wrong token opens the game")
	}
	if err := storage.UpdateTable(ctx, "club", func(r *lobby.TableRecord) error { r.Link = ""; return nil }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.GameShown(ctx, g, Shows(V{Link: "tok"})); ok {
		t.Error("a revoked link still opens the game")
	}
	if got := ids(V{ID: member}, Q{Table: "club"}); len(got) != 0 {
		t.Errorf("a removed member's history of the table: %v", got)
	}
}

// TestStorage drives the adapter as the lobby does: tables, their updates
// and invites, a game from its start to its result, and the errors the
// lobby tells apart (ErrTableExists, ErrBadInvite).
func TestStorage(t *testing.T) {
	st := openStore(t)
	s := New(st)
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := lobby.TableRecord{Name: "club", Rules: engine.DefaultOptions(), Seats: 3,
		Access: lobby.Access{Private: true, Host: "SHA256:h", Created: now}}
	if err := s.CreateTable(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, rec); !errors.Is(err, lobby.ErrTableExists) {
		t.Fatalf("the same table again: %v", err)
	}
	if err := s.AddInvite(ctx, "club", "code", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.UseInvite(ctx, "club", "nope", "SHA256:m", now); !errors.Is(err, lobby.ErrBadInvite) {
		t.Fatalf("a made-up code: %v", err)
	}
	if err := s.UseInvite(ctx, "club", "code", "SHA256:m", now); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTable(ctx, "club", func(r *lobby.TableRecord) error { r.Seats = 4; return nil }); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenTables(ctx)
	if err != nil || len(open) != 1 {
		t.Fatalf("open tables %+v, %v", open, err)
	}
	got := open[0]
	if got.Seats != 4 || !got.Private || got.Host != "SHA256:h" || !slices.Equal(got.Members, []string{"SHA256:m"}) || !got.Created.Equal(now) {
		t.Fatalf("table read back as %+v", got)
	}
	host, err := st.SetName(ctx, "SHA256:h", "host")
	if err != nil {
		t.Fatal(err)
	}
	if name, err := s.PersonName(ctx, host.ID); err != nil || name != "host" {
		t.Fatalf("PersonName = %q, %v", name, err)
	}
	if _, err := s.PersonName(ctx, "p:99"); !errors.Is(err, lobby.ErrNoPerson) {
		t.Fatalf("PersonName of nobody: %v", err)
	}

	players := []lobby.Player{{ID: host.ID, Key: "SHA256:h"}, {ID: "bot:easy:ada", Bot: true}}
	rules := engine.DefaultOptions()
	rules.Lives = 1
	g, evs, err := engine.New(rules, 2, engine.CryptoSource{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.CreateGame(ctx, lobby.GameRecord{Table: "club", Players: players, Names: []string{"host", "ada"}, Rules: rules, Started: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, id, evs, nil); err != nil {
		t.Fatal(err)
	}
	saved, err := s.InProgress(ctx)
	if err != nil || len(saved) != 1 || saved[0].ID != id || !slices.Equal(saved[0].Players, players) ||
		saved[0].Table != "club" || len(saved[0].Events) != len(evs) {
		t.Fatalf("in progress: %+v, %v", saved, err)
	}
	more, err := g.Apply(engine.Action{Kind: engine.Leave, Seat: g.Turn()})
	if err != nil || !g.Over() {
		t.Fatalf("leave: %v (over %v)", err, g.Over())
	}
	if err := s.Append(ctx, id, more, &engine.Result{Ended: now.Add(time.Minute), Winner: g.Winner(), Standings: g.Standings()}); err != nil {
		t.Fatal(err)
	}
	stored, all, err := st.Game(ctx, id)
	if err != nil || !stored.Finished() || stored.Winner != g.Winner() || len(all) != len(evs)+len(more) {
		t.Fatalf("stored game %+v (%d events), %v", stored, len(all), err)
	}
	if saved, err := s.InProgress(ctx); err != nil || len(saved) != 0 {
		t.Fatalf("in progress after the end: %+v, %v", saved, err)
	}
}

// A closed table's games stay visible as they were when its name is used
// again (the issue: a public table's games vanished from history and
// replay once a new table took its name), across a reopen too.
func TestClosedTableGamesAfterNameReused(t *testing.T) {
	const (
		host     = "SHA256:host"
		member   = "SHA256:member"
		stranger = "SHA256:stranger"
		player   = "SHA256:player"
	)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name          string
		first, again  bool // private?
		viewer        string
		wantOld       bool // the first table's game is listed and shown
		wantNameKnown bool // some table of the name may be seen
	}{
		{"public then public, a stranger", false, false, stranger, true, true},
		{"public then private, a stranger", false, true, stranger, true, true},
		{"private then public, a stranger", true, false, stranger, false, true},
		{"private then public, its member", true, false, member, true, true},
		{"private then private, a stranger", true, true, stranger, false, false},
		{"private then private, its member", true, true, member, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := store.Open(filepath.Join(dir, "mia.db"))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			mk := func(private bool, at time.Time) {
				t.Helper()
				tb := store.TableRecord{Name: "g2", Host: host, Private: private, Created: at, Rules: engine.DefaultOptions(), Seats: 3}
				if private {
					tb.Members = []string{member, player}
				}
				if err := s.CreateTable(ctx, tb); err != nil {
					t.Fatal(err)
				}
			}
			mk(c.first, t0)
			g, err := s.CreateGame(ctx, store.Game{Table: "g2", Started: t0.Add(time.Minute), Rules: engine.DefaultOptions(),
				Seats: []store.Seat{{PlayedAs: "a", Person: player, Fingerprint: player}, {PlayedAs: "b", Person: "bot:easy:b", Fingerprint: "bot:easy:b", Bot: true}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Append(ctx, g.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
				t.Fatal(err)
			}
			if err := s.UpdateTable(ctx, "g2", func(tb *store.TableRecord) error { tb.Closed = t0.Add(time.Hour); return nil }); err != nil {
				t.Fatal(err)
			}
			mk(c.again, t0.Add(2*time.Hour))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = store.Open(filepath.Join(dir, "mia.db")); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			v := lobby.Viewer{ID: c.viewer}
			for _, q := range []store.Query{{}, {Table: "G2"}, {Player: player}} {
				gs, err := s.History(ctx, q, Shows(v))
				if err != nil {
					t.Fatal(err)
				}
				if listed := len(gs) == 1 && gs[0].ID == g.ID; listed != c.wantOld || len(gs) > 1 {
					t.Errorf("History(%+v) = %v, want the old game listed: %v", q, gs, c.wantOld)
				}
			}
			if ok, err := s.GameShown(ctx, g, Shows(v)); err != nil || ok != c.wantOld {
				t.Errorf("GameShown = %v, %v; want %v", ok, err, c.wantOld)
			}
			recs, err := s.TableRecords(ctx, "g2")
			if err != nil {
				t.Fatal(err)
			}
			known := slices.ContainsFunc(recs, func(tb store.TableRecord) bool { return v.Sees(Access(tb)) })
			if known != c.wantNameKnown {
				t.Errorf("some table g2 seen: %v, want %v", known, c.wantNameKnown)
			}
		})
	}
}

// TestKeptAcrossReopen: a table's next dice (the commitment shown, the
// seeds given) and its chat are in the file, so that a lobby opened on it
// again, after the server stopped, shows them as they were; the secret
// seed is in no table record a command reads; a table closed, or a new
// table of its name, keeps nothing of them; the file checks clean. The
// chat and the seeds are kept by person: renamed while the server was
// down, they show the names of now.
func TestKeptAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mia.db")
	ctx := context.Background()
	open := func() (*store.Store, *lobby.Lobby) {
		t.Helper()
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		l, err := lobby.New(ctx, lobby.Config{Store: New(st), BotDelay: lobby.NoDelay})
		if err != nil {
			t.Fatal(err)
		}
		return st, l
	}
	st, l := open()
	person := func(fp, name string) lobby.Player {
		t.Helper()
		p, err := st.SetName(ctx, fp, name)
		if err != nil {
			t.Fatal(err)
		}
		return lobby.Player{ID: p.ID, Key: fp}
	}
	alice, bob := person("SHA256:alice", "alice"), person("SHA256:bob", "bob")
	tbl, err := l.CreateTable(ctx, alice, lobby.TableConfig{Name: "Kept", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tbl.SetSeed(ctx, bob, "bob's seed"); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Say(ctx, alice, "hello across a restart"); err != nil {
		t.Fatal(err)
	}
	before := tbl.Info().Fair
	d, err := st.NextDice(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.TableRecords(ctx, "kept")
	if err != nil || len(recs) != 1 {
		t.Fatal(recs, err)
	}
	if s := fmt.Sprintf("%+v", recs); strings.Contains(s, d.Seed.Reveal()) {
		t.Error("the table's record holds its next secret seed")
	}
	l.Close()
	// Renamed while the server is down.
	for fp, name := range map[string]string{"SHA256:alice": "alicia", "SHA256:bob": "robert"} {
		if _, err := st.SetName(ctx, fp, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, l = open()
	tbl, err = l.Table("kept")
	if err != nil {
		t.Fatal(err)
	}
	after := tbl.Info().Fair
	if after.Commitment != before.Commitment || len(after.Seeds) != 1 || len(before.Seeds) != 1 ||
		after.Seeds[0].ID != bob.ID || after.Seeds[0].Seed != before.Seeds[0].Seed || after.Seeds[0].Name != "robert" {
		t.Errorf("the dice after the restart %+v, before %+v", after, before)
	}
	sub, err := tbl.Watch(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := sub.Wait(ctx)
	sub.Close()
	if len(snap.Chat) != 1 || snap.Chat[0].Text != "hello across a restart" || snap.Chat[0].FromID != alice.ID ||
		snap.Chat[0].From != "alicia" {
		t.Errorf("the chat after the restart: %+v", snap.Chat)
	}
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
	if err := tbl.Close(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := st.NextDice(ctx, "kept"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a closed table's next dice: %v", err)
	}
	if ls, err := st.Chat(ctx, "kept"); err != nil || len(ls) != 0 {
		t.Errorf("a closed table's chat: %+v %v", ls, err)
	}
	again, err := l.CreateTable(ctx, bob, lobby.TableConfig{Name: "kept", Rules: engine.DefaultOptions(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f := again.Info().Fair; f.Commitment == before.Commitment || len(f.Seeds) != 0 {
		t.Errorf("a new table of the name has the old one's dice: %+v", f)
	}
	if err := st.Check(ctx); err != nil {
		t.Error(err)
	}
	l.Close()
	st.Close()
}

// TestPublicGamesAreWhatEveryoneSees: the store's rule of what counts on
// the overall boards and in the tallies everyone reads (store.GamePublic)
// is the lobby's rule of what a viewer who is nobody, and so anyone, may
// see (lobby.Viewer.SeesGame), in every case: a public or private table,
// no record, a game older than its record.
func TestPublicGamesAreWhatEveryoneSees(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	pub := store.TableRecord{Name: "pub", Host: "p:1", Created: t0}
	priv := store.TableRecord{Name: "priv", Host: "p:1", Members: []string{"p:2"}, Private: true, Created: t0}
	for _, c := range []struct {
		name    string
		table   *store.TableRecord
		started time.Time
	}{
		{"public table", &pub, t0.Add(time.Minute)},
		{"public table, the instant it was made", &pub, t0},
		{"public table, a game older than its record", &pub, t0.Add(-time.Minute)},
		{"private table", &priv, t0.Add(time.Minute)},
		{"private table, a game older than its record", &priv, t0.Add(-time.Minute)},
		{"no record", nil, t0},
	} {
		g := store.Game{Table: "x", Started: c.started, Seats: []store.Seat{{Person: "p:1"}, {Person: "p:2"}}}
		everyone := lobby.Viewer{}.SeesGame(GameAccess(g, c.table))
		if got := store.GamePublic(c.started, c.table); got != everyone {
			t.Errorf("%s: GamePublic %v, the lobby shows it to everyone: %v", c.name, got, everyone)
		}
	}
}

// TestVisible: a --table NAME means the newest record of that name the
// viewer may see; a closed private table never stands for a public one
// of its name, nor the other way round for its members.
func TestVisible(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	old := store.TableRecord{Name: "secret", Host: "p:1", Members: []string{"p:2"}, Private: true, Created: t0, Closed: t0.Add(time.Hour)}
	neu := store.TableRecord{Name: "secret", Host: "p:3", Created: t0.Add(2 * time.Hour)}
	later := store.TableRecord{Name: "secret", Host: "p:3", Private: true, Created: t0.Add(3 * time.Hour)}
	for _, c := range []struct {
		name    string
		records []store.TableRecord
		v       lobby.Viewer
		want    *store.TableRecord
	}{
		{"nothing", nil, lobby.Viewer{ID: "p:9"}, nil},
		{"a stranger, the private one only", []store.TableRecord{old}, lobby.Viewer{ID: "p:9"}, nil},
		{"a member, the private one only", []store.TableRecord{old}, lobby.Viewer{ID: "p:2"}, &old},
		{"a stranger, reused by a public table", []store.TableRecord{old, neu}, lobby.Viewer{ID: "p:9"}, &neu},
		{"a member of the old, reused", []store.TableRecord{old, neu}, lobby.Viewer{ID: "p:2"}, &neu},
		{"a stranger, then private again", []store.TableRecord{old, neu, later}, lobby.Viewer{ID: "p:9"}, &neu},
		{"its host, then private again", []store.TableRecord{old, neu, later}, lobby.Viewer{ID: "p:3"}, &later},
		{"an admin", []store.TableRecord{old, neu, later}, lobby.Viewer{ID: "p:9", Admin: true}, &later},
	} {
		got := Visible(c.records, c.v)
		switch {
		case (got == nil) != (c.want == nil):
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		case got != nil && !got.Created.Equal(c.want.Created):
			t.Errorf("%s: the record of %v, want %v", c.name, got.Created, c.want.Created)
		}
	}
}
