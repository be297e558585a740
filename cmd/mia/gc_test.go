package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	t.Parallel()
	defer debug.SetGCPercent(debug.SetGCPercent(100)) // restore what the test binary had
	tests := []struct {
		name   string
		gogc   string
		before int // what the runtime read from GOGC at start
		want   int
	}{
		{"GOGC unset: the server's target", "", 100, gcPercent},
		{"GOGC set: the host's target stays", "200", 200, 200},
		{"GOGC=off stays off", "off", -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(tt.before)
			got := tuneGC(func(k string) string {
				if k == "GOGC" {
					return tt.gogc
				}
				return ""
			})
			now := debug.SetGCPercent(100)
			if got != tt.want || now != tt.want {
				t.Errorf("tuneGC = %d, runtime at %d; want %d", got, now, tt.want)
			}
		})
	}
}
