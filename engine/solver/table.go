package solver

import "slices"

// ByWinChance judges a decision at a table of three or more alive
// (last-standing) on the heads-up round between the player and their
// opponent in the model (Read), both playing its solved strategy, but a
// move is worth what it does to the player's chance of winning the game:
// each way the round can end after it (Endings: who of the two loses, one
// life or two) weighted by the player's win chance after it (WinChance,
// the continuation model). The other of the two is the claimant when the
// move lifts the cup (or gives up), and the next living player when it
// hands the cup on: at a table, they face it, not the claimant. The
// chance is said in lives of the player's own, what one more lost would
// cost them now, so that the marks' thresholds read as they do heads-up.
// The verdicts shown do not judge this way (README.md says why).

// atTable writes into cs each move's worth at the table decision sit:
// the change to the seat's win chance its endings make, in lives of the
// seat's own.
func atTable(sit Situation, ends []Ending, cs []Choice) {
	lives := slices.Clone(sit.table)
	now := WinChance(lives, sit.seat)
	after := func(seat, n int) float64 {
		was := lives[seat]
		lives[seat] = max(0, was-n)
		w := WinChance(lives, sit.seat)
		lives[seat] = was
		return w
	}
	unit := now - after(sit.seat, 1)
	if unit <= 0 {
		return // no life of theirs counts: the heads-up worth stands
	}
	// The other player of an ending: the claimant, on a move that lifts
	// the cup or gives up; on a move that hands the cup on, the next
	// player, who faces it at the table (in the model, the claimant).
	var mine, claimant, next [2]float64
	for n := 1; n <= 2; n++ {
		mine[n-1] = (after(sit.seat, n) - now) / unit
		claimant[n-1] = (after(sit.other, n) - now) / unit
		next[n-1] = (after(sit.next, n) - now) / unit
	}
	for j, e := range ends {
		theirs := &next
		if k := cs[j].Move.Kind; k == MoveChallenge || k == MoveGiveUp || k == MoveLowClaim {
			theirs = &claimant
		}
		v := 0.0
		for l := range 2 {
			v += e.Mine[l]*mine[l] + e.Theirs[l]*theirs[l]
		}
		cs[j].Value = v
	}
}
