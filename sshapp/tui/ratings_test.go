package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/store"
)

// finish plays the running game at tbl to its end, each player in turn
// rolling, announcing the lowest claim and challenging; it returns the
// game's id.
func (e *env) finish(tbl *lobby.Table, ps ...lobby.Player) string {
	e.t.Helper()
	ctx := ctxT(e.t)
	for range 200 {
		snap := e.snapshot(tbl, ps[0])
		if snap.Game != nil && !snap.Playing {
			return snap.GameID
		}
		if snap.Game == nil {
			continue
		}
		var who lobby.Player
		for _, p := range ps {
			if nameOf(p) == snap.Name(snap.Game.Turn) {
				who = p
			}
		}
		v := e.snapshot(tbl, who).Game
		a := engine.Action{Kind: engine.Challenge}
		switch {
		case v.Can(engine.Claim):
			a = engine.Action{Kind: engine.Claim, Value: v.Claims[0]}
		case v.Claim == engine.NoValue:
			a = engine.Action{Kind: engine.Roll, Look: true}
		}
		_ = tbl.Act(ctx, who, a) // a stale snapshot: the next is read
	}
	e.t.Fatal("the game did not end")
	return ""
}

// TestTableRatings: before a game the table shows each seat's rating and
// the model's chance to win, as the store has them (a provisional figure
// marked "?"); after it, the standings with each seat's change, at 80×24.
func TestTableRatings(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	// alice has won twice at another public table: she is the favourite.
	warm := e.game("warm", rules, a, c)
	e.finish(warm, a, c)
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "duel", Rules: rules, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{a, b} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	sr, err := e.st.SeatRatings(ctx, "duel", []string{a.ID, b.ID})
	if err != nil || sr.AtTable {
		t.Fatalf("SeatRatings: %+v %v", sr, err)
	}
	cfg := e.config(b, 80, 24)
	cfg.Records, cfg.Table = e.st, "duel"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	pct := func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
	waitOutput(t, tm, "Seats                     rating  win",
		"alice", words.Figure(sr.Ratings[0]), pct(sr.Chances[0]),
		"bob", words.Figure(sr.Ratings[1]), pct(sr.Chances[1]))

	if err := tbl.Start(ctx, a); err != nil {
		t.Fatal(err)
	}
	id := e.finish(tbl, a, b)
	gr, err := e.st.GameRatings(ctx, id)
	if err != nil || len(gr.Overall) != 2 {
		t.Fatalf("GameRatings: %+v %v", gr, err)
	}
	g, _, err := e.st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, seat := range g.Standings {
		ch := gr.Overall[seat]
		want = append(want, fmt.Sprintf("%d. %-14s %5s %4s", i+1, g.Seats[seat].Name, words.Figure(ch.After), words.Move(ch)))
	}
	winner := g.Seats[g.Winner].Name
	waitOutput(t, tm, append([]string{"Game over · ratings", winner + " wins!", "Seated for the next game  rating  win"}, want...)...)
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
	t.Logf("the table after the game, at 80×24:\n%s", frame)
}

// TestPrivateTableRatings: at a private table the seats' ratings and
// changes are the table's own board, and say so.
func TestPrivateTableRatings(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	// alice is the favourite overall: not here.
	e.finish(e.game("warm", rules, a, b), a, b)
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "den", Rules: rules, Seats: 2, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Invite(ctx, a, "code12345", e.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Redeem(ctx, b, "code12345"); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, a); err != nil {
		t.Fatal(err)
	}
	cfg := e.config(a, 80, 24)
	cfg.Records, cfg.Table = e.st, "den"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Seats                     here    win", "alice            (you)  1353?")
	if err := tbl.Sit(ctx, b); err != nil { // the last seat: the game starts
		t.Fatal(err)
	}
	e.finish(tbl, a, b)
	waitOutput(t, tm, "Game over · ratings at this table", "1. ", "2. ", "Seated for the next game  here    win")
	frame := finalView(t, tm)
	assertFits(t, frame, 80, 24)
}

// TestLobbySeasonLine: the lobby says the season running, how long it
// has to go, and the champion of the season before.
func TestLobbySeasonLine(t *testing.T) {
	e := newEnv(t)
	a, b := e.player("alice"), e.player("bob")
	ctx := ctxT(t)
	now := e.clock.Now()
	season := rating.Monthly.Of(now)
	prev := season.Prev()
	if _, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "old", Rules: engine.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	// Last season: bob beat alice.
	played := prev.Start().Add(time.Hour)
	if err := e.st.UpdateTable(ctx, "old", func(tb *store.TableRecord) error { tb.Created = prev.Start(); return nil }); err != nil {
		t.Fatal(err)
	}
	playGame(t, e.st, "old", seatsOf(b, a), engine.DefaultOptions(), 3, played)
	champ, ok, err := e.st.Champion(ctx, store.Board{Season: prev})
	if err != nil || !ok {
		t.Fatalf("champion: %+v %v %v", champ, ok, err)
	}
	for _, c := range []struct {
		period rating.Period
		want   []string
		not    []string
	}{
		{rating.Monthly, []string{"Season " + season.String() + ", " + words.SeasonLeft(season, now), prev.String() + " champion: " + champ.Name + " " + words.Figure(champ.Rating)}, nil},
		{rating.Off, []string{"Lobby chat"}, []string{"Season"}},
	} {
		cfg := e.config(a, 80, 24)
		cfg.Records, cfg.Season = e.st, c.period
		tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
		waitOutput(t, tm, append([]string{"Lobby chat"}, c.want...)...)
		frame := finalView(t, tm)
		assertFits(t, frame, 80, 24)
		assertContains(t, frame, c.want...)
		for _, n := range c.not {
			if strings.Contains(frame, n) {
				t.Errorf("the lobby says %q:\n%s", n, frame)
			}
		}
		if c.period == rating.Monthly {
			t.Logf("the lobby at 80×24:\n%s", frame)
		}
	}
}

// TestPrivateRatingsToAStranger: a private table's rating figures reach
// no screen of someone the table does not admit: its table screen does
// not open for them (so neither its board's figures nor a game's
// changes are read), and their stats screen's board, overall, counts
// the members' public games only.
func TestPrivateRatingsToAStranger(t *testing.T) {
	e := newEnv(t)
	a, b, c := e.player("alice"), e.player("bob"), e.player("carol")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	e.finish(e.game("warm", rules, a, b), a, b)
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, a, lobby.TableConfig{Name: "den", Rules: rules, Seats: 2, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Invite(ctx, a, "code12345", e.clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Redeem(ctx, b, "code12345"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{a, b} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	e.finish(tbl, a, b)
	records, err := e.st.TableRecords(ctx, "den")
	if err != nil || len(records) != 1 {
		t.Fatal(records, err)
	}
	if den, err := e.st.Rating(ctx, a.ID, store.Board{Table: &records[0], Season: rating.AllTime}); err != nil || den.Games != 1 {
		t.Fatalf("alice at den: %+v %v", den, err) // the game counted on the table's own board
	}
	overall, err := e.st.Rating(ctx, a.ID, store.Board{Season: rating.AllTime})
	if err != nil || overall.Games != 1 {
		t.Fatalf("alice overall: %+v %v", overall, err)
	}

	cfg := e.config(c, 80, 24)
	cfg.Records, cfg.Table = e.st, "den"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "could not open den: "+lobby.ErrNoTable.Error()) // as a name no table has
	frame := finalView(t, tm)
	assertLacks(t, frame, "here", "rating  win", "Game over")

	cfg = e.config(c, 80, 24)
	cfg.Records = e.st
	tm = teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Lobby chat")
	tm.Send(keyRunes("L"))
	tm.Send(keyRunes("a")) // all time
	waitOutput(t, tm, "all time", words.Figure(overall.Rating))
	frame = finalView(t, tm)
	row := regexp.MustCompile(`alice +` + regexp.QuoteMeta(words.Figure(overall.Rating)) + ` +1 +[01]\b`)
	if !row.MatchString(frame) {
		t.Errorf("alice's row is not her public figure and game:\n%s", frame)
	}
	assertLacks(t, frame, "den")
}
