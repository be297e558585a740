package web

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// wallEvents is one event as the web window reads it, without its actor:
// its page is drawn from info, and it has no stream.
// wallEvents is one event, as the tests set it while the server reads it.
type wallEvents struct {
	mu   sync.Mutex
	info events.Info
}

func (w *wallEvents) get() events.Info {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.info
}

// set changes the event: f changes a copy of it (its standings copied too,
// so that what a reader holds does not change under it).
func (w *wallEvents) set(f func(*events.Info)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.info.Standings = slices.Clone(w.info.Standings)
	f(&w.info)
}

func (w *wallEvents) List(lobby.Viewer) []events.Info { return []events.Info{w.get()} }
func (w *wallEvents) For(lobby.Viewer, string) (*events.Event, error) {
	return nil, events.ErrNoEvent
}
func (w *wallEvents) Lookup(_ context.Context, _ lobby.Viewer, name string) (events.Info, error) {
	info := w.get()
	if !strings.EqualFold(name, info.Name) {
		return events.Info{}, events.ErrNoEvent
	}
	return info, nil
}

// wallInfo is an arena running for 20 minutes of its 60, its entrants
// named in the order they joined, ranked by rank (indexes of names), with
// the points of each (by name) reached at minute 10; some tied.
func wallInfo(now time.Time, names []string, rank []int, points map[string]int) events.Info {
	start := now.Add(-20 * time.Minute)
	info := events.Info{Name: "cup", Format: events.Arena, State: events.Running, Seats: 3, Lasts: time.Hour,
		Started: start, Ends: start.Add(time.Hour), Entrants: len(names)}
	for place, i := range rank {
		n := names[i]
		st := events.Standing{Place: place + 1, Name: n, Bot: i%2 == 0, Where: "waiting"}
		st.ID, st.Entry, st.Points, st.Games, st.Joined = "p-"+n, i, points[n], 3, start
		if st.Points > 0 {
			st.Trail = []events.Point{{At: start.Add(10 * time.Minute), Points: st.Points}}
		}
		if place < 3 {
			st.Where, st.Table = "playing", "cup-3"
		}
		info.Standings = append(info.Standings, st)
	}
	info.Tables = []events.TableNow{{Name: "cup-3", Playing: true, Players: []string{names[rank[0]], names[rank[1]], names[rank[2]]}}}
	return info
}

var (
	swatchRe = regexp.MustCompile(`<span class="swatch (s\d)"></span>([a-z]+)`)
	lineRe   = regexp.MustCompile(`<polyline class="line (s\d)"`)
	labelRe  = regexp.MustCompile(`<text class="label" x="[0-9.]+" y="([0-9.]+)">([a-z]+)</text>`)
)

// TestEventColoursFollowThePlayer: on the wall, each player keeps their
// colour in the standings and in the chart when the order changes: it is
// theirs (by the order they joined in), not their place's.
func TestEventColoursFollowThePlayer(t *testing.T) {
	e := newEnv(t, nil, nil)
	now := e.clock.Now()
	names := []string{"ada", "bert", "cleo", "dora"}
	colours := func(rank []int, points map[string]int) (table, chart map[string]string) {
		t.Helper()
		frag, err := e.web.eventFragment(wallInfo(now, names, rank, points), lobby.Viewer{})
		if err != nil {
			t.Fatal(err)
		}
		s := string(frag)
		table, chart = map[string]string{}, map[string]string{}
		for _, m := range swatchRe.FindAllStringSubmatch(s, -1) {
			table[m[2]] = m[1]
		}
		// The chart draws its lines in the order of the standings.
		for i, m := range lineRe.FindAllStringSubmatch(s, -1) {
			chart[names[rank[i]]] = m[1]
		}
		if len(table) != len(names) || len(chart) != len(names) {
			t.Fatalf("colours in the table %v, in the chart %v:\n%s", table, chart, s)
		}
		return table, chart
	}
	before, chartBefore := colours([]int{0, 1, 2, 3}, map[string]int{"ada": 4, "bert": 3, "cleo": 2, "dora": 1})
	after, chartAfter := colours([]int{1, 3, 0, 2}, map[string]int{"bert": 6, "dora": 5, "ada": 4, "cleo": 2})
	for _, n := range names {
		if before[n] != after[n] || chartBefore[n] != chartAfter[n] || before[n] != chartBefore[n] {
			t.Errorf("%s: %s then %s in the table, %s then %s in the chart", n, before[n], after[n], chartBefore[n], chartAfter[n])
		}
	}
	if got := slices.Sorted(func(yield func(string) bool) {
		for _, c := range before {
			if !yield(c) {
				return
			}
		}
	}); len(slices.Compact(got)) != len(names) {
		t.Errorf("two players share a colour: %v", before)
	}
}

// TestEventChartLabelsApart: the names at the ends of the chart's lines
// of players tied at the same points are drawn apart, not on top of one
// another; each stays near its line.
func TestEventChartLabelsApart(t *testing.T) {
	e := newEnv(t, nil, nil)
	now := e.clock.Now()
	names := []string{"ada", "bert", "cleo", "dora", "emil", "fritz"}
	points := map[string]int{"ada": 5, "bert": 5, "cleo": 5, "dora": 0, "emil": 0, "fritz": 0}
	frag, err := e.web.eventFragment(wallInfo(now, names, []int{0, 1, 2, 3, 4, 5}, points), lobby.Viewer{})
	if err != nil {
		t.Fatal(err)
	}
	var ys []float64
	at := map[string]float64{}
	for _, m := range labelRe.FindAllStringSubmatch(string(frag), -1) {
		y, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		ys = append(ys, y)
		at[m[2]] = y
	}
	if len(ys) != len(names) {
		t.Fatalf("%d labels, want %d:\n%s", len(ys), len(names), frag)
	}
	slices.Sort(ys)
	for i := 1; i < len(ys); i++ {
		if ys[i]-ys[i-1] < labelGap {
			t.Errorf("labels at y %v and %v overlap (%v)", ys[i-1], ys[i], at)
		}
	}
	// The tied at 5 are above the tied at 0.
	for _, hi := range []string{"ada", "bert", "cleo"} {
		for _, lo := range []string{"dora", "emil", "fritz"} {
			if at[hi] >= at[lo] {
				t.Errorf("%s (5 points) is drawn at y %v, not above %s (0 points) at %v", hi, at[hi], lo, at[lo])
			}
		}
	}
}

// TestEventWallStreakAndEnd: the streak's mark is a text every font
// draws, explained under the standings; an event over says so instead of
// "Live", and opens no stream.
func TestEventWallStreakAndEnd(t *testing.T) {
	ev := &wallEvents{}
	e := newEnv(t, nil, func(c *Config) { c.Events = ev })
	names := []string{"ada", "bert", "cleo"}
	ev.set(func(i *events.Info) {
		*i = wallInfo(e.clock.Now(), names, []int{0, 1, 2}, map[string]int{"ada": 6})
		i.Standings[0].Fire = true
	})
	resp, page := e.get("/events/cup?wall")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the wall: %d", resp.StatusCode)
	}
	if strings.Contains(page, "🔥") || !strings.Contains(page, `<span class="streak" title="`+words.Streak()+`">`+words.StreakMark+`</span>`) ||
		!strings.Contains(page, words.Streak()) {
		t.Errorf("the streak's mark is not the text mark, explained:\n%s", page)
	}
	if !strings.Contains(page, `data-events="/events/cup/events"`) || strings.Contains(page, words.EventFinal()) {
		t.Errorf("a running event's wall is not live:\n%s", page)
	}
	ev.set(func(info *events.Info) {
		info.State, info.Final, info.Ended = events.Over, true, e.clock.Now()
		for i := range info.Standings {
			info.Standings[i].Where, info.Standings[i].Fire = "", false
		}
		info.Tables = nil
	})
	_, page = e.get("/events/cup?wall")
	if strings.Contains(page, "data-events") || !strings.Contains(page, `id="stream-state">`+words.EventFinal()+`</p>`) ||
		!strings.Contains(page, `data-final="`+words.EventFinal()+`"`) || strings.Contains(page, `class="streak"`) {
		t.Errorf("an event over does not say so, or follows a stream:\n%s", page)
	}
}

// TestBrowserEventWall: the wall in Chromium. At 1280×900, the projector's
// layout, each standing is on one line ("playing at cup-3" and the name
// with its [bot] unwrapped) and the chart beside has room; at a phone's
// width nothing sticks out of the page; an event over says so.
func TestBrowserEventWall(t *testing.T) {
	ev := &wallEvents{}
	e := newEnv(t, nil, func(c *Config) { c.Events = ev })
	names := []string{"alexandra", "bert", "cleo", "dora", "emil", "fritz", "greta", "hugo"}
	pts := map[string]int{}
	for i, n := range names {
		pts[n] = 12 - i
	}
	ev.set(func(i *events.Info) {
		*i = wallInfo(e.clock.Now(), names, []int{0, 1, 2, 3, 4, 5, 6, 7}, pts)
		i.Standings[1].Fire = true
	})

	p := openBrowser(t, 1280, 900)
	p.do("open the wall", chromedp.Navigate(e.base+"/events/cup?wall"))
	p.until("the standings", `document.querySelectorAll("#live .standings tbody tr").length === 8`)
	// Each cell of the standings holds one line: no taller than its row's
	// shortest cell (the place) and a line of its type.
	wrapped := eval[[]string](p, `Array.from(document.querySelectorAll("#live .standings tbody td:nth-child(2), #live .standings tbody td:last-child")).filter(td => {
		const lh = parseFloat(getComputedStyle(td).lineHeight);
		const r = document.createRange(); r.selectNodeContents(td);
		return r.getClientRects().length > 0 && r.getBoundingClientRect().height > lh * 1.5;
	}).map(td => td.textContent)`)
	if len(wrapped) > 0 {
		t.Errorf("at 1280×900 these wrap: %q", wrapped)
	}
	if w := eval[float64](p, `document.querySelector("#live svg.chart.points").getBoundingClientRect().width`); w < 400 {
		t.Errorf("the chart is %.0f px wide at 1280×900", w)
	}
	if fire := eval[string](p, `document.querySelector("#live .streak").textContent`); fire != words.StreakMark {
		t.Errorf("the streak's mark shows %q", fire)
	}

	phone := openBrowser(t, 390, 844)
	phone.do("open the page", chromedp.Navigate(e.base+"/events/cup"))
	phone.until("the standings", `document.querySelectorAll("#live .standings tbody tr").length === 8`)
	if over := eval[[]string](phone, `Array.from(document.querySelectorAll("#live table, #live svg")).filter(el =>
		el.getBoundingClientRect().right > document.documentElement.clientWidth).map(el => el.tagName)`); len(over) > 0 {
		t.Errorf("at a phone's width these stick out: %v", over)
	}

	ev.set(func(i *events.Info) { i.State, i.Final, i.Ended, i.Tables = events.Over, true, e.clock.Now(), nil })
	// The running event's page asked for its stream, which this one has
	// not (404); the page of the event over asks for none.
	p.mu.Lock()
	p.errors = nil
	p.mu.Unlock()
	p.do("open the wall of the event over", chromedp.Navigate(e.base+"/events/cup?wall"))
	p.until("the end", `document.querySelector("#live .event-state") !== null`)
	if said := eval[string](p, `document.getElementById("stream-state").hidden ? "" : document.getElementById("stream-state").textContent`); said != words.EventFinal() {
		t.Errorf("the wall of an event over says %q", said)
	}
	p.clean()
}
