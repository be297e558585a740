package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

// replayCommand is `replay GAME`.
var replayCommand = Command{
	Name:    "replay",
	Args:    "GAME [--cast]",
	Summary: "every event of a finished (or abandoned) game, all dice shown; --json writes the replay document of sshapp/PROTOCOL.md in the source, --cast the replay screen as an asciicast v2 recording",
	JSON:    true,
	Run:     runReplay,
}

func runReplay(ctx context.Context, c *Call) int {
	var cast bool
	c.Args, cast = stripFlag(c.Args, "--cast")
	if cast && c.JSON {
		return c.usageSaying(c.cmd.usage(), "--cast and --json are two answers: choose one")
	}
	if cast && c.cfg.Cast == nil {
		return c.Refuse("recordings are not available on this server")
	}
	g, evs, code, ok := c.finishedGame(ctx, "replay")
	if !ok {
		return code
	}
	// Both wait a bounded time, well inside the command's own bound: a
	// rule set's first solve may take minutes.
	a, unjudged := c.verdicts(ctx, g, evs, verdict.Wait)
	switch {
	case c.JSON:
		if err := verdict.Doc(g, evs, a).Encode(c.Stdout); err != nil { // PROTOCOL.md §3, as the web window's /games/ID.json
			return c.fail("write the answer", err)
		}
		return ExitOK
	case cast:
		if err := c.cfg.Cast(c.Stdout, g, evs); err != nil {
			return c.fail("record the game", err)
		}
		return ExitOK
	}
	writeReplay(c.Stdout, g, evs, a)
	if unjudged != "" {
		writeWrapped(c.Stdout, "\n", "", words.NoVerdicts(unjudged))
	}
	if link := c.gameLink(ctx, g); link != "" {
		fmt.Fprintf(c.Stdout, "\nOn the web, move by move:  %s\n", link)
	}
	if g.Fair != nil {
		fmt.Fprintln(c.Stdout)
		writeDice(c.Stdout, g)
		fmt.Fprintf(c.Stdout, "Check that every roll came from them:  %s\n"+
			"or without mia, with the few lines of Python in mia's engine/fair/README.md.\n", c.Hint("verify "+g.ID))
	}
	return ExitOK
}

// verdicts is the verdict on every move of the finished game g
// (verdict.Of, the solves counted by the caller's source), waiting for
// it at most wait (0: as long as the session lasts); unjudged says why
// there are none when they were not ready by then or the solver's
// budget refused them ("" otherwise), and a is then empty.
func (c *Call) verdicts(ctx context.Context, g store.Game, evs []engine.Event, wait time.Duration) (a verdict.Analysis, unjudged string) {
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	a, err := c.cfg.Judge.Of(ctx, lobby.SolveSource(c.lobbyPlayer()), g, evs)
	switch {
	case errors.Is(err, verdict.ErrNotReady):
		return a, verdict.ErrNotReady.Error()
	case errors.Is(err, verdict.ErrUnsolved):
		return a, lobby.Shown(err)
	case errors.Is(err, verdict.ErrOff):
	case err != nil:
		c.cfg.Log.Warn("judge a game's moves", "game", g.ID, "err", err)
	}
	return a, ""
}

// finishedGame reads the finished game named by the one argument, if the
// caller may see it; verb ("replay") is what they may do once it ends. ok
// is false after a refusal or a usage error, with code the exit status.
func (c *Call) finishedGame(ctx context.Context, verb string) (g store.Game, evs []engine.Event, code int, ok bool) {
	if len(c.Args) != 1 || strings.HasPrefix(c.Args[0], "-") {
		return g, nil, c.Usage(), false
	}
	recs := c.records()
	if recs == nil {
		return g, nil, ExitRefused, false
	}
	id := c.Args[0]
	// A private table's game is not there for others, as one that does
	// not exist, by the same steps.
	g, evs, err := recs.ShownGame(ctx, id, c.shows())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return g, nil, c.Refuse("no game %s; list the games with:  %s", words.Echo(id), c.Hint("history")), false
	case err != nil:
		return g, nil, c.fail("read the game", err), false
	}
	switch {
	case g.Ended.IsZero():
		return g, nil, c.Refuse("game %s is still being played: its dice stay hidden until it ends; %s it then", g.ID, verb), false
	case !g.Finished() && g.Abandoned == nil:
		return g, nil, c.Refuse("game %s was cut short by the server and never resumed; there is nothing to %s", g.ID, verb), false
	}
	return g, evs, ExitOK, true
}

// gameLink is the web address printed beside a game the caller sees, ""
// when none is (no web window with a public address, or a game the web
// does not show: a private table's without a link).
func (c *Call) gameLink(ctx context.Context, g store.Game) string {
	return c.gameLinks(ctx, []store.Game{g})[0]
}

// gameLinks are gameLink of each game, reading each table's records once.
func (c *Call) gameLinks(ctx context.Context, games []store.Game) []string {
	out := make([]string, len(games))
	if c.cfg.Web == nil || c.cfg.Records == nil {
		return out
	}
	records := map[string][]store.TableRecord{}
	for i, g := range games {
		ts, ok := records[strings.ToLower(g.Table)]
		if !ok {
			var err error
			if ts, err = c.cfg.Records.TableRecords(ctx, g.Table); err != nil {
				c.cfg.Log.Warn("read a table's records for its games' links", "table", g.Table, "err", err)
			}
			records[strings.ToLower(g.Table)] = ts
		}
		out[i] = c.cfg.Web.Game(g.ID, lobbystore.GameAccess(g, store.RecordAt(ts, g.Started)))
	}
	return out
}

// writeReplay tells a finished game in words, round by round, with every
// die and the bluffs marked (words.Narrator) and each move's mark (a, the
// verdicts), then each player's lives round by round and their accuracy.
func writeReplay(w io.Writer, g store.Game, evs []engine.Event, a verdict.Analysis) {
	nar := words.ReplayNarrator(replaySeats(g), g.Rules.Ranking)
	writeWrapped(w, "", "  ", fmt.Sprintf("Game %s at %s: %s", g.ID, words.Clean(g.Table, lobby.MaxNameLen), words.RulesSummary(g.Rules)))
	ended := "ended"
	if g.Abandoned != nil {
		ended = "abandoned"
	}
	fmt.Fprintf(w, "Started %s, %s %s (UTC).\n",
		g.Started.UTC().Format("2006-01-02 15:04:05"), ended, g.Ended.UTC().Format("2006-01-02 15:04:05"))
	writeWrapped(w, "Players: ", "  ", playerList(g))
	var perRound [][]int // lives of every seat at the end of each round
	// endRound takes the lives from the engine, replaying the events up to
	// upTo: the end of an action, which a round's start or the end is.
	endRound := func(upTo int) {
		if st, err := engine.Replay(g.Rules, len(g.Seats), evs[:upTo], nil); err == nil {
			lives := make([]int, len(g.Seats))
			for s := range lives {
				lives[s] = st.Lives(s)
			}
			perRound = append(perRound, lives)
		}
	}
	for i, e := range evs {
		switch e.Type {
		case engine.EvRound:
			if e.Round > 1 {
				endRound(i + 1)
			}
			fmt.Fprintln(w, nar.Heading(e))
			continue
		case engine.EvEnd:
			endRound(i + 1)
		}
		if line := nar.Told(evs, i); line != "" {
			if j, ok := a.Of(e.Seq); ok {
				line = words.Marked(line, j.Mark)
			}
			writeWrapped(w, "  ", "    ", line)
		}
	}
	if g.Abandoned != nil {
		endRound(len(evs)) // the lives when it stopped
		fmt.Fprintln(w)
		writeWrapped(w, "Abandoned: ", "  ", words.ClosedWhileRunning(g.Abandoned.Name)+".")
		fmt.Fprintln(w, words.NoResult)
		writeLivesChart(w, g, nar.Names, perRound)
		writeAccuracy(w, nar.Names, a)
		return
	}
	standings := make([]string, len(g.Standings))
	for i, s := range g.Standings {
		standings[i] = fmt.Sprintf("%d. %s", i+1, nar.Names[s])
	}
	fmt.Fprintln(w)
	writeWrapped(w, "Standings: ", "  ", strings.Join(standings, ", "))
	writeLivesChart(w, g, nar.Names, perRound)
	writeAccuracy(w, nar.Names, a)
}

// writeAccuracy sums up each player's moves (names by seat), after what
// the marks mean; nothing when no move was judged.
func writeAccuracy(w io.Writer, names []string, a verdict.Analysis) {
	if len(a.Decisions) == 0 {
		return
	}
	fmt.Fprintln(w, "Accuracy:")
	for seat, s := range a.Players {
		writeWrapped(w, "  "+names[seat]+": ", "    ", words.Accuracy(s))
	}
	writeWrapped(w, "", "", words.AnalysisNote(a.Exact))
}

// replaySeats are g's players by seat, by their names now (seatName),
// as the replay's narrator needs them.
func replaySeats(g store.Game) []words.ReplaySeat {
	seats := make([]words.ReplaySeat, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = words.ReplaySeat{Name: seatName(g, i), Bot: s.Bot}
	}
	return seats
}

// writeLivesChart draws each player's lives (names by seat): the lives
// they started with as hearts, then, after an arrow, the lives after each
// round, wrapped under the first round's when they are many.
func writeLivesChart(w io.Writer, g store.Game, names []string, perRound [][]int) {
	if len(perRound) == 0 {
		return
	}
	width := 0
	for _, n := range names {
		width = max(width, len([]rune(n)))
	}
	fmt.Fprintln(w, "Lives after each round:")
	hearts := strings.Repeat("♥", g.Rules.Lives) // every seat starts with the table's lives
	for seat := range g.Seats {
		nums := make([]string, len(perRound))
		for r, l := range perRound {
			nums[r] = fmt.Sprint(max(l[seat], 0))
		}
		first := fmt.Sprintf("  %-*s %s → ", width, names[seat], hearts)
		writeWrapped(w, first, strings.Repeat(" ", len([]rune(first))), strings.Join(nums, " "))
	}
}
