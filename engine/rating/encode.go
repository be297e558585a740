package rating

import (
	"encoding/binary"
	"fmt"
	"math"
)

// EncodedLen is the length of a rating's binary encoding.
const EncodedLen = 25

// encodingV1 is the first byte of the binary encoding.
const encodingV1 = 1

// MarshalBinary encodes r in EncodedLen bytes that decode to the same
// bits: a format byte (1), then μ's and σ's IEEE 754 bits and the games,
// each 8 bytes big-endian. (JSON is exact too: encoding/json writes a
// float64 in the shortest form that reads back to the same bits.)
func (r Rating) MarshalBinary() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("encode rating: %w", err)
	}
	return r.AppendBinary(make([]byte, 0, EncodedLen))
}

// AppendBinary appends r's binary encoding to b.
func (r Rating) AppendBinary(b []byte) ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("encode rating: %w", err)
	}
	b = append(b, encodingV1)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(r.Mu))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(r.Sigma))
	return binary.BigEndian.AppendUint64(b, uint64(r.Games)), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded. Anything else (a
// wrong length or format byte, or a rating that is not valid) is an error
// wrapping ErrEncoding, and r is left as it was.
func (r *Rating) UnmarshalBinary(b []byte) error {
	if len(b) != EncodedLen || b[0] != encodingV1 {
		return fmt.Errorf("decode rating: %w: %d bytes, format %d", ErrEncoding, len(b), first(b))
	}
	games := binary.BigEndian.Uint64(b[17:])
	if games > math.MaxInt {
		return fmt.Errorf("decode rating: %w: %d games", ErrEncoding, games)
	}
	d := Rating{
		Mu:    math.Float64frombits(binary.BigEndian.Uint64(b[1:])),
		Sigma: math.Float64frombits(binary.BigEndian.Uint64(b[9:])),
		Games: int(games),
	}
	if !d.Valid() {
		return fmt.Errorf("decode rating: %w: mu %v, sigma %v", ErrEncoding, d.Mu, d.Sigma)
	}
	*r = d
	return nil
}

func first(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}
