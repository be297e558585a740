package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Ranking orders the 21 values. Its name is a table option (RULES.md,
// option `ranking`). Under most rankings every value is a rank of its own;
// under Pips the mixed values with the same sum of dice share one.
type Ranking string

// The rankings of RULES.md.
const (
	Classic          Ranking = "classic"
	AscendingDoubles Ranking = "ascending-doubles"
	Numeric          Ranking = "numeric"
	LittleMia        Ranking = "little-mia"
	// Pips ranks Mia and the doubles as Classic does, and the other rolls
	// by the sum of their dice: 63 and 54 are both "9 pips", one rank.
	Pips Ranking = "pips"
)

// Rankings lists every ranking, the default first.
var Rankings = []Ranking{Classic, AscendingDoubles, Numeric, LittleMia, Pips}

// rankingNames lists the rankings for error messages.
func rankingNames() string {
	names := make([]string, len(Rankings))
	for i, r := range Rankings {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

// ranks holds one ranking's tables.
type ranks struct {
	order  []Value   // all 21 values, highest first; a rank's members together, highest first
	claims []Value   // one value per rank, the highest of its members, highest rank first
	rank   [67]uint8 // value -> rank: len(claims) for the best, 1 for the worst, 0 if invalid
	canon  [67]Value // value -> the value naming its rank (claims[...])
	ways   [22]uint8 // rank -> the outcomes of 36 that roll it
}

// newRanks builds a ranking's tables from its ranks, highest first, each
// listing its members highest first.
func newRanks(groups [][]Value) *ranks {
	t := &ranks{}
	for i, grp := range groups {
		k := len(groups) - i
		t.claims = append(t.claims, grp[0])
		for _, v := range grp {
			t.order = append(t.order, v)
			t.rank[v] = uint8(k)
			t.canon[v] = grp[0]
			t.ways[k] += uint8(v.Ways())
		}
	}
	return t
}

// singles makes one rank of each value.
func singles(order ...Value) [][]Value {
	g := make([][]Value, len(order))
	for i, v := range order {
		g[i] = []Value{v}
	}
	return g
}

var (
	classicRanks   = newRanks(singles(21, 66, 55, 44, 33, 22, 11, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32, 31))
	ascendingRanks = newRanks(singles(21, 11, 22, 33, 44, 55, 66, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32, 31))
	numericRanks   = newRanks(singles(21, 66, 65, 64, 63, 62, 61, 55, 54, 53, 52, 51, 44, 43, 42, 41, 33, 32, 31, 22, 11))
	littleMiaRanks = newRanks(singles(21, 31, 66, 55, 44, 33, 22, 11, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32))
	pipsRanks      = newRanks(append(singles(21, 66, 55, 44, 33, 22, 11),
		[]Value{65}, []Value{64}, []Value{63, 54}, []Value{62, 53}, []Value{61, 52, 43},
		[]Value{51, 42}, []Value{41, 32}, []Value{31}))
)

// table returns r's tables, nil for an unknown ranking. A switch is much
// cheaper than a map lookup, and rankings are compared on every move.
func (r Ranking) table() *ranks {
	switch r {
	case Classic:
		return classicRanks
	case AscendingDoubles:
		return ascendingRanks
	case Numeric:
		return numericRanks
	case LittleMia:
		return littleMiaRanks
	case Pips:
		return pipsRanks
	}
	return nil
}

// rank is v's rank in t (0 if t is nil or v invalid).
func (t *ranks) rankOf(v Value) int {
	if t == nil || int(v) >= len(t.rank) {
		return 0
	}
	return int(t.rank[v])
}

// Valid reports whether r is one of the rankings.
func (r Ranking) Valid() bool { return r.table() != nil }

// ParseRanking checks a ranking's name.
func ParseRanking(s string) (Ranking, error) {
	r := Ranking(s)
	if !r.Valid() {
		return "", fmt.Errorf("%w: ranking %q (one of %s)", ErrBadOptions, s, rankingNames())
	}
	return r, nil
}

// Order returns the 21 values from highest to lowest; values of one rank
// (under Pips) stand together, the highest first.
func (r Ranking) Order() []Value {
	t := r.table()
	if t == nil {
		return nil
	}
	return append([]Value(nil), t.order...)
}

// Claims returns one value per rank, highest first: the values a claim
// names. It is Order, except under Pips, where each rank is named by its
// highest member (63 for "9 pips").
func (r Ranking) Claims() []Value {
	t := r.table()
	if t == nil {
		return nil
	}
	return append([]Value(nil), t.claims...)
}

// Canonical is the value that names v's rank (see Claims): v itself
// except under Pips, where 54 is written 63. It is NoValue when v is not a
// valid value or r not a valid ranking.
func (r Ranking) Canonical(v Value) Value {
	t := r.table()
	if t == nil || int(v) >= len(t.canon) {
		return NoValue
	}
	return t.canon[v]
}

// Name is how a claim of v is spoken under r: under Pips a mixed roll by
// its sum ("9 pips") and a double in words ("double 1s", never "11",
// which would read as "11 pips"); otherwise v.Name() ("Mia", "66", "64").
// Every rank of a ranking has a name of its own, none the start of
// another's.
func (r Ranking) Name(v Value) string {
	if r != Pips || !v.Valid() || v == Mia {
		return v.Name()
	}
	hi, lo := v.Dice()
	if v.IsDouble() {
		return "double " + strconv.Itoa(hi) + "s"
	}
	return strconv.Itoa(hi+lo) + " pips"
}

// ParseClaim reads a claim as a person types it: its name under r, as
// Name says it ("9 pips", "double 3s", "Mia"; any case, the words
// separated by any space), or its dice as ParseValue reads them ("54",
// "6,4"). It returns the value that names the claim's rank (Canonical:
// under Pips, "54" is 63, "9 pips"). Anything else is an error wrapping
// ErrBadValue.
func (r Ranking) ParseClaim(s string) (Value, error) {
	said := strings.ToLower(strings.Join(strings.Fields(s), " "))
	for _, v := range r.Claims() {
		if said == strings.ToLower(r.Name(v)) {
			return v, nil
		}
	}
	v, err := ParseValue(said)
	if err != nil {
		return NoValue, fmt.Errorf("%w: %q is not a claim (like 54, Mia%s)", ErrBadValue, s, r.nameExample())
	}
	return r.Canonical(v), nil
}

// nameExample is what ParseClaim's error adds under a ranking whose
// names are not all dice: ", 9 pips, double 3s".
func (r Ranking) nameExample() string {
	if r == Pips {
		return ", 9 pips, double 3s"
	}
	return ""
}

// Rank is v's position: 1 for the lowest rank, len(r.Claims()) for Mia (21
// under every ranking but Pips, 15 under Pips); 0 if v is not a valid value
// or r not a valid ranking.
func (r Ranking) Rank(v Value) int { return r.table().rankOf(v) }

// Compare returns -1 if a ranks below b, 0 if equal, +1 if above.
func (r Ranking) Compare(a, b Value) int {
	t := r.table()
	ra, rb := t.rankOf(a), t.rankOf(b)
	switch {
	case ra < rb:
		return -1
	case ra > rb:
		return 1
	}
	return 0
}

// Above returns the claims (see Claims) that rank strictly above v (all
// of them for NoValue), lowest first.
func (r Ranking) Above(v Value) []Value { return r.from(v, false) }

// AtLeast returns the claims that rank at or above v, lowest first; the
// first names v's own rank.
func (r Ranking) AtLeast(v Value) []Value { return r.from(v, true) }

func (r Ranking) from(v Value, equal bool) []Value {
	t := r.table()
	if t == nil {
		return nil
	}
	o := t.claims // highest first
	n := len(o)   // NoValue or an invalid value: all of them
	if rv := t.rankOf(v); rv > 0 {
		n -= rv // o[:n] rank above v
		if equal {
			n++
		}
	}
	out := make([]Value, n)
	for i := range out {
		out[i] = o[n-1-i]
	}
	return out
}

// ChanceToBeat is the chance that one fresh roll ranks strictly above v,
// in 36ths (Wikipedia's "to beat" column, times 36).
func (r Ranking) ChanceToBeat(v Value) int {
	t := r.table()
	if t == nil {
		return 0
	}
	n := 0
	for k := t.rankOf(v) + 1; k <= len(t.claims); k++ {
		n += int(t.ways[k])
	}
	return n
}

// Ways is the number of the 36 outcomes of two dice that roll v's rank:
// v.Ways() except under Pips, where 9 pips has 4 (63 and 54).
func (r Ranking) Ways(v Value) int {
	t := r.table()
	k := t.rankOf(v)
	if k == 0 {
		return 0
	}
	return int(t.ways[k])
}
