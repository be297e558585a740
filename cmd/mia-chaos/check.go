package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/store"
)

// tableSpec is a table the tool made: its seats and the bots seated.
type tableSpec struct {
	name        string
	seats, bots int
	lives       int
	allBots     bool
}

// finished is what the tool knows of a finished game once it checked it.
type finished struct {
	table   string
	winner  int
	ended   time.Time
	events  int
	started time.Time
}

// verifier checks the database with the server down, and remembers what
// it saw, so that nothing seen once may go missing or change.
type verifier struct {
	path   string
	games  map[string]finished // every finished game checked
	seated map[string][]string // table -> its seated keys as first seen

	checks  int // store checks run
	newest  map[string]int
	replays int // games replayed to their stored result
}

func newVerifier(path string) *verifier {
	return &verifier{path: path, games: map[string]finished{}, seated: map[string][]string{}, newest: map[string]int{}}
}

// forget drops what is known of a table's seats (it was made again).
func (v *verifier) forget(table string) { delete(v.seated, table) }

// check opens the file and returns every problem found.
func (v *verifier) check(ctx context.Context, specs []tableSpec) (problems []string, err error) {
	st, err := store.Open(v.path)
	if err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	defer st.Close()
	v.checks++
	if err := st.Check(ctx); err != nil {
		problems = append(problems, "store check: "+err.Error())
	}
	gs, err := st.Games(ctx, store.Query{Limit: 1 << 30})
	if err != nil {
		return problems, fmt.Errorf("read the games: %w", err)
	}
	seen := make(map[string]bool, len(gs))
	byTable := map[string][]store.Game{}
	for _, g := range gs {
		seen[g.ID] = true
		key := strings.ToLower(g.Table)
		byTable[key] = append(byTable[key], g)
		if n := atoi(g.ID); n > v.newest[key] {
			v.newest[key] = n
		}
		if old, ok := v.games[g.ID]; ok {
			if old.table != g.Table || old.winner != g.Winner || !old.ended.Equal(g.Ended) || !old.started.Equal(g.Started) {
				problems = append(problems, fmt.Sprintf("game %s changed after it finished: %+v, now %+v", g.ID, old, g))
			}
			continue
		}
		f, p := v.replay(ctx, st, g)
		problems = append(problems, p...)
		v.games[g.ID] = f
	}
	for id, f := range v.games {
		if !seen[id] {
			problems = append(problems, fmt.Sprintf("finished game %s of %s is gone", id, f.table))
		}
	}
	// A game duplicated (a table playing two at once, or one game played
	// again) shows as games of a table overlapping in time.
	for table, tgs := range byTable {
		slices.SortFunc(tgs, func(a, b store.Game) int { return a.Started.Compare(b.Started) })
		for i := 1; i < len(tgs); i++ {
			if tgs[i].Started.Before(tgs[i-1].Ended) {
				problems = append(problems, fmt.Sprintf("games %s and %s of %s overlap", tgs[i-1].ID, tgs[i].ID, table))
			}
		}
	}
	problems = append(problems, v.tables(ctx, st, specs)...)
	return problems, nil
}

// replay checks a newly finished game: its events replay to its stored
// result, and end once, last.
func (v *verifier) replay(ctx context.Context, st *store.Store, g store.Game) (finished, []string) {
	f := finished{table: g.Table, winner: g.Winner, ended: g.Ended, started: g.Started}
	_, evs, err := st.Game(ctx, g.ID)
	if err != nil {
		return f, []string{fmt.Sprintf("game %s: %v", g.ID, err)}
	}
	f.events = len(evs)
	v.replays++
	var problems []string
	ends := 0
	for _, e := range evs {
		if e.Type == engine.EvEnd {
			ends++
		}
	}
	if ends != 1 || len(evs) == 0 || evs[len(evs)-1].Type != engine.EvEnd {
		problems = append(problems, fmt.Sprintf("game %s: %d events, %d of them ends, not last", g.ID, len(evs), ends))
	}
	rg, err := engine.Replay(g.Rules, len(g.Seats), evs, nil)
	switch {
	case err != nil:
		problems = append(problems, fmt.Sprintf("game %s does not replay: %v", g.ID, err))
	case !rg.Over() || rg.Winner() != g.Winner || !slices.Equal(rg.Standings(), g.Standings):
		problems = append(problems, fmt.Sprintf("game %s replays to winner %d %v, stored %d %v", g.ID, rg.Winner(), rg.Standings(), g.Winner, g.Standings))
	}
	return f, problems
}

// tables checks that every table is open with its seats and its bots.
func (v *verifier) tables(ctx context.Context, st *store.Store, specs []tableSpec) []string {
	open, err := st.OpenTables(ctx)
	if err != nil {
		return []string{"read the tables: " + err.Error()}
	}
	byName := map[string]store.TableRecord{}
	for _, t := range open {
		byName[strings.ToLower(t.Name)] = t
	}
	var problems []string
	for _, sp := range specs {
		t, ok := byName[sp.name]
		if !ok {
			problems = append(problems, fmt.Sprintf("table %s is not open", sp.name))
			continue
		}
		var fps []string
		for _, s := range t.Seated {
			if !s.Bot {
				problems = append(problems, fmt.Sprintf("table %s: %s seated, not a bot", sp.name, s.Name))
			}
			fps = append(fps, s.Fingerprint)
		}
		if t.Seats != sp.seats || len(t.Seated) != sp.bots {
			problems = append(problems, fmt.Sprintf("table %s: %d/%d seated, made %d/%d", sp.name, len(t.Seated), t.Seats, sp.bots, sp.seats))
		}
		if was, ok := v.seated[sp.name]; !ok {
			v.seated[sp.name] = fps
		} else if !slices.Equal(was, fps) {
			problems = append(problems, fmt.Sprintf("table %s: bots %v, were %v", sp.name, fps, was))
		}
	}
	return problems
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}
