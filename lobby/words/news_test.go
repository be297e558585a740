package words

import (
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/rating"
)

func TestNewsWords(t *testing.T) {
	nov := rating.Monthly.Of(time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC))
	for _, tc := range []struct{ got, want string }{
		{TableOpened("alice", "den", 4, engine.DefaultOptions()), "alice opened the table den: 4 seats; " + RulesSummary(engine.DefaultOptions()) + "."},
		{TableWaiting("den", 2, 4), "den waits for players: 2 of 4 seats taken."},
		{GameStarted("den", "42", []string{"alice", "bob", "ada [bot]"}), "Game 42 started at den: alice, bob and ada [bot]."},
		{GameEnded("den", "42", "bob"), "bob won game 42 at den."},
		{Standing(1, "bob", 2, 1), "1. bob — bluffed twice, caught once"},
		{Standing(2, "alice", 0, 0), "2. alice — no bluff"},
		{Standing(3, "ada [bot]", 3, 0), "3. ada [bot] — bluffed 3 times"},
		{SeasonEnded(nov, "alice", "1412"), "The season November 2026 ended: alice is its champion, at 1412."},
		{SeasonEnded(nov, "", ""), "The season November 2026 ended, with no rated game."},
		{YourGameStarted("den", false), "Your game at den has started"},
		{YourGameStarted("den", true), "Your game at den has started, and it is your turn"},
		{YourTurn("den", 41*time.Second+time.Millisecond), "Your turn at den · 42s left"},
		{YourTurn("den", 0), "Your turn at den"},
		{InvitedYou("alice", "den"), "alice invites you to den"},
		{SeatFree("den", 3, 4), "A seat is free at den: 3 of 4 taken"},
		{HookPaused("den", "chat.example.org"), "The webhook of den to chat.example.org failed for an hour and is paused"},
		{HookPaused("", "ntfy.sh"), "The server's webhook to ntfy.sh failed for an hour and is paused"},
		{HookTest("den"), "A test delivery from mia, for the table den."},
		{InvitedYou("al\x1b[2Jice", "den"), "alice invites you to den"}, // escapes cleaned
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
