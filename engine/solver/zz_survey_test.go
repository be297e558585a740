package solver

import (
	"testing"
	"time"
)

func TestSurvey(t *testing.T) {
	all := All()
	for i, r := range all {
		if i%surveyEvery != 0 {
			continue
		}
		start := time.Now()
		s, err := Solve(r)
		if err != nil {
			t.Logf("%-70s %v", r, err)
			continue
		}
		rp := s.Report()
		t.Logf("%-70s it %5d %5.1fs v %.4f g %.5f %.5f states %d", r, rp.Iterations, time.Since(start).Seconds(), rp.Value, rp.Gain[0], rp.Gain[1], rp.States)
	}
}

var surveyEvery = 1
