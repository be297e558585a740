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
// in RULES.md (kept apart from the engine's own table on purpose). Values
// joined by "=" are one rank (pips: "9 pips (63, 54)").
var rulesOrder = map[Ranking]string{
	Classic:          "21 66 55 44 33 22 11 65 64 63 62 61 54 53 52 51 43 42 41 32 31",
	AscendingDoubles: "21 11 22 33 44 55 66 65 64 63 62 61 54 53 52 51 43 42 41 32 31",
	Numeric:          "21 66 65 64 63 62 61 55 54 53 52 51 44 43 42 41 33 32 31 22 11",
	LittleMia:        "21 31 66 55 44 33 22 11 65 64 63 62 61 54 53 52 51 43 42 41 32",
	Pips:             "21 66 55 44 33 22 11 65 64 63=54 62=53 61=52=43 51=42 41=32 31",
}

// rulesRanks is rulesOrder[r] as ranks, highest first, each listing its
// members as RULES.md does (the highest first).
func rulesRanks(r Ranking) [][]Value {
	var out [][]Value
	for _, f := range strings.Fields(rulesOrder[r]) {
		var grp []Value
		for _, s := range strings.Split(f, "=") {
			n, _ := strconv.Atoi(s)
			grp = append(grp, Value(n))
		}
		out = append(out, grp)
	}
	return out
}

// testRank is a value's rank under r according to rulesOrder: the number
// of ranks for the highest, 1 for the lowest.
func testRank(r Ranking, v Value) int {
	rs := rulesRanks(r)
	for i, grp := range rs {
		if slices.Contains(grp, v) {
			return len(rs) - i
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
			if r.ChanceToBeat(v)+r.Ways(v)+below != 36 {
				t.Errorf("%s %v: beat %d + tie %d + below %d != 36", r, v, r.ChanceToBeat(v), r.Ways(v), below)
			}
		}
	}
}

func TestRankingOrder(t *testing.T) {
	for _, r := range Rankings {
		groups := rulesRanks(r)
		var want, wantClaims []Value
		for _, grp := range groups {
			want = append(want, grp...)
			wantClaims = append(wantClaims, grp[0])
		}
		if got := r.Order(); !slices.Equal(got, want) {
			t.Errorf("%s.Order() = %v, want %v", r, got, want)
		} else if got[0] = 0; r.Order()[0] != Mia { // a copy
			t.Errorf("%s.Order() shares its slice", r)
		}
		if got := r.Claims(); !slices.Equal(got, wantClaims) {
			t.Errorf("%s.Claims() = %v, want %v", r, got, wantClaims)
		} else if got[0] = 0; r.Claims()[0] != Mia {
			t.Errorf("%s.Claims() shares its slice", r)
		}
		n := len(groups)
		for i, grp := range groups {
			wantAbove := reversed(wantClaims[:i])
			for _, v := range grp {
				if r.Rank(v) != n-i || testRank(r, v) != n-i {
					t.Errorf("%s.Rank(%v) = %d, want %d", r, v, r.Rank(v), n-i)
				}
				if c := r.Canonical(v); c != grp[0] {
					t.Errorf("%s.Canonical(%v) = %v, want %v", r, v, c, grp[0])
				}
				for j, other := range groups {
					for _, w := range other {
						if c := r.Compare(v, w); c != cmpInt(j, i) {
							t.Errorf("%s.Compare(%v, %v) = %d, want %d", r, v, w, c, cmpInt(j, i))
						}
					}
				}
				if above := r.Above(v); !slices.Equal(above, wantAbove) {
					t.Errorf("%s.Above(%v) = %v, want %v", r, v, above, wantAbove)
				}
				if atLeast := r.AtLeast(v); !slices.Equal(atLeast, append([]Value{grp[0]}, wantAbove...)) {
					t.Errorf("%s.AtLeast(%v) = %v", r, v, atLeast)
				}
			}
		}
		if all := r.Above(NoValue); !slices.Equal(all, reversed(wantClaims)) {
			t.Errorf("%s.Above(NoValue) = %v, want all %d claims lowest first", r, all, n)
		}
		for _, bad := range []Value{0, 12, 70, 255} {
			if r.Rank(bad) != 0 || r.Canonical(bad) != NoValue || r.Ways(bad) != 0 {
				t.Errorf("%s: invalid %d has rank %d, canonical %v", r, uint8(bad), r.Rank(bad), r.Canonical(bad))
			}
		}
	}
	if u := Ranking("nope"); u.Rank(64) != 0 || u.Valid() || u.Order() != nil || u.Claims() != nil ||
		u.Canonical(64) != NoValue || u.Above(64) != nil || u.ChanceToBeat(64) != 0 || u.Ways(64) != 0 || Ranking("").Valid() {
		t.Error("an unknown ranking ranks values")
	}
	if Rankings[0] != Classic || len(Rankings) != 5 {
		t.Errorf("Rankings = %v, want classic first of five", Rankings)
	}
}

// TestPipsChanceToBeat reproduces, from the pips ranking alone, the "to
// beat" chances Wikipedia gives for pips (seeds/000, "Scoring
// variations", quoted in RULES.md), with each rank's name and ways; the
// doubles and Mia keep the Standard column's figures.
func TestPipsChanceToBeat(t *testing.T) {
	tests := []struct {
		name    string
		members []Value
		ways    int
		beat    string
	}{
		{"11 pips", []Value{65}, 2, "22.2%"},
		{"10 pips", []Value{64}, 2, "27.8%"},
		{"9 pips", []Value{63, 54}, 4, "33.3%"},
		{"8 pips", []Value{62, 53}, 4, "44.4%"},
		{"7 pips", []Value{61, 52, 43}, 6, "55.6%"},
		{"6 pips", []Value{51, 42}, 4, "72.2%"},
		{"5 pips", []Value{41, 32}, 4, "83.3%"},
		{"4 pips", []Value{31}, 2, "94.4%"},
	}
	for _, tt := range tests {
		for _, v := range tt.members {
			if got := percent(Pips.ChanceToBeat(v)); got != tt.beat {
				t.Errorf("pips: to beat %v = %s, Wikipedia says %s", v, got, tt.beat)
			}
			if got := Pips.Name(v); got != tt.name {
				t.Errorf("Pips.Name(%v) = %q, want %q", v, got, tt.name)
			}
			if got := Pips.Ways(v); got != tt.ways {
				t.Errorf("Pips.Ways(%v) = %d, want %d", v, got, tt.ways)
			}
		}
	}
	for _, cell := range strings.Split(wikipedia[Classic], ",")[:7] { // Mia and the doubles
		f := strings.Fields(cell)
		v, _ := ParseValue(f[0])
		if got := percent(Pips.ChanceToBeat(v)); got != f[1] {
			t.Errorf("pips: to beat %v = %s, the Standard column says %s", v, got, f[1])
		}
		want := v.Name()
		if v.IsDouble() {
			want = "double " + want[:1] + "s"
		}
		if Pips.Name(v) != want || Pips.Ways(v) != v.Ways() {
			t.Errorf("pips: %v is named %q with %d ways", v, Pips.Name(v), Pips.Ways(v))
		}
	}
	for _, r := range []Ranking{Classic, AscendingDoubles, Numeric, LittleMia} {
		for _, v := range AllValues() {
			if r.Name(v) != v.Name() || r.Ways(v) != v.Ways() || r.Canonical(v) != v {
				t.Errorf("%s: %v is named %q, ways %d, written %v", r, v, r.Name(v), r.Ways(v), r.Canonical(v))
			}
		}
	}
	if Pips.Name(NoValue) != "-" || Pips.Name(Mia) != "Mia" || Pips.Name(66) != "double 6s" || Pips.Name(11) != "double 1s" {
		t.Errorf("pips names: %q %q %q", Pips.Name(NoValue), Pips.Name(Mia), Pips.Name(66))
	}
}

// TestClaimNamesTellApart: under every ranking each rank has a name of
// its own, and none is the start of another's (under pips "11", double
// ones, read beside "11 pips").
func TestClaimNamesTellApart(t *testing.T) {
	for _, r := range Rankings {
		claims := r.Claims()
		for i, a := range claims {
			for j, b := range claims {
				na, nb := r.Name(a), r.Name(b)
				if i != j && (na == nb || strings.HasPrefix(nb, na+" ")) {
					t.Errorf("%s: %v is named %q, %v %q", r, a, na, b, nb)
				}
			}
		}
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

// TestParseClaim: every claim's name under every ranking reads back as
// that claim, in any case and spacing; dice read as the claim of their
// rank; anything else is ErrBadValue.
func TestParseClaim(t *testing.T) {
	for _, r := range Rankings {
		for _, v := range r.Claims() {
			for _, typed := range []string{r.Name(v), strings.ToUpper(r.Name(v)), "  " + strings.ReplaceAll(r.Name(v), " ", "   ") + " "} {
				if got, err := r.ParseClaim(typed); err != nil || got != v {
					t.Errorf("%s: ParseClaim(%q) = %v, %v; want %v", r, typed, got, err, v)
				}
			}
		}
		for _, v := range AllValues() {
			hi, lo := v.Dice()
			for _, typed := range []string{v.String(), fmt.Sprintf("%d%d", lo, hi), fmt.Sprintf("%d,%d", hi, lo)} {
				if got, err := r.ParseClaim(typed); err != nil || got != r.Canonical(v) {
					t.Errorf("%s: ParseClaim(%q) = %v, %v; want %v", r, typed, got, err, r.Canonical(v))
				}
			}
		}
		for _, bad := range []string{"", "7", "77", "double 7s", "13 pips", "mia!", "65 pips", "liar"} {
			if got, err := r.ParseClaim(bad); !errors.Is(err, ErrBadValue) {
				t.Errorf("%s: ParseClaim(%q) = %v, %v; want ErrBadValue", r, bad, got, err)
			}
		}
	}
	if v, _ := Pips.ParseClaim("54"); Pips.Name(v) != "9 pips" {
		t.Errorf("pips: 54 reads as %s, want 9 pips", Pips.Name(v))
	}
}
