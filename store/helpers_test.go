package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mia-game/mia/engine"
)

// randSource is a deterministic engine.Source.
type randSource struct{ r *rand.Rand }

func (s randSource) Intn(n int) int { return s.r.IntN(n) }

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// scriptSource hands out queued draws: the opener, then for each roll the
// higher and lower die minus one.
type scriptSource struct{ q []int }

func (s *scriptSource) Intn(n int) int {
	if len(s.q) == 0 {
		panic("scriptSource: out of draws")
	}
	v := s.q[0]
	s.q = s.q[1:]
	if v < 0 || v >= n {
		panic(fmt.Sprintf("scriptSource: %d not in [0,%d)", v, n))
	}
	return v
}

// dice queues the draws of a roll of v.
func dice(v engine.Value) []int { hi, lo := v.Dice(); return []int{hi - 1, lo - 1} }

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "mia.db")
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

func reopen(t testing.TB, s *Store) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s2, err := Open(s.Path())
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { _ = s2.Close() })
	return s2
}

// ruleSets are the rule sets the random games of the tests play: the
// default and sets that make every event of PROTOCOL.md §3 (reveal,
// low_claim, mia_back, a challenge of nothing).
func ruleSets() []engine.Options {
	maexchen, _ := engine.Preset(engine.PresetMaexchen)
	pipsWins := engine.DefaultOptions()
	pipsWins.Ranking, pipsWins.MiaPass, pipsWins.NextOpener = engine.Pips, engine.MiaPassWins, engine.BeforeLoser
	rerollLoses := engine.DefaultOptions()
	rerollLoses.MiaPass, rerollLoses.LowClaim, rerollLoses.MiaPenaltyBoth = engine.MiaPassReroll, engine.LowClaimLoses, true
	return []engine.Options{engine.DefaultOptions(), maexchen, pipsWins, rerollLoses}
}

func seats(n int) []Seat {
	ss := make([]Seat, n)
	for i := range ss {
		ss[i] = Seat{Person: fmt.Sprintf("test:p%d", i), Name: fmt.Sprintf("p%d", i), PlayedAs: fmt.Sprintf("p%d", i),
			Fingerprint: fmt.Sprintf("SHA256:fp%d", i)}
	}
	return ss
}

// randomAction picks a legal move for the seat whose turn it is; now and
// then a leave (of any living seat) or a timeout.
func randomAction(g *engine.Game, r *rand.Rand) engine.Action {
	seat := g.Turn()
	v := g.View(seat)
	switch x := r.IntN(200); {
	case x == 0:
		var living []int
		for s := 0; s < g.Players(); s++ {
			if g.Lives(s) > 0 {
				living = append(living, s)
			}
		}
		return engine.Action{Kind: engine.Leave, Seat: living[r.IntN(len(living))]}
	case x < 4:
		return engine.Action{Kind: engine.Timeout, Seat: seat}
	}
	switch v.Phase {
	case engine.PhaseOpen:
		return engine.Action{Kind: engine.Roll, Seat: seat, Look: r.IntN(8) != 0}
	case engine.PhaseAnnounce:
		if v.Dice != engine.NoValue && slices.Contains(v.Claims, v.Dice) && r.IntN(3) != 0 {
			return engine.Action{Kind: engine.Claim, Seat: seat, Value: v.Dice}
		}
		i := min(r.IntN(len(v.Claims)), r.IntN(len(v.Claims))) // lowish bluffs
		return engine.Action{Kind: engine.Claim, Seat: seat, Value: v.Claims[i]}
	}
	if v.Can(engine.GiveUp) {
		if r.IntN(2) == 0 {
			return engine.Action{Kind: engine.GiveUp, Seat: seat}
		}
		return engine.Action{Kind: engine.Challenge, Seat: seat}
	}
	switch x := r.IntN(10); {
	case x < 3:
		return engine.Action{Kind: engine.Challenge, Seat: seat}
	case x < 5 && len(v.Passes) > 0:
		return engine.Action{Kind: engine.Pass, Seat: seat, Value: v.Passes[r.IntN(min(2, len(v.Passes)))]}
	case v.Can(engine.Roll):
		return engine.Action{Kind: engine.Roll, Seat: seat, Look: r.IntN(8) != 0}
	}
	return engine.Action{Kind: engine.Challenge, Seat: seat}
}

// playGame plays a whole random game; each element of the result is the
// events of one action (the first is the opening round event).
func playGame(t testing.TB, r *rand.Rand, opts engine.Options, players, maxActions int) (*engine.Game, [][]engine.Event) {
	t.Helper()
	g, first, err := engine.New(opts, players, randSource{r})
	if err != nil {
		t.Fatal(err)
	}
	chunks := [][]engine.Event{first}
	for i := 0; !g.Over() && (maxActions <= 0 || i < maxActions); i++ {
		evs, err := g.Apply(randomAction(g, r))
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		chunks = append(chunks, evs)
	}
	return g, chunks
}

func resultOf(g *engine.Game) *engine.Result {
	if !g.Over() {
		return nil
	}
	return &engine.Result{Winner: g.Winner(), Standings: g.Standings()}
}

// storeGame creates a game and appends its chunks, the result with the last.
func storeGame(t testing.TB, s *Store, table string, st []Seat, opts engine.Options, g *engine.Game, chunks [][]engine.Event) Game {
	t.Helper()
	ctx := context.Background()
	gm, err := s.CreateGame(ctx, Game{Table: table, Seats: st, Rules: opts})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range chunks {
		var res *engine.Result
		if i == len(chunks)-1 {
			res = resultOf(g)
		}
		if err := s.Append(ctx, gm.ID, c, res); err != nil {
			t.Fatalf("append: %v", err)
		}
	}
	return gm
}

// inHistory reports whether g is a game of the history, whose moves the
// tallies count: finished, or abandoned when its table closed.
func inHistory(g Game) bool { return g.Finished() || g.Abandoned != nil }

// seatedInRunningGames is the persons seated in games of all that have
// not ended; a fixture without one does not test them, and fails.
func seatedInRunningGames(t *testing.T, all []Game) map[string]bool {
	t.Helper()
	playing := map[string]bool{}
	for _, g := range all {
		if !inHistory(g) {
			for _, st := range g.Seats {
				playing[st.Person] = true
			}
		}
	}
	if len(playing) == 0 {
		t.Error("no game in progress in the fixture: tallies of running games are not tested")
	}
	return playing
}

// referenceTally recomputes tallies from whole logs, the slow way: the
// games of the history only (inHistory).
func referenceTally(games []Game, logs [][]engine.Event) map[string]Tally {
	out := map[string]Tally{}
	for gi, g := range games {
		if !inHistory(g) {
			continue // a game still running (or ended unlisted) counts nowhere yet
		}
		per := make([]Tally, len(g.Seats))
		var roll engine.Event
		for _, e := range logs[gi] {
			switch e.Type {
			case engine.EvRound:
				roll = engine.Event{Seat: -1}
			case engine.EvRoll:
				roll = e
			case engine.EvClaim, engine.EvLowClaim, engine.EvPass: // a bluff names a rank above the dice, an understatement one below
				if e.Type == engine.EvPass && roll.Seat != e.Seat {
					continue // a pass of dice the passer did not throw is no claim
				}
				per[e.Seat].Claims++
				rk := g.Rules.Ranking
				switch {
				case roll.Seat != e.Seat || !roll.Looked:
				case rk.Rank(roll.Dice) < rk.Rank(e.Value):
					per[e.Seat].Bluffs++
				case rk.Rank(roll.Dice) > rk.Rank(e.Value):
					per[e.Seat].Understated++
				}
			case engine.EvChallenge:
				per[e.Seat].Challenges++
				if e.Loser != e.Seat {
					per[e.Seat].ChallengesWon++
				}
				per[e.Loser].LivesLost += e.LivesLost
				if e.Loser == e.Claimant {
					per[e.Claimant].BluffsCaught++
				}
			case engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
				per[e.Seat].LivesLost += e.LivesLost
			case engine.EvReveal, engine.EvMiaBack:
				for _, l := range e.Losses {
					per[l.Seat].LivesLost += l.LivesLost
				}
				if e.Type == engine.EvReveal && e.Dice != engine.Mia {
					per[e.Seat].BluffsCaught++
				}
			}
			if e.Type == engine.EvLowClaim {
				per[e.Loser].LivesLost += e.LivesLost
			}
		}
		if g.Finished() {
			for i := range per {
				per[i].Games++
			}
			per[g.Winner].Wins++
		}
		for i, s := range g.Seats {
			t := out[s.Person]
			t.add(per[i])
			out[s.Person] = t
		}
	}
	return out
}

func flatten(chunks [][]engine.Event) []engine.Event {
	var out []engine.Event
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}
