package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
)

func fairProof(t *testing.T) (fair.Proof, fair.Seed) {
	t.Helper()
	seed := fair.NewSeed()
	return fair.Proof{Scheme: fair.Scheme, Commitment: seed.Commitment(), ServerSeed: seed.Reveal(),
		PlayerSeeds: []fair.PlayerSeed{{Seat: 1, Seed: "lucky 7"}}}, seed
}

// TestFairSeedKeptApart: the server seed given to CreateGame is never in a
// game read back while it runs, comes back through InProgress after a
// restart, and is revealed in the record when the game ends or is
// abandoned.
func TestFairSeedKeptApart(t *testing.T) {
	ctx := context.Background()
	for _, end := range []string{"finished", "abandoned"} {
		t.Run(end, func(t *testing.T) {
			s, _ := openTemp(t)
			proof, seed := fairProof(t)
			created, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions(), Fair: &proof})
			if err != nil {
				t.Fatal(err)
			}
			sealed := func(g Game, when string) {
				t.Helper()
				if g.Fair == nil || g.Fair.Commitment != seed.Commitment() || len(g.Fair.PlayerSeeds) != 1 {
					t.Errorf("%s: proof %+v, want the commitment and the player's seed", when, g.Fair)
				} else if g.Fair.ServerSeed != "" {
					t.Errorf("%s: the running game's seed is readable", when)
				}
			}
			sealed(created, "CreateGame")
			ev := engine.Event{Seq: 1, Type: engine.EvRound, Round: 1, Opener: 0}
			if err := s.Append(ctx, created.ID, []engine.Event{ev}, nil); err != nil {
				t.Fatal(err)
			}
			g, _, err := s.Game(ctx, created.ID)
			if err != nil {
				t.Fatal(err)
			}
			sealed(g, "Game")
			if err := s.db.View(func(tx *bolt.Tx) error {
				if v := tx.Bucket(bucketGames).Get(u64(1)); bytes.Contains(v, []byte(seed.Reveal())) {
					t.Errorf("the running game's record holds its seed: %s", v)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			games, err := s.Games(ctx, Query{})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range games {
				sealed(g, "Games")
			}

			s = reopen(t, s)
			recs, err := s.InProgress(ctx)
			if err != nil || len(recs) != 1 {
				t.Fatalf("InProgress = %d games, %v", len(recs), err)
			}
			if got := recs[0].Game.Fair; got == nil || got.ServerSeed != seed.Reveal() {
				t.Fatalf("the recovered game lost its seed: %+v", got)
			}
			if end == "finished" {
				err = s.Append(ctx, created.ID, nil, &engine.Result{Winner: 0, Standings: []int{0, 1}})
			} else {
				err = s.Abandon(ctx, created.ID, time.Now(), nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			g, _, err = s.Game(ctx, created.ID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Fair == nil || g.Fair.ServerSeed != seed.Reveal() {
				t.Fatalf("the ended game's seed is not revealed: %+v", g.Fair)
			}
			if err := g.Fair.Check(2); err != nil {
				t.Errorf("the revealed proof: %v", err)
			}
			if err := s.db.View(func(tx *bolt.Tx) error {
				if v := tx.Bucket(bucketSeeds).Get(u64(1)); v != nil {
					t.Errorf("the ended game's seed is still kept apart: %s", v)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCreateGameRefusesABadProof(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for name, spoil := range map[string]func(*fair.Proof){
		"commitment":  func(p *fair.Proof) { p.Commitment = p.Commitment[1:] + "0" },
		"no seed":     func(p *fair.Proof) { p.ServerSeed = "" },
		"scheme":      func(p *fair.Proof) { p.Scheme = "?" },
		"seat":        func(p *fair.Proof) { p.PlayerSeeds[0].Seat = 5 },
		"player seed": func(p *fair.Proof) { p.PlayerSeeds[0].Seed = "a\nb" },
	} {
		p, _ := fairProof(t)
		spoil(&p)
		if _, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions(), Fair: &p}); err == nil {
			t.Errorf("%s: a bad proof was stored", name)
		} else if errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCheckSeeds: Check finds a seed kept apart that does not belong there
// or does not match, and a fair game in progress without its seed.
func TestCheckSeeds(t *testing.T) {
	ctx := context.Background()
	other := fair.NewSeed()
	tests := []struct {
		name  string
		spoil func(tx *bolt.Tx) error // game 1 is fair and in progress
		want  string                  // in Check's error; "" for none
	}{
		{"sound", func(*bolt.Tx) error { return nil }, ""},
		{"seed lost", func(tx *bolt.Tx) error { return tx.Bucket(bucketSeeds).Delete(u64(1)) }, "has no seed"},
		{"another seed", func(tx *bolt.Tx) error {
			return tx.Bucket(bucketSeeds).Put(u64(1), []byte(other.Reveal()))
		}, "does not match its commitment"},
		{"not a seed", func(tx *bolt.Tx) error { return tx.Bucket(bucketSeeds).Put(u64(1), []byte("xyz")) }, "game 1: seed"},
		{"seed of no game", func(tx *bolt.Tx) error {
			return tx.Bucket(bucketSeeds).Put(u64(9), []byte(other.Reveal()))
		}, "unknown game 9"},
		{"bad key", func(tx *bolt.Tx) error { return tx.Bucket(bucketSeeds).Put([]byte("k"), []byte("v")) }, "bad key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			proof, _ := fairProof(t)
			if _, err := s.CreateGame(ctx, Game{Table: "t", Seats: seats(2), Rules: engine.DefaultOptions(), Fair: &proof}); err != nil {
				t.Fatal(err)
			}
			if err := s.db.Update(tt.spoil); err != nil {
				t.Fatal(err)
			}
			err := s.Check(ctx)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Check = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
