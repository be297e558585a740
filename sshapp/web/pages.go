package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// csp is the Content-Security-Policy of every answer: scripts, styles
// and images from this site only, none inline; no frames, no forms, no
// plugins, nothing fetched from elsewhere.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// routes is the web window: the pages, and around them the methods it
// takes (GET and HEAD), the headers of every answer and the request
// limits.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.lobbyPage)
	mux.HandleFunc("GET /tables/{name}", s.tablePage)
	mux.HandleFunc("GET /tables/{name}/events", s.tableEvents)
	mux.HandleFunc("GET /games/{id}", s.gamePage)
	mux.HandleFunc("GET /players/{name}", s.playerPage)
	mux.HandleFunc("GET /leaderboard", s.leaderboardPage)
	mux.HandleFunc("GET /assets/{file}", s.serveAsset)
	mux.HandleFunc("/", s.notFound)
	return s.headers(s.methods(s.limit(mux)))
}

// headers sets what every answer carries.
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer") // a link's token stays in its address
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// methods refuses everything but GET and HEAD: the web window only reads.
func (s *Server) methods(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.plain(w, http.StatusMethodNotAllowed, "This window on the game is read-only: GET and HEAD only.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// viewerOf is the person asking, as the access rule sees them: nobody,
// holding the link in the address if any.
func viewerOf(r *http.Request) lobby.Viewer {
	return lobby.Viewer{Link: r.URL.Query().Get(linkParam)}
}

// notFound is the one page of what is not there, or not there for the
// viewer: a private table or game without its link reads exactly as one
// that does not exist.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusNotFound, "notfound", layout{Title: "Not found", Main: struct{ Title, Text string }{
		"Nothing here",
		"There is nothing at this address: no such table, game or player. " +
			"A private table and its games show only through the link its host gives out.",
	}})
}

// message is a page of a few lines.
type message struct {
	Title          string
	Lines          []string
	Link, LinkText string
}

// serverError logs err and says so.
func (s *Server) serverError(w http.ResponseWriter, r *http.Request, what string, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error(what, "err", err)
	s.render(w, r, http.StatusInternalServerError, "message", layout{Title: "Server error",
		Main: message{Title: "Something went wrong", Lines: []string{"The server could not " + what + "; please try again later."}}})
}

// tableRow is one table of the lobby's list.
type tableRow struct {
	Name, URL, State, Seats, Players, Rules, Host string
}

// gameRow is one game of a list.
type gameRow struct {
	ID, URL, Table, Ended, Winner, Players string
	Rounds                                 int
}

func (s *Server) lobbyPage(w http.ResponseWriter, r *http.Request) {
	var tables []tableRow
	for _, info := range s.cfg.Lobby.Tables(lobby.Viewer{}) {
		row := tableRow{Name: info.Name, URL: tablePath(info.Name), State: info.State, Rules: lobby.RulesSummary(info.Rules),
			Seats: fmt.Sprintf("%d of %d", info.Taken, info.Seats), Host: info.Host}
		names := make([]string, len(info.Players))
		for i, p := range info.Players {
			names[i] = lobby.Label(p.Name, p.Bot)
		}
		row.Players = strings.Join(names, ", ")
		tables = append(tables, row)
	}
	games, err := s.gameRows(r.Context(), store.Query{Limit: 20}, lobby.Viewer{})
	if err != nil {
		s.serverError(w, r, "read the finished games", err)
		return
	}
	s.render(w, r, http.StatusOK, "lobby", layout{Title: "Tables", Refresh: 30, Main: struct {
		Tables []tableRow
		Games  []gameRow
		SSH    string
	}{tables, games, s.sshHint(r)}})
}

// gameRows lists the finished games of q that v may see, linked without
// a token: pass the viewer of nobody, lobby.Viewer{}.
func (s *Server) gameRows(ctx context.Context, q store.Query, v lobby.Viewer) ([]gameRow, error) {
	games, err := s.cfg.Records.History(ctx, q, lobbystore.Shows(v))
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	rounds, err := s.cfg.Records.Rounds(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]gameRow, len(games))
	for i, g := range games {
		names := make([]string, len(g.Seats))
		for j, st := range g.Seats {
			names[j] = seatLabel(st)
		}
		winner := "?"
		if g.Winner >= 0 && g.Winner < len(g.Seats) {
			winner = lobby.Label(seatName(g.Seats[g.Winner]), g.Seats[g.Winner].Bot)
		}
		out[i] = gameRow{ID: g.ID, URL: gamePath(g.ID), Table: g.Table, Ended: g.Ended.UTC().Format("2006-01-02 15:04"),
			Winner: winner, Players: strings.Join(names, ", "), Rounds: rounds[i]}
	}
	return out, nil
}

// seatName is a game seat's name now (the store looks it up as it reads
// the game), or the name played under when there is none.
func seatName(st store.Seat) string {
	if st.Name != "" {
		return st.Name
	}
	return st.PlayedAs
}

// seatLabel is a game seat as a list of players shows it: the name now,
// a bot marked, and the name played under where it differs, as history
// shows it ("bob (played as red)").
func seatLabel(st store.Seat) string {
	label := lobby.Label(seatName(st), st.Bot)
	if st.Name != "" && st.PlayedAs != "" && st.PlayedAs != st.Name {
		label += " (played as " + st.PlayedAs + ")"
	}
	return label
}

// seatURL is the address of a game seat's player page: a person with
// keys has one, under their name now; a built-in bot or a Mäxchen bot
// has none.
func seatURL(st store.Seat) string {
	if st.Name == "" || !lobby.HasKeys(st.Person) {
		return ""
	}
	return playerPath(st.Name)
}

// playHint is how to play at a table over SSH.
func (s *Server) playHint(r *http.Request, table string) string {
	hint := s.sshHint(r)
	if hint == "" {
		return ""
	}
	return strings.Replace(hint, "ssh ", "ssh -t ", 1) + " play " + table
}

func (s *Server) tablePage(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	f, err := s.hub.acquire(r.Context(), r.PathValue("name"), v)
	if err != nil {
		s.notFound(w, r)
		return
	}
	defer s.hub.release(f)
	fr := f.cur.Load()
	events := tablePath(fr.name) + "/events"
	if !(lobby.Viewer{}).Sees(fr.access) {
		events += "?" + linkParam + "=" + url.QueryEscape(v.Link)
	}
	hint := ""
	if !fr.private {
		hint = s.playHint(r, fr.name)
	}
	s.render(w, r, http.StatusOK, "table", layout{Title: fr.name, Refresh: 5, Scripts: []string{"app.js"}, Main: struct {
		Name    string
		Private bool
		SSH     string
		Events  string
		Live    template.HTML
	}{fr.name, fr.private, hint, events, template.HTML(fr.html(s.cfg.Now()))}})
}

// tableEvents is a table as a stream of Server-Sent Events: its fragment
// (the same as the page's) as event "table" at every change, ": ping"
// comments while nothing changes, and event "gone" when the table closes
// or its link is revoked, which ends the stream.
func (s *Server) tableEvents(w http.ResponseWriter, r *http.Request) {
	ip := ipOf(r.RemoteAddr)
	switch s.addrs.openStream(ip) {
	case streamAddrCap:
		w.Header().Set("Retry-After", "10")
		s.plain(w, http.StatusTooManyRequests, "Too many live tables open from your address.")
		return
	case streamAllCap:
		w.Header().Set("Retry-After", "30")
		s.plain(w, http.StatusServiceUnavailable, "The server follows as many live tables as it can: try again soon.")
		return
	}
	defer s.addrs.closeStream(ip)
	v := viewerOf(r)
	f, err := s.hub.acquire(r.Context(), r.PathValue("name"), v)
	if err != nil {
		s.notFound(w, r)
		return
	}
	defer s.hub.release(f)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no") // proxies: pass each event on at once
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	wt := &watcher{wake: make(chan struct{}, 1)}
	f.add(wt)
	defer f.remove(wt)
	rc := http.NewResponseController(w)
	send := func(b []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(s.lim.StallTimeout))
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	sent, _ := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64)
	pings := f.pings.Load()
	err = send([]byte("retry: 3000\n\n"))
	for err == nil {
		fr := f.cur.Load()
		switch {
		case !v.Sees(fr.access):
			_ = send([]byte("event: gone\ndata: The table's web link was ended.\n\n"))
			return
		case fr.ver != sent:
			sent = fr.ver
			err = send(fr.eventAt(s.cfg.Now()))
			continue // anything newer meanwhile?
		case f.pings.Load() != pings:
			pings = f.pings.Load()
			err = send([]byte(": ping\n\n"))
		}
		if err != nil {
			break
		}
		select {
		case <-wt.wake:
		case <-f.done:
			if fr := f.cur.Load(); fr != nil && fr.ver != sent && v.Sees(fr.access) {
				_ = send(fr.eventAt(s.cfg.Now()))
			}
			_ = send([]byte("event: gone\ndata: " + s.goneReason(f, v) + "\n\n"))
			return
		case <-r.Context().Done():
			return
		case <-s.quit:
			_ = send([]byte("event: gone\ndata: The server is shutting down.\n\n"))
			return
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.hub.dropped.Add(1)
		s.log.Info("dropped a web watcher that stopped reading", "table", f.key, "addr", ip)
	}
}

// goneReason says why a feed ended, for a viewer v that watched it: the
// table's own word when it was closed (who closed it, and the game that
// abandoned).
func (s *Server) goneReason(f *feed, v lobby.Viewer) string {
	switch closed := f.table.Closed(); {
	case s.closing.Load() || errors.Is(f.sub.Err(), lobby.ErrLobbyClosed):
		return "The server is shutting down."
	case closed != nil:
		return closed.To("") + "."
	case !v.Sees(f.table.Info().Access()):
		return "The table's web link was ended."
	}
	return "The live table stopped: reload to follow it again."
}

// finished reads a game the viewer may see; ok is false once it has
// answered (404 for one it may not see or that does not exist).
func (s *Server) finished(w http.ResponseWriter, r *http.Request, id string) (g store.Game, evs []engine.Event, ok bool) {
	ctx := r.Context()
	g, evs, err := s.cfg.Records.Game(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.notFound(w, r)
		return g, nil, false
	case err != nil:
		s.serverError(w, r, "read the game", err)
		return g, nil, false
	}
	shown, err := s.cfg.Records.GameShown(ctx, g, lobbystore.Shows(viewerOf(r)))
	switch {
	case err != nil:
		s.serverError(w, r, "read the game", err)
		return g, nil, false
	case !shown:
		s.notFound(w, r)
		return g, nil, false
	}
	return g, evs, true
}

// gamePage answers /games/ID (the page), /games/ID.json (replay --json)
// and /games/ID.cast (replay --cast).
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	id, kind := r.PathValue("id"), ""
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		id, kind = id[:i], id[i+1:]
	}
	if kind != "" && kind != "json" && (kind != "cast" || s.cfg.Cast == nil) {
		s.notFound(w, r)
		return
	}
	g, evs, ok := s.finished(w, r, id)
	if !ok {
		return
	}
	token := viewerOf(r).Link
	tableURL := s.openTableURL(g, token)
	if g.Ended.IsZero() || (!g.Finished() && g.Abandoned == nil) {
		s.unfinished(w, r, kind, g, tableURL)
		return
	}
	switch kind {
	case "json":
		// PROTOCOL.md §3, written by the function replay --json writes it with.
		var b bytes.Buffer
		if err := g.Replay(evs).Encode(&b); err != nil {
			s.serverError(w, r, "write the game", err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="mia-game-%s.json"`, g.ID))
		_, _ = w.Write(b.Bytes())
		return
	case "cast":
		var b bytes.Buffer
		if err := s.cfg.Cast(&b, g, evs); err != nil {
			s.serverError(w, r, "record the game", err)
			return
		}
		w.Header().Set("Content-Type", "application/x-asciicast")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="mia-game-%s.cast"`, g.ID))
		_, _ = w.Write(b.Bytes())
		return
	}
	cut, err := engine.CutSteps(g.Rules, len(g.Seats), evs)
	if err != nil {
		s.serverError(w, r, "replay the game", err)
		return
	}
	cur := 0
	if m := r.URL.Query().Get("m"); m != "" {
		if n, err := strconv.Atoi(m); err == nil {
			cur = n
		}
	}
	gv := s.gameViewOf(g, evs, cut, cur, tableURL, s.tokenFor(r.Context(), g, token), s.sshHint(r))
	s.render(w, r, http.StatusOK, "game", layout{Title: "Game " + g.ID + " at " + g.Table, Scripts: []string{"app.js", "fair.js"},
		Main: gv})
}

// tokenFor is the link token a game's addresses carry: the one it was
// reached by, unless anyone may see the game without it.
func (s *Server) tokenFor(ctx context.Context, g store.Game, token string) string {
	if token == "" {
		return ""
	}
	if open, err := s.cfg.Records.GameShown(ctx, g, lobbystore.Shows(lobby.Viewer{})); err == nil && open {
		return ""
	}
	return token
}

// openTableURL is the address of the game's table if it is open now and
// the viewer (holding token) sees it there; "" otherwise.
func (s *Server) openTableURL(g store.Game, token string) string {
	t, err := s.cfg.Lobby.TableFor(lobby.Viewer{Link: token}, g.Table)
	if err != nil {
		return ""
	}
	a := t.Info().Access()
	if a.Created.After(g.Started) {
		return ""
	}
	return withToken(tablePath(t.Name()), a)
}

// unfinished answers for a game still being played, or cut short by the
// server and never resumed: no page of it, and never its dice. (A game
// abandoned because its table closed is replayed, as it is over SSH.)
func (s *Server) unfinished(w http.ResponseWriter, r *http.Request, kind string, g store.Game, tableURL string) {
	running := g.Ended.IsZero()
	text := fmt.Sprintf("Game %s was cut short by the server and never resumed: there is nothing to replay.", g.ID)
	if running {
		text = fmt.Sprintf("Game %s is still being played: its dice stay hidden until it ends, and then this page is its replay.", g.ID)
	}
	if kind != "" {
		s.plain(w, http.StatusConflict, text)
		return
	}
	m := message{Title: "Game " + g.ID, Lines: []string{text}}
	if running && tableURL != "" {
		m.Link, m.LinkText = tableURL, "Watch it live at "+g.Table
	}
	s.render(w, r, http.StatusOK, "message", layout{Title: "Game " + g.ID, Refresh: 30, Main: m})
}

// playerView is a player's page.
type playerView struct {
	Name, Rating, Games, Wins, LivesLost, Bluffs, Caught, Challenges string
	BluffsMeaning, CaughtMeaning                                     string
	AsBot                                                            string // how many rated games were a bot's seat, when some were
	Recent                                                           []gameRow
	Places                                                           template.HTML
	PlacesNote                                                       string
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, err := s.cfg.Records.PersonByName(ctx, r.PathValue("name"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.notFound(w, r)
		return
	case err != nil:
		s.serverError(w, r, "read the player", err)
		return
	}
	tally, err := s.cfg.Records.Tally(ctx, p.ID)
	if err != nil {
		s.serverError(w, r, "read the stats", err)
		return
	}
	rating, err := s.cfg.Records.Rating(ctx, p.ID, "")
	if err != nil {
		s.serverError(w, r, "read the rating", err)
		return
	}
	pv := playerView{Name: lobby.Label(p.Name, rating.Bot()),
		Rating:        fmt.Sprintf("%.0f after %s", rating.Rating, lobby.Plural(rating.Games, "1 rated game", "rated games")),
		Games:         fmt.Sprintf("%d played, %d won%s", tally.Games, tally.Wins, pct(tally.Wins, tally.Games)),
		LivesLost:     strconv.Itoa(tally.LivesLost),
		Bluffs:        fmt.Sprintf("%d of %s%s", tally.Bluffs, lobby.Plural(tally.Claims, "1 claim", "claims"), pct(tally.Bluffs, tally.Claims)),
		Caught:        lobby.Plural(tally.BluffsCaught, "1 time", "times"),
		Challenges:    fmt.Sprintf("%d right of %d%s", tally.ChallengesWon, tally.Challenges, pct(tally.ChallengesWon, tally.Challenges)),
		BluffsMeaning: store.BluffsMeaning, CaughtMeaning: store.CaughtMeaning}
	if rating.BotGames > 0 && !rating.Bot() {
		pv.AsBot = fmt.Sprintf("%d of the rated games through the bot protocol, the rest by screen", rating.BotGames)
	}
	games, err := s.cfg.Records.History(ctx, store.Query{Player: p.ID, Limit: placesShown}, lobbystore.Shows(lobby.Viewer{}))
	if err != nil {
		s.serverError(w, r, "read the games", err)
		return
	}
	recent, err := s.gameRows(ctx, store.Query{Player: p.ID, Limit: 10}, lobby.Viewer{})
	if err != nil {
		s.serverError(w, r, "read the games", err)
		return
	}
	pv.Recent = recent
	var places, players []int
	for i := len(games) - 1; i >= 0; i-- { // oldest first
		g := games[i]
		for place, seat := range g.Standings {
			if seat >= 0 && seat < len(g.Seats) && g.Seats[seat].Person == p.ID {
				places, players = append(places, place+1), append(players, len(g.Seats))
				break
			}
		}
	}
	pv.Places = placesChart(places, players)
	if len(places) > 0 {
		pv.PlacesNote = fmt.Sprintf("Places in the last %s anyone may see, oldest left: the higher the bar, the better the place; a win in gold.",
			lobby.Plural(len(places), "game", "games"))
	}
	s.render(w, r, http.StatusOK, "player", layout{Title: p.Name, Main: pv})
}

// pct is " (P%)" of n/of, or "" when of is 0.
func pct(n, of int) string {
	if of == 0 {
		return ""
	}
	return fmt.Sprintf(" (%.0f%%)", 100*float64(n)/float64(of))
}

// leaderRow is one player of the leaderboard.
type leaderRow struct {
	Rank                int
	Name, URL           string
	Rating, Games, Wins string
	Bot                 bool
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	table := r.URL.Query().Get("table")
	if table != "" && !s.tableShown(ctx, table) {
		s.notFound(w, r)
		return
	}
	rs, err := s.cfg.Records.Leaderboard(ctx, table, 50)
	if err != nil {
		s.serverError(w, r, "read the leaderboard", err)
		return
	}
	var rows []leaderRow
	var ratings []float64
	var labels []string
	for i, rt := range rs {
		row := leaderRow{Rank: i + 1, Name: lobby.Label(rt.Name, rt.Bot()), Rating: fmt.Sprintf("%.0f", rt.Rating),
			Games: strconv.Itoa(rt.Games), Wins: fmt.Sprintf("%d%s", rt.Wins, pct(rt.Wins, rt.Games)), Bot: rt.Bot()}
		if rt.Name != "" && lobby.HasKeys(rt.Person) {
			row.URL = playerPath(rt.Name) // a person's page, by their name now
		}
		if row.Name == "" {
			row.Name = "?"
		}
		rows = append(rows, row)
		if i < 20 {
			ratings, labels = append(ratings, math.Round(rt.Rating)), append(labels, row.Name)
		}
	}
	where := "overall"
	if table != "" {
		where = "at " + table
	}
	s.render(w, r, http.StatusOK, "leaderboard", layout{Title: "Leaderboard", Main: struct {
		Where string
		Rows  []leaderRow
		Chart template.HTML
		Start float64
	}{where, rows, ratingBars(labels, ratings, store.StartRating), store.StartRating}})
}

// tableShown reports whether anyone may see a table of that name (one
// of its records, by the lobby's rule).
func (s *Server) tableShown(ctx context.Context, name string) bool {
	ts, err := s.cfg.Records.TableRecords(ctx, name)
	if err != nil {
		return false
	}
	for _, t := range ts {
		if (lobby.Viewer{}).Sees(lobbystore.Access(t)) {
			return true
		}
	}
	return false
}
