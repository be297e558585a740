package botline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestErrorLineByKind: an error of each kind is the one ERROR line of
// PROTOCOL.md §2 with the sentence lobby.Shown gives, never the raw text
// of a fault, which is logged.
func TestErrorLineByKind(t *testing.T) {
	const rawText = "bbolt: write /data/mia.db: input/output error"
	raw := errors.New(rawText)
	move := &engine.RuleError{Rule: engine.ErrNotYourTurn, Action: engine.Action{Kind: engine.Roll}}
	cases := []struct {
		name   string
		err    error
		kind   lobby.ErrorKind
		line   string // the sentence: ErrorLine makes the line of it
		logged string // "" for none
	}{
		{"refused", atTable("club", lobby.ErrTableFull), lobby.Refused, "table club: every seat is taken", ""},
		{"refused by the rules", fmt.Errorf("x: %w", move), lobby.Refused, move.Error(), ""},
		{"refused, a line of the bot's", errBotStale, lobby.Refused, "stale token: the turn has moved on", ""},
		{"not found", atTable("club", lobby.ErrNoTable), lobby.NotFound, "table club: no such table", ""},
		{"not found, none waiting", errNoWaitingTable, lobby.NotFound, "no public table is waiting for players; name one: bot TABLE", ""},
		{"unavailable, with its sentence", lobby.ErrUnsaved, lobby.Unavailable, lobby.ErrUnsaved.Error(), ""},
		{"unavailable, without", atTable("club", fmt.Errorf("%w: %w", raw, context.DeadlineExceeded)), lobby.Unavailable,
			lobby.Shown(context.DeadlineExceeded), "WARN"},
		{"internal", atTable("club", fmt.Errorf("save the move: %w", raw)), lobby.Internal, lobby.Shown(raw), "ERRO"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			bs := &botSession{cfg: Config{Log: log.New(&logs)}, me: lobby.Player{ID: "p:1"}}
			if k := lobby.KindOf(c.err); k != c.kind {
				t.Fatalf("the error is %v, want %v", k, c.kind)
			}
			if got, want := bs.errorLine(c.err), ErrorLine(c.line); got != want || strings.Contains(got, "bbolt") {
				t.Errorf("errorLine = %q, want %q", got, want)
			}
			switch got := logs.String(); {
			case c.logged == "" && got != "":
				t.Errorf("logged %q, want nothing", got)
			case c.logged != "" && (!strings.Contains(got, c.logged) || !strings.Contains(got, rawText) || !strings.Contains(got, "p:1")):
				t.Errorf("logged %q, want a %s line with the raw error and the person", got, c.logged)
			}
		})
	}
}

// TestBotErrorsHaveKinds: every error of the package has a kind, but the
// signals ErrEnded, which the bot command reads (the bot was told why in
// an ERROR line already), and errGameDone, which ends a game at an
// event's table.
func TestBotErrorsHaveKinds(t *testing.T) {
	kinds := map[string]struct {
		err  error
		kind lobby.ErrorKind
	}{
		"ErrEnded":          {ErrEnded, lobby.Internal},
		"errGameDone":       {errGameDone, lobby.Internal}, // a signal of ServeEvent's, never told
		"errNoEvents":       {errNoEvents, lobby.Unavailable},
		"errNoWaitingTable": {errNoWaitingTable, lobby.NotFound},
		"errBotEmpty":       {errBotEmpty, lobby.Refused},
		"errBotUTF8":        {errBotUTF8, lobby.Refused},
		"errBotTooLong":     {errBotTooLong, lobby.Refused},
		"errBotNoToken":     {errBotNoToken, lobby.Refused},
		"errBotBadDice":     {errBotBadDice, lobby.Refused},
		"errBotBadField":    {errBotBadField, lobby.Refused},
		"errBotWord":        {errBotWord, lobby.Refused},
		"errBotNotAsked":    {errBotNotAsked, lobby.Refused},
		"errBotToken":       {errBotToken, lobby.Refused},
		"errBotStale":       {errBotStale, lobby.Refused},
	}
	declared, err := lobbytest.ErrorsDeclared(".", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range declared {
		c, ok := kinds[n]
		if !ok {
			t.Errorf("%s is declared without a kind listed here: give it one (lobby.NewError) and list it", n)
			continue
		}
		if got := lobby.KindOf(c.err); got != c.kind {
			t.Errorf("%s is %v, want %v", n, got, c.kind)
		}
		delete(kinds, n)
	}
	for n := range kinds {
		t.Errorf("%s is listed, not declared", n)
	}
	for _, line := range []string{"", "ROLL", "ROLL;", "JOIN;x", "ANNOUNCE;7,1;x", "ROLL;\xff"} {
		if _, err := parseBotLine([]byte(line)); lobby.KindOf(err) != lobby.Refused {
			t.Errorf("the refusal of %q is %v: %v", line, lobby.KindOf(err), err)
		}
	}
}
