package lobby

import (
	"errors"
	"testing"
)

// TestWebLink: the host makes, shows and revokes a private table's web
// link; it is stored (a restart keeps it); a spectator let in by it sees
// the table until it is revoked, then is dropped.
func TestWebLink(t *testing.T) {
	e := newEnv(t)
	host, ann, admin := e.player("host"), e.player("ann"), e.player("admin")
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
	if _, err := tbl.Link(ctx, ann, false); !errors.Is(err, ErrNotHost) {
		t.Errorf("a stranger's link: %v, want ErrNotHost", err)
	}
	if _, err := pub.Link(ctx, host, false); !errors.Is(err, ErrPublicLink) {
		t.Errorf("a public table's link: %v, want ErrPublicLink", err)
	}
	if _, err := tbl.Spectate(ctx, Viewer{Link: "guess"}); !errors.Is(err, ErrNoTable) {
		t.Errorf("spectating by a guess: %v, want ErrNoTable", err)
	}
	if _, err := tbl.Spectate(ctx, Viewer{}); !errors.Is(err, ErrNoTable) {
		t.Errorf("spectating without a link: %v, want ErrNoTable", err)
	}
	if s, err := pub.Spectate(ctx, Viewer{}); err != nil {
		t.Errorf("spectating a public table: %v", err)
	} else {
		s.Close()
	}
	tok, err := tbl.Link(ctx, host, false)
	if err != nil || len(tok) != 22 {
		t.Fatalf("link = %q, %v; want 22 characters", tok, err)
	}
	if again, err := tbl.Link(ctx, admin, false); err != nil || again != tok {
		t.Errorf("the link asked again = %q, %v; want the same %q", again, err, tok)
	}
	if got := tbl.Info().Access().Link; got != tok {
		t.Errorf("the table's access holds link %q, want %q", got, tok)
	}
	if rec, err := e.st.Table("club"); err != nil || rec.Link != tok {
		t.Errorf("stored link %q, %v", rec.Link, err)
	}
	if found, err := e.lobby.TableFor(Viewer{Link: tok}, "CLUB"); err != nil || found != tbl {
		t.Errorf("TableFor the link holder: %v, %v", found, err)
	}
	if _, err := e.lobby.TableFor(Viewer{Link: tok[1:]}, "club"); !errors.Is(err, ErrNoTable) {
		t.Errorf("TableFor a wrong link: %v, want ErrNoTable", err)
	}
	if got := e.lobby.Tables(Viewer{Link: tok}); len(got) != 2 {
		t.Errorf("the link holder lists %d tables, want 2 (the public one and the linked one)", len(got))
	}

	e.restart()
	tbl, err = e.lobby.Table("club")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := tbl.Link(ctx, host, false); err != nil || again != tok {
		t.Fatalf("after a restart the link = %q, %v; want %q", again, err, tok)
	}
	sub, err := tbl.Spectate(ctx, Viewer{Link: tok})
	if err != nil {
		t.Fatalf("spectating by the link: %v", err)
	}
	snap, ok := sub.Wait(ctx)
	if !ok {
		t.Fatal("no snapshot for the link's spectator")
	}
	if snap.You != -1 || snap.Seated {
		t.Errorf("the link's spectator sees from seat %d, seated %v", snap.You, snap.Seated)
	}
	if err := tbl.Sit(ctx, Player{ID: "p:999"}); !errors.Is(err, ErrNoTable) {
		t.Errorf("sitting down without a key the table admits: %v, want ErrNoTable", err)
	}
	if gone, err := tbl.Link(ctx, host, true); err != nil || gone != "" {
		t.Fatalf("revoke = %q, %v", gone, err)
	}
	select {
	case <-sub.Done():
	case <-ctx.Done():
		t.Fatal("the link's spectator was not dropped when the link was revoked")
	}
	if _, err := tbl.Spectate(ctx, Viewer{Link: tok}); !errors.Is(err, ErrNoTable) {
		t.Errorf("spectating by a revoked link: %v, want ErrNoTable", err)
	}
	if rec, err := e.st.Table("club"); err != nil || rec.Link != "" {
		t.Errorf("stored link after revoking %q, %v", rec.Link, err)
	}
	if _, err := tbl.Link(ctx, host, true); err != nil {
		t.Errorf("revoking no link: %v", err)
	}
	fresh, err := tbl.Link(ctx, host, false)
	if err != nil || fresh == tok || fresh == "" {
		t.Errorf("a new link after revoking = %q, %v; want a new token", fresh, err)
	}
}
