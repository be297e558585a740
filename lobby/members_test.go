package lobby

import (
	"errors"
	"testing"
	"time"
)

func TestInvitesAndKicks(t *testing.T) {
	e := newEnv(t)
	host, ann, ben, admin := e.player("host"), e.player("ann"), e.player("ben"), e.player("admin")
	admin.Admin = true
	ctx := ctxT(t)
	tbl, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "club", Rules: quickRules(), Seats: 3, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := e.lobby.CreateTable(ctx, host, TableConfig{Name: "open", Rules: quickRules(), Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	week := e.clock.Now().Add(7 * 24 * time.Hour)
	steps := []struct {
		name string
		do   func() error
		want error
	}{
		{"a stranger cannot invite", func() error { return tbl.Invite(ctx, ann, "code-a", week) }, ErrNotHost},
		{"no invites to a public table", func() error { return pub.Invite(ctx, host, "x", week) }, ErrPublic},
		{"host invites", func() error { return tbl.Invite(ctx, host, "code-a", week) }, nil},
		{"admin invites", func() error { return tbl.Invite(ctx, admin, "code-b", week) }, nil},
		{"ann cannot sit yet", func() error { return tbl.Sit(ctx, ann) }, ErrNoTable},
		{"a wrong code", func() error { return tbl.Redeem(ctx, ann, "nope") }, ErrBadInvite},
		{"ann redeems", func() error { return tbl.Redeem(ctx, ann, "code-a") }, nil},
		{"ann sees it at once", func() error {
			if len(e.lobby.Tables(ann.Viewer())) != 2 {
				t.Errorf("ann lists %+v", e.lobby.Tables(ann.Viewer()))
			}
			return nil
		}, nil},
		{"ann again: a member, the code unspent", func() error { return tbl.Redeem(ctx, ann, "code-b") }, ErrMember},
		{"ben cannot reuse ann's code", func() error { return tbl.Redeem(ctx, ben, "code-a") }, ErrBadInvite},
		{"the host needs no code", func() error { return tbl.Redeem(ctx, host, "code-b") }, ErrMember},
		{"no codes at a public table", func() error { return pub.Redeem(ctx, ben, "code-b") }, ErrPublic},
		{"ann sits", func() error { return tbl.Sit(ctx, ann) }, nil},
		{"ben redeems the admin's code", func() error { return tbl.Redeem(ctx, ben, "code-b") }, nil},
		{"the code is spent", func() error { return tbl.Redeem(ctx, admin, "code-b") }, ErrBadInvite},
		{"ann cannot kick", func() error { return tbl.Kick(ctx, ann, ben.ID) }, ErrNotHost},
		{"nobody kicks the host", func() error { return tbl.Kick(ctx, admin, host.ID) }, ErrKickHost},
		{"kick a stranger", func() error { return tbl.Kick(ctx, host, "SHA256:nobody") }, ErrNotMember},
		{"host kicks ann", func() error { return tbl.Kick(ctx, host, ann.ID) }, nil},
		{"ann cannot sit again", func() error { return tbl.Sit(ctx, ann) }, ErrNoTable},
		{"admin kicks ben", func() error { return tbl.Kick(ctx, admin, ben.ID) }, nil},
	}
	for _, st := range steps {
		if err := st.do(); !errors.Is(err, st.want) || (st.want == nil) != (err == nil) {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.want)
		}
	}
	if got := e.lobby.Tables(ann.Viewer()); len(got) != 1 || got[0].Name != "open" {
		t.Errorf("kicked ann lists %+v", got)
	}
	if info := tbl.Info(); info.Taken != 0 {
		t.Errorf("ann kept her seat: %+v", info.Players)
	}
	rec, err := e.st.Table("club")
	if err != nil || len(rec.Members) != 0 {
		t.Errorf("stored members %v, %v", rec.Members, err)
	}
}

// Kicking a player in a running game makes them leave it; their view of
// the table ends.
func TestKickDuringAGame(t *testing.T) {
	e := newEnv(t)
	host, ann, ben := e.player("host"), e.player("ann"), e.player("ben")
	ctx := ctxT(t)
	tbl := seatPlayers(t, e, "t", quickRules(), host, ann, ben)
	sub, err := tbl.Watch(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Kick(ctx, host, ann.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sub.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the kicked player's subscription is still open")
	}
	info := tbl.Info()
	if info.State != "playing" {
		t.Fatalf("state %q", info.State)
	}
	for _, p := range info.Players {
		if p.Name == "ann" && p.Lives != 0 {
			t.Errorf("ann still has %d lives", p.Lives)
		}
	}
}
