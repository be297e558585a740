package engine

import (
	"fmt"
	"strings"
)

// Value is the value of a roll of two dice, read with the higher die first:
// 4 and 6 is 64. The zero Value means "no value" (no claim yet).
type Value uint8

// Mia is the roll 2 and 1, the best roll under every ranking.
const Mia Value = 21

// NoValue is the zero Value: no claim, or dice not known.
const NoValue Value = 0

// allValues holds the 21 values in ascending numeric order.
var allValues = func() []Value {
	var vs []Value
	for hi := 1; hi <= 6; hi++ {
		for lo := 1; lo <= hi; lo++ {
			vs = append(vs, Value(hi*10+lo))
		}
	}
	return vs
}()

// AllValues returns the 21 distinct roll values in numeric order.
func AllValues() []Value {
	out := make([]Value, len(allValues))
	copy(out, allValues)
	return out
}

// FromDice returns the value of two dice in any order. It panics if a die
// is not between 1 and 6; dice come from the engine, never from users.
func FromDice(a, b int) Value {
	if a < 1 || a > 6 || b < 1 || b > 6 {
		panic(fmt.Sprintf("engine: die out of range: %d,%d", a, b))
	}
	if a < b {
		a, b = b, a
	}
	return Value(a*10 + b)
}

// Valid reports whether v is one of the 21 roll values.
func (v Value) Valid() bool {
	hi, lo := int(v)/10, int(v)%10
	return v != 0 && hi >= 1 && hi <= 6 && lo >= 1 && lo <= hi
}

// Dice returns the higher and the lower die of v.
func (v Value) Dice() (hi, lo int) { return int(v) / 10, int(v) % 10 }

// IsDouble reports whether both dice of v show the same number.
func (v Value) IsDouble() bool { hi, lo := v.Dice(); return v.Valid() && hi == lo }

// Ways is the number of the 36 outcomes of two dice that give v: 1 for a
// double, 2 otherwise.
func (v Value) Ways() int {
	if !v.Valid() {
		return 0
	}
	if v.IsDouble() {
		return 1
	}
	return 2
}

// String prints v as two digits, higher die first ("64", "21"), or "-" for
// NoValue.
func (v Value) String() string {
	if v == NoValue {
		return "-"
	}
	if !v.Valid() {
		return fmt.Sprintf("Value(%d)", uint8(v))
	}
	return string([]byte{'0' + byte(v/10), '0' + byte(v%10)})
}

// Name is the spoken name of v: "Mia" for 21, otherwise its two digits.
func (v Value) Name() string {
	if v == Mia {
		return "Mia"
	}
	return v.String()
}

// Comma prints v as the bot protocol writes dice: "6,4".
func (v Value) Comma() string {
	hi, lo := v.Dice()
	return fmt.Sprintf("%d,%d", hi, lo)
}

// ParseValue reads a value written as two digits in either order ("64",
// "46"), as dice with a comma ("6,4"), or as "Mia" (any case); white space
// around it is ignored. Anything that is not one of the 21 values is an
// error wrapping ErrBadValue.
func ParseValue(s string) (Value, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "mia") {
		return Mia, nil
	}
	if len(t) == 3 && t[1] == ',' {
		t = t[:1] + t[2:]
	}
	if len(t) != 2 || t[0] < '1' || t[0] > '6' || t[1] < '1' || t[1] > '6' {
		return NoValue, fmt.Errorf("%w: %q is not a roll (two dice 1-6, like 64, or Mia)", ErrBadValue, s)
	}
	return FromDice(int(t[0]-'0'), int(t[1]-'0')), nil
}

// MarshalText writes v as two digits.
func (v Value) MarshalText() ([]byte, error) {
	if v == NoValue {
		return []byte{}, nil
	}
	if !v.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrBadValue, uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads two digits (or "Mia"); the empty text is NoValue.
func (v *Value) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*v = NoValue
		return nil
	}
	x, err := ParseValue(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}
