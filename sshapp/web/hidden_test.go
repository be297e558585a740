package web

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestHiddenGameCostsWhatNoneCosts: to a stranger, a private table's
// finished game is the not-found page, as a game that does not exist,
// and the two answers do the same work (store.Store.ShownGame), counted
// in allocations, which, unlike a time, a busy machine does not blur:
// the hidden game's events are not read, so neither its existence nor
// its length shows in what the answer costs. The table's link shows it.
func TestHiddenGameCostsWhatNoneCosts(t *testing.T) {
	e := newEnv(t, lobbytest.NewDice(9), nil)
	host, ann := e.player("host"), e.player("ann")
	long := engine.DefaultOptions()
	long.Lives = 6
	club := e.newGame("club", long, true, host, ann)
	first := club.playOut(nil)
	short := e.newGame("den", quickRules(), true, host, ann).playOut(nil)
	n, _ := strconv.Atoi(short)
	none := strconv.Itoa(n + 1)
	if len(none) != len(first) || len(short) != len(first) {
		t.Fatalf("game ids of unlike length: %s %s %s", first, short, none)
	}
	// The page itself, past the limits on addresses (which would refuse
	// a stranger so many answers).
	answer := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.SetPathValue("id", strings.TrimPrefix(r.URL.Path, "/games/"))
		w := httptest.NewRecorder()
		e.web.gamePage(w, r)
		return w
	}
	tok, err := club.tbl.Link(ctxT(t), host, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := answer("/games/" + first + "?link=" + url.QueryEscape(tok)); got.Code != http.StatusOK {
		t.Fatalf("/games/%s by the table's link: %d", first, got.Code)
	}
	missing := answer("/games/" + none)
	for _, id := range []string{first, short} {
		if got := answer("/games/" + id); got.Code != http.StatusNotFound || got.Body.String() != missing.Body.String() {
			t.Errorf("/games/%s to a stranger: %d, the not-found page: %v", id, got.Code, got.Body.String() == missing.Body.String())
		}
	}
	if missing.Code != http.StatusNotFound {
		t.Fatalf("/games/%s: %d", none, missing.Code)
	}

	// The fewest allocations of a few rounds each, interleaved: what
	// other goroutines allocate meanwhile only adds.
	cost := map[string]float64{}
	for range 5 {
		for _, id := range []string{first, short, none} {
			a := testing.AllocsPerRun(20, func() { answer("/games/" + id) })
			if c, ok := cost[id]; !ok || a < c {
				cost[id] = a
			}
		}
	}
	// Two games' records differ by a field or two (a number, a name):
	// a few allocations, where reading a game's events costs hundreds.
	const alike = 5
	for _, id := range []string{first, short} {
		if math.Abs(cost[id]-cost[none]) > alike {
			t.Errorf("allocations of an answer: hidden game %s (long) %.0f, hidden game %s (short) %.0f, no game %s %.0f; want them alike",
				first, cost[first], short, cost[short], none, cost[none])
			break
		}
	}
}
