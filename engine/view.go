package engine

// Spectator is the seat number of a viewer who is not playing.
const Spectator = -1

// View is what one seat may know of a game now, and what it may do.
type View struct {
	Seat      int // the viewer, or Spectator
	Options   Options
	Lives     []int
	Round     int
	Turn      int
	Phase     Phase
	Claim     Value // the claim on the table, NoValue if none
	Claimant  int   // who answers for it, -1 if none
	Roller    int   // who rolled the dice in the cup, -1 if none
	Dice      Value // the dice in the cup if the viewer rolled and looked at them
	Winner    int   // -1 until the game is over
	Standings []int // once the game is over
	Legal     []ActionKind
	Claims    []Value // the values a Claim may announce now and stand by, lowest first (see Ranking.Claims)
	// LowClaims are the values a Claim may also announce now under
	// low-claim loses, lowest first: they are not higher than the claim,
	// and cost the announcer a life at once.
	LowClaims []Value
	Passes    []Value // the values a Pass may announce now (the first is the claim itself when allowed)
	// MiaComesBack: passing a Mia is allowed (mia-pass) and the claim is a
	// Mia announced by the roller of the dice in the cup, so that if every
	// other player passes it on it comes back to the roller. With MyTurn
	// and Roller == Seat, it is back.
	MiaComesBack bool
}

// MyTurn reports whether the viewer must act now.
func (v View) MyTurn() bool { return v.Seat == v.Turn && v.Phase != PhaseOver }

// Can reports whether the viewer may take an action of kind k now.
func (v View) Can(k ActionKind) bool {
	for _, l := range v.Legal {
		if l == k {
			return true
		}
	}
	return false
}

// CanPassOn reports whether the viewer may pass the claim on unchanged.
func (v View) CanPassOn() bool { return len(v.Passes) > 0 && v.Passes[0] == v.Claim }

// CanRaise reports whether the viewer may pass a value above the claim
// (a blind raise): never above a Mia, which only passes on unchanged.
func (v View) CanRaise() bool { return len(v.Passes) > 0 && v.Passes[len(v.Passes)-1] != v.Claim }

// ChallengeCosts reports whether a challenge now would lose its
// challenger a life at once: nothing is claimed yet, and a challenge of
// nothing is a low claim (low-claim loses).
func (v View) ChallengeCosts() bool { return v.Claim == NoValue && v.Can(Challenge) }

// View returns what seat may see (Spectator for a watcher).
func (g *Game) View(seat int) View {
	v := View{
		Seat: seat, Options: g.opts, Lives: append([]int(nil), g.lives...),
		Round: g.round, Turn: g.turn, Phase: g.phase, Claim: g.claim, Claimant: g.claimant,
		Roller: g.roller, Winner: g.winner, Standings: g.Standings(),
		MiaComesBack: g.claim == Mia && g.miaOwn && g.opts.MiaPass != MiaPassOff,
	}
	if seat >= 0 && seat == g.roller && g.looked {
		v.Dice = g.dice
	}
	if seat < 0 || seat >= len(g.lives) || g.phase == PhaseOver || g.lives[seat] == 0 {
		return v
	}
	if seat != g.turn { // a living seat waiting for its turn may only leave
		v.Legal = []ActionKind{Leave}
		return v
	}
	var legal [Leave]ActionKind
	n := 0
	for k := Roll; k <= Leave; k++ {
		if k == Claim || k == Pass {
			continue
		}
		if g.check(Action{Kind: k, Seat: seat}) == nil {
			legal[n] = k
			n++
		}
	}
	if g.phase == PhaseAnnounce {
		rk := g.opts.Ranking
		switch {
		case g.claim == NoValue:
			v.Claims = rk.Above(NoValue)
		case g.opts.EqualClaims:
			v.Claims = rk.AtLeast(g.claim)
		default:
			v.Claims = rk.Above(g.claim)
		}
		if g.claim != NoValue && g.opts.LowClaim == LowClaimLoses {
			all := rk.Above(NoValue)
			v.LowClaims = all[: len(all)-len(v.Claims) : len(all)-len(v.Claims)]
		}
		legal[n] = Claim
		n++
	}
	if g.phase == PhaseRespond && g.opts.Pass && (g.claim != Mia || g.opts.MiaPass != MiaPassOff) {
		// Every value above the claim, and first the claim itself unless
		// the seat rolled the dice in the cup.
		same := g.check(Action{Kind: Pass, Seat: seat, Value: g.claim}) == nil
		v.Passes = g.opts.Ranking.from(g.claim, same)
	}
	if len(v.Passes) > 0 {
		legal[n] = Pass
		n++
	}
	if n > 0 {
		v.Legal = append([]ActionKind(nil), legal[:n]...)
	}
	return v
}
