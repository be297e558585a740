package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

func TestHistoryVisibility(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const (
		host     = "SHA256:host"
		member   = "SHA256:member"
		stranger = "SHA256:stranger"
		old      = "SHA256:old" // sat at the earlier table of a reused name
	)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(name string, private bool, created time.Time, members ...string) {
		t.Helper()
		tb := table(name)
		tb.Host, tb.Private, tb.Members, tb.Created = host, private, members, created
		if err := s.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	play := func(tableName string, at time.Time, fps ...string) string {
		t.Helper()
		st := make([]Seat, len(fps))
		for i, fp := range fps {
			st[i] = Seat{Name: fmt.Sprintf("s%d", i), Fingerprint: fp}
		}
		g, err := s.CreateGame(ctx, Game{Table: tableName, Seats: st, Rules: engine.DefaultOptions(), Started: at})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, g.ID, nil, &Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	// "reuse" is first a private table where old played, then closed, then
	// a public table of the same name.
	mk("reuse", true, t0)
	oldGame := play("reuse", t0.Add(time.Minute), host, old)
	if err := s.UpdateTable(ctx, "reuse", func(tb *Table) error { tb.Closed = t0.Add(time.Hour); return nil }); err != nil {
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
	ids := func(v Viewer, q Query) []string {
		t.Helper()
		gs, err := s.History(ctx, q, v)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	cases := []struct {
		name string
		v    Viewer
		q    Query
		want []string
	}{
		{"stranger sees public games only", Viewer{Fingerprint: stranger}, Query{Limit: 100}, append(rev(pub...), newGame)},
		{"stranger's page skips hidden games", Viewer{Fingerprint: stranger}, Query{Limit: 3}, rev(pub...)[:3]},
		{"stranger's next page", Viewer{Fingerprint: stranger}, Query{Limit: 3, Before: rev(pub...)[2]}, append(rev(pub...)[3:], newGame)[:3]},
		{"stranger's last page", Viewer{Fingerprint: stranger}, Query{Limit: 3, Before: rev(pub...)[5]}, []string{newGame}},
		{"stranger asks for the private table", Viewer{Fingerprint: stranger}, Query{Table: "CLUB"}, []string{}},
		{"stranger asks for a player there", Viewer{Fingerprint: stranger}, Query{Player: member, Table: "club"}, []string{}},
		{"member sees the private table", Viewer{Fingerprint: member}, Query{Table: "club", Limit: 4}, rev(club...)[:4]},
		{"host too", Viewer{Fingerprint: host}, Query{Table: "club", Limit: 2}, rev(club...)[:2]},
		{"admin sees all", Viewer{Fingerprint: stranger, Admin: true}, Query{Table: "reuse"}, []string{newGame, oldGame}},
		{"a reused name hides the old games", Viewer{Fingerprint: member}, Query{Table: "reuse"}, []string{newGame}},
		{"but not from those who sat there", Viewer{Fingerprint: old}, Query{Table: "reuse"}, []string{newGame, oldGame}},
		{"by player", Viewer{Fingerprint: old}, Query{Player: old}, []string{oldGame}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ids(c.v, c.q); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	// GameVisible agrees, and a removed member loses the games.
	g, _, err := s.Game(ctx, club[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    Viewer
		want bool
	}{{Viewer{Fingerprint: member}, true}, {Viewer{Fingerprint: stranger}, false}, {Viewer{Admin: true}, true}, {Viewer{}, false}} {
		if ok, err := s.GameVisible(ctx, g, c.v); err != nil || ok != c.want {
			t.Errorf("GameVisible(%+v) = %v, %v; want %v", c.v, ok, err, c.want)
		}
	}
	if err := s.UpdateTable(ctx, "club", func(tb *Table) error { tb.Members = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.GameVisible(ctx, g, Viewer{Fingerprint: member}); ok {
		t.Error("a removed member still sees the table's games")
	}
	if got := ids(Viewer{Fingerprint: member}, Query{Table: "club"}); len(got) != 0 {
		t.Errorf("a removed member's history of the table: %v", got)
	}
}

func TestRounds(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := newRand(5)
	var ids []string
	var want []int
	for i := range 5 {
		opts := engine.DefaultOptions()
		opts.Lives = 2
		g, chunks := playGame(t, r, opts, 2+i%3, 0)
		gm := storeGame(t, s, "t", seats(g.Players()), opts, g, chunks)
		ids = append(ids, gm.ID)
		want = append(want, g.Round())
	}
	empty, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, empty.ID, "999", "x")
	want = append(want, 0, 0, 0)
	got, err := s.Rounds(ctx, ids)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Rounds(%v) = %v, %v; want %v", ids, got, err, want)
	}
}

func TestNewMethodsCheckTheContext(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	checks := map[string]error{}
	_, checks["History"] = s.History(ctx, Query{}, Viewer{})
	_, checks["Rounds"] = s.Rounds(ctx, []string{"1"})
	_, checks["GameVisible"] = s.GameVisible(ctx, Game{Table: "t"}, Viewer{})
	_, checks["Rating"] = s.Rating(ctx, "x", "")
	_, checks["Leaderboard"] = s.Leaderboard(ctx, "", 1)
	checks["Ban"] = s.Ban(ctx, Ban{Fingerprint: "x"})
	checks["Unban"] = s.Unban(ctx, "x")
	_, checks["Banned"] = s.Banned(ctx, "x")
	_, checks["Bans"] = s.Bans(ctx)
	for name, err := range checks {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
	}
}

// A closed table's games stay where they were when its name is used
// again: the earlier table's record moves aside and still decides who sees
// them, across a restart too.
func TestClosedTableGamesAfterNameReused(t *testing.T) {
	const (
		host     = "SHA256:host"
		member   = "SHA256:member"
		stranger = "SHA256:stranger"
		player   = "SHA256:player"
	)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name         string
		first, again bool // private?
		viewer       string
		wantOld      bool // the first table's game is listed and visible
		wantKnown    bool // TableKnown
	}{
		{"public then public, a stranger", false, false, stranger, true, true},
		{"public then private, a stranger", false, true, stranger, true, true},
		{"private then public, a stranger", true, false, stranger, false, true},
		{"private then public, its member", true, false, member, true, true},
		{"private then private, a stranger", true, true, stranger, false, false},
		{"private then private, a player there", true, true, player, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			mk := func(private bool, at time.Time) {
				t.Helper()
				tb := table("g2")
				tb.Host, tb.Private, tb.Created = host, private, at
				if private {
					tb.Members = []string{member}
				}
				if err := s.CreateTable(ctx, tb); err != nil {
					t.Fatal(err)
				}
			}
			play := func(at time.Time) string {
				t.Helper()
				g, err := s.CreateGame(ctx, Game{Table: "g2", Seats: []Seat{{Name: "a", Fingerprint: player}, {Name: "b", Fingerprint: "bot:easy:b", Bot: true}},
					Rules: engine.DefaultOptions(), Started: at})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Append(ctx, g.ID, nil, &Result{Winner: 0, Standings: []int{0, 1}}); err != nil {
					t.Fatal(err)
				}
				return g.ID
			}
			mk(c.first, t0)
			old := play(t0.Add(time.Minute))
			if err := s.UpdateTable(ctx, "g2", func(tb *Table) error { tb.Closed = t0.Add(time.Hour); return nil }); err != nil {
				t.Fatal(err)
			}
			mk(c.again, t0.Add(2*time.Hour))
			s = reopen(t, s)
			v := Viewer{Fingerprint: c.viewer}
			for _, q := range []Query{{}, {Table: "G2"}, {Player: player}} {
				gs, err := s.History(ctx, q, v)
				if err != nil {
					t.Fatal(err)
				}
				listed := len(gs) == 1 && gs[0].ID == old
				if listed != c.wantOld || len(gs) > 1 {
					t.Errorf("History(%+v) = %v, want the old game listed: %v", q, gs, c.wantOld)
				}
			}
			g, _, err := s.Game(ctx, old)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := s.GameVisible(ctx, g, v); err != nil || ok != c.wantOld {
				t.Errorf("GameVisible = %v, %v; want %v", ok, err, c.wantOld)
			}
			if ok, err := s.TableKnown(ctx, "g2", v); err != nil || ok != c.wantKnown {
				t.Errorf("TableKnown = %v, %v; want %v", ok, err, c.wantKnown)
			}
			recs, err := s.TableRecords(ctx, "g2")
			if err != nil || len(recs) != 2 || recs[0].IsOpen() || !recs[1].IsOpen() || recs[0].Private != c.first {
				t.Errorf("TableRecords = %+v, %v", recs, err)
			}
			if err := s.Check(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}
