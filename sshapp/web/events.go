package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// Events is what the web window reads of the events (an
// *events.Registry).
type Events interface {
	// List is the events not closed that v may see.
	List(v lobby.Viewer) []events.Info
	// For finds the event not closed of that name for v: one that does
	// not show itself to v is not there (events.ErrNoEvent).
	For(v lobby.Viewer, name string) (*events.Event, error)
	// Lookup is an event v may see, open or put away.
	Lookup(ctx context.Context, v lobby.Viewer, name string) (events.Info, error)
}

// wallParam asks for the projector's layout of an event's wall: large
// type, no navigation.
const wallParam = "wall"

// eventRow is one event of the list.
type eventRow struct {
	Name, URL, Format, State, Host string
	Entrants                       int
}

func (s *Server) eventsPage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Events == nil {
		s.notFound(w, r)
		return
	}
	now := s.cfg.Now()
	var rows []eventRow
	for _, info := range s.cfg.Events.List(lobby.Viewer{}) {
		rows = append(rows, eventRow{Name: info.Name, URL: eventPath(info.Name), Host: info.Host, Entrants: info.Entrants,
			Format: words.EventFormat(string(info.Format), info.Rounds, info.Lasts),
			State:  words.EventState(string(info.State), info.StartsAt, info.Ends, now)})
	}
	s.render(w, r, http.StatusOK, "events", layout{Title: "Events", Refresh: 30, Main: struct {
		Events []eventRow
		SSH    string
	}{rows, s.sshHint(r)}})
}

// eventPage is an event's wall: its clock, the standings, each entrant's
// points over time, the tables running now; live through its stream, and
// with ?wall laid out for a projector.
func (s *Server) eventPage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Events == nil {
		s.notFound(w, r)
		return
	}
	v := viewerOf(r)
	info, err := s.cfg.Events.Lookup(r.Context(), v, r.PathValue("name"))
	if err != nil {
		s.fail(w, r, "read the event", err)
		return
	}
	_, wall := r.URL.Query()[wallParam]
	q := url.Values{}
	if v.Link != "" && !(lobby.Viewer{}).Sees(info.Access()) {
		q.Set(linkParam, v.Link)
	}
	stream := eventPath(info.Name) + "/events"
	if len(q) > 0 {
		stream += "?" + q.Encode()
	}
	ended := ""
	if info.State == events.Closed || info.Final {
		stream, ended = "", words.EventFinal() // over, its standings final: nothing more comes
	}
	frag, err := s.eventFragment(info, v)
	if err != nil {
		s.fail(w, r, "draw the event", err)
		return
	}
	join := ""
	if hint := s.sshHint(r); hint != "" && !info.Private && !info.Final {
		// The event's screen: J joins there, and being there seats them.
		join = "ssh -t" + strings.TrimPrefix(hint, "ssh") + " play --event " + info.Name
	}
	wallURL := eventPath(info.Name) + "?" + wallParam
	if len(q) > 0 {
		wallURL += "&" + q.Encode()
	}
	s.render(w, r, http.StatusOK, "event", layout{Title: info.Name, Refresh: 10, Scripts: []string{"app.js"}, Wall: wall, Main: struct {
		Name, Format, Join, Events, WallURL, Ended string
		Private, Wall                              bool
		Live                                       template.HTML
	}{info.Name, words.EventFormat(string(info.Format), info.Rounds, info.Lasts), join, stream, wallURL, ended, info.Private, wall, frag}})
}

// eventEvents is an event's wall as a stream of Server-Sent Events: its
// fragment as event "table" (the name the live pages' script follows) at
// every change, and event "gone" once the event is put away; within the
// caps of streams per address and in all, as a table's.
func (s *Server) eventEvents(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Events == nil {
		s.notFound(w, r)
		return
	}
	ip, ok := s.streamSlot(w, r, "live pages")
	if !ok {
		return
	}
	defer s.addrs.closeStream(ip)
	v := viewerOf(r)
	e, err := s.cfg.Events.For(v, r.PathValue("name"))
	if err != nil {
		s.fail(w, r, "open the event", err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	box, err := e.Spectate(ctx, v)
	cancel()
	if err != nil {
		s.fail(w, r, "open the event", err)
		return
	}
	defer e.Unwatch(box)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(w)
	send := func(b []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(s.lim.StallTimeout))
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	ping := time.NewTicker(s.lim.Ping)
	defer ping.Stop()
	err = send([]byte("retry: 3000\n\n"))
	for err == nil {
		select {
		case <-box.Ready():
			info, ok := box.Take()
			if !ok {
				continue
			}
			var frag template.HTML
			if frag, err = s.eventFragment(info, v); err == nil {
				err = send(wallEvent("table", strconv.FormatUint(info.Version, 10), string(frag)))
			}
		case <-box.Done():
			_ = send([]byte("event: gone\ndata: The event was put away: its standings are final.\n\n"))
			return
		case <-ping.C:
			err = send([]byte(": ping\n\n"))
		case <-r.Context().Done():
			return
		case <-s.quit:
			_ = send([]byte("event: gone\ndata: The server is shutting down.\n\n"))
			return
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.hub.dropped.Add(1)
	}
}

// wallEvent is one Server-Sent Event: each line of data its own data line.
func wallEvent(name, id, data string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "event: %s\nid: %s\n", name, id)
	for _, l := range strings.Split(data, "\n") {
		b.WriteString("data: " + l + "\n")
	}
	b.WriteString("\n")
	return b.Bytes()
}

// standingRow is one line of a wall's standings.
type standingRow struct {
	Place                   int
	Name, Points, Rating    string
	Games, Wins             int
	Fire, Bot               bool
	Where, TableURL, Swatch string
	Maexchen                string // the Mäxchen points at the event's door, "" without one
}

// eventFragment is the live part of an event's wall: what its stream
// sends at every change.
func (s *Server) eventFragment(info events.Info, v lobby.Viewer) (template.HTML, error) {
	now := s.cfg.Now()
	type tableLink struct{ Name, URL, Players, State string }
	d := struct {
		State, Countdown, Champion string
		Clock                      string // the countdown as it stands when sent
		Left                       int64  // ms to the countdown's end, for the page's clock
		Standings                  []standingRow
		Tables                     []tableLink
		Chart                      template.HTML
		Final                      bool
		Door                       bool // the Mäxchen gateway is its door: their points beside
		Streak                     bool // someone is on a streak: the mark is explained
		StreakMark, StreakWords    string
		FinalWords                 string // what the page says once the event is over, for its script
	}{Door: info.Door != "", State: words.EventState(string(info.State), info.StartsAt, info.Ends, now), Final: info.Final,
		StreakMark: words.StreakMark, StreakWords: words.Streak(), FinalWords: words.EventFinal()}
	var until time.Time
	switch {
	case info.State == events.Scheduled && !info.StartsAt.IsZero():
		until, d.State, d.Countdown = info.StartsAt, "scheduled", "starts in"
	case info.State == events.Running && !info.Ends.IsZero():
		until, d.State, d.Countdown = info.Ends, "running", "left"
	}
	if !until.IsZero() {
		d.Left = max(0, until.Sub(now).Milliseconds())
		d.Clock = words.Countdown(until.Sub(now))
	}
	if info.Champion != nil {
		d.Champion = words.Label(info.Champion.Name, info.Champion.Bot) + ", " + words.Plural(info.Champion.Points, "1 point", "points")
	}
	token := ""
	if !(lobby.Viewer{}).Sees(info.Access()) {
		token = v.Link // its tables open to the event's link
	}
	linked := map[string]string{}
	for _, t := range info.Tables {
		u := tablePath(t.Name)
		if token != "" {
			u += "?" + linkParam + "=" + url.QueryEscape(token)
		}
		linked[t.Name] = u
		state := "playing"
		if !t.Playing {
			state = "just over"
		}
		d.Tables = append(d.Tables, tableLink{Name: t.Name, URL: u, State: state, Players: strings.Join(t.Players, ", ")})
	}
	charted := map[string]int{}
	for i, st := range info.Standings {
		row := standingRow{Place: st.Place, Name: st.Name, Bot: st.Bot, Points: strconv.Itoa(st.Points), Games: st.Games, Wins: st.Wins,
			Fire: st.Fire, Rating: "-", Where: words.EventWhere(st.Where, st.Table), TableURL: linked[st.Table]}
		if st.Rated {
			row.Rating = words.Figure(st.Rating)
		}
		d.Streak = d.Streak || st.Fire
		if info.Door != "" {
			row.Maexchen = strconv.Itoa(st.Maexchen)
		}
		if i < chartLines {
			// A player's colour is theirs, whatever their place: by the
			// order they joined in.
			charted[st.ID] = st.Entry
			row.Swatch = seatClass(st.Entry)
		}
		d.Standings = append(d.Standings, row)
	}
	d.Chart = pointsChart(info, charted, now)
	var b bytes.Buffer
	if err := s.pages["live"].ExecuteTemplate(&b, "eventlive", d); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// chartLines is how many entrants the points chart draws: the first of
// the standings.
const chartLines = 10

// pointsChart draws the points of the first entrants over the event's
// time, each a step up at each game they ended, as the Mäxchen
// spectator's chart of points draws them.
func pointsChart(info events.Info, charted map[string]int, now time.Time) template.HTML {
	if info.Started.IsZero() || len(charted) == 0 {
		return ""
	}
	end := now
	switch {
	case !info.Ended.IsZero():
		end = info.Ended
	case !info.Ends.IsZero() && info.Ends.After(now):
		end = info.Ends
	}
	span := end.Sub(info.Started)
	if span <= 0 {
		return ""
	}
	most := 1
	for _, st := range info.Standings {
		most = max(most, st.Points)
	}
	const (
		w, h       = 720.0, 260.0
		left, top  = 40.0, 12.0
		right, bot = 110.0, 30.0
	)
	pw, ph := w-left-right, h-top-bot
	x := func(t time.Time) float64 { return left + pw*float64(t.Sub(info.Started))/float64(span) }
	y := func(p int) float64 { return top + ph*(1-float64(p)/float64(most)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart points" viewBox="0 0 %.0f %.0f" role="img" aria-label="each entrant's points over the event">`, w, h)
	step := max(1, most/5)
	for p := 0; p <= most; p += step {
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"></line>`, left, y(p), w-right, y(p))
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="end">%d</text>`, left-6, y(p)+4, p)
	}
	minutes := int(span / time.Minute)
	tick := max(1, minutes/6)
	for m := 0; m <= minutes; m += tick {
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`,
			x(info.Started.Add(time.Duration(m)*time.Minute)), h-bot+16, m)
	}
	fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.1f" text-anchor="end">minutes</text>`, w-right, h-4)
	var labels []chartLabel
	for _, st := range info.Standings {
		i, ok := charted[st.ID]
		if !ok {
			continue
		}
		// A step a column of the chart at most: a door's many short games
		// draw as many points as the chart is wide, not as they were played.
		pts := []string{fmt.Sprintf("%.1f,%.1f", x(info.Started), y(0))}
		prev, col, val := 0, -1.0, 0
		step := func() {
			if col >= 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", col, y(prev)), fmt.Sprintf("%.1f,%.1f", col, y(val)))
				prev = val
			}
		}
		for _, p := range st.Trail {
			at := p.At
			if at.After(end) {
				at = end
			}
			if c := math.Round(x(at)); c != col {
				step()
				col = c
			}
			val = p.Points
		}
		step()
		last := end
		if now.Before(end) {
			last = now
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(last), y(prev)))
		fmt.Fprintf(&b, `<polyline class="line %s" points="%s"></polyline>`, seatClass(i), strings.Join(pts, " "))
		labels = append(labels, chartLabel{x: x(last) + 6, y: y(prev) + 4, name: words.Clean(st.Name, lobby.MaxNameLen)})
	}
	spreadLabels(labels, labelGap, top+4, h-bot+4)
	for _, l := range labels {
		fmt.Fprintf(&b, `<text class="label" x="%.1f" y="%.1f">%s</text>`, l.x, l.y, html.EscapeString(l.name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// chartLabel is a line's name at its end.
type chartLabel struct {
	x, y float64
	name string
}

// labelGap is the least distance between two labels' baselines: the
// wall's labels are 20 units high.
const labelGap = 20.0

// spreadLabels moves labels apart, each at least gap below the one above,
// as near to its line as that leaves it: the names of players tied at the
// same points would be drawn on top of one another. They stay between
// top and bottom where there is room for all.
func spreadLabels(labels []chartLabel, gap, top, bottom float64) {
	if len(labels) == 0 {
		return
	}
	slices.SortStableFunc(labels, func(a, b chartLabel) int { return cmp.Compare(a.y, b.y) })
	for i := range labels {
		if i > 0 {
			labels[i].y = max(labels[i].y, labels[i-1].y+gap)
		}
	}
	// Those pushed past the bottom move the others up, as far as the top.
	if over := labels[len(labels)-1].y - bottom; over > 0 {
		labels[len(labels)-1].y = bottom
		for i := len(labels) - 2; i >= 0; i-- {
			labels[i].y = min(labels[i].y, labels[i+1].y-gap)
		}
		if under := top - labels[0].y; under > 0 {
			for i := range labels {
				labels[i].y += under
			}
		}
	}
}
