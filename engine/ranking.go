package engine

import "fmt"

// Ranking orders the 21 values. Its name is a table option (RULES.md,
// option `ranking`).
type Ranking string

// The four rankings of RULES.md.
const (
	Classic          Ranking = "classic"
	AscendingDoubles Ranking = "ascending-doubles"
	Numeric          Ranking = "numeric"
	LittleMia        Ranking = "little-mia"
)

// Rankings lists every ranking, the default first.
var Rankings = []Ranking{Classic, AscendingDoubles, Numeric, LittleMia}

// orders lists each ranking's values from highest to lowest.
var orders = map[Ranking][]Value{
	Classic:          {21, 66, 55, 44, 33, 22, 11, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32, 31},
	AscendingDoubles: {21, 11, 22, 33, 44, 55, 66, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32, 31},
	Numeric:          {21, 66, 65, 64, 63, 62, 61, 55, 54, 53, 52, 51, 44, 43, 42, 41, 33, 32, 31, 22, 11},
	LittleMia:        {21, 31, 66, 55, 44, 33, 22, 11, 65, 64, 63, 62, 61, 54, 53, 52, 51, 43, 42, 41, 32},
}

// order is orders[r] without the map lookup.
func (r Ranking) order() []Value {
	switch r {
	case Classic:
		return classicOrder
	case AscendingDoubles:
		return ascendingOrder
	case Numeric:
		return numericOrder
	case LittleMia:
		return littleMiaOrder
	}
	return nil
}

var (
	classicOrder   = orders[Classic]
	ascendingOrder = orders[AscendingDoubles]
	numericOrder   = orders[Numeric]
	littleMiaOrder = orders[LittleMia]
)

// rankTable maps each value to its rank under one ranking: 21 for the best,
// 1 for the worst, 0 for an invalid value.
type rankTable [67]uint8

func newRankTable(order []Value) *rankTable {
	var t rankTable
	for i, v := range order {
		t[v] = uint8(len(order) - i)
	}
	return &t
}

var (
	classicRanks   = newRankTable(orders[Classic])
	ascendingRanks = newRankTable(orders[AscendingDoubles])
	numericRanks   = newRankTable(orders[Numeric])
	littleMiaRanks = newRankTable(orders[LittleMia])
)

// table returns r's rank table, nil for an unknown ranking. A switch is
// much cheaper than a map lookup, and rankings are compared on every move.
func (r Ranking) table() *rankTable {
	switch r {
	case Classic:
		return classicRanks
	case AscendingDoubles:
		return ascendingRanks
	case Numeric:
		return numericRanks
	case LittleMia:
		return littleMiaRanks
	}
	return nil
}

// rank is v's rank in t (0 if t is nil or v invalid).
func (t *rankTable) rank(v Value) int {
	if t == nil || int(v) >= len(t) {
		return 0
	}
	return int(t[v])
}

// Valid reports whether r is one of the four rankings.
func (r Ranking) Valid() bool { return r.table() != nil }

// ParseRanking checks a ranking's name.
func ParseRanking(s string) (Ranking, error) {
	r := Ranking(s)
	if !r.Valid() {
		return "", fmt.Errorf("%w: ranking %q (one of classic, ascending-doubles, numeric, little-mia)", ErrBadOptions, s)
	}
	return r, nil
}

// Order returns the values from highest to lowest.
func (r Ranking) Order() []Value {
	o := r.order()
	out := make([]Value, len(o))
	copy(out, o)
	return out
}

// Rank is v's position, 21 for the highest value and 1 for the lowest; 0 if
// v is not a valid value or r not a valid ranking.
func (r Ranking) Rank(v Value) int { return r.table().rank(v) }

// Compare returns -1 if a ranks below b, 0 if equal, +1 if above.
func (r Ranking) Compare(a, b Value) int {
	t := r.table()
	ra, rb := t.rank(a), t.rank(b)
	switch {
	case ra < rb:
		return -1
	case ra > rb:
		return 1
	}
	return 0
}

// Above returns the values that rank strictly above v (all 21 for NoValue),
// lowest first.
func (r Ranking) Above(v Value) []Value { return r.from(v, false) }

// AtLeast returns the values that rank at or above v, lowest first.
func (r Ranking) AtLeast(v Value) []Value { return r.from(v, true) }

func (r Ranking) from(v Value, equal bool) []Value {
	o := r.order() // highest first
	n := len(o)    // NoValue or an invalid value: all of them
	if rv := r.Rank(v); rv > 0 {
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
	rv, n := t.rank(v), 0
	for _, w := range r.order() {
		if t.rank(w) > rv {
			n += w.Ways()
		}
	}
	return n
}
