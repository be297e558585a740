package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
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
	mux.HandleFunc("GET /events", s.eventsPage)
	mux.HandleFunc("GET /events/{name}", s.eventPage)
	mux.HandleFunc("GET /events/{name}/events", s.eventEvents)
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

// statusOf is the HTTP status of a request that failed with an error of
// kind k.
func statusOf(k lobby.ErrorKind) int {
	switch k {
	case lobby.Refused:
		return http.StatusForbidden
	case lobby.NotFound:
		return http.StatusNotFound
	case lobby.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// fail answers a request that failed with err: the one place where the
// web window's errors become a status and a page, by their kind
// (lobby.ErrorKind, statusOf). NotFound is the one page of what is not there
// (notFound); the others a page of lobby.Shown's sentence, with
// Retry-After for Unavailable. An error that sentence hides is logged
// (lobby.LogHidden) with what the page was doing (what: "read the
// game"); nothing is answered to a viewer who has gone.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return
	}
	lobby.LogHidden(s.log, err, "could not "+what, "path", r.URL.Path)
	k, title := lobby.KindOf(err), "Server error"
	switch k {
	case lobby.NotFound:
		s.notFound(w, r)
		return
	case lobby.Refused:
		title = "Refused"
	case lobby.Unavailable:
		title = "Try again soon"
		w.Header().Set("Retry-After", "30")
	}
	s.render(w, r, statusOf(k), "message", layout{Title: title,
		Main: message{Title: title, Lines: []string{asSentence(lobby.Shown(err))}}})
}

// asSentence is a sentence of the lobby's ("every seat is taken") as a
// page writes it: "Every seat is taken."
func asSentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:] + "."
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
		row := tableRow{Name: info.Name, URL: tablePath(info.Name), State: words.TableState(info.State, info.Paused, info.Resting), Rules: words.RulesSummary(info.Rules),
			Seats: fmt.Sprintf("%d of %d", info.Taken, info.Seats), Host: info.Host}
		names := make([]string, len(info.Players))
		for i, p := range info.Players {
			names[i] = words.Label(p.Name, p.Bot)
		}
		row.Players = strings.Join(names, ", ")
		tables = append(tables, row)
	}
	games, err := s.gameRows(r.Context(), store.Query{Limit: 20}, lobby.Viewer{})
	if err != nil {
		s.fail(w, r, "read the finished games", err)
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
			winner = words.Label(seatName(g.Seats[g.Winner]), g.Seats[g.Winner].Bot)
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
	label := words.Label(seatName(st), st.Bot)
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
		s.fail(w, r, "open the table", err) // errNoTable
		return
	}
	defer s.hub.release(f)
	fr := f.cur.Load()
	events := tablePath(fr.name) + "/events"
	if !(lobby.Viewer{}).Sees(fr.access) {
		events += "?" + linkParam + "=" + url.QueryEscape(v.Link)
	}
	hint, token := "", ""
	if !fr.private {
		hint = s.playHint(r, fr.name)
	}
	if !(lobby.Viewer{}).Sees(fr.access) {
		token = v.Link // the board of a table seen by its link is seen by it too
	}
	s.render(w, r, http.StatusOK, "table", layout{Title: fr.name, Refresh: 5, Scripts: []string{"app.js"}, Main: struct {
		Name      string
		Private   bool
		Coach     bool
		CoachSays string
		SSH       string
		Events    string
		Board     string
		Live      template.HTML
	}{fr.name, fr.private, fr.coach, words.CoachSays, hint, events, boardPath(fr.name, token, "", store.Everyone), template.HTML(fr.html(s.cfg.Now()))}})
}

// tableEvents is a table as a stream of Server-Sent Events: its fragment
// (the same as the page's) as event "table" at every change, ": ping"
// comments while nothing changes, and event "gone" when the table closes
// or its link is revoked, which ends the stream.
func (s *Server) tableEvents(w http.ResponseWriter, r *http.Request) {
	ip, ok := s.streamSlot(w, r, "live tables")
	if !ok {
		return
	}
	defer s.addrs.closeStream(ip)
	v := viewerOf(r)
	f, err := s.hub.acquire(r.Context(), r.PathValue("name"), v)
	if err != nil {
		s.fail(w, r, "open the table", err) // errNoTable
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
		return lobby.Shown(closed) + "."
	case !v.Sees(f.table.Info().Access()):
		return "The table's web link was ended."
	}
	return "The live table stopped: reload to follow it again."
}

// finished reads a game the viewer may see; ok is false once it has
// answered (404 for one it may not see or that does not exist, by the
// same steps: store.Store.ShownGame).
func (s *Server) finished(w http.ResponseWriter, r *http.Request, id string) (g store.Game, evs []engine.Event, ok bool) {
	g, evs, err := s.cfg.Records.ShownGame(r.Context(), id, lobbystore.Shows(viewerOf(r)))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.notFound(w, r)
		return g, nil, false
	case err != nil:
		s.fail(w, r, "read the game", err)
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
	var (
		a       verdict.Analysis
		judging string
	)
	if kind != "cast" {
		a, judging = s.verdicts(r.Context(), r, g, evs)
	}
	switch kind {
	case "json":
		// PROTOCOL.md §3, written by the function replay --json writes it with.
		var b bytes.Buffer
		if err := verdict.Doc(g, evs, a).Encode(&b); err != nil {
			s.fail(w, r, "write the game", err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="mia-game-%s.json"`, g.ID))
		_, _ = w.Write(b.Bytes())
		return
	case "cast":
		var b bytes.Buffer
		if err := s.cfg.Cast(&b, g, evs); err != nil {
			s.fail(w, r, "record the game", err)
			return
		}
		w.Header().Set("Content-Type", "application/x-asciicast")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="mia-game-%s.cast"`, g.ID))
		_, _ = w.Write(b.Bytes())
		return
	}
	cut, err := engine.CutSteps(g.Rules, len(g.Seats), evs)
	if err != nil {
		s.fail(w, r, "replay the game", err)
		return
	}
	cur := 0
	if m := r.URL.Query().Get("m"); m != "" {
		if n, err := strconv.Atoi(m); err == nil {
			cur = n
		}
	}
	gv := s.gameViewOf(g, evs, a, cut, cur, tableURL, s.tokenFor(r.Context(), g, token), s.sshHint(r))
	gv.Judging = judging
	if gv.BoardURL, err = s.gameBoard(r.Context(), g, viewerOf(r)); err != nil {
		s.fail(w, r, "read the table", err)
		return
	}
	s.render(w, r, http.StatusOK, "game", layout{Title: "Game " + g.ID + " at " + g.Table, Scripts: []string{"app.js", "fair.js"},
		Main: gv})
}

// judgeWait is how long a page waits for a game's verdicts before it is
// shown without them (saying so): a rule set solved for the first time
// takes seconds, a game once solved milliseconds.
const judgeWait = 2 * time.Second

// verdicts is the verdict on every move of the finished game g, and, if
// they are not worked out in judgeWait, what to say instead.
func (s *Server) verdicts(ctx context.Context, r *http.Request, g store.Game, evs []engine.Event) (verdict.Analysis, string) {
	ctx, cancel := context.WithTimeout(ctx, judgeWait)
	defer cancel()
	a, err := s.cfg.Judge.Of(ctx, s.solveSource(r), g, evs)
	switch {
	case errors.Is(err, verdict.ErrNotReady):
		return a, "The verdicts on the moves are still being worked out: reload the page in a few seconds."
	case errors.Is(err, verdict.ErrUnsolved):
		return a, words.NoVerdicts(lobby.Shown(err))
	case errors.Is(err, verdict.ErrOff):
	case err != nil:
		s.log.Warn("judge a game's moves", "game", g.ID, "err", err)
	}
	return a, ""
}

// solveSource is the source r's solves are counted by (Config.SourceOf).
func (s *Server) solveSource(r *http.Request) string {
	ip := ipOf(r.RemoteAddr)
	if s.cfg.SourceOf == nil {
		return ip
	}
	return s.cfg.SourceOf(ip)
}

// accuracy is a player's accuracy over their last games anyone may see
// (verdict.Judge.Over, as the stats command sums it up), waiting at most
// judgeWait: "" on a server without verdicts.
func (s *Server) accuracy(ctx context.Context, r *http.Request, person string) (string, error) {
	if s.cfg.Judge == nil {
		return "", nil
	}
	shows := lobbystore.Shows(lobby.Viewer{})
	games, err := s.cfg.Records.History(ctx, store.Query{Player: person, Limit: verdict.CareerGames}, shows)
	if err != nil {
		return "", err
	}
	jctx, cancel := context.WithTimeout(ctx, judgeWait)
	defer cancel()
	read := func(_ context.Context, id string) ([]engine.Event, error) {
		_, evs, err := s.cfg.Records.ShownGame(ctx, id, shows)
		return evs, err
	}
	c, err := s.cfg.Judge.Over(jctx, s.solveSource(r), person, games, read)
	if err != nil {
		return "", err
	}
	said := words.AccuracyOver(c.Summary, c.Games)
	if c.Pending > 0 {
		said += words.AccuracyPending(c.Pending, lobby.Shown(c.Refused))
	}
	return said, nil
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

// gameBoard is the address of the board of the game's table for v: the
// board /leaderboard?table=NAME shows v (lobbystore.Visible), when that
// is the game's own table record; "" when it is another table of the
// name (the game's table has closed and the name been taken again) or
// none v may see.
func (s *Server) gameBoard(ctx context.Context, g store.Game, v lobby.Viewer) (string, error) {
	ts, err := s.cfg.Records.TableRecords(ctx, g.Table)
	if err != nil {
		return "", err
	}
	own, board := store.RecordAt(ts, g.Started), lobbystore.Visible(ts, v)
	if own == nil || board == nil || !own.Created.Equal(board.Created) {
		return "", nil
	}
	return boardPath(board.Name, boardToken(*board), "", store.Everyone), nil
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

// playerView is a player's page: what anyone may read of them, the
// games of public tables only.
type playerView struct {
	Name, Games, LivesLost, Bluffs, Understated, Caught, Challenges string
	BluffsMeaning, UnderstatedMeaning, CaughtMeaning                string
	Rating                                                          ratingView
	Season                                                          string // the season running, "" when seasons are off
	SeasonRating                                                    ratingView
	Trend                                                           string // how the figure moved over their last rated games (words.TrendWords)
	Provisional                                                     string // what "?" means, when a figure shown has one
	AsBot                                                           string // how many rated games were a bot's seat, when some were
	Recent                                                          []gameRow
	Places                                                          template.HTML
	PlacesNote                                                      string
	Accuracy                                                        string // over their last games (words.AccuracyOver), "" without verdicts
}

// ratingView is a rating as the pages show it: the figure as every door
// shows it (words.Figure), "" when there is no rated game, and the
// model's numbers.
type ratingView struct {
	Figure, Games, Model string
	Provisional          bool
}

func ratingOf(r store.Rating) ratingView {
	if r.Games == 0 {
		return ratingView{}
	}
	return ratingView{Figure: words.Figure(r.Rating), Provisional: r.Provisional(),
		Games: fmt.Sprintf("after %s, %d won", words.Plural(r.Games, "1 rated game", "rated games"), r.Wins),
		Model: fmt.Sprintf("μ %.2f, σ %.2f, μ − 3σ %.2f", r.Mu, r.Sigma, r.Conservative())}
}

// trendPoints is how many rated games a player's trend looks back on.
const trendPoints = 30

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, err := s.cfg.Records.PersonByName(ctx, r.PathValue("name"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.notFound(w, r)
		return
	case err != nil:
		s.fail(w, r, "read the player", err)
		return
	}
	// Anyone may read this page: the counts of public tables' games, and
	// the overall boards, which hold nothing else.
	tally, err := s.cfg.Records.PublicTally(ctx, p.ID)
	if err != nil {
		s.fail(w, r, "read the stats", err)
		return
	}
	overall, err := s.cfg.Records.Rating(ctx, p.ID, store.Board{Season: rating.AllTime})
	if err != nil {
		s.fail(w, r, "read the rating", err)
		return
	}
	ofClaims := func(n int) string {
		return fmt.Sprintf("%d of %s%s", n, words.Plural(tally.Claims, "1 claim", "claims"), pct(n, tally.Claims))
	}
	pv := playerView{Name: words.Label(p.Name, overall.Bot()), Rating: ratingOf(overall),
		Games:         fmt.Sprintf("%d played, %d won%s", tally.Games, tally.Wins, pct(tally.Wins, tally.Games)),
		LivesLost:     strconv.Itoa(tally.LivesLost),
		Bluffs:        ofClaims(tally.Bluffs),
		Understated:   ofClaims(tally.Understated),
		Caught:        words.Plural(tally.BluffsCaught, "1 time", "times"),
		Challenges:    fmt.Sprintf("%d right of %d%s", tally.ChallengesWon, tally.Challenges, pct(tally.ChallengesWon, tally.Challenges)),
		BluffsMeaning: store.BluffsMeaning, UnderstatedMeaning: store.UnderstatedMeaning, CaughtMeaning: store.CaughtMeaning}
	if pv.Rating.Provisional || pv.SeasonRating.Provisional {
		pv.Provisional = words.ProvisionalNote
	}
	if overall.BotGames > 0 && !overall.Bot() {
		pv.AsBot = fmt.Sprintf("%d of the rated games through the bot protocol, the rest by screen", overall.BotGames)
	}
	if season := s.cfg.Season.Of(s.cfg.Now()); !season.IsAllTime() {
		sr, err := s.cfg.Records.Rating(ctx, p.ID, store.Board{Season: season})
		if err != nil {
			s.fail(w, r, "read the rating", err)
			return
		}
		pv.Season, pv.SeasonRating = season.String()+", "+words.SeasonWords(season), ratingOf(sr)
	}
	trend, err := s.cfg.Records.Trend(ctx, p.ID, nil, trendPoints)
	if err != nil {
		s.fail(w, r, "read the rating", err)
		return
	}
	if len(trend) > 0 {
		changes := make([]rating.Change, len(trend))
		for i, pt := range trend {
			changes[i] = pt.Change
		}
		pv.Trend = words.TrendWords(changes)
	}
	games, err := s.cfg.Records.History(ctx, store.Query{Player: p.ID, Limit: placesShown}, lobbystore.Shows(lobby.Viewer{}))
	if err != nil {
		s.fail(w, r, "read the games", err)
		return
	}
	recent, err := s.gameRows(ctx, store.Query{Player: p.ID, Limit: 10}, lobby.Viewer{})
	if err != nil {
		s.fail(w, r, "read the games", err)
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
	if pv.Accuracy, err = s.accuracy(ctx, r, p.ID); err != nil {
		s.log.Warn("judge a player's moves", "person", p.ID, "err", err) // the page stands without it
	}
	pv.Places = placesChart(places, players)
	if len(places) > 0 {
		pv.PlacesNote = fmt.Sprintf("Places in the last %s anyone may see, oldest left: the higher the bar, the better the place; a win in gold.",
			words.Plural(len(places), "game", "games"))
	}
	s.render(w, r, http.StatusOK, "player", layout{Title: p.Name, Main: pv})
}

// pct is " (P%)" of n/of (words.Percent), or "" when of is 0.
func pct(n, of int) string {
	if of == 0 {
		return ""
	}
	return " (" + words.Percent(n, of) + ")"
}

// leaderRow is one player of the leaderboard.
type leaderRow struct {
	Rank                           int
	Name, URL                      string
	Rating, Games, Wins, Mu, Sigma string
	Bot                            bool
}

// seasonLink is a season or a kind of players the leaderboard page
// offers to go to; URL "" for the one shown.
type seasonLink struct{ Text, URL string }

// leaderboardView is the leaderboard page.
type leaderboardView struct {
	Where, Who, When   string
	Champion           string // an ended season's champion and their figure
	Prev, Next, Switch *seasonLink
	Kinds              []seasonLink // everyone · people · bots
	Rows               []leaderRow
	Empty              string // what an empty board says
	Provisional        string // what "?" means, when a row has one
	Chart              template.HTML
	Start              int // a newcomer's figure, where every bar starts
}

// whoWords are the kinds of players as the board's title says them
// (as `leaderboard` does).
var whoWords = map[store.BoardKind]string{store.People: "people only", store.Bots: "bots only"}

// leaderboardPage is a board in a season: overall (the games of public
// tables) or, with ?table=NAME, the newest table of that name the viewer
// may see (lobbystore.Visible: a private one only through its link), in
// the season running or ?season=S (a month, an ISO week or all-time),
// of everyone or ?kind=people or bots (store.BoardKind, as `leaderboard
// --people` and `--bots`).
func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v := viewerOf(r)
	now := s.cfg.Now()
	args := r.URL.Query()
	bad := func(line string) {
		s.render(w, r, http.StatusBadRequest, "message", layout{Title: "Leaderboard", Main: message{Title: "Leaderboard",
			Lines: []string{line}, Link: "/leaderboard", LinkText: "The leaderboard of the season running"}})
	}
	season, seasonArg := s.cfg.Season.Of(now), ""
	if arg := args.Get(seasonParam); arg != "" {
		var err error
		if season, err = rating.ParseSeason(arg); err != nil {
			bad(fmt.Sprintf("%q is not a season: %s.", words.Echo(arg), words.SeasonForms))
			return
		}
		seasonArg = season.String()
	}
	kind := store.Everyone
	if arg := args.Get(kindParam); arg != "" {
		var ok bool
		if kind, ok = store.ParseBoardKind(arg); !ok {
			bad(fmt.Sprintf("%q is not a kind of player: %s, %s or %s.", words.Echo(arg), store.Everyone, store.People, store.Bots))
			return
		}
	}
	var table *store.TableRecord
	if name := args.Get(tableParam); name != "" {
		ts, err := s.cfg.Records.TableRecords(ctx, name)
		if err != nil {
			s.fail(w, r, "read the table", err)
			return
		}
		if table = lobbystore.Visible(ts, v); table == nil {
			s.notFound(w, r)
			return
		}
	}
	rs, err := s.cfg.Records.Leaderboard(ctx, store.BoardQuery{Board: store.Board{Table: table, Season: season}, Kind: kind, Limit: 50})
	if err != nil {
		s.fail(w, r, "read the leaderboard", err)
		return
	}
	var tableName, token string
	if table != nil {
		tableName, token = table.Name, boardToken(*table) // the viewer's, who came in by it
	}
	link := func(to rating.Season) string { return boardPath(tableName, token, to.String(), kind) }
	lv := leaderboardView{Where: "overall", Who: whoWords[kind], When: words.SeasonWords(season), Start: rating.Newcomer().Points(),
		Empty: "No rated games yet."}
	if kind != store.Everyone {
		lv.Empty = "No rated games of " + kind.String() + " yet."
	}
	for _, k := range store.BoardKinds {
		l := seasonLink{Text: k.String()}
		if k != kind {
			l.URL = boardPath(tableName, token, seasonArg, k)
		}
		lv.Kinds = append(lv.Kinds, l)
	}
	if table != nil {
		lv.Where = "at " + table.Name
	}
	if !season.IsAllTime() {
		lv.When = "season " + season.String() + ", " + lv.When
		if left := words.SeasonLeft(season, now); left != "" {
			lv.When += ", " + left
		}
		lv.Prev = &seasonLink{"← " + season.Prev().String(), link(season.Prev())}
		if season.End().Before(now) {
			lv.Next = &seasonLink{season.Next().String() + " →", link(season.Next())}
		}
		lv.Switch = &seasonLink{"all time", link(rating.AllTime)}
	} else if running := s.cfg.Season.Of(now); !running.IsAllTime() {
		lv.Switch = &seasonLink{"the season running, " + running.String(), link(running)}
	}
	var ratings []float64
	var labels, figures []string
	for i, rt := range rs {
		row := leaderRow{Rank: i + 1, Name: words.Label(rt.Name, rt.Bot()), Rating: words.Figure(rt.Rating),
			Games: strconv.Itoa(rt.Games), Wins: fmt.Sprintf("%d%s", rt.Wins, pct(rt.Wins, rt.Games)), Bot: rt.Bot(),
			Mu: fmt.Sprintf("%.1f", rt.Mu), Sigma: fmt.Sprintf("%.1f", rt.Sigma)}
		if rt.Name != "" && lobby.HasKeys(rt.Person) {
			row.URL = playerPath(rt.Name) // a person's page, by their name now
		}
		if row.Name == "" {
			row.Name = "?"
		}
		if rt.Provisional() {
			lv.Provisional = words.ProvisionalNote
		}
		lv.Rows = append(lv.Rows, row)
		if i < 20 {
			ratings, labels, figures = append(ratings, float64(rt.Points())), append(labels, row.Name), append(figures, row.Rating)
		}
	}
	if len(lv.Rows) > 0 && !season.IsAllTime() && !now.Before(season.End()) {
		lv.Champion = lv.Rows[0].Name + ", " + lv.Rows[0].Rating
	}
	lv.Chart = ratingBars(labels, figures, ratings, float64(lv.Start))
	s.render(w, r, http.StatusOK, "leaderboard", layout{Title: "Leaderboard", Main: lv})
}

// streamSlot takes a place for a stream of what (a table's, an event's)
// within the caps per address and in all, or answers 429 or 503 (ok
// false). The caller gives the place back: s.addrs.closeStream(ip).
func (s *Server) streamSlot(w http.ResponseWriter, r *http.Request, what string) (ip string, ok bool) {
	ip = ipOf(r.RemoteAddr)
	switch s.addrs.openStream(ip) {
	case streamAddrCap:
		w.Header().Set("Retry-After", "10")
		s.plain(w, http.StatusTooManyRequests, "Too many "+what+" open from your address.")
		return ip, false
	case streamAllCap:
		w.Header().Set("Retry-After", "30")
		s.plain(w, http.StatusServiceUnavailable, "The server follows as many "+what+" as it can: try again soon.")
		return ip, false
	}
	return ip, true
}
