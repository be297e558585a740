package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rulesOrder is each ranking's order, highest first, copied from the table
// in RULES.md (kept apart from the engine's own table on purpose).
var rulesOrder = map[Ranking]string{
	Classic:          "21 66 55 44 33 22 11 65 64 63 62 61 54 53 52 51 43 42 41 32 31",
	AscendingDoubles: "21 11 22 33 44 55 66 65 64 63 62 61 54 53 52 51 43 42 41 32 31",
	Numeric:          "21 66 65 64 63 62 61 55 54 53 52 51 44 43 42 41 33 32 31 22 11",
	LittleMia:        "21 31 66 55 44 33 22 11 65 64 63 62 61 54 53 52 51 43 42 41 32",
}

// testRank is a value's rank under r according to rulesOrder: 21 for the
// highest.
func testRank(r Ranking, v Value) int {
	f := strings.Fields(rulesOrder[r])
	for i, s := range f {
		if s == v.String() {
			return len(f) - i
		}
	}
	return 0
}

// wikipedia is the "Mia scoring" table of seeds/000 (Wikipedia): each roll
// with its "to beat" percentage, in the Standard (classic) and Alternate
// (little-mia) columns, highest first.
var wikipedia = map[Ranking]string{
	Classic: `21 0%, 66 5.6%, 55 8.3%, 44 11.1%, 33 13.9%, 22 16.7%, 11 19.4%, 65 22.2%,
		64 27.8%, 63 33.3%, 62 38.9%, 61 44.4%, 54 50%, 53 55.6%, 52 61.1%, 51 66.7%,
		43 72.2%, 42 77.8%, 41 83.3%, 32 88.9%, 31 94.4%`,
	LittleMia: `21 0%, 31 5.6%, 66 11.1%, 55 13.9%, 44 16.7%, 33 19.4%, 22 22.2%, 11 25%,
		65 27.8%, 64 33.3%, 63 38.9%, 62 44.4%, 61 50%, 54 55.6%, 53 61.1%, 52 66.7%,
		51 72.2%, 43 77.8%, 42 83.3%, 41 88.9%, 32 94.4%`,
}

// percent prints n/36 the way Wikipedia's table does: one decimal, without
// a trailing ".0".
func percent(n int) string {
	s := strconv.FormatFloat(math.Round(1000*float64(n)/36)/10, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "%"
}

func TestChanceToBeatWikipedia(t *testing.T) {
	for r, table := range wikipedia {
		var order []Value
		for _, cell := range strings.Split(table, ",") {
			f := strings.Fields(cell)
			v, err := ParseValue(f[0])
			if err != nil {
				t.Fatal(err)
			}
			order = append(order, v)
			if got := percent(r.ChanceToBeat(v)); got != f[1] {
				t.Errorf("%s: to beat %v = %s (%d/36), Wikipedia says %s", r, v, got, r.ChanceToBeat(v), f[1])
			}
		}
		if !slices.Equal(order, r.Order()) {
			t.Errorf("%s: order %v, Wikipedia's column %v", r, r.Order(), order)
		}
	}
}

// TestChanceToBeatEnumerated counts, for every ranking and value, the 36
// outcomes of two dice that rank strictly above it, by RULES.md's order.
func TestChanceToBeatEnumerated(t *testing.T) {
	for _, r := range Rankings {
		for _, v := range AllValues() {
			want := 0
			for a := 1; a <= 6; a++ {
				for b := 1; b <= 6; b++ {
					if testRank(r, Value(10*max(a, b)+min(a, b))) > testRank(r, v) {
						want++
					}
				}
			}
			if got := r.ChanceToBeat(v); got != want {
				t.Errorf("%s.ChanceToBeat(%v) = %d/36, want %d/36", r, v, got, want)
			}
		}
	}
}

// TestChanceToBeatByHand checks figures worked out on paper.
func TestChanceToBeatByHand(t *testing.T) {
	tests := []struct {
		r    Ranking
		v    Value
		want int
	}{
		{Classic, 54, 18}, // the median: 21 (2) + 6 doubles (6) + 65..61 (10)
		{Classic, 55, 3},  // Wikipedia's worked example: 21 and 66
		{Classic, Mia, 0},
		{Classic, 31, 34},
		{AscendingDoubles, 11, 2},  // only Mia
		{AscendingDoubles, 66, 7},  // Mia (2) and 11..55 (5)
		{AscendingDoubles, 65, 8},  // as in classic: the doubles are all above
		{AscendingDoubles, 54, 18}, // likewise
		{AscendingDoubles, 32, 32}, // all but 32 and 31 (two ways each)
		{AscendingDoubles, 31, 34},
		{Numeric, 66, 2},
		{Numeric, 65, 3},  // 21, 66
		{Numeric, 61, 11}, // 21 (2), 66 (1), 65..62 (8)
		{Numeric, 55, 13}, // 21, 66, 65..61
		{Numeric, 54, 14}, // and 55
		{Numeric, 22, 34}, // everything but 22 and 11
		{Numeric, 11, 35}, // everything but 11
		{LittleMia, 31, 2},
		{LittleMia, 61, 18}, // Meyer's median
	}
	for _, tt := range tests {
		if got := tt.r.ChanceToBeat(tt.v); got != tt.want {
			t.Errorf("%s.ChanceToBeat(%v) = %d, want %d", tt.r, tt.v, got, tt.want)
		}
	}
	// Summed over the 36 outcomes, P(beat) + P(tie) + P(lose) = 1 for every value.
	for _, r := range Rankings {
		for _, v := range AllValues() {
			below := 0
			for _, w := range AllValues() {
				if r.Compare(w, v) < 0 {
					below += w.Ways()
				}
			}
			if r.ChanceToBeat(v)+v.Ways()+below != 36 {
				t.Errorf("%s %v: beat %d + tie %d + below %d != 36", r, v, r.ChanceToBeat(v), v.Ways(), below)
			}
		}
	}
}

func TestRankingOrder(t *testing.T) {
	for _, r := range Rankings {
		var want []Value
		for _, s := range strings.Fields(rulesOrder[r]) {
			v, _ := ParseValue(s)
			want = append(want, v)
		}
		got := r.Order()
		if !slices.Equal(got, want) {
			t.Errorf("%s.Order() = %v, want %v", r, got, want)
		}
		got[0] = 0 // a copy
		if r.Order()[0] != Mia {
			t.Errorf("%s.Order() shares its slice", r)
		}
		for i, v := range want {
			if r.Rank(v) != 21-i || testRank(r, v) != 21-i {
				t.Errorf("%s.Rank(%v) = %d, want %d", r, v, r.Rank(v), 21-i)
			}
			for j, w := range want {
				if c := r.Compare(v, w); c != cmpInt(j, i) {
					t.Errorf("%s.Compare(%v, %v) = %d, want %d", r, v, w, c, cmpInt(j, i))
				}
			}
			above, atLeast := r.Above(v), r.AtLeast(v)
			wantAbove := reversed(want[:i])
			if !slices.Equal(above, wantAbove) {
				t.Errorf("%s.Above(%v) = %v, want %v", r, v, above, wantAbove)
			}
			if !slices.Equal(atLeast, append([]Value{v}, wantAbove...)) {
				t.Errorf("%s.AtLeast(%v) = %v", r, v, atLeast)
			}
		}
		if all := r.Above(NoValue); !slices.Equal(all, reversed(want)) {
			t.Errorf("%s.Above(NoValue) = %v, want all 21 lowest first", r, all)
		}
		for _, bad := range []Value{0, 12, 70, 255} {
			if r.Rank(bad) != 0 {
				t.Errorf("%s.Rank(%d) = %d, want 0", r, uint8(bad), r.Rank(bad))
			}
		}
	}
	if Ranking("nope").Rank(64) != 0 || Ranking("").Valid() {
		t.Error("an unknown ranking ranks values")
	}
	if Rankings[0] != Classic || len(Rankings) != 4 {
		t.Errorf("Rankings = %v, want classic first of four", Rankings)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func reversed(vs []Value) []Value {
	out := slices.Clone(vs)
	slices.Reverse(out)
	if out == nil {
		out = []Value{}
	}
	return out
}

func TestParseRanking(t *testing.T) {
	for _, r := range Rankings {
		if got, err := ParseRanking(string(r)); err != nil || got != r {
			t.Errorf("ParseRanking(%q) = %q, %v", r, got, err)
		}
	}
	for _, s := range []string{"", "Classic", "standard", "alternate", "little mia"} {
		if _, err := ParseRanking(s); !errors.Is(err, ErrBadOptions) {
			t.Errorf("ParseRanking(%q) error = %v, want ErrBadOptions", s, err)
		}
	}
}

func ExampleRanking_ChanceToBeat() {
	for _, v := range []Value{66, 54, 31} {
		n := Classic.ChanceToBeat(v)
		fmt.Printf("%v: %d/36 = %s\n", v, n, percent(n))
	}
	// Output:
	// 66: 2/36 = 5.6%
	// 54: 18/36 = 50%
	// 31: 34/36 = 94.4%
}
