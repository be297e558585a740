package solver

import "testing"

func TestN(t *testing.T) {
	r := All()[0]
	t.Log(len(build(r, false).g.nodes), len(build(r, true).g.nodes))
	s, _ := Solve(r)
	t.Log(s.Report().States, len(s.m.g.nodes))
}
