package lobby

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mia-game/mia/engine"
)

// Errors of invites and members.
var (
	ErrBadInvite = NewError(Refused, "that invite code is not valid (unknown, used or expired)")
	ErrPublic    = NewError(Refused, "the table is public: anyone may sit down, no invite needed")
	ErrMember    = NewError(Refused, "you are a member of this table already")
	ErrNotMember = NewError(NotFound, "that player is neither a member of this table nor at it")
	ErrKickHost  = NewError(Refused, "the host cannot be removed from their own table")
)

// Invite stores a one-time invite code to a private table, valid until
// expires (host or admin only). The store keeps only its hash.
func (t *Table) Invite(ctx context.Context, p Player, code string, expires time.Time) error {
	return t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if !t.rec.Private {
			return ErrPublic
		}
		return t.save(actx, func(wctx context.Context) error {
			if err := t.lobby.cfg.Store.AddInvite(wctx, t.rec.Name, code, expires); err != nil {
				return fmt.Errorf("save invite to %s: %w", t.name, err)
			}
			return nil
		}, nil)
	})
}

// Redeem spends an invite code to the table of that name (any case) for
// p: `join NAME CODE`. A name no open table has is ErrBadInvite, the
// answer to a wrong code, and takes the same steps: storage is asked for
// the code all the same, so that neither the words nor the time of the
// answer tell a private table's name to someone it does not admit. A
// table that closes meanwhile is ErrBadInvite too.
func (l *Lobby) Redeem(ctx context.Context, p Player, name, code string) (*Table, error) {
	t, err := l.Table(name)
	if err != nil {
		sctx, cancel := context.WithTimeout(ctx, l.cfg.SaveTimeout)
		defer cancel()
		_ = l.cfg.Store.UseInvite(sctx, name, code, p.ID, l.cfg.Clock.Now()) // no table: refused, whatever it says
		return nil, ErrBadInvite
	}
	switch err := t.Redeem(ctx, p, code); {
	case errors.Is(err, ErrTableClosed), errors.Is(err, ErrBadInvite):
		return nil, ErrBadInvite
	case err != nil:
		return t, err // the table is there for p: p is its member or host, or it is public
	}
	return t, nil
}

// Redeem spends an invite code: p becomes a member of the private table,
// able to see it and sit down at once. A code works once; p's being a
// member (or the host) already is ErrMember and leaves the code unspent.
func (t *Table) Redeem(ctx context.Context, p Player, code string) error {
	return t.do(ctx, func(actx context.Context) error {
		if !t.rec.Private {
			return ErrPublic
		}
		if p.ID == t.rec.Host || slices.Contains(t.rec.Members, p.ID) {
			return ErrMember
		}
		err := t.save(actx, func(wctx context.Context) error {
			return t.lobby.cfg.Store.UseInvite(wctx, t.rec.Name, code, p.ID, t.lobby.cfg.Clock.Now())
		}, func(context.Context) error {
			t.rec.Members = append(slices.Clone(t.rec.Members), p.ID)
			t.changed(false)
			return nil
		})
		switch {
		case errors.Is(err, ErrBadInvite):
			return ErrBadInvite
		case err != nil:
			return fmt.Errorf("use invite to %s: %w", t.name, err)
		}
		return nil
	})
}

// Kick removes the person id (a person, or a bot of any kind) from the
// table (host or admin only), at once, a game running or not: from the
// members of a private table, so that they can no longer see it; from
// their seat (in a running game they leave it, and are out); and from the
// viewers, whose subscriptions end (Err: an *EndError whose Why is
// ErrRemoved). At a public table they may come back.
func (t *Table) Kick(ctx context.Context, p Player, id string) error {
	t.lobby.learn(ctx, p.ID)
	return t.do(ctx, func(actx context.Context) error {
		if p.ID != t.rec.Host && !p.Admin {
			return ErrNotHost
		}
		if id == t.rec.Host {
			return ErrKickHost
		}
		found := false
		// Their screens and bots go first: they see nothing of the table
		// from now on, not even their own leaving, and hear why.
		why := &EndError{Why: ErrRemoved, Table: t.name, By: t.lobby.Name(p.ID), ByID: p.ID, Admin: p.ID != t.rec.Host}
		for s := range t.subs {
			if s.player.ID == id {
				found = true
				t.removeSub(s)
				s.end(why)
			}
		}
		// Then the member, their seat in the game and their seat: each
		// step once the one before is saved.
		standUp := func(actx context.Context) error {
			if i := t.seatOf(id); i >= 0 {
				return t.seatSitters(actx, without(t.sitters, i), t.shown)
			}
			t.changed(false)
			return nil
		}
		leave := func(actx context.Context) error {
			if seat := t.gameSeat(id); t.running() && seat >= 0 && t.game.g.Lives(seat) > 0 {
				return t.apply(actx, engine.Action{Kind: engine.Leave, Seat: seat}, standUp)
			}
			return standUp(actx)
		}
		found = found || slices.Contains(t.rec.Members, id) || t.running() && t.gameSeat(id) >= 0 || t.seatOf(id) >= 0
		if !found {
			return ErrNotMember
		}
		if slices.Contains(t.rec.Members, id) {
			return t.update(actx, func(r *TableRecord) error {
				r.Members = slices.DeleteFunc(r.Members, func(m string) bool { return m == id })
				return nil
			}, leave)
		}
		return leave(actx)
	})
}
