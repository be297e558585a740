package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// replayCommand is `replay GAME`.
var replayCommand = Command{
	Name:    "replay",
	Args:    "GAME",
	Summary: "every event of a finished game, all dice shown; --json writes the replay document of sshapp/PROTOCOL.md in the source",
	JSON:    true,
	Run:     runReplay,
}

func runReplay(ctx context.Context, c *Call) int {
	g, evs, code, ok := c.finishedGame(ctx, "replay")
	if !ok {
		return code
	}
	if c.JSON {
		return c.WriteJSON(g.Replay(evs)) // PROTOCOL.md §3: store.Replay
	}
	writeReplay(c.Stdout, g, evs)
	if g.Fair != nil {
		fmt.Fprintln(c.Stdout)
		writeDice(c.Stdout, g)
		fmt.Fprintf(c.Stdout, "Check that every roll came from them:  %s\n"+
			"or without mia, with the few lines of Python in mia's engine/fair/README.md.\n", c.Hint("verify "+g.ID))
	}
	return ExitOK
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
	g, evs, err := recs.Game(ctx, id)
	noGame := func() int {
		return c.Refuse("no game %s; list the games with:  %s", lobby.Clean(id, 24), c.Hint("history"))
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return g, nil, noGame(), false
	case err != nil:
		return g, nil, c.serverError("read the game", err), false
	}
	if shown, err := recs.GameShown(ctx, g, c.shows()); err != nil {
		return g, nil, c.serverError("read the game", err), false
	} else if !shown {
		return g, nil, noGame(), false // a private table's game is not there for others
	}
	switch {
	case g.Ended.IsZero():
		return g, nil, c.Refuse("game %s is still being played: its dice stay hidden until it ends; %s it then", g.ID, verb), false
	case !g.Finished() && g.Abandoned == nil:
		return g, nil, c.Refuse("game %s was cut short by the server and never resumed; there is nothing to %s", g.ID, verb), false
	}
	return g, evs, ExitOK, true
}

// abandonedWords says how an abandoned game ended: "ann closed the table
// while it ran".
func abandonedWords(g store.Game) string {
	who := lobby.Clean(g.Abandoned.Name, lobby.MaxNameLen)
	if who == "" {
		who = "?"
	}
	return who + " closed the table while it ran"
}

// writeReplay tells a finished game in words, round by round, with every
// die and the bluffs marked (lobby.Narrator), then each player's lives
// round by round.
func writeReplay(w io.Writer, g store.Game, evs []engine.Event) {
	nar := lobby.Narrator{Names: make([]string, len(g.Seats)), You: -1, Ranking: g.Rules.Ranking, Turn: -1}
	for i := range g.Seats {
		nar.Names[i] = seatName(g, i)
	}
	fmt.Fprintf(w, "Game %s at %s: %s\n", g.ID, lobby.Clean(g.Table, lobby.MaxNameLen), lobby.RulesSummary(g.Rules))
	ended := "ended"
	if g.Abandoned != nil {
		ended = "abandoned"
	}
	fmt.Fprintf(w, "Started %s, %s %s (UTC). Players: %s\n",
		g.Started.UTC().Format("2006-01-02 15:04:05"), ended, g.Ended.UTC().Format("2006-01-02 15:04:05"), playerList(g))
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
		line := nar.Line(evs, i)
		if v, _ := nar.Verdict(evs, i); lobby.Mark(v) != "" {
			line += " — " + lobby.Mark(v)
		}
		if line != "" {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if g.Abandoned != nil {
		endRound(len(evs)) // the lives when it stopped
		fmt.Fprintf(w, "\nAbandoned: %s.\nNo one won; no rating moved.\n", abandonedWords(g))
		writeLivesChart(w, g, perRound)
		return
	}
	standings := make([]string, len(g.Standings))
	for i, s := range g.Standings {
		standings[i] = fmt.Sprintf("%d. %s", i+1, seatName(g, s))
	}
	fmt.Fprintf(w, "\nStandings: %s\n", strings.Join(standings, "  "))
	writeLivesChart(w, g, perRound)
}

// writeLivesChart draws each player's lives: hearts for the lives left at
// the end (♥) and lost (♡), then the lives after each round.
func writeLivesChart(w io.Writer, g store.Game, perRound [][]int) {
	if len(perRound) == 0 {
		return
	}
	width := 0
	for i := range g.Seats {
		width = max(width, len([]rune(seatName(g, i))))
	}
	fmt.Fprintln(w, "Lives after each round:")
	for seat := range g.Seats {
		last := max(perRound[len(perRound)-1][seat], 0)
		hearts := strings.Repeat("♥", last) + strings.Repeat("♡", max(g.Rules.Lives-last, 0))
		nums := make([]string, len(perRound))
		for r, l := range perRound {
			nums[r] = fmt.Sprint(max(l[seat], 0))
		}
		fmt.Fprintf(w, "  %-*s %s → per round: %s\n", width, seatName(g, seat), hearts, strings.Join(nums, " "))
	}
}
