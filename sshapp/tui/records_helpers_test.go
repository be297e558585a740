package tui

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
	"github.com/mia-game/mia/store"
)

// seatsOf are the store seats of players.
func seatsOf(ps ...lobby.Player) []store.Seat {
	out := make([]store.Seat, len(ps))
	for i, p := range ps {
		out[i] = store.Seat{PlayedAs: nameOf(p), Person: p.ID, Fingerprint: p.Key, Bot: p.Bot}
	}
	return out
}

// move is one scripted action, with the dice its roll draws.
type move struct {
	a    engine.Action
	dice engine.Value // for a roll
}

func roll(seat int, look bool, v engine.Value) move {
	return move{a: engine.Action{Kind: engine.Roll, Seat: seat, Look: look}, dice: v}
}
func claim(seat int, v engine.Value) move {
	return move{a: engine.Action{Kind: engine.Claim, Seat: seat, Value: v}}
}
func pass(seat int, v engine.Value) move {
	return move{a: engine.Action{Kind: engine.Pass, Seat: seat, Value: v}}
}
func challenge(seat int) move { return move{a: engine.Action{Kind: engine.Challenge, Seat: seat}} }
func giveUp(seat int) move    { return move{a: engine.Action{Kind: engine.GiveUp, Seat: seat}} }

// recordGame plays a scripted game through the engine and stores it as
// the lobby would: CreateGame, then Append of every event, stamped a
// second apart from start, and the result when the game is over. It
// returns the stored game.
func recordGame(t testing.TB, st *store.Store, table string, seats []store.Seat, rules engine.Options,
	opener int, start time.Time, script ...move) store.Game {
	t.Helper()
	src := queue{opener}
	g, evs, err := engine.New(rules, len(seats), &src)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range script {
		if mv.a.Kind == engine.Roll {
			src = append(src, dice(mv.dice)...)
		}
		out, err := g.Apply(mv.a)
		if err != nil {
			t.Fatalf("%+v: %v", mv.a, err)
		}
		evs = append(evs, out...)
	}
	return store1(t, st, table, seats, rules, start, g, evs)
}

// playGame plays a game to its end with a simple policy (roll and look,
// announce a random legal value, challenge every claim) and stores it.
func playGame(t testing.TB, st *store.Store, table string, seats []store.Seat, rules engine.Options, seed uint64, start time.Time) store.Game {
	t.Helper()
	src := lobbytest.NewDice(seed)
	g, evs, err := engine.New(rules, len(seats), src)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		v := g.View(g.Turn())
		a := engine.Action{Seat: g.Turn()}
		switch {
		case v.Phase == engine.PhaseOpen:
			a.Kind, a.Look = engine.Roll, true
		case v.Phase == engine.PhaseAnnounce:
			a.Kind, a.Value = engine.Claim, v.Claims[src.Intn(len(v.Claims))]
		default:
			a.Kind = engine.Challenge
		}
		out, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		evs = append(evs, out...)
	}
	return store1(t, st, table, seats, rules, start, g, evs)
}

// store1 writes a game's events (and its result, if over) to st.
func store1(t testing.TB, st *store.Store, table string, seats []store.Seat, rules engine.Options,
	start time.Time, g *engine.Game, evs []engine.Event) store.Game {
	t.Helper()
	ctx := context.Background()
	sg, err := st.CreateGame(ctx, store.Game{Table: table, Seats: seats, Rules: rules, Started: start})
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		evs[i].At = start.Add(time.Duration(i+1) * time.Second)
	}
	var res *engine.Result
	if g.Over() {
		res = &engine.Result{Winner: g.Winner(), Standings: g.Standings()}
	}
	if err := st.Append(ctx, sg.ID, evs, res); err != nil {
		t.Fatal(err)
	}
	out, _, err := st.Game(ctx, sg.ID)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bluffGame is a three-player, two-life game that has every kind of
// step the viewer marks (seats: 0 alice, 1 bob, 2 carol; alice opens):
//
//	round 1: alice rolls 43 and claims 65 (a bluff); bob passes 65 on
//	         (the dice below it, 43, which he never saw: no bluff); carol
//	         challenges and catches bob.
//	round 2: carol rolls 52 and claims 52 (true); alice challenges and
//	         loses.
//	round 3: bob rolls 31 blind and claims 41; carol rolls 66 and claims
//	         Mia (a bluff); alice gives up and is out.
//	round 4: bob rolls Mia and claims it; carol challenges, loses two
//	         lives and is out. bob wins.
//
// Lives at the end of each round: alice 2 1 0 0, bob 1 1 1 1, carol 2 2 2 0.
func bluffGame(t testing.TB, st *store.Store, table string, start time.Time, a, b, c lobby.Player) store.Game {
	rules := engine.DefaultOptions()
	rules.Lives = 2
	return recordGame(t, st, table, seatsOf(a, b, c), rules, 0, start,
		roll(0, true, 43), claim(0, 65), pass(1, 65), challenge(2),
		roll(2, true, 52), claim(2, 52), challenge(0),
		roll(1, false, 31), claim(1, 41), roll(2, true, 66), claim(2, engine.Mia), giveUp(0),
		roll(1, true, engine.Mia), claim(1, engine.Mia), challenge(2),
	)
}

// run runs cmd and every command it leads to through m, synchronously,
// as a program would (batches are run one by one; Quit ends it). It is
// for the records screens' loads: a command that waits for the lobby
// would block it, and the root's wait for notices is left out.
func run(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, followingMsg: // (the notices' wait would block)
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}
