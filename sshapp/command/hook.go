package command

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
	"github.com/mia-game/mia/sshapp/alerts"
)

// Alerts is what the commands ask of the alerts (sshapp/alerts): a
// table's own hooks, the tables a person watches, and invitations
// delivered to a person. *alerts.Alerts implements it.
type Alerts interface {
	SetHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string, f alerts.Format) (alerts.TableHook, error)
	RemoveHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string) (int, error)
	Hooks(p lobby.Player, t *lobby.Table) ([]alerts.TableHook, error)
	TestHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string) ([]alerts.TestResult, error)
	Watch(ctx context.Context, p lobby.Player, name string) (*lobby.Table, error)
	Unwatch(ctx context.Context, p lobby.Player, name string) error
	Watches(ctx context.Context, p lobby.Player) ([]string, error)
	Invite(ctx context.Context, by lobby.Player, t *lobby.Table, person, code string, expires time.Time) error
}

// needAlerts refuses when the server runs without its alerts.
func (c *Call) needAlerts() bool {
	if c.cfg.Alerts == nil {
		c.Refuse("this server sends no alerts")
		return false
	}
	return true
}

const usageTableHook = "table hook NAME [URL [--format json|slack|ntfy]] [--remove [URL]] [--test [URL]] [--json]"

// HookDoc is the document of `table hook --json`: the table, and its
// hooks (those set, or all of them), the answers of test deliveries, or
// how many were taken off.
type HookDoc struct {
	Table   TableJSON      `json:"table"`
	Hooks   []HookJSON     `json:"hooks"`
	Tests   []HookTestJSON `json:"tests,omitempty"`
	Removed int            `json:"removed,omitempty"`
}

// HookJSON is a table's hook in HookDoc.
type HookJSON struct {
	URL    string `json:"url"`
	Format string `json:"format"`
	// Secret signs its deliveries (X-Mia-Signature-256); shown to the
	// table's host only.
	Secret  string    `json:"secret"`
	State   string    `json:"state"` // "active", "failing" or "paused"
	Created time.Time `json:"created,omitzero"`
	// The last delivery: when, its type, the HTTP status (0: no answer)
	// and what went wrong ("" if nothing did).
	Last         time.Time `json:"last,omitzero"`
	LastType     string    `json:"last_type,omitempty"`
	LastStatus   int       `json:"last_status,omitempty"`
	LastError    string    `json:"last_error,omitempty"`
	FailingSince time.Time `json:"failing_since,omitzero"`
	PausedSince  time.Time `json:"paused_since,omitzero"`
	Queued       int       `json:"queued"`
	Dropped      uint64    `json:"dropped"`
	Delivered    uint64    `json:"delivered"`
	Failed       uint64    `json:"failed"`
}

// HookTestJSON is a test delivery's answer in `table hook --test --json`.
type HookTestJSON struct {
	URL    string `json:"url"`
	Status int    `json:"status"` // 0: no answer
	Body   string `json:"body,omitempty"`
	Error  string `json:"error,omitempty"`
	Millis int64  `json:"ms"`
}

func hookState(h alerts.HookState) string {
	switch {
	case h.Paused:
		return "paused"
	case !h.FailingSince.IsZero():
		return "failing"
	}
	return "active"
}

func hookJSON(h alerts.TableHook) HookJSON {
	return HookJSON{URL: h.URL, Format: string(h.Format), Secret: h.Secret, State: hookState(h.HookState), Created: h.Created,
		Last: h.Last, LastType: h.LastType, LastStatus: h.LastStatus, LastError: h.LastError, FailingSince: h.FailingSince,
		PausedSince: h.PausedAt, Queued: h.Queued, Dropped: h.Dropped, Delivered: h.Delivered, Failed: h.Failed}
}

// runTableHook is `table hook NAME …`: the host's own hooks of a table,
// shown, set, removed or tested.
func runTableHook(ctx context.Context, c *Call, args []string) int {
	fs := c.flagSet(usageTableHook)
	format := fs.String("format", string(alerts.JSON), "how deliveries are written: `json|slack|ntfy`")
	remove := fs.Bool("remove", false, "take the hook to URL off (every hook of the table without URL)")
	test := fs.Bool("test", false, "send a test delivery (type ping) to the hook to URL (every hook without URL) and print its answer")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(rest) < 1 || len(rest) > 2 || *remove && *test {
		return c.usageError(fs, "table hook takes a table NAME, and a URL to set, remove or test")
	}
	f, err := alerts.ParseFormat(*format)
	if err != nil {
		return c.usageError(fs, "--format %s: %v", words.Echo(*format), err)
	}
	if !c.needAlerts() {
		return ExitRefused
	}
	t, info, ok := c.openTable(rest[0])
	if !ok {
		return ExitRefused
	}
	raw := ""
	if len(rest) == 2 {
		raw = rest[1]
	}
	switch {
	case *remove:
		n, err := c.cfg.Alerts.RemoveHook(ctx, c.lobbyPlayer(), t, raw)
		if err != nil {
			return c.fail("remove the hook", err)
		}
		c.cfg.Log.Info("table hook removed", "table", info.Name, "by", c.Person.ID, "hooks", n)
		if c.JSON {
			return c.WriteJSON(HookDoc{Table: docOf(info), Hooks: []HookJSON{}, Removed: n})
		}
		fmt.Fprintf(c.Stdout, "Took %s off %s.\n", words.Plural(n, "1 hook", "hooks"), info.Name)
		return ExitOK
	case *test:
		res, err := c.cfg.Alerts.TestHook(ctx, c.lobbyPlayer(), t, raw)
		if err != nil {
			return c.fail("test the hook", err)
		}
		return c.writeTests(info, res)
	case raw != "":
		h, err := c.cfg.Alerts.SetHook(ctx, c.lobbyPlayer(), t, raw, f)
		if err != nil {
			return c.fail("set the hook", err)
		}
		if c.JSON {
			return c.WriteJSON(HookDoc{Table: docOf(info), Hooks: []HookJSON{hookJSON(h)}})
		}
		fmt.Fprintf(c.Stdout, "%s tells %s (%s) what happens at it: seats free, games started and ended.\n",
			info.Name, words.Clean(h.URL, alerts.MaxURL), h.Format)
		fmt.Fprintf(c.Stdout, "Each delivery is signed with the secret\n  %s\nin X-Mia-Signature-256 (sha256=HMAC-SHA256 of the body, as GitHub signs).\n", h.Secret)
		fmt.Fprintf(c.Stdout, "Try it:  %s\n", c.Hint("table hook "+info.Name+" --test"))
		return ExitOK
	}
	hs, err := c.cfg.Alerts.Hooks(c.lobbyPlayer(), t)
	if err != nil {
		return c.fail("read the hooks", err)
	}
	if c.JSON {
		doc := HookDoc{Table: docOf(info), Hooks: []HookJSON{}}
		for _, h := range hs {
			doc.Hooks = append(doc.Hooks, hookJSON(h))
		}
		return c.WriteJSON(doc)
	}
	if len(hs) == 0 {
		fmt.Fprintf(c.Stdout, "%s has no hook. Set one:\n  %s\n", info.Name, c.Hint("table hook "+info.Name+" URL [--format json|slack|ntfy]"))
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "Hooks of %s (%d of %d):\n", info.Name, len(hs), alerts.MaxHooksPerTable)
	for _, h := range hs {
		c.writeHook(h)
	}
	return ExitOK
}

// whenWords is a moment as the commands print it.
func whenWords(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// writeHook writes one hook's state, in lines of at most 80 columns.
func (c *Call) writeHook(h alerts.TableHook) {
	fmt.Fprintf(c.Stdout, "  %s (%s)\n", words.Clean(h.URL, alerts.MaxURL), h.Format)
	fmt.Fprintf(c.Stdout, "    secret %s\n", h.Secret)
	state := hookState(h.HookState)
	switch state {
	case "paused":
		state = "paused since " + whenWords(h.PausedAt) + ": it failed for an hour; tried again once an hour, or by --test"
	case "failing":
		state = "failing since " + whenWords(h.FailingSince)
	}
	writeWrapped(c.Stdout, "    ", "      ", state)
	if !h.Last.IsZero() {
		said := "answered " + fmt.Sprint(h.LastStatus)
		if h.LastError != "" {
			said = h.LastError
		}
		writeWrapped(c.Stdout, "    ", "      ", fmt.Sprintf("last delivery %s (%s): %s", whenWords(h.Last), h.LastType, said))
	}
	fmt.Fprintf(c.Stdout, "    %d delivered, %d failed, %d waiting, %d dropped (its queue full)\n", h.Delivered, h.Failed, h.Queued, h.Dropped)
}

// writeTests writes the answers of test deliveries; a delivery that
// failed makes it a refusal (exit 1), after the answers.
func (c *Call) writeTests(info lobby.TableInfo, res []alerts.TestResult) int {
	failed := 0
	doc := HookDoc{Table: docOf(info), Hooks: []HookJSON{}}
	for _, r := range res {
		if r.Error != "" {
			failed++
		}
		doc.Tests = append(doc.Tests, HookTestJSON{URL: r.URL, Status: r.Status, Body: r.Body, Error: r.Error, Millis: r.Took.Milliseconds()})
		if c.JSON {
			continue
		}
		fmt.Fprintf(c.Stdout, "%s\n", words.Clean(r.URL, alerts.MaxURL))
		if r.Error != "" {
			writeWrapped(c.Stdout, "  ", "    ", fmt.Sprintf("failed after %s: %s", r.Took.Round(time.Millisecond), r.Error))
		} else {
			fmt.Fprintf(c.Stdout, "  answered %d in %s\n", r.Status, r.Took.Round(time.Millisecond))
		}
		if body := strings.TrimSpace(r.Body); body != "" {
			writeWrapped(c.Stdout, "  body: ", "    ", body)
		}
	}
	if c.JSON {
		if code := c.WriteJSON(doc); code != ExitOK {
			return code
		}
	}
	if failed > 0 {
		return c.Refuse("%s of %d failed", words.Plural(failed, "1 test delivery", "test deliveries"), len(res))
	}
	return ExitOK
}
