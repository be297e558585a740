package solver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mia-game/mia/engine"
)

// TestEndingsAddUp: at every decision of games of two, three and six
// players, under rules without and with a cycle (equal claims rolled
// over), each move's endings sum to 1, and the lives they say each player
// loses give the move's heads-up worth (what the other loses minus what
// the player loses): the four passes agree with the solve's own values.
func TestEndingsAddUp(t *testing.T) {
	equal := noPass()
	equal.EqualClaims = true
	for _, o := range []engine.Options{noPass(), equal} {
		for _, players := range []int{2, 3, 6} {
			t.Run(fmt.Sprintf("equal %v, %d players", o.EqualClaims, players), func(t *testing.T) {
				game := selfPlay(t, o, players, uint64(31*players), 200)
				a, err := Analyse(o, players, game)
				if err != nil {
					t.Fatal(err)
				}
				if len(a.Decisions) < 20 {
					t.Fatalf("%d decisions", len(a.Decisions))
				}
				for _, d := range a.Decisions {
					s, err := For(d.Rules)
					if err != nil {
						t.Fatal(err)
					}
					cs, err := s.Choices(d.Situation)
					if err != nil {
						t.Fatal(err)
					}
					ends, err := s.Endings(d.Situation)
					if err != nil {
						t.Fatal(err)
					}
					if len(ends) != len(cs) {
						t.Fatalf("seq %d: %d endings, %d choices", d.Seq, len(ends), len(cs))
					}
					for j, e := range ends {
						sum := e.Mine[0] + e.Mine[1] + e.Theirs[0] + e.Theirs[1]
						lives := e.Theirs[0] + 2*e.Theirs[1] - e.Mine[0] - 2*e.Mine[1]
						if math.Abs(sum-1) > 1e-4 || math.Abs(lives-cs[j].Value) > 1e-4 {
							t.Errorf("seq %d, %+v: endings %+v sum to %.6f, say %.6f lives, the move is worth %.6f",
								d.Seq, cs[j].Move, e, sum, lives, cs[j].Value)
						}
					}
				}
			})
		}
	}
}

// TestWinChance holds the embedded continuation model to what a chance
// of winning must be, over random tables of 2 to 12 alive: each in
// [0, 1], summing to 1 over the players, 0 for a player out, rising with
// a player's own lives and falling with another's.
func TestWinChance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		lives := make([]int, 2+r.IntN(engine.MaxSeats-1))
		alive := 0
		for s := range lives {
			if r.IntN(5) > 0 {
				lives[s] = 1 + r.IntN(engine.MaxLives)
				alive++
			}
		}
		sum := 0.0
		for s, l := range lives {
			p := WinChance(lives, s)
			sum += p
			if p < 0 || p > 1 || (l == 0 && p != 0) || (alive == 1 && l > 0 && p != 1) {
				t.Fatalf("lives %v: seat %d's chance %v", lives, s, p)
			}
			if l == 0 || alive < 2 {
				continue
			}
			if l < engine.MaxLives {
				lives[s]++
				more := WinChance(lives, s)
				lives[s]--
				if more <= p {
					t.Errorf("lives %v: seat %d's chance %v, with a life more %v", lives, s, p, more)
				}
			}
			o := (s + 1) % len(lives)
			if lives[o] > 0 && lives[o] < engine.MaxLives {
				lives[o]++
				less := WinChance(lives, s)
				lives[o]--
				if less >= p {
					t.Errorf("lives %v: seat %d's chance %v, with seat %d a life more %v", lives, s, p, o, less)
				}
			}
		}
		if alive > 0 && math.Abs(sum-1) > 1e-9 {
			t.Fatalf("lives %v: chances sum to %v", lives, sum)
		}
	}
}

// TestFitStrengths: states drawn from a known model (winners drawn by
// its chances) are fitted back to it within 10% where states are many,
// and the fit does not depend on the samples' order.
func TestFitStrengths(t *testing.T) {
	var want Strengths
	for n := 2; n <= MaxAlive; n++ {
		for l := 1; l <= MaxLivesModelled; l++ {
			want[n][l] = math.Pow(float64(l), 1.5+float64(n)/10)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var samples []Sample
	for range 60000 {
		n := 3 + r.IntN(2)
		s := Sample{Lives: make([]int, n)}
		for i := range s.Lives {
			s.Lives[i] = 1 + r.IntN(4)
		}
		u := r.Float64()
		for i := range s.Lives {
			u -= want.WinChance(s.Lives, i)
			if u < 0 || i == n-1 {
				s.Winner = i
				break
			}
		}
		samples = append(samples, s)
	}
	got := FitStrengths(samples)
	for n := 3; n <= 4; n++ {
		for l := 1; l <= 4; l++ {
			if math.Abs(got[n][l]/want[n][l]-1) > 0.1 {
				t.Errorf("[%d][%d]: fitted %.3f, drawn from %.3f", n, l, got[n][l], want[n][l])
			}
		}
	}
	r.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	if again := FitStrengths(samples); again != got {
		t.Errorf("the fit depends on the samples' order")
	}
}

// TestTableWeighsWhoseLife: at a table of three, seat 1 faces seat 0's
// opening claim of 53 (close to even heads-up: lift or roll on). The
// same round (the caps the same) is judged by the win chance
// (ByWinChance) by whose lives are at stake:
// lifting the cup risks the claimant's, rolling on the next player's.
// With the claimant the strongest rival, lifting is worth more against
// rolling than with the next player the strongest; the lowest claim's
// challenge, which always loses, is worth exactly a life of one's own.
func TestTableWeighsWhoseLife(t *testing.T) {
	o := noPass()
	round := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Looked: true}, {Type: engine.EvClaim, Seat: 0, Value: 53}}
	edge := func(lives []int) (lift, roll float64) {
		sit, err := Read(o, lives, round, 1)
		if err != nil {
			t.Fatal(err)
		}
		s, err := For(sit.Rules)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Choices(sit.ByWinChance())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			switch {
			case c.Move.Kind == MoveChallenge:
				lift = c.Value
			case c.Move.Kind == MoveRoll && c.Move.Look:
				roll = c.Value
			}
		}
		return lift, roll
	}
	sl, sr := edge([]int{6, 4, 2}) // the claimant strong, the next player weak
	wl, wr := edge([]int{2, 4, 6}) // the other way round
	t.Logf("claimant 6, next 2: lift %.3f, roll %.3f; claimant 2, next 6: lift %.3f, roll %.3f", sl, sr, wl, wr)
	if sl-sr <= wl-wr {
		t.Errorf("lifting against rolling: %.3f with the claimant strong, %.3f with the next player strong", sl-sr, wl-wr)
	}
	claims := o.Ranking.Claims()
	low := []engine.Event{{Type: engine.EvRound, Round: 1, Opener: 0},
		{Type: engine.EvRoll, Seat: 0, Looked: true}, {Type: engine.EvClaim, Seat: 0, Value: claims[len(claims)-1]}}
	for _, lives := range [][]int{{6, 4, 2}, {1, 1, 1}, {3, 1, 5, 2, 6}} {
		sit, err := Read(o, lives, low, 1)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := For(sit.Rules)
		j, err := s.Judge(sit.ByWinChance(), engine.Action{Kind: engine.Challenge, Seat: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v := j.Choices[j.Chosen].Value; math.Abs(v+1) > 1e-9 || j.Mark != Blunder {
			t.Errorf("lives %v: the lowest claim's challenge is worth %v, marked %q", lives, v, j.Mark)
		}
	}
}
