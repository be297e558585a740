package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// TestScreensTellErrorsByKind: a screen shows an error as lobby.Shown
// says, never a fault's raw text, which is logged (common.said).
func TestScreensTellErrorsByKind(t *testing.T) {
	const rawText = "bbolt: write /data/mia.db: input/output error"
	raw := errors.New(rawText)
	cases := []struct {
		name   string
		err    error
		shows  string
		logged string // "" for none
	}{
		{"refused", lobby.NewError(lobby.Refused, "that name is taken; choose another"), "that name is taken; choose another", ""},
		{"refused by the name rule", fmt.Errorf("x: %w", lobby.CheckName("ada")), lobby.CheckName("ada").Error(), ""},
		{"unavailable, with its sentence", lobby.ErrLobbyClosed, "the server is shutting down", ""},
		{"unavailable, without", fmt.Errorf("set name: %w: %w", raw, context.DeadlineExceeded), lobby.Shown(context.DeadlineExceeded), "WARN"},
		{"internal", fmt.Errorf("set name: %w", raw), lobby.Shown(raw), "ERRO"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			cfg := promptConfig("", func(string) (string, string, error) { return "", "", c.err })
			cfg.Log = log.New(&logs)
			m := New(cfg).(*Model)
			run(m, m.Init())
			p := m.cur.(*promptScreen)
			m.key(keyRunes("bob"))
			run(m, m.key(keyEnter))
			if p.errMsg != c.shows || strings.Contains(m.View(), "bbolt") {
				t.Errorf("the prompt says %q, want %q", p.errMsg, c.shows)
			}
			switch got := logs.String(); {
			case c.logged == "" && got != "":
				t.Errorf("logged %q, want nothing", got)
			case c.logged != "" && (!strings.Contains(got, c.logged) || !strings.Contains(got, rawText) || !strings.Contains(got, "could not save the name")):
				t.Errorf("logged %q, want a %s line with the raw error", got, c.logged)
			}
		})
	}
}

// TestScreenErrorsHaveKinds: the screens' own errors have kinds.
func TestScreenErrorsHaveKinds(t *testing.T) {
	kinds := map[string]struct {
		err  error
		kind lobby.ErrorKind
	}{
		"errStillPlaying": {errStillPlaying, lobby.Refused},
		"errNoEvents":     {errNoEvents, lobby.Unavailable},
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
}
