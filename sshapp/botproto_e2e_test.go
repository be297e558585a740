package sshapp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"

	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/store"
)

// fastRules are the classic rules with the shortest turn clock.
func fastRules(lives int) engine.Options {
	o := engine.DefaultOptions()
	o.TurnSeconds = engine.MinTurnSeconds
	o.Lives = lives
	return o
}

// isPrompt reports whether a line is addressed to one bot only.
func isPrompt(l string) bool {
	return strings.HasPrefix(l, "YOUR TURN;") || strings.HasPrefix(l, "ROLLED;")
}

// TestBotTableTwentyGames: four protocol bots at one table play 20 games
// unattended (the table restarts by itself when every seat is a bot);
// every bot sees the same lines of every game, and every game is in the
// store, finished, with its seats marked as bots, the COMMITMENT the bots
// saw and dice that verify against it.
func TestBotTableTwentyGames(t *testing.T) {
	t.Parallel()
	const games, seats = 20, 4
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, nil)
	keys := make([]gossh.Signer, seats)
	players := make([]lobby.Player, seats)
	for i := range keys {
		keys[i], players[i] = e.named(t, fmt.Sprintf("robo%d", i))
	}
	e.table(t, players[0], "arena", seats, fastRules(3))

	bots := make([]*protoBot, seats)
	for i := range bots {
		b, err := dialBot(e.addr, keys[i], nameOf(players[i]), "arena")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.close)
		// The seat is the place in the table's list: the order of arrival
		// while it waits; the game's (drawn) order once the last seat
		// filled and the game began.
		joined := fmt.Sprintf("JOINED;arena;%d", i)
		if i == seats-1 {
			joined = "JOINED;arena;"
		}
		for _, want := range []string{"HELLO;" + nameOf(players[i]) + ";" + players[i].Key, joined} {
			if l, err := b.line(); err != nil || !strings.HasPrefix(l, want) {
				t.Fatalf("bot %d: %q (%v), want %q", i, l, err, want)
			}
		}
		bots[i] = b
	}

	type result struct {
		ids   []string
		lines []string
		err   error
	}
	results := make([]result, seats)
	var wg sync.WaitGroup
	start := time.Now()
	for i, b := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids, lines, err := b.playGames(games, uint64(i+1))
			results[i] = result{ids, lines, err}
		}()
	}
	wg.Wait()
	t.Logf("%d games in %s", games, time.Since(start).Round(time.Millisecond))
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("bot %d: %v\nlast lines:\n%s", i, r.err, strings.Join(r.lines[max(0, len(r.lines)-15):], "\n"))
		}
	}

	// Every bot saw the same games, and the same lines of each but for
	// the prompts addressed to it.
	public := func(lines []string) string {
		var b strings.Builder
		for _, l := range lines {
			if !isPrompt(l) {
				b.WriteString(l + "\n")
			}
		}
		return b.String()
	}
	for i := 1; i < seats; i++ {
		if strings.Join(results[i].ids, ",") != strings.Join(results[0].ids, ",") {
			t.Errorf("bot %d saw games %v, bot 0 %v", i, results[i].ids, results[0].ids)
		}
		if public(results[i].lines) != public(results[0].lines) {
			t.Errorf("bot %d saw other lines than bot 0", i)
		}
	}
	ctx := context.Background()
	for _, id := range results[0].ids {
		g, evs, err := e.st.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		if !g.Finished() || g.Table != "arena" || len(g.Seats) != seats {
			t.Errorf("game %s: %+v", id, g)
		}
		for _, s := range g.Seats {
			if !s.Bot {
				t.Errorf("game %s: seat %s not marked as a bot", id, s.Name)
			}
		}
		for _, ev := range evs {
			if ev.Type == engine.EvTimeout || ev.Type == engine.EvLeave {
				t.Errorf("game %s: a bot timed out or left: %+v", id, ev)
			}
		}
		commitment := ""
		for j, l := range results[0].lines {
			if strings.HasPrefix(l, "GAME STARTING;"+id+";") && j+2 < len(results[0].lines) { // then RULES, then COMMITMENT
				commitment, _ = strings.CutPrefix(results[0].lines[j+2], "COMMITMENT;")
			}
		}
		if g.Fair == nil || g.Fair.Commitment != commitment {
			t.Errorf("game %s: the bots saw COMMITMENT %q, the game has %+v", id, commitment, g.Fair)
		} else if _, err := fair.Verify(*g.Fair, g.Rules, fingerprints(g), evs); err != nil {
			t.Errorf("game %s: %v", id, err)
		}
		want := fmt.Sprintf("GAME OVER;%s;%s", g.Seats[g.Winner].Name, id)
		found := false
		for _, l := range results[0].lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("no line %q", want)
		}
	}
	// Bot or person is a fact of a seat: the games mark the seats, never
	// the people, whose ratings count the games played as bots.
	for _, p := range players {
		sp, err := e.st.Person(ctx, p.ID)
		if err != nil || sp.Name != nameOf(p) {
			t.Errorf("player %s after bot: %+v %v", nameOf(p), sp, err)
		}
		if r, err := e.st.Rating(ctx, p.ID, store.Board{}); err != nil || r.BotGames != r.Games || r.Games == 0 || !r.Bot() {
			t.Errorf("rating of %s after bot games: %+v %v", nameOf(p), r, err)
		}
	}
}

// TestBotGarbage: at a table of two good bots, one that sends garbage and
// one that sends nothing, the garbage gets ERROR lines (one for a 1 MiB
// line), both bad bots lose their lives by the turn clock (an injected
// clock: no real waiting), and the good bots' game ends normally.
func TestBotGarbage(t *testing.T) {
	t.Parallel()
	clock := lobbytest.NewClock()
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay, Clock: clock}, nil)
	names := []string{"good1", "good2", "junk", "mute"}
	keys := map[string]gossh.Signer{}
	players := map[string]lobby.Player{}
	for _, n := range names {
		keys[n], players[n] = e.named(t, n)
	}
	tb := e.table(t, players["good1"], "mess", 4, fastRules(2))
	watch, err := tb.Watch(context.Background(), lobby.Player{ID: "test:referee"})
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()

	bots := map[string]*protoBot{}
	for _, n := range names {
		b, err := dialBot(e.addr, keys[n], n, "mess")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.close)
		if _, err := b.expect("HELLO;"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.expect("JOINED;mess;"); err != nil {
			t.Fatal(err)
		}
		bots[n] = b
	}

	type outcome struct {
		name   string
		lines  []string
		errors int
		err    error
	}
	results := make(chan outcome, 3)
	// The good bots play one game. good1 first tries a move the rules
	// refuse (ANNOUNCE before rolling), gets ERROR, and answers again with
	// the same token.
	for _, n := range []string{"good1", "good2"} {
		go func() {
			b, m := bots[n], newSimpleMove(uint64(len(n)))
			o := outcome{name: n}
			tried := false
			defer func() { results <- o }()
			for {
				l, err := b.line()
				if err != nil {
					o.err = err
					return
				}
				o.lines = append(o.lines, l)
				if strings.HasPrefix(l, "ERROR;") {
					o.errors++
				}
				if strings.HasPrefix(l, "GAME OVER;") {
					return
				}
				if n == "good1" && !tried && strings.HasPrefix(l, "YOUR TURN;") {
					tried = true // announcing without a roll is refused
					if err := b.send("ANNOUNCE;6,6;" + strings.Split(l, ";")[2]); err != nil {
						o.err = err
						return
					}
				}
				if a := m.answer(l); a != "" {
					if err := b.send(a); err != nil {
						o.err = err
						return
					}
				}
			}
		}()
	}
	// junk answers each turn with garbage, and tells the test when it has
	// had its ERROR lines.
	junkDone := make(chan struct{}, 1)
	go func() {
		b := bots["junk"]
		o := outcome{name: "junk"}
		defer func() { results <- o }()
		first := ""
		for {
			l, err := b.line()
			if err != nil {
				o.err = err
				return
			}
			o.lines = append(o.lines, l)
			if strings.HasPrefix(l, "GAME OVER;") {
				return
			}
			if !strings.HasPrefix(l, "YOUR TURN;") {
				continue
			}
			tok := strings.Split(l, ";")[2]
			var garbage []string
			if first == "" {
				first = tok
				garbage = []string{
					"HELLO;there",                             // unknown word
					"ROLL;\xff\xfe\xfd",                       // not UTF-8
					"SEE;" + strings.Repeat("x", 1<<20),       // 1 MiB
					"ROLL;not-the-token",                      // wrong token
					"ANNOUNCE;6,6;" + tok,                     // refused by the rules: roll first
					"ANNOUNCE;9,9;" + tok,                     // no such dice
					strings.Repeat("PASS;", 300) + "x;" + tok, // over 1 KiB, under the buffer
				}
			} else {
				garbage = []string{"ROLL;" + first} // a stale token
			}
			if err := b.send(garbage...); err != nil {
				o.err = err
				return
			}
			for range garbage {
				l, err := b.line()
				if err != nil {
					o.err = err
					return
				}
				o.lines = append(o.lines, l)
				if !strings.HasPrefix(l, "ERROR;") {
					o.err = fmt.Errorf("junk: got %q, want ERROR", l)
					return
				}
				o.errors++
			}
			junkDone <- struct{}{}
		}
	}()

	// The referee moves the clock on whenever junk (once it has had its
	// errors) or mute holds the turn, once per turn.
	seatOf := func(snap lobby.Snapshot, name string) int {
		for i := range snap.Game.Lives {
			if snap.Name(i) == name {
				return i
			}
		}
		return -1
	}
	type turnKey struct {
		game   string
		events int
	}
	var advanced turnKey
	var gameID string
	deadline := time.After(30 * time.Second)
	for over := false; !over; {
		select {
		case <-watch.Ready():
		case <-deadline:
			t.Fatal("the game did not end")
		}
		snap, ok := watch.Take()
		if !ok || snap.Game == nil {
			continue
		}
		if gameID == "" {
			gameID = snap.GameID
		}
		if snap.GameID != gameID || !snap.Playing {
			over = true
			continue
		}
		key := turnKey{snap.GameID, len(snap.Events())}
		turn := snap.Game.Turn
		if key == advanced || (turn != seatOf(snap, "junk") && turn != seatOf(snap, "mute")) {
			continue
		}
		if turn == seatOf(snap, "junk") {
			select {
			case <-junkDone:
			case <-time.After(10 * time.Second):
				t.Fatal("junk did not get its ERROR lines")
			}
		}
		advanced = key
		clock.Advance(time.Duration(engine.MinTurnSeconds) * time.Second)
	}

	got := map[string]outcome{}
	for range 3 {
		select {
		case o := <-results:
			got[o.name] = o
		case <-time.After(10 * time.Second):
			t.Fatal("a bot did not see the end of the game")
		}
	}
	for n, o := range got {
		if o.err != nil {
			t.Errorf("%s: %v\n%s", n, o.err, strings.Join(o.lines, "\n"))
		}
	}
	if g := got["good1"]; g.errors != 1 {
		t.Errorf("good1 had %d ERROR lines, want 1 (the refused ANNOUNCE):\n%s", g.errors, strings.Join(g.lines, "\n"))
	}
	if g := got["good2"]; g.errors != 0 {
		t.Errorf("good2 had %d ERROR lines:\n%s", g.errors, strings.Join(g.lines, "\n"))
	}
	junkTurns := 0
	for _, l := range got["junk"].lines {
		if strings.HasPrefix(l, "YOUR TURN;") {
			junkTurns++
		}
	}
	if want := 7 + (junkTurns - 1); junkTurns == 0 || got["junk"].errors != want {
		t.Errorf("junk had %d turns and %d ERROR lines, want %d", junkTurns, got["junk"].errors, want)
	}

	// The store has the game, finished, with both bad bots out by the
	// clock, and never a good bot timed out.
	g, evs, err := e.st.Game(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() {
		t.Fatalf("game %s not finished: %+v", gameID, g)
	}
	timeouts := map[string]int{}
	for _, ev := range evs {
		if ev.Type == engine.EvTimeout {
			timeouts[g.Seats[ev.Seat].Name]++
		}
	}
	if timeouts["good1"]+timeouts["good2"] != 0 {
		t.Errorf("a good bot timed out: %v", timeouts)
	}
	for _, n := range []string{"junk", "mute"} {
		if timeouts[n] == 0 {
			t.Errorf("%s never timed out: %v", n, timeouts)
		}
		if !strings.Contains(strings.Join(got["good1"].lines, "\n"), "PLAYER LOST;"+n+";TIMED_OUT;1") {
			t.Errorf("good1 never saw %s time out", n)
		}
	}
	if w := g.Seats[g.Winner].Name; w != "good1" && w != "good2" {
		t.Errorf("winner %s", w)
	}
}

// TestBotCommand: the refusals of `bot` (each an ERROR line, exit 1), the
// choice of a table without a name, the bot mark in the store, the seat
// given back on hang-up, and a seated bot that is never idle.
func TestBotCommand(t *testing.T) {
	t.Parallel()
	const idle = time.Second // long enough for a handshake under -race on a busy machine
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, func(c *Config) { c.Limits.IdleTimeout = idle })
	ctx := context.Background()
	_, host := e.named(t, "hoster")
	aKey, a := e.named(t, "alpha")
	bKey, _ := e.named(t, "beta")
	cKey, _ := e.named(t, "gamma")

	refusals := []struct {
		name string
		key  gossh.Signer
		args string
		code int
		want string
	}{
		{"nameless", newKey(t), "", command.ExitRefused, "ERROR;choose a name first:  ssh -p "},
		{"no table", aKey, "nowhere", command.ExitRefused, "ERROR;table nowhere: no such table"},
		{"no waiting table", aKey, "", command.ExitRefused, "ERROR;no public table is waiting for players"},
		{"usage", aKey, "a b", command.ExitUsage, "ERROR;usage: bot [TABLE | --event NAME]"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run(t, tt.key, strings.TrimSpace("bot "+tt.args))
			last := strings.TrimSpace(r.stdout)
			if i := strings.LastIndex(last, "\n"); i >= 0 {
				last = last[i+1:]
			}
			if r.code != tt.code || !strings.HasPrefix(last, tt.want) || r.stderr == "" {
				t.Errorf("bot %s: %+v, want exit %d and %q", tt.args, r, tt.code, tt.want)
			}
		})
	}

	// Without a name, a bot takes the first public table waiting for
	// players; the private one is passed over.
	priv := engine.DefaultOptions()
	if _, err := e.lobby.CreateTable(ctx, host, lobby.TableConfig{Name: "aaa-private", Rules: priv, Seats: 2, Private: true}); err != nil {
		t.Fatal(err)
	}
	e.table(t, host, "duel", 2, fastRules(2))
	ba, err := dialBot(e.addr, aKey, "alpha", "")
	if err != nil {
		t.Fatal(err)
	}
	defer ba.close()
	if _, err := ba.expect("HELLO;alpha;SHA256:"); err != nil {
		t.Fatal(err)
	}
	if l, err := ba.line(); err != nil || l != "JOINED;duel;0" {
		t.Fatalf("joined: %q %v", l, err)
	}
	if info := e.lobby.SeatedAt(a.ID); len(info) != 1 ||
		!slices.ContainsFunc(info[0].Players, func(s lobby.SeatInfo) bool { return s.ID == a.ID && s.Bot }) {
		t.Errorf("alpha does not sit as a bot: %+v", info)
	}
	// Seated, alpha outlives the idle timeout without a word: a screen
	// opened after alpha sat, as quiet, is closed as idle first.
	wKey, _ := e.named(t, "witness")
	witness := openScreen(t, e.connect(t, wKey), 80, 24)
	witness.waitFor(t, "without input", 10*idle)
	witness.wait(t, 10*idle)
	if err := ba.send("HELLO"); err != nil {
		t.Fatal(err)
	}
	if _, err := ba.expect("ERROR;unknown word"); err != nil {
		t.Fatalf("a seated bot was closed as idle: %v", err)
	}

	// beta fills the table and the game starts; gamma finds it full.
	bb, err := dialBot(e.addr, bKey, "beta", "duel")
	if err != nil {
		t.Fatal(err)
	}
	defer bb.close()
	if _, err := bb.expect("HELLO;beta"); err != nil {
		t.Fatal(err)
	}
	if _, err := bb.expect("JOINED;duel;"); err != nil {
		t.Fatal(err)
	}
	if _, err := ba.expect("GAME STARTING;"); err != nil {
		t.Fatal(err)
	}
	r := e.run(t, cKey, "bot duel")
	if r.code != command.ExitRefused || !strings.Contains(r.stdout, "ERROR;table duel: a game is running") {
		t.Errorf("bot at a running table: %+v", r)
	}

	// beta hangs up in the game: it leaves it, and alpha wins.
	bb.close()
	m := newSimpleMove(1)
	left := false
	for {
		l, err := ba.line()
		if err != nil {
			t.Fatal(err)
		}
		left = left || strings.HasPrefix(l, "PLAYER LOST;beta;LEFT;")
		if strings.HasPrefix(l, "GAME OVER;") {
			if !left || !strings.HasPrefix(l, "GAME OVER;alpha;") {
				t.Errorf("%q (beta left: %v)", l, left)
			}
			break
		}
		if a := m.answer(l); a != "" { // alpha plays on until beta's leave comes through
			if err := ba.send(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	// alpha hangs up between games: its seat is free again.
	ba.close()
	tb, _ := e.lobby.Table("duel")
	eventually(t, 5*time.Second, "alpha's seat given back", func() bool { return tb.Info().Taken == 0 })
}

// TestBotKickedAndClosed: a bot whose host kicks it, or whose table
// closes, is told who did it with ERROR and its session ends with status
// 1.
func TestBotKickedAndClosed(t *testing.T) {
	t.Parallel()
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, nil)
	_, host := e.named(t, "hoster")
	key, kicked := e.named(t, "kicked")
	for _, tt := range []struct {
		name string
		end  func(tb *lobby.Table) error
		want string
	}{
		{"kick", func(tb *lobby.Table) error {
			return tb.Kick(context.Background(), host, kicked.ID)
		}, "ERROR;hoster removed you from the table t-kick"},
		{"close", func(tb *lobby.Table) error { return tb.Close(context.Background(), host) }, "ERROR;hoster closed the table t-close"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tb := e.table(t, host, "t-"+tt.name, 3, fastRules(2))
			b, err := dialBot(e.addr, key, "kicked", tb.Name())
			if err != nil {
				t.Fatal(err)
			}
			defer b.close()
			if _, err := b.expect("HELLO;"); err != nil {
				t.Fatal(err)
			}
			if _, err := b.expect("JOINED;" + tb.Name() + ";0"); err != nil {
				t.Fatal(err)
			}
			if err := tt.end(tb); err != nil {
				t.Fatal(err)
			}
			if l, err := b.line(); err != nil || l != tt.want {
				t.Errorf("got %q (%v), want %q", l, err, tt.want)
			}
			if code, err := b.exitCode(5 * time.Second); err != nil || code != command.ExitRefused {
				t.Errorf("exit %d (%v), want %d", code, err, command.ExitRefused)
			}
		})
	}
}

// TestBotShutdown: at a server shutdown a bot is told with ERROR and exits
// with status 1 before the connection closes, and its seat and game stay
// as they are (games resume with the next start).
func TestBotShutdown(t *testing.T) {
	t.Parallel()
	e := startBotServer(t, lobby.Config{BotDelay: lobby.NoDelay}, nil)
	_, host := e.named(t, "hoster")
	key, _ := e.named(t, "stayer")
	e.table(t, host, "keep", 3, fastRules(2))
	b, err := dialBot(e.addr, key, "stayer", "keep")
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	if _, err := b.expect("HELLO;"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.expect("JOINED;keep;0"); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stopped <- e.Shutdown(ctx)
	}()
	if l, err := b.line(); err != nil || l != "ERROR;the server is shutting down" {
		t.Errorf("got %q (%v)", l, err)
	}
	if code, err := b.exitCode(5 * time.Second); err != nil || code != command.ExitRefused {
		t.Errorf("exit %d (%v), want %d", code, err, command.ExitRefused)
	}
	if err := <-stopped; err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if tb, _ := e.lobby.Table("keep"); tb.Info().Taken != 1 {
		t.Errorf("the bot lost its seat in the shutdown: %+v", tb.Info())
	}
}
