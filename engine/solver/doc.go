// Package solver solves the round of heads-up Mia: the round as an
// extensive-form game under every rule set that changes a round (All),
// each player deciding on what they know (the claims, the dice they saw,
// whether the cup was rolled blind or passed), solved to an
// exploitability below Target (0.001 lives per round) measured exactly
// by best responses in the model. On the strategy it judges moves
// (Read, Judge, MarkOf: how many lives a move gives away against the
// best one), a whole game (Analyse, Summary), and draws an expert's
// moves (Pick). At a table of three or more, ByWinChance judges a move
// by the change it makes to the player's chance of winning the game
// instead (table.go: the round's Endings weighed by a continuation model
// fitted from self-play, WinChance); the verdicts shown do not (README.md
// says why). Its page, README.md beside this file, says what the model
// holds, what is exact and what is an approximation.
//
// Room: under engine; it imports engine and the standard library only.
// Pure but for the cache of solved rule sets (For), which many
// goroutines may share.
//
// The algorithm. The round's public states form a graph (a claim
// reached by many orders of moves is one state), so one iteration visits
// each state once, as fixed-strategy iteration CFR (Neller & Hnath) does,
// carrying every hidden outcome (the dice in the cup) at once. On it runs
// predictive discounted CFR: the regrets are discounted after iteration
// t as DCFR (Brown & Sandholm, 2019) does, positive ones by
// t^1.5/(t^1.5+1) and negative ones by 1/2; the current strategy is
// regret matching on the regrets plus the last iteration's (the
// prediction of predictive CFR+, Farina, Kroer & Sandholm, 2021); the
// average weighs iteration t by t². Plain CFR needs tens of thousands of
// iterations here; CFR+ and its predictive form reach the target in
// 300–500 iterations under most rule sets, but stall near 0.002 lives
// under mia-pass reroll with mia-penalty-both, where answers to a blind
// raise that play rarely learn slowly once their regrets are cut to 0.
// Discounting them instead gets there in 900 to 5,250 (cmd/mia-solve
// prints every rule set's count). With the caps equal (both players can
// lose as much) one strategy plays both seats; the exploitability is
// measured with the seats apart. Kuhn poker through the same core
// matches its value of −1/18.
//
// Determinism: the same rules give the same strategy bit for bit on the
// same architecture: states are numbered in one sorted order, every sum
// runs in that order, and products are converted before they are added
// so that no multiply-add is fused.
//
// Cost. A solve of the default rules takes 500 iterations, 8 to 14
// seconds of one core of a busy shared machine, allocates 255 MiB along
// the way and keeps a strategy of 6 MiB (11 MiB when the players' caps
// differ, the seats solved apart); the slowest rule sets (mia-pass reroll
// with mia-penalty-both) take 900 to 5,250 iterations and up to 6
// minutes on the busy machine; rule sets without passing take well
// under a second. For keeps Cached of
// them. Judging a move reads the kept strategy: a 100-move game is
// analysed in about half a millisecond (BenchmarkAnalyse).
package solver
