package command

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"
)

const usageHistory = "history [--table T | --event E] [--player P] [--limit N] [--before GAME] [--json]"

// MaxHistoryLimit is the most games one page of history lists.
const MaxHistoryLimit = 200

// historyCommand is `history`.
var historyCommand = Command{
	Name:    "history",
	Args:    argsOf(usageHistory),
	Summary: "finished (and abandoned) games you may see, newest first (--before pages on)",
	JSON:    true,
	Run:     runHistory,
}

// seatsJSON is g's players as PROTOCOL.md §3 writes them: by their names
// now, with the names played under where they differ.
func seatsJSON(g store.Game) []store.ReplayPlayer { return g.Players() }

// HistoryGame is one game of `history --json`.
type HistoryGame struct {
	ID        string               `json:"id"`
	Table     string               `json:"table"`
	Started   time.Time            `json:"started"`
	Ended     time.Time            `json:"ended"`
	Players   []store.ReplayPlayer `json:"players"`
	Winner    int                  `json:"winner"` // -1 for a game abandoned
	Standings []int                `json:"standings"`
	Rounds    int                  `json:"rounds"`
	URL       string               `json:"url,omitempty"` // the game's web page, with the web window's public address set
	// Abandoned: the game ended without a result, its table closed while
	// it ran (PROTOCOL.md §3).
	Abandoned *store.Abandonment `json:"abandoned,omitempty"`
}

// HistoryJSON is the document of `history --json`. Next is the --before
// of the next page, "" when this page is the last.
type HistoryJSON struct {
	Games []HistoryGame `json:"games"`
	Next  string        `json:"next"`
}

func runHistory(ctx context.Context, c *Call) int {
	fs := c.flagSet(usageHistory)
	table := fs.String("table", "", "only games at table `T`")
	event := fs.String("event", "", "only games of event `E`")
	player := fs.String("player", "", "only games of player `P` (a name, a person's id or one of their keys)")
	limit := fs.Int("limit", 20, fmt.Sprintf("games a page, `N` from 1 to %d", MaxHistoryLimit))
	before := fs.String("before", "", "only games older than `GAME` (the next page)")
	rest, err := parseFlags(fs, c.Args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) != 0 {
		return c.usageError(fs, "unexpected %q", words.Echo(rest[0]))
	}
	if *limit < 1 || *limit > MaxHistoryLimit {
		return c.usageError(fs, "--limit is 1 to %d", MaxHistoryLimit)
	}
	if _, err := strconv.ParseUint(*before, 10, 64); *before != "" && err != nil {
		return c.usageError(fs, "--before takes a game ID (a number)")
	}
	recs := c.records()
	if recs == nil {
		return ExitRefused
	}
	q := store.Query{Table: *table, Limit: *limit + 1, Before: *before, Abandoned: true} // one more: is there a next page?
	if *table != "" && *event != "" {
		return c.usageError(fs, "--table and --event: one or the other")
	}
	if *table != "" && !c.tableVisible(ctx, recs, *table) {
		return ExitRefused
	}
	if *player != "" {
		p, ok := c.person(ctx, *player)
		if !ok {
			return ExitRefused
		}
		q.Player = p.ID
	}
	var games []store.Game
	if *event != "" {
		games, err = c.eventGames(ctx, recs, *event, q)
	} else {
		games, err = recs.History(ctx, q, c.shows())
	}
	if errors.Is(err, events.ErrNoEvent) {
		return c.noEvent(*event)
	}
	if err != nil {
		return c.fail("read the history", err)
	}
	next := ""
	if len(games) > *limit {
		games = games[:*limit]
		next = games[len(games)-1].ID
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	rounds, err := recs.Rounds(ctx, ids)
	if err != nil {
		return c.fail("read the history", err)
	}
	links := c.gameLinks(ctx, games)
	if c.JSON {
		out := HistoryJSON{Games: []HistoryGame{}, Next: next}
		for i, g := range games {
			out.Games = append(out.Games, HistoryGame{ID: g.ID, Table: g.Table, Started: g.Started, Ended: g.Ended,
				Players: seatsJSON(g), Winner: g.Winner, Standings: g.Standings, Rounds: rounds[i], URL: links[i],
				Abandoned: g.Abandoned})
		}
		return c.WriteJSON(out)
	}
	if len(games) == 0 {
		fmt.Fprintln(c.Stdout, "No finished games to show.")
		return ExitOK
	}
	rows := make([][]string, len(games))
	for i, g := range games {
		winner := seatLabel(g, g.Winner)
		if g.Abandoned != nil {
			winner = "(abandoned)"
		}
		rows[i] = []string{g.ID, words.Clean(g.Table, lobby.MaxNameLen), g.Ended.UTC().Format("2006-01-02 15:04"),
			strconv.Itoa(rounds[i]), winner, playerList(g)}
	}
	writeTable(c.Stdout, []string{"GAME", "TABLE", "ENDED (UTC)", "ROUNDS", "WINNER", "PLAYERS"}, rows, "  ")
	if slices.ContainsFunc(links, func(l string) bool { return l != "" }) {
		fmt.Fprintln(c.Stdout, "On the web, move by move:")
		w := 0
		for i, g := range games {
			if links[i] != "" {
				w = max(w, len(g.ID))
			}
		}
		for i, g := range games {
			if links[i] != "" {
				fmt.Fprintf(c.Stdout, "  %-*s  %s\n", w, g.ID, links[i])
			}
		}
	}
	if next != "" {
		more := "history --before " + next
		for _, f := range []struct{ name, v string }{{"table", *table}, {"event", *event}, {"player", *player}} {
			if f.v != "" {
				more += " --" + f.name + " " + words.Clean(f.v, 80)
			}
		}
		if *limit != 20 {
			more += " --limit " + strconv.Itoa(*limit)
		}
		fmt.Fprintf(c.Stdout, "More:  %s\n", c.Hint(more))
	}
	fmt.Fprintf(c.Stdout, "Replay a game:  %s\n", c.Hint("replay GAME"))
	return ExitOK
}

// eventGames are the games of q of the event of that name (any the
// caller may see, open or put away) that have ended: newest first, those
// of q.Player only if set, before q.Before, q.Limit of them; each read
// as the caller may see it.
func (c *Call) eventGames(ctx context.Context, recs Records, name string, q store.Query) ([]store.Game, error) {
	if c.cfg.Events == nil {
		return nil, events.ErrNoEvent
	}
	info, err := c.cfg.Events.Lookup(ctx, c.viewer(), name)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(info.Games))
	for _, g := range info.Games {
		if g.Result == nil || !g.Result.Over() || q.Player != "" && !slices.Contains(g.Result.Players, q.Player) {
			continue
		}
		if q.Before != "" {
			if b, err := strconv.ParseUint(q.Before, 10, 64); err == nil {
				if n, err := strconv.ParseUint(g.ID, 10, 64); err != nil || n >= b {
					continue
				}
			}
		}
		ids = append(ids, g.ID)
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 64)
		y, _ := strconv.ParseUint(b, 10, 64)
		return cmp.Compare(y, x)
	})
	var out []store.Game
	for _, id := range ids {
		if len(out) == q.Limit {
			break
		}
		g, _, err := recs.ShownGame(ctx, id, c.shows())
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// seatName is the name now of a seat of g, "?" if there is none.
func seatName(g store.Game, seat int) string {
	if seat < 0 || seat >= len(g.Seats) {
		return "?"
	}
	return words.Clean(g.Seats[seat].Called(), lobby.MaxNameLen)
}

// seatLabel is a seat of g by its name now, a bot marked; "?" if there
// is none.
func seatLabel(g store.Game, seat int) string {
	if seat < 0 || seat >= len(g.Seats) {
		return "?"
	}
	s := g.Seats[seat]
	return botLabel(seatName(g, seat), s.Person, s.Bot)
}

// playerList names the players of g by seat, bots marked, and the name a
// player played under where it is not their name now: "bob (played as
// red)".
func playerList(g store.Game) string {
	names := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		names[i] = seatLabel(g, i)
		if s.PlayedAs != "" && s.Name != "" && s.PlayedAs != s.Name {
			names[i] += " (played as " + words.Clean(s.PlayedAs, lobby.MaxNameLen) + ")"
		}
	}
	return strings.Join(names, ", ")
}

// tableVisible checks a --table argument: a name no table ever had, or
// only tables the caller may not see (lobby.Viewer.Sees: private ones
// that do not admit them), gets the one answer of a table that is not
// there (noTable), so that nobody learns private tables' names by
// guessing. ok is false after a refusal.
func (c *Call) tableVisible(ctx context.Context, recs Records, name string) bool {
	ts, err := recs.TableRecords(ctx, name)
	if err != nil {
		c.fail("read the table", err)
		return false
	}
	if lobbystore.Visible(ts, c.viewer()) != nil {
		return true
	}
	c.noTable(name)
	return false
}
