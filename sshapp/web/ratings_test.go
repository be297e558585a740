package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// boardRow is the leaderboard's row of a person, as the page writes it.
func boardRow(rank int, name string, r store.Rating) string {
	return fmt.Sprintf(`<tr><td>%d</td><td><a href="/players/%s">%s</a></td><td>%s</td><td>%d</td>`,
		rank, name, name, words.Figure(r.Rating), r.Games)
}

// TestRatingPages: the web's leaderboard and player pages show the
// boards as the store has them, each figure as every door shows it
// (words.Figure), in the season running by default, any season or all
// time by ?season=; an ended season names its champion. A private
// table's games show nowhere a stranger looks: not on the overall board,
// not in a player's counts, rating or trend; its own board is not found
// but through the table's web link, and the page's season links carry
// the link.
func TestRatingPages(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(5), nil)
	ctx := ctxT(t)
	alice, bob := e.player("alice"), e.player("bob")
	e.newGame("pub", quickRules(), false, alice, bob).playOut(nil)
	club := e.newGame("club", quickRules(), true, alice, bob)
	club.playOut(nil)
	if err := club.tbl.Start(ctx, alice); err != nil {
		t.Fatal(err)
	}
	club.catchUp()
	club.playOut(nil)

	now := e.clock.Now()
	season := rating.Monthly.Of(now)
	overall := func(p lobby.Player, s rating.Season) store.Rating {
		t.Helper()
		r, err := e.st.Rating(ctx, p.ID, store.Board{Season: s})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	records, err := e.st.TableRecords(ctx, "club")
	if err != nil || len(records) != 1 {
		t.Fatalf("club's records: %+v %v", records, err)
	}
	clubBoard, err := e.st.Leaderboard(ctx, store.BoardQuery{Board: store.Board{Table: &records[0], Season: rating.AllTime}})
	if err != nil || len(clubBoard) != 2 || clubBoard[0].Games != 2 {
		t.Fatalf("club's board: %+v %v", clubBoard, err)
	}
	a, b := overall(alice, rating.AllTime), overall(bob, rating.AllTime)
	if a.Games != 1 || b.Games != 1 {
		t.Fatalf("the overall board counts %d and %d games: the private ones too", a.Games, b.Games)
	}
	first, second := "alice", "bob"
	if rating.Compare(b.Rating, a.Rating) < 0 {
		first, second, a, b = "bob", "alice", b, a
	}

	// The overall board, this season and all time.
	for _, path := range []string{"/leaderboard", "/leaderboard?season=" + season.String(), "/leaderboard?season=all-time"} {
		resp, body := e.get(path)
		want := []string{boardRow(1, first, a), boardRow(2, second, b), words.ProvisionalNote, "Players by rating overall"}
		if path == "/leaderboard?season=all-time" {
			want = append(want, "all time (UTC)", "the season running, "+season.String())
		} else {
			want = append(want, "season "+season.String()+", "+words.SeasonWords(season)+", "+words.SeasonLeft(season, now),
				`href="/leaderboard?season=`+season.Prev().String()+`"`, `href="/leaderboard?season=all-time"`)
		}
		if m := missing(body, want...); resp.StatusCode != 200 || m != nil {
			t.Errorf("%s: %d, lacks %q", path, resp.StatusCode, m)
		}
		if strings.Contains(body, "The season is over") || strings.Contains(body, `?season=`+season.Next().String()) {
			t.Errorf("%s: the season running is over, or has a next one", path)
		}
	}

	// A player's page: their public games only.
	resp, body := e.get("/players/alice")
	ra, rs := overall(alice, rating.AllTime), overall(alice, season)
	want := []string{"Stats over the games of public tables", "1 played",
		words.Figure(ra.Rating) + " overall, all time, after 1 rated game", "μ " + fmt.Sprintf("%.2f", ra.Mu),
		words.Figure(rs.Rating) + " in " + season.String() + ", " + words.SeasonWords(season), words.ProvisionalNote}
	if m := missing(body, want...); resp.StatusCode != 200 || m != nil {
		t.Errorf("/players/alice: %d, lacks %q", resp.StatusCode, m)
	}
	for _, r := range clubBoard {
		if r.Person == alice.ID && strings.Contains(body, "after 2 rated games") || strings.Contains(body, "3 played") {
			t.Errorf("/players/alice shows the private games:\n%s", body)
		}
	}
	pts, err := e.st.Trend(ctx, alice.ID, nil, 30)
	if err != nil || len(pts) != 1 {
		t.Fatalf("alice's trend: %+v %v", pts, err)
	}
	if m := missing(body, "<dt>Trend</dt><dd>"+words.TrendWords([]rating.Change{pts[0].Change})+"</dd>"); m != nil {
		t.Errorf("/players/alice lacks %q", m)
	}

	// The private table's board: not there, but through its link.
	_, notFound := e.get("/nothing/here")
	for _, p := range []string{"/leaderboard?table=club", "/leaderboard?table=CLUB&season=all-time", "/leaderboard?table=club&link=nope"} {
		if resp, body := e.get(p); resp.StatusCode != http.StatusNotFound || body != notFound {
			t.Errorf("%s: %d, the not-found page: %v", p, resp.StatusCode, body == notFound)
		}
	}
	tok, err := club.tbl.Link(ctx, alice, false)
	if err != nil {
		t.Fatal(err)
	}
	link := url.QueryEscape(tok)
	resp, body = e.get("/leaderboard?table=club&season=all-time&link=" + link)
	want = []string{"Players by rating at club", `href="/leaderboard?link=` + link + `&amp;season=` + season.String() + `&amp;table=club"`}
	for i, r := range clubBoard {
		want = append(want, boardRow(i+1, r.Name, r))
	}
	if m := missing(body, want...); resp.StatusCode != 200 || m != nil {
		t.Errorf("club's board by its link: %d, lacks %q\n%s", resp.StatusCode, m, body)
	}

	// A bad season is said so.
	resp, body = e.get("/leaderboard?season=2026-13")
	if m := missing(body, "&#34;2026-13&#34; is not a season: "+words.SeasonForms); resp.StatusCode != http.StatusBadRequest || m != nil {
		t.Errorf("a bad season: %d, lacks %q", resp.StatusCode, m)
	}

	// Once the month has ended: its champion, and a season of no games.
	e.clock.Skip(season.End().Sub(e.clock.Now()) + 24*time.Hour)
	resp, body = e.get("/leaderboard?season=" + season.String())
	if m := missing(body, "The season is over; its champion: "+first+", "+words.Figure(overall(lobby.Player{ID: a.Person}, season).Rating),
		`?season=`+season.Next().String()); resp.StatusCode != 200 || m != nil {
		t.Errorf("the ended season: %d, lacks %q", resp.StatusCode, m)
	}
	resp, body = e.get("/leaderboard")
	if m := missing(body, "season "+season.Next().String(), "No rated games yet."); resp.StatusCode != 200 || m != nil {
		t.Errorf("the new season: %d, lacks %q", resp.StatusCode, m)
	}
}

// TestRatingPagesSeasonsOff: with seasons off, the leaderboard is all
// time and offers no season, and a player's page shows no season.
func TestRatingPagesSeasonsOff(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(6), func(c *Config) { c.Season = rating.Off })
	alice, bob := e.player("alice"), e.player("bob")
	e.newGame("pub", quickRules(), false, alice, bob).playOut(nil)
	resp, body := e.get("/leaderboard")
	if m := missing(body, "all time (UTC)", `href="/players/alice"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("/leaderboard: %d, lacks %q", resp.StatusCode, m)
	}
	if strings.Contains(body, "?season=") {
		t.Error("a season offered with seasons off")
	}
	_, body = e.get("/players/alice")
	if strings.Contains(body, "<dt>Season</dt>") {
		t.Error("a season on the player's page with seasons off")
	}
}
