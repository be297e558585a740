package words

import (
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
)

// TestAloud: each event as one sentence, the round as a heading, you in
// capital and names as they are.
func TestAloud(t *testing.T) {
	n := Narrator{Names: []string{"alice", "bob [bot]"}, You: 0, Ranking: engine.Classic, Turn: 1}
	evs := []engine.Event{
		{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Dice: 43, Looked: true},
		{Type: engine.EvClaim, Seat: 0, Value: 43},
		{Type: engine.EvRoll, Seat: 1},
		{Type: engine.EvEnd, Winner: 0},
	}
	want := []string{"Round 1: you open.", "You rolled 43.", "You announced 43 to bob [bot].", "bob [bot] rolled without looking.", "You win the game!"}
	for i, w := range want {
		if got := n.Aloud(evs, i); got != w {
			t.Errorf("Aloud(%d) = %q, want %q", i, got, w)
		}
	}
	// A name that begins with you is a name, as it is.
	young := Narrator{Names: []string{"alice", "young"}, You: 0, Ranking: engine.Classic, Turn: 1}
	if got := young.Aloud(evs, 3); got != "young rolled without looking." {
		t.Errorf("Aloud of young's roll = %q", got)
	}
}

// TestSaidAloud: the sentences around the events.
func TestSaidAloud(t *testing.T) {
	n := Narrator{Names: []string{"alice", "bob", "carol"}, You: 1, Ranking: engine.Pips, Turn: 1}
	v := engine.View{Round: 3, Turn: 1, Phase: engine.PhaseRespond, Claim: 63, Claimant: 0}
	for _, c := range []struct{ got, want string }{
		{n.YourTurn("alice announced 9 pips to you.", v), "Your turn: alice announced 9 pips to you."},
		{n.YourTurn("You rolled 62.", v), "Your turn: you rolled 62."},
		{n.YourTurn("Youri passed 62 to you.", v), "Your turn: Youri passed 62 to you."},
		{n.YourTurn("", v), "Your turn. Claim: 9 pips by alice."},
		{n.YourTurn("Round 2: you open.", v), "Your turn. Round 2: you open."},
		{TimeLeft(10 * time.Second), "10 seconds left."},
		{TimeLeft(1200 * time.Millisecond), "1 second left."},
		{strings.Join(n.Seats([]int{2, 1, 0}, []bool{true, false, false}), "; "), "alice, 2 lives, away; you, 1 life, your turn; carol, out"},
		{n.Where("12", v), "Game 12, round 3. Claim: 9 pips by alice. Your turn."},
		{Narrator{Names: n.Names, You: -1, Ranking: engine.Classic, Turn: 2}.Where("4", engine.View{Round: 1, Turn: 2, Claim: engine.NoValue, Claimant: -1}),
			"Game 4, round 1. No claim yet. carol's turn."},
		{n.GameStarts("7", 3), "Game 7 starts: alice, you and carol, 3 lives each."},
		{Standings([]string{"bob", "ada [bot]"}), "Standings: 1 bob, 2 ada [bot]."},
		{TableSays("club", "ann", 2, 4, "waiting", true, engine.DefaultOptions()),
			"club, hosted by ann: 2 of 4 seats taken, waiting, private; classic, 6 lives, 60s a turn."},
		{Beaten(engine.Classic, 64), "64, beaten 28% of the time"},
		{Beaten(engine.Pips, 63), "9 pips, beaten 33% of the time"},
		{BackAt("club", 1), "You are back at club, in your game: you have 1 life."},
		{Sentence("you win the game!"), "you win the game!"},
		{Sentence(" bob rolled "), "bob rolled."},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
