package lobby

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby/ai"
	"github.com/mia-game/mia/lobby/lobbytest"
)

func quickRules() engine.Options {
	o := engine.DefaultOptions()
	o.Lives = 2
	return o
}

// seatPlayers creates a table hosted by the first player, seats them all
// and starts the game.
func seatPlayers(t *testing.T, e *env, name string, rules engine.Options, ps ...Player) *Table {
	t.Helper()
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, ps[0], TableConfig{Name: name, Rules: rules, Seats: len(ps) + 1})
	if err != nil {
		t.Fatalf("create table: %v", err)
	}
	for _, p := range ps {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatalf("%s sits: %v", p.Name(), err)
		}
	}
	if err := tbl.Start(ctx, ps[0]); err != nil {
		t.Fatalf("start: %v", err)
	}
	return tbl
}

// playOut plays the game until it ends or stopAfter moves were made (0: no
// limit), each player acting from their own snapshot.
func playOut(t *testing.T, tbl *Table, subs map[string]*Subscription, ps []Player, stopAfter int) Snapshot {
	t.Helper()
	ctx := ctxT(t)
	r := rand.New(rand.NewPCG(1, 2))
	for moves := 0; stopAfter == 0 || moves < stopAfter; moves++ {
		if moves > 5000 {
			t.Fatal("the game does not end")
		}
		snap := latest(t, subs[ps[0].ID], tbl)
		if !snap.Playing {
			return snap
		}
		turn := snap.Game.Turn
		var p Player
		for _, q := range ps {
			if q.Name() == snap.Name(turn) {
				p = q
			}
		}
		mine := latest(t, subs[p.ID], tbl)
		if mine.You != turn {
			t.Fatalf("%s sees seat %d, turn is %d", p.Name(), mine.You, turn)
		}
		a := lobbytest.Move(mine.Game, r)
		if err := tbl.Act(ctx, p, a); err != nil {
			t.Fatalf("%s %v: %v (view %+v)", p.Name(), a.Kind, err, mine.Game)
		}
	}
	return latest(t, subs[ps[0].ID], tbl)
}

func watchAll(t *testing.T, tbl *Table, ps []Player) map[string]*Subscription {
	t.Helper()
	subs := make(map[string]*Subscription)
	for _, p := range ps {
		s, err := tbl.Watch(ctxT(t), p)
		if err != nil {
			t.Fatalf("%s watches: %v", p.Name(), err)
		}
		t.Cleanup(s.Close)
		subs[p.ID] = s
	}
	return subs
}

func TestFullGameToAWinner(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := seatPlayers(t, e, "team-a", quickRules(), ps...)
	subs := watchAll(t, tbl, ps)
	end := playOut(t, tbl, subs, ps, 0)
	if end.Result == nil || end.Game.Winner < 0 {
		t.Fatalf("no result: %+v", end)
	}
	if end.Result.Winner != end.Name(end.Game.Winner) || len(end.Result.Standings) != 3 {
		t.Fatalf("result %+v, winner seat %d", end.Result, end.Game.Winner)
	}
	alive := 0
	for _, l := range end.Game.Lives {
		if l > 0 {
			alive++
		}
	}
	if alive != 1 || end.Game.Lives[end.Game.Winner] == 0 {
		t.Fatalf("lives at the end %v, winner %d", end.Game.Lives, end.Game.Winner)
	}
	// The finished game is in the store, and replays to the same winner.
	g, err := e.st.Game(end.GameID)
	if err != nil {
		t.Fatalf("stored game: %v", err)
	}
	if g.Ended.IsZero() || g.Winner != end.Game.Winner {
		t.Fatalf("stored game %+v", g)
	}
	re, err := engine.Replay(g.Rules, len(g.Players), g.Events, nil)
	if err != nil || re.Winner() != end.Game.Winner {
		t.Fatalf("replay: winner %d, err %v", re.Winner(), err)
	}
	// Once over, everyone sees all the dice, and the log reads in words.
	if lines := end.LogLines(5); len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "win") {
		t.Fatalf("log lines %q", lines)
	}
	// Play again keeps the seats.
	if err := tbl.Start(ctxT(t), ps[0]); err != nil {
		t.Fatalf("play again: %v", err)
	}
	again := latest(t, subs[ps[1].ID], tbl)
	if !again.Playing || again.GameID == end.GameID || len(again.Table.Players) != 3 {
		t.Fatalf("second game: playing %v id %s players %d", again.Playing, again.GameID, len(again.Table.Players))
	}
}

func TestSpectatorsNeverSeeDice(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "watched", quickRules(), ps...)
	subs := watchAll(t, tbl, ps)
	watcher := e.player("eve")
	spec, err := tbl.Watch(ctxT(t), watcher)
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	r := rand.New(rand.NewPCG(3, 4))
	sawRoll := false
	for i := 0; i < 400; i++ {
		s := latest(t, spec, tbl)
		if s.You != -1 || s.Game.Dice != engine.NoValue {
			t.Fatalf("spectator sees seat %d dice %v", s.You, s.Game.Dice)
		}
		for _, ev := range s.Events() {
			if ev.Type == engine.EvRoll {
				sawRoll = true
				if s.Playing && ev.Dice != engine.NoValue {
					t.Fatalf("spectator sees a roll's dice: %+v", ev)
				}
			}
		}
		if !s.Playing {
			break
		}
		turn := s.Game.Turn
		p := ps[0]
		if s.Name(turn) == ps[1].Name() {
			p = ps[1]
		}
		mine := latest(t, subs[p.ID], tbl)
		// The roller who looked sees their own dice; the other player never does.
		other := latest(t, subs[ps[1-indexOf(ps, p)].ID], tbl)
		if other.Game.Dice != engine.NoValue && other.Game.Roller != other.You {
			t.Fatalf("%s sees dice they did not roll", ps[1-indexOf(ps, p)].Name())
		}
		if err := tbl.Act(ctxT(t), p, lobbytest.Move(mine.Game, r)); err != nil {
			t.Fatal(err)
		}
	}
	if !sawRoll {
		t.Fatal("no roll was made")
	}
}

func indexOf(ps []Player, p Player) int {
	for i, q := range ps {
		if q.ID == p.ID {
			return i
		}
	}
	return -1
}

func TestSlowSubscriberDelaysNoOne(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := seatPlayers(t, e, "slow", quickRules(), ps...)
	// A subscriber that never reads.
	stuck, err := tbl.Watch(ctxT(t), e.player("stuck"))
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	subs := watchAll(t, tbl, ps)
	r := rand.New(rand.NewPCG(5, 6))
	var worst time.Duration
	for i := 0; i < 50; i++ {
		s := latest(t, subs[ps[0].ID], tbl)
		if !s.Playing {
			break
		}
		p := ps[indexByName(ps, s.Name(s.Game.Turn))]
		mine := latest(t, subs[p.ID], tbl)
		start := time.Now()
		if err := tbl.Act(ctxT(t), p, lobbytest.Move(mine.Game, r)); err != nil {
			t.Fatal(err)
		}
		for _, q := range ps {
			next(t, subs[q.ID], mine.Version)
		}
		worst = max(worst, time.Since(start))
	}
	if worst > 50*time.Millisecond {
		t.Errorf("others waited %v for a snapshot behind a stuck reader (want < 50ms)", worst)
	}
	t.Logf("slowest delivery to all readers: %v", worst)
}

func indexByName(ps []Player, name string) int {
	for i, p := range ps {
		if p.Name() == name {
			return i
		}
	}
	return -1
}

func TestReconnectReturnsTheSeat(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "back", quickRules(), ps...)
	s1, err := tbl.Watch(ctxT(t), ps[1])
	if err != nil {
		t.Fatal(err)
	}
	before := latest(t, s1, tbl)
	s1.Close()
	if info := latest(t, mustWatch(t, tbl, ps[0]), tbl).Table; info.Players[before.You].Connected {
		t.Fatalf("bob still shown connected after leaving: %+v", info.Players)
	}
	at := e.lobby.SeatedAt(ps[1].ID)
	if len(at) != 1 || at[0].Name != "back" {
		t.Fatalf("SeatedAt = %+v", at)
	}
	// Two sessions of the same key see the same seat.
	a, b := mustWatch(t, tbl, ps[1]), mustWatch(t, tbl, ps[1])
	sa, sb := latest(t, a, tbl), latest(t, b, tbl)
	if sa.You != before.You || sb.You != before.You || sa.Game.Lives[sa.You] != before.Game.Lives[before.You] {
		t.Fatalf("seat after reconnect %d/%d, before %d", sa.You, sb.You, before.You)
	}
}

func mustWatch(t *testing.T, tbl *Table, p Player) *Subscription {
	t.Helper()
	s, err := tbl.Watch(ctxT(t), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestTurnClockTimesOut(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	rules := quickRules()
	rules.TurnSeconds = 30
	tbl := seatPlayers(t, e, "clock", rules, ps...)
	s := mustWatch(t, tbl, ps[0])
	snap := latest(t, s, tbl)
	if got := snap.Deadline.Sub(e.clock.Now()); got != 30*time.Second {
		t.Fatalf("deadline in %v, want 30s", got)
	}
	turn := snap.Game.Turn
	e.clock.Advance(29 * time.Second)
	if latest(t, s, tbl).Game.Lives[turn] != 2 {
		t.Fatal("timed out early")
	}
	e.clock.Advance(time.Second)
	after := next(t, s, snap.Version)
	if after.Game.Lives[turn] != 1 {
		t.Fatalf("lives after timeout %v", after.Game.Lives)
	}
	evs := after.Events()
	found := false
	for _, ev := range evs {
		if ev.Type == engine.EvTimeout && ev.Seat == turn {
			found = true
		}
	}
	if !found {
		t.Fatalf("no timeout event in %+v", evs)
	}
	if got := after.Deadline.Sub(e.clock.Now()); got != 30*time.Second {
		t.Fatalf("the next turn's clock: %v", got)
	}
}

func TestLeavingARunningGameIsOut(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
	tbl := seatPlayers(t, e, "leave", quickRules(), ps...)
	s := mustWatch(t, tbl, ps[0])
	if err := tbl.Stand(ctxT(t), ps[2]); err != nil {
		t.Fatal(err)
	}
	snap := latest(t, s, tbl)
	for i, si := range snap.Table.Players {
		if si.Name == "carol" && si.Lives != 0 {
			t.Fatalf("carol has %d lives after leaving", si.Lives)
		}
		_ = i
	}
	if !snap.Playing {
		t.Fatal("two players remain: the game goes on")
	}
	if err := tbl.Stand(ctxT(t), ps[1]); err != nil {
		t.Fatal(err)
	}
	end := latest(t, s, tbl)
	if end.Playing || end.Result == nil || end.Result.Winner != "alice" {
		t.Fatalf("after two left: playing %v result %+v", end.Playing, end.Result)
	}
	if err := tbl.Start(ctxT(t), ps[0]); !errors.Is(err, ErrTooFewPlayers) {
		t.Fatalf("start alone: %v", err)
	}
}

// TestRestartResumesGames: a game stopped by a restart comes back with its
// turn, claim, lives and clock, and goes on with the same committed dice.
func TestRestartResumesGames(t *testing.T) {
	for _, fairDice := range []bool{false, true} {
		env := newEnv
		if fairDice {
			env = newFairEnv
		}
		t.Run(fmt.Sprintf("fair dice %v", fairDice), func(t *testing.T) {
			e := env(t)
			ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
			rules := quickRules()
			rules.Lives = 3
			tbl := seatPlayers(t, e, "durable", rules, ps...)
			subs := watchAll(t, tbl, ps)
			mid := playOut(t, tbl, subs, ps, 12)
			if !mid.Playing {
				t.Fatal("the game ended too soon for this test")
			}
			rollsBefore := 0
			for _, ev := range mid.Events() {
				if ev.Type == engine.EvRoll {
					rollsBefore++
				}
			}
			for _, s := range subs {
				s.Close()
			}
			e.close()
			e.clock.Advance(time.Hour)
			e.open()

			tbl2, err := e.lobby.Table("durable")
			if err != nil {
				t.Fatal(err)
			}
			subs2 := watchAll(t, tbl2, ps)
			back := latest(t, subs2[ps[0].ID], tbl2)
			if !back.Playing || back.GameID != mid.GameID {
				t.Fatalf("after restart: playing %v game %s (was %s)", back.Playing, back.GameID, mid.GameID)
			}
			if back.Table.Fair.Commitment != mid.Table.Fair.Commitment || back.Table.Fair.Next != mid.Table.Fair.Next {
				t.Fatalf("after restart: dice %+v (before %+v)", back.Table.Fair, mid.Table.Fair)
			}
			if back.Game.Turn != mid.Game.Turn || back.Game.Claim != mid.Game.Claim || back.Game.Phase != mid.Game.Phase {
				t.Fatalf("turn/claim/phase %d/%v/%v, before %d/%v/%v", back.Game.Turn, back.Game.Claim, back.Game.Phase,
					mid.Game.Turn, mid.Game.Claim, mid.Game.Phase)
			}
			for i := range mid.Game.Lives {
				if back.Game.Lives[i] != mid.Game.Lives[i] {
					t.Fatalf("lives %v, before %v", back.Game.Lives, mid.Game.Lives)
				}
			}
			if got := back.Deadline.Sub(e.clock.Now()); got != time.Duration(rules.TurnSeconds)*time.Second {
				t.Fatalf("turn clock after restart: %v", got)
			}
			end := playOut(t, tbl2, subs2, ps, 0)
			// Lives are conserved: each lost life is in the events, and the sum
			// matches what the players have left.
			lost := 0
			for _, ev := range end.Events() {
				switch ev.Type {
				case engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLeave:
					lost += ev.LivesLost
				}
			}
			left := 0
			for _, l := range end.Game.Lives {
				left += l
			}
			if left+lost != 3*rules.Lives {
				t.Fatalf("lives left %d + lost %d != %d", left, lost, 3*rules.Lives)
			}
			if g, err := e.st.Game(end.GameID); err != nil || g.Ended.IsZero() {
				t.Fatalf("stored game after restart: %+v %v", g, err)
			}
			// The same dice: every roll, before and after the restart, re-derives
			// from the committed seed.
			g, _ := e.st.Game(end.GameID)
			switch {
			case g.Fair == nil && fairDice:
				t.Fatal("a game on fair dice lost its proof")
			case g.Fair != nil && !fairDice:
				t.Fatal("a game on scripted dice carries a proof")
			case fairDice:
				if rolls := verifyStored(t, e, end.GameID); rolls <= rollsBefore {
					t.Fatalf("%d rolls in all, %d before the restart: none after it to check", rolls, rollsBefore)
				}
			}
		})
	}
}

func TestPrivateTables(t *testing.T) {
	e := newEnv(t)
	host, member, stranger := e.player("host"), e.player("member"), e.player("stranger")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "secret", Rules: quickRules(), Seats: 3, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.lobby.Tables(stranger.Viewer()); len(got) != 0 {
		t.Fatalf("stranger lists %+v", got)
	}
	if _, err := tbl.Watch(ctx, stranger); !errors.Is(err, ErrNoTable) {
		t.Fatalf("stranger watches: %v", err)
	}
	if err := tbl.Sit(ctx, stranger); !errors.Is(err, ErrNoTable) {
		t.Fatalf("stranger sits: %v", err)
	}
	if err := tbl.Redeem(ctx, member, "no-such-code"); !errors.Is(err, ErrBadInvite) {
		t.Fatalf("a made-up code: %v", err)
	}
	if err := tbl.Invite(ctx, host, "code-1", e.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Redeem(ctx, member, "code-1"); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Redeem(ctx, stranger, "code-1"); !errors.Is(err, ErrBadInvite) {
		t.Fatalf("a used code: %v", err)
	}
	if got := e.lobby.Tables(member.Viewer()); len(got) != 1 {
		t.Fatalf("member lists %+v", got)
	}
	if err := tbl.Sit(ctx, member); err != nil {
		t.Fatalf("member sits: %v", err)
	}
	if err := tbl.SetRules(ctx, member, quickRules(), 4); !errors.Is(err, ErrNotHost) {
		t.Fatalf("member changes rules: %v", err)
	}
	if err := tbl.Close(ctx, member); !errors.Is(err, ErrNotHost) {
		t.Fatalf("member closes: %v", err)
	}
	if err := tbl.Close(ctx, host); err != nil {
		t.Fatalf("host closes: %v", err)
	}
	if _, err := e.lobby.Table("secret"); !errors.Is(err, ErrNoTable) {
		t.Fatalf("closed table still found: %v", err)
	}
	rec, err := e.st.Table("secret")
	if err != nil || rec.Closed.IsZero() {
		t.Fatalf("stored table %+v %v", rec, err)
	}
}

func TestCreateTableRefusals(t *testing.T) {
	e := newEnv(t)
	host := e.player("host")
	bad := quickRules()
	bad.Lives = 0
	cases := []struct {
		name string
		tc   TableConfig
		want error
	}{
		{"bad name", TableConfig{Name: "no spaces", Rules: quickRules()}, ErrBadTableName},
		{"escape in name", TableConfig{Name: "a\x1b[2J", Rules: quickRules()}, ErrBadTableName},
		{"too many seats", TableConfig{Name: "big", Rules: quickRules(), Seats: engine.MaxSeats + 1}, ErrBadSeats},
		{"bad rules", TableConfig{Name: "odd", Rules: bad}, engine.ErrBadOptions},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := e.lobby.CreateTable(ctxT(t), host, c.tc); !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
	if _, err := e.lobby.CreateTable(ctxT(t), host, TableConfig{Name: "Dup", Rules: quickRules()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lobby.CreateTable(ctxT(t), host, TableConfig{Name: "dup", Rules: quickRules()}); !errors.Is(err, ErrTableExists) {
		t.Fatalf("duplicate name: %v", err)
	}
}

func TestSeatRules(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("a1"), e.player("b1"), e.player("c1")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, TableConfig{Name: "two", Rules: quickRules(), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, a)
	if err := tbl.Sit(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, a); !errors.Is(err, ErrSeated) {
		t.Fatalf("sit twice: %v", err)
	}
	if err := tbl.Act(ctx, a, engine.Action{Kind: engine.Roll}); !errors.Is(err, ErrNoGame) {
		t.Fatalf("act before a game: %v", err)
	}
	if err := tbl.Sit(ctx, b); err != nil { // fills the table: the game starts
		t.Fatal(err)
	}
	if snap := latest(t, s, tbl); !snap.Playing {
		t.Fatal("a full table did not start")
	}
	if err := tbl.Sit(ctx, c); !errors.Is(err, ErrGameRunning) {
		t.Fatalf("sit during a game: %v", err)
	}
	if err := tbl.Act(ctx, c, engine.Action{Kind: engine.Challenge}); !errors.Is(err, ErrNotYourGameAct) {
		t.Fatalf("stranger acts: %v", err)
	}
	if err := tbl.Act(ctx, a, engine.Action{Kind: engine.Timeout}); !errors.Is(err, engine.ErrUnknownAction) {
		t.Fatalf("a player sends a timeout: %v", err)
	}
	if err := tbl.Start(ctx, b); !errors.Is(err, ErrGameRunning) {
		t.Fatalf("start during a game: %v", err)
	}
}

func TestChat(t *testing.T) {
	e := newEnv(t)
	a := e.player("talker")
	tbl, err := e.lobby.CreateTable(ctxT(t), a, TableConfig{Name: "chatty", Rules: quickRules()})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, a)
	if err := tbl.Say(ctxT(t), a, "hi \x1b[31mred\x1b[0m \u202eevil"); err != nil {
		t.Fatal(err)
	}
	snap := latest(t, s, tbl)
	if got := snap.Chat[len(snap.Chat)-1].Text; got != "hi red evil" {
		t.Fatalf("cleaned chat %q", got)
	}
	if err := tbl.Say(ctxT(t), a, "\x1b\x07 "); !errors.Is(err, ErrEmptyMessage) {
		t.Fatalf("empty: %v", err)
	}
	flooded := false
	for i := 0; i < 20; i++ {
		if err := tbl.Say(ctxT(t), a, "spam"); errors.Is(err, ErrChatFlood) {
			flooded = true
			break
		}
	}
	if !flooded {
		t.Fatal("a flood was not limited")
	}
	e.clock.Advance(time.Minute)
	if err := tbl.Say(ctxT(t), a, "later"); err != nil {
		t.Fatalf("after waiting: %v", err)
	}
	if err := e.lobby.Say(a, strings.Repeat("x", 1000)); err != nil {
		t.Fatal(err)
	}
	if got := e.lobby.Chat(); len([]rune(got[len(got)-1].Text)) != MaxChatRunes {
		t.Fatalf("lobby chat not limited: %d runes", len([]rune(got[len(got)-1].Text)))
	}
}

func TestStoreFailureLosesNothing(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl := seatPlayers(t, e, "fragile", quickRules(), ps...)
	s := mustWatch(t, tbl, ps[0])
	before := latest(t, s, tbl)
	// Closing the store underneath makes every save fail.
	e.st.Close()
	turn := ps[indexByName(ps, before.Name(before.Game.Turn))]
	err := tbl.Act(ctxT(t), turn, engine.Action{Kind: engine.Roll, Look: true})
	if err == nil {
		t.Fatal("a move was accepted without being saved")
	}
	after := latest(t, s, tbl)
	if len(after.Events()) != len(before.Events()) || after.Game.Phase != before.Game.Phase {
		t.Fatalf("state moved on without a save: %d events, phase %v", len(after.Events()), after.Game.Phase)
	}
}

func TestBuiltinBotsPlayAGame(t *testing.T) {
	e := newEnv(t)
	host := e.player("host")
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "bots", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, host)
	if _, err := tbl.AddBot(ctx, e.player("guest"), ai.Hard); !errors.Is(err, ErrNotHost) {
		t.Fatalf("a guest adds a bot: %v", err)
	}
	for _, lv := range []ai.Level{ai.Easy, ai.Normal, ai.Hard} {
		bot, err := tbl.AddBot(ctx, host, lv)
		if err != nil {
			t.Fatal(err)
		}
		if !bot.Bot || !strings.HasPrefix(bot.ID, BotIDPrefix) {
			t.Fatalf("bot %+v", bot)
		}
	}
	// The third bot filled the table: the game started and the bots play it
	// out on their own.
	deadline := time.After(20 * time.Second)
	first := ""
	for {
		select {
		case <-s.Ready():
		case <-deadline:
			t.Fatal("the bots did not finish their game")
		}
		snap, ok := s.Take()
		if !ok {
			continue
		}
		if snap.Result != nil && first == "" {
			if len(snap.Result.Standings) != 3 {
				t.Fatalf("result %+v", snap.Result)
			}
			for _, p := range snap.Table.Players {
				if !p.Bot {
					t.Fatalf("a seat is not marked as a bot: %+v", p)
				}
			}
			// The standings and the log mark every bot's name [bot].
			for _, n := range append([]string{snap.Result.Winner}, snap.Result.Standings...) {
				if !strings.HasSuffix(n, " [bot]") {
					t.Errorf("%q in the result is not marked [bot]", n)
				}
			}
			if log := strings.Join(snap.LogLines(20), "\n"); !strings.Contains(log, " [bot] wins the game") {
				t.Errorf("the log does not mark the winner [bot]:\n%s", log)
			}
			first = snap.Result.GameID
		}
		// A table of bots starts its next game by itself, and its bots play
		// that one out too (the turn clock never runs here, so a bot that
		// missed its turn would stall the test).
		if first != "" && snap.Result != nil && snap.Result.GameID != first {
			return
		}
	}
}

// A move changes nothing the lobby lists, so it wakes only the people at
// the table; a seat taken or a game starting wakes the lobby.
func TestLobbyWokenOnlyByListedChanges(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	tbl, err := e.lobby.CreateTable(ctxT(t), ps[0], TableConfig{Name: "quiet", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := mustWatch(t, tbl, ps[0])
	box := e.lobby.Subscribe()
	defer e.lobby.Unsubscribe(box)
	drain := func() (int, bool) { return box.Take() }
	drain()
	for _, p := range ps {
		if err := tbl.Sit(ctxT(t), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, woke := drain(); !woke {
		t.Fatal("sitting down did not wake the lobby")
	}
	if err := tbl.Start(ctxT(t), ps[0]); err != nil {
		t.Fatal(err)
	}
	snap := latest(t, s, tbl)
	if _, woke := drain(); !woke {
		t.Fatal("a game starting did not wake the lobby")
	}
	turn := ps[indexByName(ps, snap.Name(snap.Game.Turn))]
	if err := tbl.Act(ctxT(t), turn, engine.Action{Kind: engine.Roll, Look: true}); err != nil {
		t.Fatal(err)
	}
	if after := latest(t, s, tbl); after.Version <= snap.Version {
		t.Fatal("the table did not see the move")
	}
	if v, woke := drain(); woke {
		t.Fatalf("a roll woke the lobby (version %d)", v)
	}
}

// TestTurnClockWhenSomeoneLeaves: a player leaving a running game out of
// turn leaves the clock of the player whose turn it is running; the player
// whose turn it is leaving starts the next player's clock afresh.
func TestTurnClockWhenSomeoneLeaves(t *testing.T) {
	tests := []struct {
		name    string
		leaver  func(turn int) int // the game seat that leaves
		wantDur time.Duration      // the deadline then, from now
	}{
		{"someone else leaves", func(turn int) int { return (turn + 1) % 3 }, 20 * time.Second},
		{"the player whose turn it is leaves", func(turn int) int { return turn }, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			ps := []Player{e.player("alice"), e.player("bob"), e.player("carol")}
			rules := quickRules()
			rules.TurnSeconds = 30
			tbl := seatPlayers(t, e, "clock", rules, ps...)
			s := mustWatch(t, tbl, ps[0])
			snap := latest(t, s, tbl)
			e.clock.Advance(10 * time.Second)
			leaver := snap.Name(tt.leaver(snap.Game.Turn))
			i := slices.IndexFunc(ps, func(p Player) bool { return p.Name() == leaver })
			if err := tbl.Stand(ctxT(t), ps[i]); err != nil {
				t.Fatal(err)
			}
			after := next(t, s, snap.Version)
			if got := after.Deadline.Sub(e.clock.Now()); got != tt.wantDur {
				t.Errorf("after %s left, the clock has %v, want %v", leaver, got, tt.wantDur)
			}
		})
	}
}

// TestWatcherCountsToldOnceASecond: spectators opening a table change
// only its count of watchers, which the lobby's screens are told of once
// for all of them, a second later (countsEvery), not once each; a seat
// taken is told at once.
func TestWatcherCountsToldOnceASecond(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	tbl, err := e.lobby.CreateTable(ctxT(t), a, TableConfig{Name: "den", Rules: quickRules(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	box := e.lobby.Subscribe()
	defer e.lobby.Unsubscribe(box)
	box.Take()
	for i := range 20 {
		mustSub(t, tbl, e.player(fmt.Sprintf("w%d", i)))
	}
	if w := tbl.Info().Watching; w != 20 {
		t.Fatalf("%d watching, want 20", w)
	}
	if _, woke := box.Take(); woke {
		t.Fatal("the lobby was told of a count of watchers at once")
	}
	e.clock.AdvanceWait(countsEvery)
	if _, woke := box.Take(); !woke {
		t.Fatal("the lobby was not told of the count of watchers a second later")
	}
	e.clock.AdvanceWait(countsEvery)
	if _, woke := box.Take(); woke {
		t.Fatal("the lobby was told again with nothing changed")
	}
	if got := e.lobby.Tables(a.Viewer())[0].Watching; got != 20 {
		t.Fatalf("the lobby lists %d watching, want 20", got)
	}
	if err := tbl.Sit(ctxT(t), b); err != nil {
		t.Fatal(err)
	}
	if _, woke := box.Take(); !woke {
		t.Fatal("the lobby was not told of a seat taken at once")
	}
}
