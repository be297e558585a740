package rating

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// randBits is a valid rating with arbitrary bits: any sign and exponent,
// subnormal σ included.
func randBits(rng *rand.Rand) Rating {
	for {
		r := Rating{
			Mu:    math.Float64frombits(rng.Uint64()),
			Sigma: math.Float64frombits(rng.Uint64() >> 1), // positive
			Games: rng.IntN(1 << 30),
		}
		if r.Valid() {
			return r
		}
	}
}

func TestEncodingRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	rs := []Rating{
		Newcomer(),
		{Mu: math.Copysign(0, -1), Sigma: math.SmallestNonzeroFloat64},
		{Mu: -MaxValue, Sigma: MaxValue, Games: math.MaxInt32},
		{Mu: 0.1 + 0.2, Sigma: 1.0 / 3, Games: 1},
	}
	for range 10000 {
		rs = append(rs, randBits(rng))
	}
	// and ratings as the update leaves them
	before, places := randTable(rng, false)
	after, err := Rate(before, places)
	if err != nil {
		t.Fatal(err)
	}
	rs = append(rs, after...)

	for _, r := range rs {
		b, err := r.MarshalBinary()
		if err != nil || len(b) != EncodedLen {
			t.Fatalf("%v: %x, %v", r, b, err)
		}
		var back Rating
		if err := back.UnmarshalBinary(b); err != nil || !sameBits(back, r) {
			t.Fatalf("%v: binary gives back %v, %v", r, back, err)
		}
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		back = Rating{}
		if err := json.Unmarshal(j, &back); err != nil || !sameBits(back, r) {
			t.Fatalf("%v: JSON %s gives back %v, %v", r, j, back, err)
		}
	}
	// The layout, as the package doc says: format 1, then μ, σ, games.
	b, _ := Rating{Mu: 1, Sigma: 2, Games: 3}.MarshalBinary()
	want := []byte{1, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}
	if !bytes.Equal(b, want) {
		t.Errorf("encoding %x, want %x", b, want)
	}
	if b, err := (Rating{Mu: 1, Sigma: 0}).MarshalBinary(); !errors.Is(err, ErrRating) {
		t.Errorf("σ 0 encoded: %x, %v", b, err)
	}
}

func TestDecodingErrors(t *testing.T) {
	good, _ := Newcomer().MarshalBinary()
	with := func(off int, v uint64) []byte {
		b := bytes.Clone(good)
		binary.BigEndian.PutUint64(b[off:], v)
		return b
	}
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"short", good[:EncodedLen-1]},
		{"long", append(bytes.Clone(good), 0)},
		{"format 0", append([]byte{0}, good[1:]...)},
		{"format 2", append([]byte{2}, good[1:]...)},
		{"μ NaN", with(1, math.Float64bits(math.NaN()))},
		{"μ infinite", with(1, math.Float64bits(math.Inf(1)))},
		{"σ 0", with(9, 0)},
		{"σ negative", with(9, math.Float64bits(-1))},
		{"σ NaN", with(9, math.Float64bits(math.NaN()))},
		{"games beyond int", with(17, 1<<63)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Rating{Mu: 7, Sigma: 7, Games: 7}
			err := r.UnmarshalBinary(tc.b)
			if !errors.Is(err, ErrEncoding) {
				t.Errorf("UnmarshalBinary(%x) = %v, want an error wrapping ErrEncoding", tc.b, err)
			}
			if r != (Rating{Mu: 7, Sigma: 7, Games: 7}) {
				t.Errorf("a failed decoding changed the rating to %v", r)
			}
		})
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	good, _ := Newcomer().MarshalBinary()
	f.Add(good)
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, EncodedLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Rating
		if err := r.UnmarshalBinary(b); err != nil {
			return
		}
		again, err := r.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%x decodes to %v, which encodes to %x, %v", b, r, again, err)
		}
		if _, err := Rate([]Rating{r, Newcomer()}, []int{0, 1}); err != nil {
			t.Fatalf("decoded %v, which Rate refuses: %v", r, err)
		}
	})
}
