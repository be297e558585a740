package alerts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/store"
)

// What the commands and the screens ask of the alerts: a table's own
// hooks (its host's), the tables a person watches, and the invitations
// sent to a person. Every refusal has a kind (lobby.ErrorKind).
var (
	// ErrNoTableHooks: the operator allows no host (--webhook-allow
	// empty), or the server keeps no hooks.
	ErrNoTableHooks = lobby.NewError(lobby.Refused, "this server sends no table hooks: its operator allows no host for them (--webhook-allow)")
	// ErrHostNotAllowed: the hook's host is not among those allowed.
	ErrHostNotAllowed = lobby.NewError(lobby.Refused, "the server does not send hooks to that host: its operator allows only some (--webhook-allow)")
	// ErrTooManyHooks: the table has MaxHooksPerTable hooks already.
	ErrTooManyHooks = lobby.NewError(lobby.Refused, "a table has at most 3 hooks: remove one first")
	// ErrNoHook: the table has no hook (to that address).
	ErrNoHook = lobby.NewError(lobby.NotFound, "the table has no such hook")
	// ErrURLTooLong: the address is longer than MaxURL.
	ErrURLTooLong = lobby.NewError(lobby.Refused, "a hook's address has at most 2048 characters")
	// ErrTooManyWatches: the person watches MaxWatches tables already.
	ErrTooManyWatches = lobby.NewError(lobby.Refused, "you watch 20 tables already: stop watching one first")
	// ErrNotWatching: the person does not watch that table.
	ErrNotWatching = lobby.NewError(lobby.NotFound, "you do not watch that table")
	// ErrInvitedMember: the person invited may sit at the table already.
	ErrInvitedMember = lobby.NewError(lobby.Refused, "they are the table's host or a member already")
	// ErrNoInvitation: the person holds no invitation to that table.
	ErrNoInvitation = lobby.NewError(lobby.NotFound, "no invitation to that table")
	// ErrNoStorage: the server keeps no hooks, watches or invitations.
	ErrNoStorage = lobby.NewError(lobby.Unavailable, "this server keeps no table hooks, watches or invitations")
)

// mayChange refuses p unless they host the table or are an admin.
func mayChange(p lobby.Player, info lobby.TableInfo) error {
	if p.ID != info.HostID && !p.Admin {
		return lobby.ErrNotHost
	}
	return nil
}

// TableHook is a table's hook as its host sees it: its state and its
// secret, which its deliveries are signed with.
type TableHook struct {
	HookState
	Secret string
}

// SetHook sets a hook of the table t to raw, in format f (p must host it):
// the host must be allowed (Allow), the table hold fewer than
// MaxHooksPerTable others. A hook set again to the same address keeps its
// secret and takes the new format. It returns the hook.
func (a *Alerts) SetHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string, f Format) (TableHook, error) {
	info := t.Info()
	if err := mayChange(p, info); err != nil {
		return TableHook{}, err
	}
	if len(raw) > MaxURL {
		return TableHook{}, ErrURLTooLong
	}
	if a.cfg.Storage == nil || a.cfg.Allow.Empty() {
		return TableHook{}, ErrNoTableHooks
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return TableHook{}, ErrBadURL
	}
	if !a.cfg.Allow.Host(u.Hostname()) {
		return TableHook{}, ErrHostNotAllowed
	}
	a.hookMu.Lock()
	defer a.hookMu.Unlock()
	a.prune()
	key := strings.ToLower(info.Name)
	a.mu.Lock()
	old := slices.Clone(a.tables[key])
	a.mu.Unlock()
	secret := ""
	others := 0
	for _, h := range old {
		if h.url == raw {
			secret = h.secret
		} else {
			others++
		}
	}
	if others >= MaxHooksPerTable {
		return TableHook{}, ErrTooManyHooks
	}
	if secret == "" {
		secret = newSecret()
	}
	h, err := a.newHook(info.Name, raw, f, secret)
	if err != nil {
		return TableHook{}, err
	}
	h.by, h.created, h.tableCreated, h.since = p.ID, a.cfg.Now().UTC(), info.Access().Created, a.lob.Now()
	err = a.cfg.Storage.SetHook(ctx, info.Name, store.Hook{URL: raw, Format: string(f), Secret: secret, By: p.ID, Created: h.created})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return TableHook{}, lobby.ErrNoTable
	case err != nil:
		return TableHook{}, err
	}
	a.mu.Lock()
	kept := make([]*hook, 0, len(old)+1)
	for _, o := range a.tables[key] {
		if o.url == raw {
			o.remove()
			h.state = o.State() // what it did, kept
			h.state.URL, h.state.Format = raw, f
			continue
		}
		kept = append(kept, o)
	}
	a.tables[key] = append(kept, h)
	a.mu.Unlock()
	a.log.Info("table hook set", "table", info.Name, "host", h.host, "format", f, "by", p.ID)
	return TableHook{HookState: h.State(), Secret: secret}, nil
}

// RemoveHook takes off the table's hook to raw, or every one of its hooks
// when raw is "" (p must host it). It returns how many it took off.
func (a *Alerts) RemoveHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string) (int, error) {
	info := t.Info()
	if err := mayChange(p, info); err != nil {
		return 0, err
	}
	if a.cfg.Storage == nil {
		return 0, ErrNoTableHooks
	}
	a.hookMu.Lock()
	defer a.hookMu.Unlock()
	err := a.cfg.Storage.RemoveHook(ctx, info.Name, raw)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return 0, ErrNoHook
	case err != nil:
		return 0, err
	}
	key := strings.ToLower(info.Name)
	a.mu.Lock()
	defer a.mu.Unlock()
	var kept []*hook
	n := 0
	for _, h := range a.tables[key] {
		if raw == "" || h.url == raw {
			h.remove()
			n++
			continue
		}
		kept = append(kept, h)
	}
	if len(kept) == 0 {
		delete(a.tables, key)
	} else {
		a.tables[key] = kept
	}
	return max(n, 1), nil
}

// Hooks lists the table's hooks, with their secrets (p must host it).
func (a *Alerts) Hooks(p lobby.Player, t *lobby.Table) ([]TableHook, error) {
	info := t.Info()
	if err := mayChange(p, info); err != nil {
		return nil, err
	}
	var out []TableHook
	for _, h := range a.hooksOf(info) {
		out = append(out, TableHook{HookState: h.State(), Secret: h.secret})
	}
	return out, nil
}

// hooksOf is the hooks of the table as it is open now (not an earlier
// table's of its name).
func (a *Alerts) hooksOf(info lobby.TableInfo) []*hook {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*hook
	for _, h := range a.tables[strings.ToLower(info.Name)] {
		if h.tableCreated.Equal(info.Access().Created) {
			out = append(out, h)
		}
	}
	return out
}

// TestResult is a test delivery's answer, from one hook.
type TestResult struct {
	URL string
	TestAnswer
}

// TestHook sends a test delivery (type ping) to each of the table's hooks,
// or to the one to raw, once each, and returns their answers (p must host
// it). A hook that answers 2xx resumes if it was paused.
func (a *Alerts) TestHook(ctx context.Context, p lobby.Player, t *lobby.Table, raw string) ([]TestResult, error) {
	info := t.Info()
	if err := mayChange(p, info); err != nil {
		return nil, err
	}
	hs := a.hooksOf(info)
	if raw != "" {
		hs = slices.DeleteFunc(hs, func(h *hook) bool { return h.url != raw })
	}
	if len(hs) == 0 {
		return nil, ErrNoHook
	}
	n := testNews(info.Name, a.cfg.Now().UTC())
	n.Access, n.Host, n.Seats, n.Taken, n.Rules = info.Access(), info.HostID, info.Seats, info.Taken, info.Rules
	out := make([]TestResult, 0, len(hs))
	for _, h := range hs {
		d := a.render(n, h.format)
		d.id = newID()
		res := h.send(ctx, d)
		h.noted(d, res)
		out = append(out, TestResult{URL: h.url, TestAnswer: res.test()})
	}
	return out, nil
}

// prune drops the hooks of tables that are no longer open (closed, or
// opened again: the store dropped them as the table closed). a.hookMu is
// held.
func (a *Alerts) prune() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, hs := range a.tables {
		t, err := a.lob.Table(k)
		if err == nil && len(hs) > 0 && hs[0].tableCreated.Equal(t.Info().Access().Created) {
			continue
		}
		for _, h := range hs {
			h.remove()
		}
		delete(a.tables, k)
	}
}

// newSecret is a table hook's secret: 32 random hex digits.
func newSecret() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Watch keeps that p asks to be told when the table of that name (one
// they may see) has a seat free; watching it again changes nothing.
func (a *Alerts) Watch(ctx context.Context, p lobby.Player, name string) (*lobby.Table, error) {
	t, err := a.lob.TableFor(p.Viewer(), name)
	if err != nil {
		return nil, err
	}
	if a.cfg.Storage == nil {
		return nil, ErrNoStorage
	}
	err = a.cfg.Storage.AddWatch(ctx, p.ID, t.Name(), a.cfg.Now(), MaxWatches)
	switch {
	case errors.Is(err, store.ErrTooMany):
		return nil, ErrTooManyWatches
	case errors.Is(err, store.ErrNotFound):
		return nil, lobby.ErrNoTable
	case err != nil:
		return nil, err
	}
	return t, nil
}

// Unwatch forgets that p watches the table of that name.
func (a *Alerts) Unwatch(ctx context.Context, p lobby.Player, name string) error {
	if a.cfg.Storage == nil {
		return ErrNoStorage
	}
	err := a.cfg.Storage.RemoveWatch(ctx, p.ID, name)
	if errors.Is(err, store.ErrNotFound) {
		return ErrNotWatching
	}
	return err
}

// Watches lists the open tables the person watches that they may still
// see, by name.
func (a *Alerts) Watches(ctx context.Context, p lobby.Player) ([]string, error) {
	if a.cfg.Storage == nil {
		return nil, nil
	}
	names, err := a.cfg.Storage.WatchesOf(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(names, func(n string) bool { _, err := a.lob.TableFor(p.Viewer(), n); return err != nil }), nil
}

// Invite delivers an invitation to the table t from by (who invited them
// with code, valid until expires; a public table's needs none) to the
// person: it is kept among their invitations (the newest MaxInvitations)
// and told to their screens, unless they were invited to it less than a
// minute ago.
func (a *Alerts) Invite(ctx context.Context, by lobby.Player, t *lobby.Table, person, code string, expires time.Time) error {
	info := t.Info()
	if info.Access().Admits(person) && info.Private || person == info.HostID {
		return ErrInvitedMember
	}
	if a.cfg.Storage == nil {
		return ErrNoStorage
	}
	now := a.cfg.Now().UTC()
	held, err := a.cfg.Storage.InvitationsOf(ctx, person, now)
	if err != nil {
		return err
	}
	quiet := slices.ContainsFunc(held, func(inv store.Invitation) bool {
		return strings.EqualFold(inv.Table, info.Name) && now.Sub(inv.At) < time.Minute
	})
	err = a.cfg.Storage.AddInvitation(ctx, store.Invitation{Table: info.Name, Person: person, By: by.ID, Code: code, At: now, Expires: expires},
		MaxInvitations)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return lobby.ErrNoTable
	case err != nil:
		return err
	}
	if !quiet {
		a.lob.Publish(lobby.News{Kind: lobby.NewsInvited, At: now, To: []string{person}, Table: info.Name, Access: info.Access(),
			Host: info.HostID, Seats: info.Seats, Taken: info.Taken, Rules: info.Rules, By: by.ID, Code: code, Expires: expires})
	}
	return nil
}

// Invitations lists the person's invitations to open tables that still
// work, the newest first, as news of kind invited.
func (a *Alerts) Invitations(ctx context.Context, person string) ([]lobby.News, error) {
	if a.cfg.Storage == nil {
		return nil, nil
	}
	invs, err := a.cfg.Storage.InvitationsOf(ctx, person, a.cfg.Now())
	if err != nil {
		return nil, err
	}
	out := make([]lobby.News, 0, len(invs))
	for _, inv := range invs {
		out = append(out, lobby.News{Kind: lobby.NewsInvited, At: inv.At, To: []string{person}, Table: inv.Table, By: inv.By,
			Code: inv.Code, Expires: inv.Expires})
	}
	return out, nil
}

// DropInvitation forgets the person's invitation to the table (taken, or
// turned down).
func (a *Alerts) DropInvitation(ctx context.Context, person, table string) error {
	if a.cfg.Storage == nil {
		return ErrNoStorage
	}
	err := a.cfg.Storage.RemoveInvitation(ctx, person, table)
	if errors.Is(err, store.ErrNotFound) {
		return ErrNoInvitation
	}
	return err
}
