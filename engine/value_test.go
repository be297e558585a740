package engine

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseValueAccepts(t *testing.T) {
	tests := []struct {
		in   string
		want Value
	}{
		{"64", 64}, {"46", 64}, {"6,4", 64}, {"4,6", 64},
		{"21", Mia}, {"12", Mia}, {"2,1", Mia}, {"Mia", Mia}, {"mia", Mia}, {"MIA", Mia},
		{"11", 11}, {"66", 66}, {"31", 31}, {"13", 31}, {"1,1", 11}, {" 55 ", 55},
	}
	for _, tt := range tests {
		got, err := ParseValue(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseValue(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseValueRejects(t *testing.T) {
	for _, in := range []string{
		"", " ", "7", "70", "00", "07", "10", "60", "67", "77", "123", "x1", "1x", "0,1", "6,7",
		"6,,4", ",64", "64,", "6 4", "6;4", "mi", "miaa", "Mia!", "-1", "+6", "٦٤", "6,4,", "21 21",
	} {
		v, err := ParseValue(in)
		if !errors.Is(err, ErrBadValue) {
			t.Errorf("ParseValue(%q) = %v, %v; want ErrBadValue", in, v, err)
		}
		if v != NoValue {
			t.Errorf("ParseValue(%q) returned %v with its error, want NoValue", in, v)
		}
	}
}

// TestParseValueAll checks that every way of writing each of the 21 values
// reads back as that value, and that exactly those 21 two-digit numbers are
// values.
func TestParseValueAll(t *testing.T) {
	n := 0
	for x := 0; x < 100; x++ {
		s := string([]byte{'0' + byte(x/10), '0' + byte(x%10)})
		v, err := ParseValue(s)
		if err != nil {
			continue
		}
		n++
		hi, lo := v.Dice()
		if hi < lo || !v.Valid() {
			t.Errorf("ParseValue(%q) = %v: not higher die first", s, v)
		}
	}
	if n != 36 { // 21 values, 15 of them (the mixed ones) writable in two orders
		t.Errorf("%d two-digit strings parse, want 36", n)
	}
	for _, v := range AllValues() {
		for _, s := range []string{v.String(), v.Comma(), v.Name()} {
			if got, err := ParseValue(s); err != nil || got != v {
				t.Errorf("ParseValue(%q) = %v, %v; want %v", s, got, err, v)
			}
		}
	}
}

func TestValueValid(t *testing.T) {
	valid := map[Value]bool{}
	for _, v := range AllValues() {
		valid[v] = true
	}
	if len(valid) != 21 {
		t.Fatalf("AllValues has %d distinct values, want 21", len(valid))
	}
	for x := 0; x < 256; x++ {
		v := Value(x)
		hi, lo := x/10, x%10
		want := hi >= 1 && hi <= 6 && lo >= 1 && lo <= hi
		if v.Valid() != want || valid[v] != want {
			t.Errorf("Value(%d).Valid() = %v, in AllValues %v; want %v", x, v.Valid(), valid[v], want)
		}
	}
	// AllValues returns a copy.
	a := AllValues()
	a[0] = 99
	if AllValues()[0] != 11 {
		t.Error("AllValues shares its slice with the caller")
	}
}

func TestValueWaysAndDice(t *testing.T) {
	total := 0
	for _, v := range AllValues() {
		total += v.Ways()
		if v.IsDouble() != (v/10 == v%10) {
			t.Errorf("%v.IsDouble() = %v", v, v.IsDouble())
		}
	}
	if total != 36 {
		t.Errorf("ways sum to %d, want 36", total)
	}
	for _, tt := range []struct {
		v    Value
		ways int
	}{{11, 1}, {66, 1}, {21, 2}, {64, 2}, {0, 0}, {70, 0}, {12, 0}} {
		if got := tt.v.Ways(); got != tt.ways {
			t.Errorf("Value(%d).Ways() = %d, want %d", uint8(tt.v), got, tt.ways)
		}
	}
	if Value(12).IsDouble() || Value(0).IsDouble() {
		t.Error("invalid values must not be doubles")
	}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			v := FromDice(a, b)
			hi, lo := v.Dice()
			if hi != max(a, b) || lo != min(a, b) || !v.Valid() {
				t.Errorf("FromDice(%d,%d) = %v", a, b, v)
			}
		}
	}
}

func TestFromDicePanics(t *testing.T) {
	for _, d := range [][2]int{{0, 1}, {1, 7}, {-1, 3}, {7, 7}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("FromDice(%d,%d) did not panic", d[0], d[1])
				}
			}()
			FromDice(d[0], d[1])
		}()
	}
}

func TestValuePrinting(t *testing.T) {
	tests := []struct {
		v                Value
		str, name, comma string
	}{
		{64, "64", "64", "6,4"},
		{Mia, "21", "Mia", "2,1"},
		{11, "11", "11", "1,1"},
		{31, "31", "31", "3,1"},
		{NoValue, "-", "-", "0,0"},
		{12, "Value(12)", "Value(12)", "1,2"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.str {
			t.Errorf("Value(%d).String() = %q, want %q", uint8(tt.v), got, tt.str)
		}
		if got := tt.v.Name(); got != tt.name {
			t.Errorf("Value(%d).Name() = %q, want %q", uint8(tt.v), got, tt.name)
		}
		if got := tt.v.Comma(); got != tt.comma {
			t.Errorf("Value(%d).Comma() = %q, want %q", uint8(tt.v), got, tt.comma)
		}
	}
}

func TestValueJSON(t *testing.T) {
	for _, v := range AllValues() {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if want := `"` + v.String() + `"`; string(b) != want {
			t.Errorf("json.Marshal(%v) = %s, want %s", v, b, want)
		}
		var back Value
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("round trip of %v: %v, %v", v, back, err)
		}
	}
	// NoValue is the empty text and reads back as NoValue.
	b, err := json.Marshal(NoValue)
	if err != nil || string(b) != `""` {
		t.Errorf("json.Marshal(NoValue) = %s, %v", b, err)
	}
	back := Value(64)
	if err := json.Unmarshal([]byte(`""`), &back); err != nil || back != NoValue {
		t.Errorf(`Unmarshal("") = %v, %v`, back, err)
	}
	// Other spellings are read; junk is refused.
	for in, want := range map[string]Value{`"46"`: 64, `"Mia"`: Mia, `"5,5"`: 55} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); err != nil || v != want {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", in, v, err, want)
		}
	}
	for _, in := range []string{`"70"`, `"x"`, `"0,1"`} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); !errors.Is(err, ErrBadValue) {
			t.Errorf("Unmarshal(%s) = %v, %v; want ErrBadValue", in, v, err)
		}
	}
	if _, err := json.Marshal(Value(70)); !errors.Is(err, ErrBadValue) {
		t.Errorf("Marshal(Value(70)) error = %v, want ErrBadValue", err)
	}
}
