package lobby

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestStrangersDoNotBlockSeeds: any number of strangers giving seeds
// cannot lock a seated player out: a seated player's seed is always
// taken; of the people not seated, at most as many as the table has seats
// give one; and only the seeds of those who play count.
func TestStrangersDoNotBlockSeeds(t *testing.T) {
	e := newFairEnv(t)
	ctx := ctxT(t)
	alice, bob := e.player("alice"), e.player("bob")
	tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "t1", Rules: quickRules(), Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Player{alice, bob} {
		if err := tbl.Sit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 48 {
		stranger := e.player(fmt.Sprintf("junk%d", i))
		_, err := tbl.SetSeed(ctx, stranger, fmt.Sprintf("junk%d", i))
		if want := error(nil); i >= 4 && !errors.Is(err, ErrTooManySeeds) || i < 4 && err != want {
			t.Fatalf("stranger %d gives a seed: %v", i, err)
		}
	}
	for _, p := range []Player{alice, bob} {
		if _, err := tbl.SetSeed(ctx, p, p.Name()+" seed"); err != nil {
			t.Fatalf("%s, seated, gives a seed: %v", p.Name(), err)
		}
	}
	// Seated is the person, whatever key they use: bob from a second key
	// changes the seed bob gave, and a stranger's second key is no one
	// new.
	bobLaptop := bob
	bobLaptop.Key = "SHA256:bob-laptop"
	if _, err := tbl.SetSeed(ctx, bobLaptop, "bob seed"); err != nil {
		t.Fatalf("bob, seated, from another key: %v", err)
	}
	junk0 := tbl.Info().Fair.Seeds[0]
	if _, err := tbl.SetSeed(ctx, Player{ID: junk0.ID, Key: "SHA256:junk0-laptop"}, "junk0 again"); err != nil {
		t.Fatalf("a stranger who gave a seed changes it from another key: %v", err)
	}
	seeds := tbl.Info().Fair.Seeds
	var counting []string
	for _, s := range seeds {
		if s.Seated {
			counting = append(counting, s.Name)
		}
	}
	if len(seeds) != 6 || !slices.Equal(counting, []string{"alice", "bob"}) {
		t.Fatalf("seeds given %+v, counting %q", seeds, counting)
	}
	if err := tbl.Start(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if got := tbl.Info().Fair.Seeds; len(got) != 2 {
		t.Errorf("the game's seeds: %+v, want alice's and bob's", got)
	}
	d, ok, err := e.st.NextDice(ctx, "t1")
	if err != nil || !ok || len(d.Given) != 0 {
		t.Errorf("the seeds given count for one game: %+v %v %v", d.Given, ok, err)
	}
}

// TestRestartKeepsSeedsAndChat: what players gave the server outlives a
// stop, clean or not, like everything else: the commitment shown, the
// seeds given for the next game (a restart in the middle of giving them,
// then more given after it), and the last lines of the table's chat; the
// next game is dealt from that commitment with those seeds, and a new
// commitment drawn for the one after, which a stop keeps too.
func TestRestartKeepsSeedsAndChat(t *testing.T) {
	for _, stop := range []string{"clean", "crash"} {
		t.Run(stop, func(t *testing.T) {
			e := newFairEnv(t)
			restart := e.restart
			if stop == "crash" {
				restart = e.crash
			}
			ctx := ctxT(t)
			alice, bob := e.player("alice"), e.player("bob")
			tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "kept", Rules: quickRules(), Seats: 3})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []Player{alice, bob} {
				if err := tbl.Sit(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			commitment := tbl.Info().Fair.Commitment
			if _, err := tbl.SetSeed(ctx, alice, "alice seed 1"); err != nil {
				t.Fatal(err)
			}
			var said []string
			for i := range ChatKeep + 3 {
				who := []Player{alice, bob}[i%2]
				e.clock.Advance(chatEvery)
				text := fmt.Sprintf("line %d", i)
				if err := tbl.Say(ctx, who, text); err != nil {
					t.Fatal(err)
				}
				said = append(said, text)
			}
			restart()
			tbl, err = e.lobby.Table("kept")
			if err != nil {
				t.Fatal(err)
			}
			info := tbl.Info()
			if info.Fair.Commitment != commitment {
				t.Fatalf("the commitment changed across the stop: %s, was %s", info.Fair.Commitment, commitment)
			}
			if s, ok := info.Fair.Seed(alice.ID); !ok || s != "alice seed 1" {
				t.Fatalf("alice's seed after the stop: %q %v", s, ok)
			}
			if _, err := tbl.SetSeed(ctx, bob, "bob seed"); err != nil {
				t.Fatal(err)
			}
			sub := mustWatch(t, tbl, bob)
			snap := latest(t, sub, tbl)
			var got []string
			for _, l := range snap.Chat {
				got = append(got, l.Text)
				if l.FromID == "" || l.From == "" {
					t.Errorf("a kept line lost its speaker: %+v", l)
				}
			}
			if want := said[len(said)-ChatKeep:]; !slices.Equal(got, want) {
				t.Errorf("the chat after the stop: %q, want the last %d: %q", got, ChatKeep, want)
			}
			sub.Close()
			if err := tbl.Start(ctx, alice); err != nil {
				t.Fatal(err)
			}
			playing := tbl.Info()
			if playing.Fair.Commitment != commitment || len(playing.Fair.Seeds) != 2 {
				t.Fatalf("the game's dice: %+v, want the commitment and both seeds", playing.Fair)
			}
			stored, err := e.st.Game(tbl.gameIDForTest(t))
			if err != nil || stored.Fair == nil || stored.Fair.Commitment != commitment || len(stored.Fair.PlayerSeeds) != 2 {
				t.Fatalf("the stored proof %+v, %v", stored.Fair, err)
			}
			d, ok, err := e.st.NextDice(ctx, "kept")
			if err != nil || !ok || d.Seed.Commitment() == commitment || len(d.Given) != 0 {
				t.Fatalf("the next game's dice kept with the game: %v %v, commitment %s", ok, err, d.Seed.Commitment())
			}
			next := d.Seed.Commitment()
			restart()
			tbl, err = e.lobby.Table("kept")
			if err != nil {
				t.Fatal(err)
			}
			if info := tbl.Info(); info.State != "playing" {
				t.Fatalf("the game did not resume across the stop: %s", info.State)
			}
			d, _, _ = e.st.NextDice(ctx, "kept")
			if d.Seed.Commitment() != next {
				t.Error("the next game's commitment changed across a stop during the game")
			}
		})
	}
}

// gameIDForTest is the running game's ID.
func (t *Table) gameIDForTest(tt *testing.T) string {
	var id string
	if err := t.do(ctxT(tt), func(context.Context) error { id = t.game.id; return nil }); err != nil {
		tt.Fatal(err)
	}
	return id
}

// TestChatFloodKeepsTheLine: a line the rate limit refuses comes back in
// the error, with how long until the next is taken, so that no door loses
// it; the table and the lobby chat refuse alike.
func TestChatFloodKeepsTheLine(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice := e.player("alice")
	tbl, err := e.lobby.CreateTable(ctx, alice, TableConfig{Name: "talk", Rules: quickRules(), Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, say := range []func(string) error{
		func(s string) error { return tbl.Say(ctx, alice, s) },
		func(s string) error { return e.lobby.Say(alice, s) },
	} {
		for i := range chatBurst {
			if err := say(fmt.Sprint("line ", i)); err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
		}
		err := say("one too many")
		var flood *ChatFloodError
		if !errors.As(err, &flood) || !errors.Is(err, ErrChatFlood) || flood.Text != "one too many" ||
			flood.Wait <= 0 || flood.Wait > chatEvery || err.Error() != "slow down: the next line in 2s" {
			t.Errorf("the refusal: %#v (%v)", err, err)
		}
	}
}

// TestKeptChatAndSeedsFollowRenames: the kept chat and the seeds given
// are by person, and names are looked up when shown: a rename before a
// stop shows after it, and a rename after it reaches the lines and the
// seeds that came back.
func TestKeptChatAndSeedsFollowRenames(t *testing.T) {
	for _, stop := range []string{"clean", "crash"} {
		t.Run(stop, func(t *testing.T) {
			e := newFairEnv(t)
			restart := e.restart
			if stop == "crash" {
				restart = e.crash
			}
			ctx := ctxT(t)
			alice, bob := e.player("alice"), e.player("bob")
			tbl, err := e.lobby.CreateTable(ctx, bob, TableConfig{Name: "names", Rules: quickRules(), Seats: 3})
			if err != nil {
				t.Fatal(err)
			}
			if err := tbl.Sit(ctx, alice); err != nil {
				t.Fatal(err)
			}
			if _, err := tbl.SetSeed(ctx, alice, "alice's seed"); err != nil {
				t.Fatal(err)
			}
			for _, p := range []Player{alice, bob, alice} {
				if err := tbl.Say(ctx, p, "hello from "+p.Name()); err != nil {
					t.Fatal(err)
				}
			}
			e.rename(alice, "alicia")
			restart()
			tbl, err = e.lobby.Table("names")
			if err != nil {
				t.Fatal(err)
			}
			check := func(when, want string) {
				t.Helper()
				sub := mustWatch(t, tbl, bob)
				defer sub.Close()
				snap := latest(t, sub, tbl)
				var from []string
				for _, l := range snap.Chat {
					from = append(from, l.From)
				}
				if !slices.Equal(from, []string{want, "bob", want}) {
					t.Errorf("%s: the chat's speakers %q, want %s, bob, %s", when, from, want, want)
				}
				seeds := tbl.Info().Fair.Seeds
				if len(seeds) != 1 || seeds[0].ID != alice.ID || seeds[0].Name != want || !seeds[0].Seated {
					t.Errorf("%s: the seeds given %+v, want %s's, seated", when, seeds, want)
				}
			}
			check("renamed before the stop", "alicia")
			e.rename(alice, "ali")
			check("renamed after the stop", "ali")
		})
	}
}
