package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestPrivateTable: a private table and its games are not there for the
// web (the very page of a table or game that does not exist), until its
// host makes a link; the link opens them, and every address on their
// pages carries it; a wrong link opens nothing; revoking it ends the
// live streams it let in and closes the pages; a new link survives a
// restart.
func TestPrivateTable(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(9), nil)
	ctx := ctxT(t)
	host, ann := e.player("host"), e.player("ann")
	g := e.newGame("club", quickRules(), true, host, ann)
	g.step()
	running := g.last[0].GameID
	_, notFound := e.get("/nothing/here")
	hidden := func(when string, paths ...string) {
		t.Helper()
		for _, p := range paths {
			resp, body := e.get(p)
			if resp.StatusCode != http.StatusNotFound || body != notFound {
				t.Errorf("%s: %s: %d, the not-found page: %v", when, p, resp.StatusCode, body == notFound)
			}
		}
	}
	hidden("no link", "/tables/club", "/tables/CLUB", "/tables/club/events", "/games/"+running, "/games/"+running+".json",
		"/games/"+running+".cast", "/leaderboard?table=club")
	if _, body := e.get("/"); strings.Contains(body, "club") {
		t.Error("the lobby lists the private table")
	}
	id := g.playOut(nil)
	hidden("a finished game, no link", "/games/"+id, "/games/"+id+".json", "/games/"+id+".cast", "/games/"+id+"?m=1")
	for _, p := range []string{"/", "/players/host", "/players/ann"} {
		if _, body := e.get(p); strings.Contains(body, "/games/"+id) {
			t.Errorf("%s lists the private table's game", p)
		}
	}

	tok, err := g.tbl.Link(ctx, host, false)
	if err != nil {
		t.Fatal(err)
	}
	q := "?link=" + url.QueryEscape(tok)
	hidden("a wrong link", "/tables/club?link=x"+tok, "/games/"+id+"?link="+tok[1:], "/tables/club/events?link=",
		"/games/"+id+".json?link=nope")
	resp, body := e.get("/tables/club" + q)
	if m := missing(body, "<h1>club", "private", `data-events="/tables/club/events`+q+`"`, `href="/games/`+id+q+`"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("the table by its link: %d, lacks %q", resp.StatusCode, m)
	}
	if strings.Contains(body, "ssh -t") {
		t.Error("a private table's page tells everyone how to sit down")
	}
	resp, body = e.get("/games/" + id + q)
	if m := missing(body, "Game "+id, `href="/games/`+id+`?m=1&amp;link=`+tok+`"`, `data-json="/games/`+id+`.json`+q+`"`,
		`href="/games/`+id+`.cast`+q+`"`); resp.StatusCode != 200 || m != nil {
		t.Errorf("the game by the link: %d, lacks %q", resp.StatusCode, m)
	}
	for _, p := range []string{".json", ".cast"} {
		if resp, _ := e.get("/games/" + id + p + q); resp.StatusCode != 200 {
			t.Errorf("the game's %s by the link: %d", p, resp.StatusCode)
		}
	}
	if _, body := e.get("/" + q); strings.Contains(body, "club") {
		t.Error("the lobby lists the private table to a link holder")
	}

	// A stream let in by the link ends when the link is revoked.
	if err := g.tbl.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	g.catchUp()
	st := e.stream("/tables/club/events" + q)
	if ev := st.next(nil); ev.name != "table" {
		t.Fatalf("first event %q", ev.name)
	}
	g.step()
	st.next(func(ev sseEvent) bool { return ev.name == "table" })
	if _, err := g.tbl.Link(ctx, host, true); err != nil {
		t.Fatal(err)
	}
	evs := st.ended()
	if len(evs) == 0 || evs[len(evs)-1].name != "gone" || !strings.Contains(evs[len(evs)-1].data, "web link was ended") {
		t.Errorf("the stream ended with %+v", evs)
	}
	hidden("a revoked link", "/tables/club"+q, "/tables/club/events"+q, "/games/"+id+q, "/games/"+id+".json"+q)
	waitFor(t, "the feed ends", func() bool { w, f := e.web.hub.counts(); return w == 0 && f == 0 })

	fresh, err := g.tbl.Link(ctx, host, false)
	if err != nil || fresh == tok {
		t.Fatalf("a new link %q, %v", fresh, err)
	}
	e.restart()
	fq := "?link=" + url.QueryEscape(fresh)
	for _, p := range []string{"/tables/club" + fq, "/games/" + id + fq, "/games/" + id + ".json" + fq} {
		if resp, _ := e.get(p); resp.StatusCode != 200 {
			t.Errorf("after a restart %s: %d", p, resp.StatusCode)
		}
	}
	hidden("the old link after a restart", "/tables/club"+q, "/games/"+id+q)
}

// TestTableClosed: the stream of a table that closes says so and ends;
// the table's page is then not found, its games stay.
func TestTableClosed(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(4), nil)
	ctx := ctxT(t)
	a, b := e.player("alice"), e.player("bob")
	g := e.newGame("alpha", quickRules(), false, a, b)
	id := g.playOut(nil)
	st := e.stream("/tables/alpha/events")
	st.next(nil)
	if err := g.tbl.Close(ctx, a); err != nil {
		t.Fatal(err)
	}
	evs := st.ended()
	if len(evs) == 0 || evs[len(evs)-1].name != "gone" || !strings.Contains(evs[len(evs)-1].data, "closed") {
		t.Errorf("the stream ended with %+v", evs)
	}
	if resp, _ := e.get("/tables/alpha"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a closed table's page: %d", resp.StatusCode)
	}
	if resp, _ := e.get("/games/" + id); resp.StatusCode != 200 {
		t.Errorf("a closed table's game: %d", resp.StatusCode)
	}
}

// TestAbandonedGame: a table closed while its game runs: the live stream
// says who closed it and which game that abandoned, then ends; the game's
// page is its replay up to where it stopped, saying who closed the table
// and that no one won, with its players (no standings) and every move;
// its JSON (with "abandoned") and recording are served as for a finished
// game. At a private table all of it stays the not-found page to a
// stranger.
func TestAbandonedGame(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(map[bool]string{false: "public", true: "private"}[private], func(t *testing.T) {
			e := newEnv(t, lobbytest.NewDice(5), nil)
			ctx := ctxT(t)
			alice, bob := e.player("alice"), e.player("bob")
			g := e.newGame("alpha", quickRules(), private, alice, bob)
			g.step()
			g.step()
			id := g.last[0].GameID
			q := ""
			if private {
				tok, err := g.tbl.Link(ctx, alice, false)
				if err != nil {
					t.Fatal(err)
				}
				q = "?link=" + url.QueryEscape(tok)
			}
			st := e.stream("/tables/alpha/events" + q)
			st.next(nil)
			if err := g.tbl.Close(ctx, alice); err != nil {
				t.Fatal(err)
			}
			evs := st.ended()
			told := "alice closed the table alpha: game " + id + " abandoned, not rated."
			if len(evs) == 0 || evs[len(evs)-1].name != "gone" || evs[len(evs)-1].data != told {
				t.Errorf("the stream ended with %+v, want %q", evs, told)
			}
			_, notFound := e.get("/nothing/here")
			if private {
				for _, p := range []string{"/games/" + id, "/games/" + id + ".json", "/games/" + id + ".cast", "/tables/alpha"} {
					if resp, body := e.get(p); resp.StatusCode != http.StatusNotFound || body != notFound {
						t.Errorf("%s to a stranger: %d, the not-found page: %v", p, resp.StatusCode, body == notFound)
					}
				}
			}
			resp, body := e.get("/games/" + id + q)
			if m := missing(body, "Game "+id, "<strong>abandoned</strong>", "<h2>Abandoned</h2>",
				"alice closed the table while it ran. No one won; no rating moved.", ">alice<", ">bob<", `id="m2"`); resp.StatusCode != 200 || m != nil {
				t.Errorf("the abandoned game's page: %d, lacks %q", resp.StatusCode, m)
			}
			if strings.Contains(body, "won by") || strings.Contains(body, "Standings") {
				t.Error("the abandoned game's page names a winner or standings")
			}
			resp, body = e.get("/games/" + id + ".json" + q)
			if resp.StatusCode != 200 || !strings.Contains(body, `"winner": -1`) || !strings.Contains(body, `"abandoned": {`) ||
				!strings.Contains(body, `"reason": "closed"`) {
				t.Errorf("the abandoned game's JSON: %d\n%s", resp.StatusCode, body)
			}
			if resp, _ := e.get("/games/" + id + ".cast" + q); resp.StatusCode != 200 {
				t.Errorf("the abandoned game's recording: %d", resp.StatusCode)
			}
		})
	}
}
