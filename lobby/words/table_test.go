package words

import (
	"testing"
	"time"
)

func TestTableStateWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Paused(""), "the server's storage is not answering: moves wait"},
		{Paused(Stalled), "the server's storage is not answering: moves wait"},
		{Paused("the server's disk is full"), "the server's disk is full: moves wait"},
		{PausedLine(Stalled), "the table is paused: the server's storage is not answering, and moves wait until it does"},
		{PausedLine("the server's disk is full"), "the table is paused: the server's disk is full, and moves wait until it saves again"},
		{TableState("playing", true, false), "paused"},
		{TableState("waiting", false, true), "resting"},
		{TableState("waiting", false, false), "waiting"},
		{RestingLine(10 * time.Minute), "nobody has had this table of bots open for 10 minutes: it rests after this game, until someone opens it"},
		{RestingLine(time.Minute), "nobody has had this table of bots open for a minute: it rests after this game, until someone opens it"},
		{RestingLine(2 * time.Hour), "nobody has had this table of bots open for 2 hours: it rests after this game, until someone opens it"},
		{RestingLine(90 * time.Second), "nobody has had this table of bots open for 1m30s: it rests after this game, until someone opens it"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
