package web

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// liveView is a table as a spectator sees it: the fragment of the table
// page that its event stream sends again at every change. It is made of
// the spectator's snapshot alone (no other source), so it holds nothing
// an SSH spectator is not shown.
type liveView struct {
	Rules   string // the table's rules in words
	State   string // "round 3", "waiting for players", "game over"
	Paused  string // why the table waits (lobby.TableInfo.PausedWords), "" while it plays
	Private bool
	Dice    string // the dice's commitment, in words
	Commit  string // the commitment in full, "" for none
	Seeds   string // who gave a seed
	Head    string // the seats' heading between games
	Seats   []seatView
	Panel   panelView
	Lifted  *liftedView // the end of the last round
	Log     []string
	Chat    []chatView
	GameID  string
	GameURL string
	Ticking bool // a turn clock runs: its marks are in
	Clock   clockMarks
}

// clockMarks are where the turn clock is written in (feed.go).
type clockMarks struct{ Left, Text string }

type seatView struct {
	Name             string
	Tag              string // "[bot]", "(away)"
	Hearts, Lost     string
	Out, Turn, Empty bool
}

type panelView struct {
	Waiting   []string // the table between games before its first
	Over      bool
	Winner    string
	Standings []string
	Next      string // after a game: when the next starts by itself, if it does
	Claim     words.ClaimWords
	Turn      string // "bob's turn"
	Doing     string // "bob answers the claim"
	Cup       string // "closed", "empty"
	CupWords  string
}

type liftedView struct {
	Heading string
	Dice    engine.Value // NoValue when the cup stayed shut
	Words   []string
}

type chatView struct {
	At     string
	From   string
	Notice bool
	Text   string
}

// liveLog is how many lines of the round log the page shows: the last
// round or two, as on the table screen.
const liveLog = 14

// liveOf is the view of a spectator's snapshot.
func liveOf(snap lobby.Snapshot) liveView {
	info := snap.Table
	v := snap.Game
	lv := liveView{Rules: words.RulesSummary(info.Rules), Private: info.Private, Clock: clockMarks{markLeft, markClock},
		GameID: snap.GameID}
	if snap.GameID != "" {
		a := info.Access()
		lv.GameURL = withToken(gamePath(snap.GameID), a)
	}
	lv.Dice, lv.Commit, lv.Seeds = diceLine(info.Fair)
	switch {
	case snap.Playing && v != nil:
		lv.State = fmt.Sprintf("round %d", v.Round)
		lv.Rules = words.RulesSummary(v.Options) // the game's, when the host changed them for the next
	case v != nil:
		lv.State, lv.Head = "game over", "Seated for the next game"
	default:
		lv.State, lv.Head = fmt.Sprintf("waiting · %d of %d seated", info.Taken, info.Seats), "Seats"
	}
	lv.Ticking = snap.Playing && !snap.Deadline.IsZero()
	lv.Paused = info.PausedWords()
	lv.Seats = seatsOf(snap)
	lv.Panel = panelOf(snap)
	lv.Log = snap.LogLines(liveLog)
	evs := snap.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		if heading, dice, words, ok := snap.Narrator().Lifted(evs, i); ok {
			lv.Lifted = &liftedView{Heading: heading, Dice: dice, Words: words}
			break
		}
	}
	for _, c := range snap.Chat {
		lv.Chat = append(lv.Chat, chatView{At: c.At.UTC().Format("15:04"), From: words.Label(c.From, c.Bot), Notice: c.From == "",
			Text: c.Text})
	}
	return lv
}

// withToken is path with the table's link token when only the link opens
// it (a private table), as every address on that table's page is.
func withToken(path string, a lobby.Access) string {
	if (lobby.Viewer{}).Sees(a) || a.Link == "" {
		return path
	}
	return path + "?" + linkParam + "=" + url.QueryEscape(a.Link)
}

// diceLine says what the table screen's line under the title says: the
// server's commitment and who gave a seed.
func diceLine(f lobby.FairInfo) (line, commit, seeds string) {
	if f.Commitment == "" {
		return "Dice: not committed (a game dealt before commitments, or scripted).", "", ""
	}
	var b strings.Builder
	if f.Next {
		b.WriteString("Next game's dice: committed to sha256 ")
	} else {
		b.WriteString("Dice: committed to sha256 ")
	}
	names := make([]string, len(f.Seeds))
	for i, s := range f.Seeds {
		names[i] = s.Name
		if !s.Seated {
			names[i] += " (not seated yet: it counts if they play)" // the seeds of those who play count
		}
	}
	tail := "; no player seeds."
	switch {
	case len(names) == 0 && f.Next:
		tail = "; no seeds yet."
	case len(names) > 0:
		tail = "; seeds from " + strings.Join(names, ", ") + "."
	}
	return b.String(), f.Commitment, tail
}

// hearts are lives left and lost, as the table screen draws them.
func hearts(lives, most int) (string, string) {
	return strings.Repeat("♥", max(lives, 0)), strings.Repeat("♡", max(most-lives, 0))
}

// seatsOf lists the seats: the running game's, else those seated for the
// next game and the empty seats (the table screen's order).
func seatsOf(snap lobby.Snapshot) []seatView {
	info, v := snap.Table, snap.Game
	var out []seatView
	if snap.Playing && v != nil {
		for i, l := range v.Lives {
			sv := seatView{Name: snap.Name(i), Out: l == 0, Turn: i == v.Turn && v.Phase != engine.PhaseOver}
			if i < len(info.Players) && info.Players[i].Name == sv.Name {
				p := info.Players[i]
				sv.Tag = tagOf(p.Bot, p.Connected)
			}
			sv.Hearts, sv.Lost = hearts(l, v.Options.Lives)
			out = append(out, sv)
		}
		return out
	}
	for _, p := range info.Players {
		sv := seatView{Name: p.Name, Tag: tagOf(p.Bot, p.Connected)}
		sv.Hearts, sv.Lost = hearts(p.Lives, info.Rules.Lives)
		out = append(out, sv)
	}
	for len(out) < info.Seats {
		out = append(out, seatView{Empty: true})
	}
	return out
}

func tagOf(bot, connected bool) string {
	switch {
	case bot:
		return "[bot]"
	case !connected:
		return "(away)"
	}
	return ""
}

// panelOf is the panel beside the seats: the claim, whose turn and the
// cup; the last game's result; or the wait for players.
func panelOf(snap lobby.Snapshot) panelView {
	v := snap.Game
	var p panelView
	switch {
	case v == nil:
		p.Waiting = []string{fmt.Sprintf("%d of %d seats taken.", snap.Table.Taken, snap.Table.Seats),
			"The game starts when all seats are taken or the host starts it."}
		if snap.Table.StartsByItself { // a full table back after a restart
			p.Waiting[1] = words.Sentence(words.NextGameByItself(lobby.RestBetweenGames))
		}
		return p
	case !snap.Playing:
		p.Over = true
		if res := snap.Result; res != nil {
			p.Winner = res.Winner
			p.Standings = res.Standings
		} else if v.Winner >= 0 {
			p.Winner = snap.Name(v.Winner)
		}
		if snap.Table.StartsByItself {
			p.Next = words.Sentence(words.NextGameByItself(lobby.RestBetweenGames))
		}
		return p
	}
	p.Claim = snap.Narrator().ClaimWords(v.Claim, v.Claimant)
	turn := snap.Name(v.Turn)
	p.Turn = turn + "'s turn"
	switch v.Phase {
	case engine.PhaseOpen:
		p.Doing = turn + " opens the round"
	case engine.PhaseAnnounce:
		p.Doing = turn + " announces"
	default:
		p.Doing = turn + " answers the claim"
	}
	switch {
	case v.Roller >= 0:
		p.Cup, p.CupWords = "closed", "under the cup: "+snap.Name(v.Roller)+"'s roll"
	default:
		p.Cup, p.CupWords = "empty", "the cup is empty"
	}
	return p
}

// makeFrame makes a table's snapshot into the frame its web watchers
// share: the fragment drawn once, and the event that carries it.
func (s *Server) makeFrame(snap lobby.Snapshot) (*frame, error) {
	var b bytes.Buffer
	if err := s.pages["live"].ExecuteTemplate(&b, "live", liveOf(snap)); err != nil {
		return nil, err
	}
	s.frames.Add(1)
	now := s.cfg.Now()
	fr := &frame{ver: snap.Version, access: snap.Table.Access(), name: snap.Table.Name, private: snap.Table.Private, coach: snap.Table.Coach,
		rules: words.RulesSummary(snap.Table.Rules), made: now, parts: cutMarks(b.Bytes())}
	if snap.Playing {
		fr.deadline = snap.Deadline
	}
	fr.event = eventOf(fr.ver, fr.html(now))
	return fr, nil
}
