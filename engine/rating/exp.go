package rating

import "math"

// exp is e^x for x ≤ 0, the same on every machine: math.Exp runs assembly
// on some architectures (amd64, arm64, s390x), whose last bit may differ,
// and a rating must be rebuilt anywhere to the bit. The method is fdlibm's
// e_exp.c (as in Go's portable math.exp): x = k·ln2 + r with |r| ≤ ln2/2,
// e^r from a degree-5 minimax polynomial, then scaled by 2^k; error below
// one ulp. Every product that is added is rounded on its own (float64(…)),
// so no compiler may fuse it into a multiply-add. The update calls it with
// x ≤ 0 only (μ minus the table's highest μ); x > 0 is out of its domain.
// Below −708, where e^x leaves the normal float64 range, it returns 0: a
// weight of 10⁻³⁰⁷ beside the leader's 1 changes nothing.
func exp(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // ln2's high 32 bits
		ln2Lo = 1.90821492927058770002e-10 // the rest of ln2
		log2e = 1.44269504088896338700e+00
		// the polynomial of e^r's rational form
		p1       = 1.66666666666666657415e-01
		p2       = -2.77777777770155933842e-03
		p3       = 6.61375632143793436117e-05
		p4       = -1.65339022054652515390e-06
		p5       = 4.13813679705723846039e-08
		nearZero = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x) || x > 0:
		return math.NaN()
	case x < -708:
		return 0
	case x > -nearZero:
		return 1 + x
	}
	k := int(float64(log2e*x) - 0.5)
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	poly := p4 + float64(t*p5)
	poly = p3 + float64(t*poly)
	poly = p2 + float64(t*poly)
	poly = p1 + float64(t*poly)
	c := r - float64(t*poly)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	// 2^k is exact, and y·2^k is exact while it stays a normal number,
	// which it does for x ≥ −708 (k ≥ −1022).
	return y * math.Float64frombits(uint64(1023+k)<<52)
}
