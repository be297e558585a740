package lobby

import (
	"testing"
)

// Stats counts the tables by state, every move by kind, and the snapshots
// a viewer who does not read never saw.
func TestStats(t *testing.T) {
	e := newEnv(t)
	ps := []Player{e.player("alice"), e.player("bob")}
	if _, err := e.lobby.CreateTable(ctxT(t), ps[0], TableConfig{Name: "idle", Rules: quickRules(), Seats: 3}); err != nil {
		t.Fatal(err)
	}
	st := e.lobby.Stats()
	if st.Tables["waiting"] != 1 || st.Tables["playing"] != 0 || st.Moves["roll"] != 0 || st.MailboxDrops != 0 {
		t.Fatalf("at the start: %+v", st)
	}
	tbl := seatPlayers(t, e, "busy", quickRules(), ps...)
	subs := watchAll(t, tbl, ps)
	mustWatch(t, tbl, e.player("carol")) // never reads
	playOut(t, tbl, subs, ps, 6)
	st = e.lobby.Stats()
	if st.Tables["waiting"] != 1 || st.Tables["playing"] != 1 {
		t.Errorf("tables %v, want one waiting and one playing", st.Tables)
	}
	var moves uint64
	for _, n := range st.Moves {
		moves += n
	}
	if moves != 6 || st.Moves["roll"] == 0 {
		t.Errorf("moves %v, want 6 with a roll among them", st.Moves)
	}
	if st.MailboxDrops < 5 {
		t.Errorf("mailbox drops %d: the viewer who never read missed at least 5 snapshots", st.MailboxDrops)
	}
}
