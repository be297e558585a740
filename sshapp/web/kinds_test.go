package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/lobbytest"
)

// lockedBuffer is a log's output, read while the server writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestFailByKind: an error of each kind is answered with its status
// (statusOf) and lobby.Shown's sentence, never a fault's raw text, which
// is logged.
func TestFailByKind(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	e := newEnv(t, nil, func(c *Config) { c.Log = log.New(&logs) })
	const rawText = "bbolt: write /data/mia.db: input/output error"
	raw := errors.New(rawText)
	cases := []struct {
		name   string
		err    error
		kind   lobby.ErrorKind
		status int
		says   string
		logged string // "" for none
	}{
		{"refused", fmt.Errorf("x: %w", lobby.ErrPublicLink), lobby.Refused, http.StatusForbidden,
			"The table is public: anyone may watch it on the web, no link needed.", ""},
		{"not found", errNoTable, lobby.NotFound, http.StatusNotFound, "There is nothing at this address", ""},
		{"unavailable, with its sentence", lobby.ErrLobbyClosed, lobby.Unavailable, http.StatusServiceUnavailable,
			"The server is shutting down.", ""},
		{"unavailable, without", fmt.Errorf("read the game: %w: %w", raw, context.DeadlineExceeded), lobby.Unavailable,
			http.StatusServiceUnavailable, asSentence(lobby.Shown(context.DeadlineExceeded)), "WARN"},
		{"internal", fmt.Errorf("read the game: %w", raw), lobby.Internal, http.StatusInternalServerError,
			asSentence(lobby.Shown(raw)), "ERRO"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(logs.String())
			if k := lobby.KindOf(c.err); k != c.kind || statusOf(k) != c.status {
				t.Fatalf("the error is %v (status %d), want %v (%d)", k, statusOf(k), c.kind, c.status)
			}
			w := httptest.NewRecorder()
			e.web.fail(w, httptest.NewRequest(http.MethodGet, "/games/7", nil), "read the game", c.err)
			body := html.UnescapeString(w.Body.String())
			if w.Code != c.status || !strings.Contains(body, c.says) || strings.Contains(body, "bbolt") {
				t.Errorf("status %d, want %d saying %q:\n%s", w.Code, c.status, c.says, body)
			}
			if got := w.Header().Get("Retry-After"); (got != "") != (c.kind == lobby.Unavailable) {
				t.Errorf("Retry-After %q", got)
			}
			switch got := logs.String()[before:]; {
			case c.logged == "" && got != "":
				t.Errorf("logged %q, want nothing", got)
			case c.logged != "" && (!strings.Contains(got, c.logged) || !strings.Contains(got, rawText) || !strings.Contains(got, "/games/7")):
				t.Errorf("logged %q, want a %s line with the raw error and the path", got, c.logged)
			}
		})
	}
	// A viewer who has gone is answered nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	before := len(logs.String())
	e.web.fail(w, httptest.NewRequest(http.MethodGet, "/", nil).WithContext(ctx), "read the games", context.Canceled)
	if w.Body.Len() != 0 || len(logs.String()) != before {
		t.Errorf("a request given up was answered %d %q, logged %q", w.Code, w.Body.String(), logs.String()[before:])
	}
}

// TestStoreFailureIsAServerError: a page whose read fails is a 500 with
// the fixed sentence, the store's error logged.
func TestStoreFailureIsAServerError(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	e := newEnv(t, nil, func(c *Config) { c.Log = log.New(&logs) })
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	resp, body := e.get("/leaderboard")
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(html.UnescapeString(body), asSentence(lobby.Shown(errors.New("x")))) ||
		strings.Contains(body, "database") {
		t.Errorf("status %d:\n%s", resp.StatusCode, body)
	}
	if got := logs.String(); !strings.Contains(got, "database not open") || !strings.Contains(got, "could not read the leaderboard") {
		t.Errorf("logged %q", got)
	}
}

// TestWebErrorsHaveKinds: the web window's own errors have kinds.
func TestWebErrorsHaveKinds(t *testing.T) {
	t.Parallel()
	declared, err := lobbytest.ErrorsDeclared(".", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) != 1 || declared[0] != "errNoTable" || lobby.KindOf(errNoTable) != lobby.NotFound {
		t.Errorf("the web window's errors: %v; errNoTable is %v: give a new one a kind and list it here", declared, lobby.KindOf(errNoTable))
	}
}
