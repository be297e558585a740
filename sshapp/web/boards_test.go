package web

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// boardRowRE reads a leaderboard row's rank, player, figure and games.
var boardRowRE = regexp.MustCompile(`<tr><td>(\d+)</td><td>(?:<a href="[^"]*">)?([^<]*)(?:</a>)?</td><td>([^<]*)</td><td>(\d+)</td>`)

// boardRows are the rows of a leaderboard page, "rank|player|figure|games"
// each.
func boardRows(body string) []string {
	var out []string
	for _, m := range boardRowRE.FindAllStringSubmatch(body, -1) {
		out = append(out, strings.Join(m[1:], "|"))
	}
	return out
}

// storeRows are the rows of a board as the store has them, as boardRows
// reads them off the page.
func storeRows(rs []store.Rating) []string {
	var out []string
	for i, r := range rs {
		out = append(out, fmt.Sprintf("%d|%s|%s|%d", i+1, html.EscapeString(words.Label(r.Name, r.Bot())), words.Figure(r.Rating), r.Games))
	}
	return out
}

// href is the attribute of a link to the leaderboard with query q, as
// the page writes it.
func href(q url.Values) string {
	u := "/leaderboard"
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return `href="` + html.EscapeString(u) + `"`
}

// TestBoardKinds: ?kind=people or bots is the store's board of that
// Kind (what leaderboard --people and --bots show), overall and at a
// table, in any season; the page offers "everyone · people · bots", the
// one shown not a link, each link keeping the table and season asked
// for, and the season links keeping the kind. A kind that is not one is
// a 400 page, as a bad season is.
func TestBoardKinds(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(11), nil)
	ctx := ctxT(t)
	alice, bob, robo := e.player("alice"), e.player("bob"), e.player("robo")
	robo.Bot = true // every game of robo's in a bot's seat: a bot on the boards
	e.newGame("pub", quickRules(), false, alice, bob, robo).playOut(nil)
	e.newGame("duel", quickRules(), false, alice, robo).playOut(nil)
	season := rating.Monthly.Of(e.clock.Now())
	pub, err := e.st.TableRecords(ctx, "pub")
	if err != nil || len(pub) != 1 {
		t.Fatalf("pub's records: %+v %v", pub, err)
	}

	kinds := []struct {
		arg  string // ?kind=, "" none
		kind store.BoardKind
		want int // rows on the overall board
	}{{"", store.Everyone, 3}, {"everyone", store.Everyone, 3}, {"people", store.People, 2}, {"bots", store.Bots, 1}}
	for _, table := range []string{"", "pub"} {
		for _, seasonArg := range []string{"", season.String(), "all-time"} {
			for _, k := range kinds {
				q := url.Values{}
				if table != "" {
					q.Set("table", table)
				}
				if seasonArg != "" {
					q.Set("season", seasonArg)
				}
				if k.arg != "" {
					q.Set("kind", k.arg)
				}
				path := "/leaderboard?" + q.Encode()
				t.Run(path, func(t *testing.T) {
					resp, body := e.get(path)
					if resp.StatusCode != http.StatusOK {
						t.Fatalf("%d\n%s", resp.StatusCode, body)
					}
					bq := store.BoardQuery{Board: store.Board{Season: season}, Kind: k.kind, Limit: 50}
					if seasonArg == "all-time" {
						bq.Season = rating.AllTime
					}
					if table != "" {
						bq.Table = &pub[0]
					}
					rs, err := e.st.Leaderboard(ctx, bq)
					if err != nil {
						t.Fatal(err)
					}
					if table == "" && len(rs) != k.want {
						t.Fatalf("the store's board of %s has %d rows, want %d", k.kind, len(rs), k.want)
					}
					if got, want := boardRows(body), storeRows(rs); strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("the rows\n%s\nwant (the store's)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
					var want []string
					for _, other := range store.BoardKinds {
						if other == k.kind {
							want = append(want, `<strong aria-current="page">`+other.String()+`</strong>`)
							continue
						}
						lq := url.Values{}
						for key, vs := range q {
							lq[key] = vs
						}
						lq.Del("kind")
						if other != store.Everyone {
							lq.Set("kind", other.String())
						}
						want = append(want, href(lq)+">"+other.String()+"</a>")
					}
					sq := url.Values{}
					if table != "" {
						sq.Set("table", table)
					}
					if k.kind != store.Everyone {
						sq.Set("kind", k.kind.String())
					}
					if seasonArg == "all-time" {
						sq.Set("season", season.String())
					} else {
						sq.Set("season", "all-time")
					}
					want = append(want, href(sq))
					if k.kind != store.Everyone {
						want = append(want, " · "+k.kind.String()+" only · ")
					}
					if m := missing(body, want...); m != nil {
						t.Errorf("lacks %q\n%s", m, body)
					}
					if strings.Contains(body, `>`+k.kind.String()+`</a>`) {
						t.Errorf("the kind shown is a link")
					}
				})
			}
		}
	}

	// An empty board of a kind says so.
	resp, body := e.get("/leaderboard?kind=bots&season=" + season.Prev().String())
	if m := missing(body, "No rated games of bots yet."); resp.StatusCode != 200 || m != nil {
		t.Errorf("an empty board of bots: %d, lacks %q", resp.StatusCode, m)
	}

	// A kind that is not one.
	_, seasonBad := e.get("/leaderboard?season=2026-13")
	for _, arg := range []string{"robots", "People", "bots,people", "%00"} {
		path := "/leaderboard?kind=" + arg + "&table=pub"
		resp, body := e.get(path)
		if m := missing(body, " is not a kind of player: everyone, people or bots.", `href="/leaderboard"`); resp.StatusCode != http.StatusBadRequest || m != nil {
			t.Errorf("%s: %d, lacks %q\n%s", path, resp.StatusCode, m, body)
		}
		if !strings.Contains(seasonBad, "<title>Leaderboard") || !strings.Contains(body, "<title>Leaderboard") {
			t.Errorf("%s: not the page of a bad season", path)
		}
	}
}

// TestBoardLinks: the live table's page and a game's page link the
// table's board; a private table's carry the link they were reached by,
// and its board answers by that link only (the not-found page without
// it). A game of a table whose name has since been taken by another
// table links no board: that address shows the other table's.
func TestBoardLinks(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(12), nil)
	ctx := ctxT(t)
	alice, bob := e.player("alice"), e.player("bob")
	pub := e.newGame("pub", quickRules(), false, alice, bob)
	pubGame := pub.playOut(nil)
	club := e.newGame("club", quickRules(), true, alice, bob)
	clubGame := club.playOut(nil)
	tok, err := club.tbl.Link(ctx, alice, false)
	if err != nil {
		t.Fatal(err)
	}
	lq := "link=" + url.QueryEscape(tok)
	clubBoard := `href="/leaderboard?` + html.EscapeString(lq+"&table=club") + `"`
	_, notFound := e.get("/nothing/here")

	for _, c := range []struct{ path, board string }{
		{"/tables/pub", `href="/leaderboard?table=pub"`},
		{"/tables/pub?link=nope", `href="/leaderboard?table=pub"`},
		{"/games/" + pubGame, `href="/leaderboard?table=pub"`},
		{"/games/" + pubGame + "?link=" + url.QueryEscape(tok), `href="/leaderboard?table=pub"`},
		{"/tables/club?" + lq, clubBoard},
		{"/games/" + clubGame + "?" + lq, clubBoard},
	} {
		resp, body := e.get(c.path)
		if m := missing(body, c.board); resp.StatusCode != 200 || m != nil {
			t.Errorf("%s: %d, lacks %q", c.path, resp.StatusCode, m)
		}
		if strings.Contains(c.board, "pub") && strings.Contains(body, "/leaderboard?link=") {
			t.Errorf("%s: a public table's board carries a link", c.path)
		}
	}
	for _, p := range []string{"/leaderboard?table=club", "/leaderboard?table=club&link=nope", "/leaderboard?table=club&kind=people"} {
		if resp, body := e.get(p); resp.StatusCode != http.StatusNotFound || body != notFound {
			t.Errorf("%s: %d, the not-found page: %v", p, resp.StatusCode, body == notFound)
		}
	}
	for _, p := range []string{"/tables/club", "/games/" + clubGame} {
		if resp, body := e.get(p); resp.StatusCode != http.StatusNotFound || strings.Contains(body, "/leaderboard?") {
			t.Errorf("%s without the link: %d, or a board linked", p, resp.StatusCode)
		}
	}
	resp, body := e.get("/leaderboard?table=club&" + lq + "&kind=people")
	want := []string{"Players by rating at club · people only", href(url.Values{"table": {"club"}, "link": {tok}}) + ">everyone</a>",
		href(url.Values{"table": {"club"}, "link": {tok}, "kind": {"bots"}}) + ">bots</a>"}
	if m := missing(body, want...); resp.StatusCode != 200 || m != nil {
		t.Errorf("club's board of people by its link: %d, lacks %q", resp.StatusCode, m)
	}

	// pub closes and a new pub opens: the old game's board is no longer
	// at /leaderboard?table=pub, so its page links none.
	if err := pub.tbl.Close(ctx, alice); err != nil {
		t.Fatal(err)
	}
	e.clock.Skip(time.Minute) // a table record is told apart by when it was created
	e.newGame("pub", quickRules(), false, bob, alice)
	resp, body = e.get("/games/" + pubGame)
	if resp.StatusCode != 200 || strings.Contains(body, "/leaderboard?") {
		t.Errorf("/games/%s of the closed pub: %d, links a board: %v", pubGame, resp.StatusCode, strings.Contains(body, "/leaderboard?"))
	}
	if _, body := e.get("/tables/pub"); !strings.Contains(body, `href="/leaderboard?table=pub"`) {
		t.Error("the new pub links no board")
	}
}
