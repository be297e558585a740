package fair

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
)

// vectorSeed is the server seed of the fixed vectors: the bytes 0 to 31.
func vectorSeed() Seed {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// The vectors below were computed with the README's few lines of Python
// (hmac, hashlib), not with this package.
func TestVectors(t *testing.T) {
	seed := vectorSeed()
	if got, want := seed.Commitment(), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"; got != want {
		t.Fatalf("commitment %s, want %s", got, want)
	}
	fps := []string{"SHA256:aaa", "SHA256:bbb", "bot:easy:Ada", "SHA256:ccc"}
	tests := []struct {
		name    string
		seeds   []string
		rolls   [][2]int // rolls 1 to 10
		draw0   []int    // draw 0 in [0, m) for m = 2..12
		seating []int
	}{
		{
			name:    "no player seeds",
			rolls:   [][2]int{{2, 4}, {6, 3}, {5, 5}, {5, 6}, {5, 3}, {5, 4}, {5, 2}, {2, 4}, {2, 5}, {4, 3}},
			draw0:   []int{0, 1, 2, 1, 4, 5, 6, 4, 6, 1, 10},
			seating: []int{1, 2, 3, 0},
		},
		{
			name:    "three player seeds, in any order",
			seeds:   []string{"Zoë", "lucky 7", "42"},
			rolls:   [][2]int{{4, 5}, {5, 5}, {6, 6}, {1, 1}, {6, 5}, {2, 5}, {2, 3}, {2, 5}, {6, 2}, {2, 1}},
			draw0:   []int{1, 0, 1, 0, 3, 4, 5, 3, 5, 0, 9},
			seating: []int{2, 1, 0, 3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewStream(seed, tc.seeds)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.rolls {
				if a, b := s.Roll(i + 1); [2]int{a, b} != want {
					t.Errorf("roll %d = %d,%d, want %v", i+1, a, b, want)
				}
			}
			for i, want := range tc.draw0 {
				if got := s.Draw(0, i+2); got != want {
					t.Errorf("draw 0 of %d = %d, want %d", i+2, got, want)
				}
			}
			if got := s.Seating(fps); !slices.Equal(got, tc.seating) {
				t.Errorf("seating %v, want %v", got, tc.seating)
			}
		})
	}
}

// Rolls whose first bytes are skipped (>= 252), and a pick long enough to
// need a second block, against the same Python.
func TestVectorsRejection(t *testing.T) {
	s, err := NewStream(vectorSeed(), []string{"lucky 7", "Zoë", "42"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int
		want [2]int
	}{{27, [2]int{3, 4}}, {65, [2]int{5, 3}}, {214, [2]int{4, 1}}, {225, [2]int{6, 1}}, {384, [2]int{3, 3}}} {
		if a, b := s.Roll(tc.n); [2]int{a, b} != tc.want {
			t.Errorf("roll %d = %d,%d, want %v", tc.n, a, b, tc.want)
		}
	}
	want := []int{3, 4, 3, 1, 5, 2, 2, 1, 4, 5, 0, 1, 2, 2, 0, 1, 1, 2, 5, 2, 0, 0, 1, 5, 3, 1, 2, 2, 3, 2, 1, 1, 3, 0, 3, 3, 4, 2, 0, 3}
	if got := s.pick("roll", 1, 6, 40); !slices.Equal(got, want) {
		t.Errorf("40 picks %v\nwant %v", got, want)
	}
}

// uniformRolls is how many rolls TestUniform derives: a fifth of CI's run
// by default, which .ci/run makes in full (-uniform-rolls 1000000,
// without the race detector).
var uniformRolls = flag.Int("uniform-rolls", 200_000, "how many rolls TestUniform derives")

// TestUniform: derived rolls (a million in CI) fall evenly on the 36
// ordered pairs of dice (chi-square, 35 degrees of freedom, 66.6 is
// p = 0.001), and 100,000 draws of an opener evenly on the seats. The seed
// is fixed, so the test cannot flake.
func TestUniform(t *testing.T) {
	s, err := NewStream(vectorSeed(), []string{"chi"})
	if err != nil {
		t.Fatal(err)
	}
	n := *uniformRolls
	var cells [36]int
	for i := 1; i <= n; i++ {
		a, b := s.Roll(i)
		cells[(a-1)*6+b-1]++
	}
	if x := chiSquare(cells[:], n); x > 66.6 {
		t.Errorf("rolls: chi-square %.1f over 35 df, cells %v", x, cells)
	} else {
		t.Logf("rolls: chi-square %.1f over 35 df", x)
	}
	const draws = 100_000
	var seats [7]int // bound 7 skips 4 of 256 bytes
	for k := range draws {
		seats[s.Draw(k, 7)]++
	}
	if x := chiSquare(seats[:], draws); x > 22.5 { // 6 df, p = 0.001
		t.Errorf("draws: chi-square %.1f over 6 df, cells %v", x, seats)
	}
}

func chiSquare(cells []int, n int) float64 {
	exp := float64(n) / float64(len(cells))
	x := 0.0
	for _, c := range cells {
		d := float64(c) - exp
		x += d * d / exp
	}
	return x
}

func TestCheckPlayerSeed(t *testing.T) {
	for _, tc := range []struct {
		seed string
		ok   bool
	}{
		{"lucky 7", true},
		{"Zoë 🎲", true},
		{strings.Repeat("x", MaxSeedRunes), true},
		{strings.Repeat("é", MaxSeedRunes), true},
		{"", false},
		{strings.Repeat("x", MaxSeedRunes+1), false},
		{"two\nlines", false},
		{"esc\x1b[31m", false},
		{"bidi\u202e", false},
		{"bad\xffutf8", false},
	} {
		if err := CheckPlayerSeed(tc.seed); (err == nil) != tc.ok {
			t.Errorf("CheckPlayerSeed(%q) = %v, want ok %v", tc.seed, err, tc.ok)
		}
	}
	if _, err := NewStream(vectorSeed(), []string{"fine", "bad\n"}); !errors.Is(err, ErrBadPlayerSeed) {
		t.Errorf("NewStream with a bad seed: %v", err)
	}
	// Too long is refused with the limit, a kind of its own.
	long := strings.Repeat("x", MaxSeedRunes+1)
	if err := CheckPlayerSeed(long); !errors.Is(err, ErrSeedTooLong) || !errors.Is(err, ErrBadPlayerSeed) ||
		!strings.Contains(err.Error(), "64") {
		t.Errorf("CheckPlayerSeed of %d runes: %v", len(long), err)
	}
}

func TestSeedDoesNotPrint(t *testing.T) {
	seed := NewSeed()
	secret := seed.Reveal()
	type holder struct{ S Seed }
	for _, s := range []string{
		fmt.Sprint(seed), fmt.Sprintf("%v %+v %#v %s", seed, seed, seed, seed),
		fmt.Sprintf("%v %+v %#v", holder{seed}, holder{seed}, holder{seed}),
	} {
		if strings.Contains(s, secret) || strings.Contains(s, secret[:8]) {
			t.Errorf("the seed printed: %s", s)
		}
	}
	back, err := ParseSeed(secret)
	if err != nil || back != seed {
		t.Errorf("ParseSeed(Reveal()) = %v, %v", back.Reveal(), err)
	}
	for _, bad := range []string{"", secret[:62], secret + "00", strings.Repeat("zz", 32)} {
		if _, err := ParseSeed(bad); !errors.Is(err, ErrBadSeed) {
			t.Errorf("ParseSeed(%q) = %v", bad, err)
		}
	}
	if p := (Proof{Scheme: Scheme, ServerSeed: secret}).Sealed(); p.ServerSeed != "" {
		t.Errorf("Sealed kept the seed")
	}
	for _, p := range []Proof{{Commitment: "c"}, {Commitment: "c", PlayerSeeds: []PlayerSeed{}}} {
		b, err := json.Marshal(p)
		if want := `{"scheme":"","commitment":"c","player_seeds":[]}`; err != nil || string(b) != want {
			t.Errorf("JSON %s %v, want %s", b, err, want)
		}
	}
}

// game is one finished game as a server keeps it.
type game struct {
	opts   engine.Options
	fps    []string // in seat order
	events []engine.Event
	proof  Proof
	ending engine.EventType // the event that ended it
}

// playGame plays a random game the way the lobby does: seating and opener
// and every roll from the stream, random legal moves chosen by r.
func playGame(t *testing.T, r *rand.Rand, opts engine.Options) game {
	t.Helper()
	var seed Seed // from r: the same games every run
	for i := range seed {
		seed[i] = byte(r.IntN(256))
	}
	n := engine.MinSeats + r.IntN(engine.MaxSeats-engine.MinSeats+1)
	joined := make([]string, n)
	var given []string
	for i := range joined {
		joined[i] = fmt.Sprintf("SHA256:player%d-%d", i, r.IntN(1000))
		if r.IntN(2) == 0 {
			given = append(given, fmt.Sprintf("seed of %d", i))
		}
	}
	s, err := NewStream(seed, given)
	if err != nil {
		t.Fatal(err)
	}
	fps := make([]string, n)
	for i, j := range s.Seating(joined) {
		fps[i] = joined[j]
	}
	proof := Proof{Scheme: Scheme, Commitment: seed.Commitment(), ServerSeed: seed.Reveal()}
	for i, g := range given {
		proof.PlayerSeeds = append(proof.PlayerSeeds, PlayerSeed{Seat: (i * 7) % n, Seed: g})
	}
	proof.PlayerSeeds = dedupSeats(proof.PlayerSeeds)
	if len(proof.PlayerSeeds) != len(given) { // seats collided: give the rest seats in order
		proof.PlayerSeeds = proof.PlayerSeeds[:0]
		for i, g := range given {
			proof.PlayerSeeds = append(proof.PlayerSeeds, PlayerSeed{Seat: i, Seed: g})
		}
	}
	g, evs, err := engine.New(opts, n, s)
	if err != nil {
		t.Fatal(err)
	}
	for steps := 0; !g.Over(); steps++ {
		if steps > 100_000 {
			t.Fatal("no end")
		}
		got, err := g.Apply(randomMove(r, g))
		if err != nil {
			continue
		}
		evs = append(evs, got...)
	}
	return game{opts: opts, fps: fps, events: evs, proof: proof, ending: lastLoss(evs)}
}

// lastLoss is the type of the last event that cost a life.
func lastLoss(evs []engine.Event) engine.EventType {
	for i := len(evs) - 1; i >= 0; i-- {
		switch t := evs[i].Type; t {
		case engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLeave,
			engine.EvReveal, engine.EvLowClaim, engine.EvMiaBack:
			return t
		}
	}
	return ""
}

func dedupSeats(ps []PlayerSeed) []PlayerSeed {
	seen := map[int]bool{}
	out := ps[:0]
	for _, p := range ps {
		if !seen[p.Seat] {
			seen[p.Seat] = true
			out = append(out, p)
		}
	}
	return out
}

// randomMove is a move that is often legal: the turn's seat acting, now
// and then someone leaving or the clock running out.
func randomMove(r *rand.Rand, g *engine.Game) engine.Action {
	turn := g.Turn()
	x := r.IntN(200)
	switch {
	case x < 1:
		return engine.Action{Kind: engine.Leave, Seat: r.IntN(g.Players())}
	case x < 4:
		return engine.Action{Kind: engine.Timeout, Seat: turn}
	}
	vals := engine.AllValues()
	switch g.Phase() {
	case engine.PhaseOpen:
		return engine.Action{Kind: engine.Roll, Seat: turn, Look: r.IntN(8) != 0}
	case engine.PhaseAnnounce:
		return engine.Action{Kind: engine.Claim, Seat: turn, Value: vals[r.IntN(len(vals))]}
	}
	kinds := []engine.ActionKind{engine.Roll, engine.Pass, engine.Pass, engine.Challenge, engine.Challenge, engine.GiveUp}
	a := engine.Action{Kind: kinds[r.IntN(len(kinds))], Seat: turn, Look: true}
	if a.Kind == engine.Pass && r.IntN(3) == 0 {
		a.Value = vals[r.IntN(len(vals))]
	}
	return a
}

// randomOptions is a random legal rule set.
func randomOptions(r *rand.Rand) engine.Options {
	for {
		if o := anyOptions(r); o.Validate() == nil {
			return o
		}
	}
}

// anyOptions is a random rule set, legal or not.
func anyOptions(r *rand.Rand) engine.Options {
	o := engine.DefaultOptions()
	o.Ranking = engine.Rankings[r.IntN(len(engine.Rankings))]
	o.Lives = engine.MinLives + r.IntN(4)
	o.Pass = r.IntN(3) != 0
	o.EqualClaims = !o.Pass && r.IntN(2) == 0
	o.MiaPenalty = 1 + r.IntN(2)
	o.MiaPenaltyBoth = r.IntN(2) == 0
	o.NextOpener = []engine.NextOpener{engine.AfterLoser, engine.Loser, engine.BeforeLoser}[r.IntN(3)]
	o.MiaPass = []engine.MiaPass{engine.MiaPassOff, engine.MiaPassReroll, engine.MiaPassWins}[r.IntN(3)]
	o.MiaReveal = []engine.MiaReveal{engine.MiaRevealChallenge, engine.MiaRevealAtOnce}[r.IntN(2)]
	o.LowClaim = []engine.LowClaim{engine.LowClaimRefused, engine.LowClaimLoses}[r.IntN(2)]
	o.End = []engine.End{engine.LastStanding, engine.FirstOut}[r.IntN(2)]
	return o
}

// TestVerifyEveryEnding: random games under random rule sets (every
// option), ending by a challenge, giving up, a timeout, leaving, a Mia
// revealed at once and a low claim, under both ends, all verify and their
// roll count is every roll of the game.
func TestVerifyEveryEnding(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2026))
	seen := map[string]int{}
	for i := range 600 {
		g := playGame(t, r, randomOptions(r))
		rolls, err := Verify(g.proof, g.opts, g.fps, g.events)
		if err != nil {
			t.Fatalf("game %d (%+v): %v", i, g.opts, err)
		}
		want := 0
		for _, e := range g.events {
			if e.Type == engine.EvRoll {
				want++
			}
		}
		if rolls != want {
			t.Fatalf("game %d: %d rolls checked, the game has %d", i, rolls, want)
		}
		seen[string(g.ending)+" "+string(g.opts.End)]++
	}
	t.Logf("games by how they ended: %v", seen)
	for _, end := range []engine.End{engine.LastStanding, engine.FirstOut} {
		for _, how := range []engine.EventType{engine.EvChallenge, engine.EvGiveUp, engine.EvTimeout, engine.EvLeave,
			engine.EvReveal, engine.EvLowClaim} {
			if seen[string(how)+" "+string(end)] == 0 {
				t.Errorf("no game ended by %s under %s: %v", how, end, seen)
			}
		}
	}
}

// TestVerifyTampered: any change to a die, a seed, the commitment, the
// seating or the opener is reported, at the first place it shows.
func TestVerifyTampered(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var g game
	for g.proof.PlayerSeeds == nil || len(g.events) < 30 {
		g = playGame(t, r, engine.DefaultOptions())
	}
	other := NewSeed()
	thirdRoll := 0
	for i, n := 0, 0; i < len(g.events); i++ {
		if g.events[i].Type == engine.EvRoll {
			if n++; n == 3 {
				thirdRoll = i
				break
			}
		}
	}
	tests := []struct {
		name   string
		tamper func(*game)
		what   string // the Mismatch's What, or "" for another error
		err    error
	}{
		{"a die", func(g *game) {
			e := &g.events[thirdRoll]
			hi, lo := e.Dice.Dice()
			e.Dice = engine.FromDice(hi%6+1, lo)
		}, "roll 3", nil},
		{"the server seed", func(g *game) { g.proof.ServerSeed = other.Reveal() }, "commitment", nil},
		{"the seed and its commitment", func(g *game) {
			g.proof.ServerSeed, g.proof.Commitment = other.Reveal(), other.Commitment()
		}, "*", nil},
		{"the commitment", func(g *game) { g.proof.Commitment = strings.Repeat("0", 64) }, "commitment", nil},
		{"a player's seed", func(g *game) { g.proof.PlayerSeeds[0].Seed += "!" }, "*", nil},
		{"a player's seed left out", func(g *game) { g.proof.PlayerSeeds = g.proof.PlayerSeeds[1:] }, "*", nil},
		{"the seating", func(g *game) { g.fps[0], g.fps[1] = g.fps[1], g.fps[0] }, "seating", nil},
		{"the opener", func(g *game) { g.events[0].Opener = (g.events[0].Opener + 1) % len(g.fps) }, "opener", nil},
		{"not revealed", func(g *game) { g.proof.ServerSeed = "" }, "", ErrNotRevealed},
		{"a bad seed", func(g *game) { g.proof.ServerSeed = "xyz" }, "", ErrBadSeed},
		{"another scheme", func(g *game) { g.proof.Scheme = "v0" }, "", ErrBadScheme},
		{"a seed on no seat", func(g *game) { g.proof.PlayerSeeds[0].Seat = len(g.fps) }, "", ErrBadPlayerSeed},
		{"an event out of the rules", func(g *game) { g.events[len(g.events)-1].Winner++ }, "", engine.ErrBadEvent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := game{opts: g.opts, fps: slices.Clone(g.fps), events: slices.Clone(g.events), proof: g.proof}
			c.proof.PlayerSeeds = slices.Clone(g.proof.PlayerSeeds)
			tc.tamper(&c)
			_, err := Verify(c.proof, c.opts, c.fps, c.events)
			var m *Mismatch
			switch {
			case tc.what == "" && !errors.Is(err, tc.err):
				t.Errorf("got %v, want %v", err, tc.err)
			case tc.what != "" && !errors.As(err, &m):
				t.Errorf("got %v, want a mismatch", err)
			case tc.what != "" && tc.what != "*" && m.What != tc.what:
				t.Errorf("got %v, want a mismatch of %s", err, tc.what)
			}
		})
	}
	if _, err := Verify(g.proof, g.opts, g.fps, g.events); err != nil {
		t.Fatalf("the untampered game: %v", err)
	}
}

// TestResumeSameStream: a game rebuilt from its events mid-game (as after
// a restart) with a new Stream of the same seeds rolls what the first
// would have.
func TestResumeSameStream(t *testing.T) {
	seed := vectorSeed()
	seeds := []string{"a", "b"}
	for cut := 1; cut < 40; cut += 3 {
		s1, _ := NewStream(seed, seeds)
		g, evs, err := engine.New(engine.DefaultOptions(), 3, s1)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(cut), 1))
		for len(evs) < cut && !g.Over() {
			if got, err := g.Apply(randomMove(r, g)); err == nil {
				evs = append(evs, got...)
			}
		}
		s2, _ := NewStream(seed, seeds)
		back, err := engine.Replay(engine.DefaultOptions(), 3, evs, s2)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200 && !g.Over(); i++ {
			a := randomMove(r, g)
			e1, err1 := g.Apply(a)
			e2, err2 := back.Apply(a)
			if (err1 == nil) != (err2 == nil) || fmt.Sprint(e1) != fmt.Sprint(e2) {
				t.Fatalf("cut %d: the original gave %v %v, the resumed game %v %v", cut, e1, err1, e2, err2)
			}
		}
	}
}

// BenchmarkRoll is the cost of deriving one roll (one HMAC-SHA256 almost
// always).
func BenchmarkRoll(b *testing.B) {
	s, err := NewStream(vectorSeed(), []string{"lucky 7", "42"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		s.Roll(i + 1)
	}
}
