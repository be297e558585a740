package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// gameView is a finished game's page: the game move by move (the replay
// screen's steps, engine.CutSteps), told by lobby/words' narrator, every die
// shown; the state at the move asked for; the standings; the lives per
// round; the proof of its dice.
type gameView struct {
	ID, Table, TableURL string
	BoardURL            string // the table's leaderboard, "" when the viewer has none of it (Server.gameBoard)
	Rules               string
	When                string
	Players             []gamePlayer
	Winner              string
	// Abandoned says how a game abandoned when its table closed ended:
	// who closed it, and that no one won ("" for a finished game).
	Abandoned   string
	Chart       template.HTML
	Legend      []legendItem
	Cur, Last   int
	Panel       stepPanel
	First, Prev string // addresses of the moves before, "" at the start
	Next, End   string // and after, "" at the end
	Rounds      []roundView
	JSON, Cast  string
	Fair        *fairView
	MaxLives    int
	WinnerSeat  int
	SSH         string
	// Accuracy sums up each player's moves by the verdicts (none while
	// they are worked out, or on a server without them); Judging says
	// they are being worked out.
	Accuracy     []accuracyRow
	AnalysisNote string
	Judging      string
}

// accuracyRow is one player's moves summed up (words.Accuracy).
type accuracyRow struct {
	Name, Text string
}

type gamePlayer struct {
	Place  int
	Name   string
	URL    string
	Winner bool
}

type legendItem struct {
	Name  string
	Class string
}

// stepPanel is the state a move leaves: the seats, the claim, the cup and
// what the dice say of the move.
type stepPanel struct {
	Pos     string
	Seats   []stepSeat
	Claim   string
	Cup     string
	Verdict string
	Kind    string // the verdict's kind, for its colour: "bluff", "true", …
	// Best is the verdict on the step's move against the solved strategy
	// (words.Judged) and Odds the moves it makes there, "" for a move
	// without one.
	Best, Odds string
}

type stepSeat struct {
	Name              string
	Lives             int
	Hearts, Lost      string
	Turn, Out, Winner bool
}

type roundView struct {
	Heading string
	Steps   []stepView
}

// stepView is one move in the list; its data attributes carry its panel
// for the page's script, which steps without a reload.
type stepView struct {
	N       int
	URL     string
	Current bool
	Lines   []lineView
	Panel   stepPanel
	Lives   string // the lives after it, by seat: "2,1,0"
	Turn    int
	Over    bool
}

type lineView struct {
	Text string
	Mark string
	Kind string
	// Judged is the move's mark by the verdicts ("?!", "?", "??"), ""
	// for none; its class names it (judgedClass).
	Judged, JudgedClass string
}

// judgedClass names a verdict's mark in the page's classes.
func judgedClass(mark string) string {
	return map[string]string{"?!": "inaccuracy", "?": "mistake", "??": "blunder"}[mark]
}

// fairView is the proof of a game's dice, as the page shows it and the
// reader's browser checks it.
type fairView struct {
	Scheme     string
	Commitment string
	ServerSeed string
	Seeds      []string
	Verify     string
}

// verdictKinds are the verdicts' names in the page's classes.
var verdictKinds = map[engine.Verdict]string{engine.Truthful: "true", engine.Bluffed: "bluff", engine.Unseen: "blind",
	engine.Caught: "caught", engine.Stood: "stood", engine.Short: "short"}

// gameViewOf builds the page of a finished game at move cur; token is
// the link the page was reached by ("" for none), carried by its
// addresses.
func (s *Server) gameViewOf(g store.Game, evs []engine.Event, a verdict.Analysis, cut engine.Cut, cur int, tableURL, token, hint string) gameView {
	n := len(g.Seats)
	nar := words.Narrator{Names: make([]string, n), You: -1, Ranking: g.Rules.Ranking, Turn: -1}
	for i, st := range g.Seats {
		nar.Names[i] = words.Label(seatName(st), st.Bot)
	}
	last := len(cut.Steps) - 1
	cur = min(max(cur, 0), last)
	at := func(m int) string {
		u := gamePath(g.ID) + "?m=" + strconv.Itoa(m)
		if token != "" {
			u += "&" + linkParam + "=" + url.QueryEscape(token)
		}
		return u
	}
	own := func(suffix string) string {
		u := gamePath(g.ID) + suffix
		if token != "" {
			u += "?" + linkParam + "=" + url.QueryEscape(token)
		}
		return u
	}
	gv := gameView{ID: g.ID, Table: g.Table, TableURL: tableURL, Rules: words.RulesSummary(g.Rules), Cur: cur, Last: last,
		JSON: own(".json"), MaxLives: g.Rules.Lives, WinnerSeat: g.Winner, SSH: hint,
		When: when(g.Started, g.Ended)}
	if s.cfg.Cast != nil {
		gv.Cast = own(".cast")
	}
	if g.Winner >= 0 && g.Winner < n {
		gv.Winner = nar.Names[g.Winner]
	}
	for place, seat := range g.Standings {
		if seat < 0 || seat >= n {
			continue
		}
		p := gamePlayer{Place: place + 1, Name: seatLabel(g.Seats[seat]), URL: seatURL(g.Seats[seat]), Winner: seat == g.Winner}
		gv.Players = append(gv.Players, p)
	}
	if g.Abandoned != nil {
		// No standings: the players by seat.
		gv.Abandoned = words.ClosedWhileRunning(g.Abandoned.Name) + ". " + words.NoResult
		for _, st := range g.Seats {
			gv.Players = append(gv.Players, gamePlayer{Name: seatLabel(st), URL: seatURL(st)})
		}
	}
	if cur > 0 {
		gv.First, gv.Prev = at(0), at(cur-1)
	}
	if cur < last {
		gv.Next, gv.End = at(cur+1), at(last)
	}
	for i := range n {
		gv.Legend = append(gv.Legend, legendItem{Name: nar.Names[i], Class: seatClass(i)})
	}
	gv.Chart = livesChart(cut.Chart, g.Rules.Lives)
	round := -1
	for i, st := range cut.Steps {
		sv := stepView{N: i, URL: at(i), Current: i == cur, Panel: panelAt(g, evs, nar, cut, i), Turn: st.Turn, Over: st.Over}
		sv.Panel.Best, sv.Panel.Odds = bestAt(evs, nar, a, st)
		if i == last && gv.Abandoned != "" {
			sv.Panel.Verdict, sv.Panel.Kind = gv.Abandoned, "abandoned"
		}
		lives := make([]string, len(st.Lives))
		for j, l := range st.Lives {
			lives[j] = strconv.Itoa(l)
		}
		sv.Lives = strings.Join(lives, ",")
		for k := st.First; k < st.End; k++ {
			line := nar.Line(evs, k)
			if line == "" {
				continue
			}
			lv := lineView{Text: line}
			if v, _ := nar.Verdict(evs, k); words.Mark(v) != "" {
				lv.Mark, lv.Kind = words.Mark(v), verdictKinds[v]
			}
			if j, ok := a.Of(evs[k].Seq); ok {
				lv.Judged = j.Mark.String()
				lv.JudgedClass = judgedClass(lv.Judged)
			}
			sv.Lines = append(sv.Lines, lv)
		}
		if st.Round != round {
			round = st.Round
			gv.Rounds = append(gv.Rounds, roundView{Heading: fmt.Sprintf("Round %d", st.Round)})
		}
		rv := &gv.Rounds[len(gv.Rounds)-1]
		rv.Steps = append(rv.Steps, sv)
		if i == cur {
			gv.Panel = sv.Panel
		}
	}
	if len(a.Decisions) > 0 {
		for seat, sum := range a.Players {
			gv.Accuracy = append(gv.Accuracy, accuracyRow{Name: nar.Names[seat], Text: words.Accuracy(sum)})
		}
		gv.AnalysisNote = words.AnalysisNote(a.Exact)
	}
	if g.Fair != nil {
		f := &fairView{Scheme: g.Fair.Scheme, Commitment: g.Fair.Commitment, ServerSeed: g.Fair.ServerSeed}
		for _, ps := range g.Fair.PlayerSeeds {
			who := "?"
			if ps.Seat >= 0 && ps.Seat < n {
				who = nar.Names[ps.Seat]
			}
			f.Seeds = append(f.Seeds, fmt.Sprintf("%s: %q", who, ps.Seed))
		}
		if hint != "" {
			f.Verify = hint + " verify " + g.ID
		}
		gv.Fair = f
	}
	return gv
}

// bestAt is the verdict on the move of step st and the strategy's moves
// there, "" for a step without a judged move.
func bestAt(evs []engine.Event, nar words.Narrator, a verdict.Analysis, st engine.Step) (best, odds string) {
	for k := st.First; k < st.End; k++ {
		if j, ok := a.Of(evs[k].Seq); ok {
			return words.JudgedBy(nar.Names[j.Seat], words.Judged(j.Judgement)), words.StrategyLine(j.Judgement)
		}
	}
	return "", ""
}

// panelAt is the state after step i, in words.
func panelAt(g store.Game, evs []engine.Event, nar words.Narrator, cut engine.Cut, i int) stepPanel {
	st := cut.Steps[i]
	p := stepPanel{Pos: fmt.Sprintf("Round %d of %d · move %d of %d", st.Round, len(cut.Starts), i, len(cut.Steps)-1)}
	name := func(seat int) string {
		if seat >= 0 && seat < len(nar.Names) {
			return nar.Names[seat]
		}
		return "?"
	}
	for seat, l := range st.Lives {
		ss := stepSeat{Name: name(seat), Lives: l, Turn: seat == st.Turn, Out: l == 0, Winner: st.Over && seat == g.Winner}
		ss.Hearts, ss.Lost = hearts(l, g.Rules.Lives)
		p.Seats = append(p.Seats, ss)
	}
	p.Claim = nar.ClaimWords(st.Claim, st.Claimant).String()
	if cw := nar.CupWords(st.Cup, st.Roller, st.Looked); cw.Value != "" {
		p.Cup = cw.Lead + faces(st.Cup) + " " + cw.Value + cw.By
	} else {
		p.Cup = cw.Lead
	}
	for k := st.First; k < st.End; k++ {
		if v, words := nar.Verdict(evs, k); v != engine.Unjudged {
			p.Verdict, p.Kind = words, verdictKinds[v]
			break
		}
	}
	if p.Verdict == "" && st.First < st.End {
		p.Verdict = nar.Line(evs, st.First)
	}
	if st.Over {
		p.Verdict = nar.Won(g.Winner)
	}
	return p
}

// dieFaces are ⚀ to ⚅.
var dieFaces = []rune("⚀⚁⚂⚃⚄⚅")

// faces writes dice as their faces: "⚄⚂".
func faces(v engine.Value) string {
	if !v.Valid() {
		return ""
	}
	hi, lo := v.Dice()
	return string([]rune{dieFaces[hi-1], dieFaces[lo-1]})
}

// when is a game's start and end in words: "21 Nov 2026, 12:00–12:04 UTC".
func when(start, end time.Time) string {
	start, end = start.UTC(), end.UTC()
	if start.YearDay() == end.YearDay() && start.Year() == end.Year() {
		return start.Format("2 Jan 2006, 15:04") + "–" + end.Format("15:04") + " UTC"
	}
	return start.Format("2 Jan 2006 15:04") + " – " + end.Format("2 Jan 2006 15:04") + " UTC"
}

// seatClass is the colour class of a seat in the charts.
func seatClass(seat int) string { return "s" + strconv.Itoa(seat%10) }

// playerPath is the address of a player's page.
func playerPath(name string) string { return "/players/" + pathEscape(name) }
