package guard

import (
	"testing"
	"time"
)

func TestDropChance(t *testing.T) {
	t.Parallel()
	l := Limits{}.WithDefaults() // 64 at most, early drop from 16 stalled at 30 %
	tests := []struct {
		lim             Limits
		unauth, stalled int
		want            int
	}{
		{l, 0, 0, 0},
		{l, 15, 15, 0},
		{l, 16, 16, 30},
		{l, 40, 40, 65},
		{l, 63, 63, 98},
		{l, 64, 64, 100},
		{l, 500, 500, 100},
		// a crowd whose handshakes are all under way: only the cap counts
		{l, 40, 0, 0},
		{l, 63, 15, 0},
		{l, 63, 16, 30},
		{l, 64, 0, 100},
		{Limits{MaxUnauthenticated: 2, EarlyDrop: 16, EarlyDropRate: 30}, 1, 1, 0},
		{Limits{MaxUnauthenticated: 2, EarlyDrop: 16, EarlyDropRate: 30}, 2, 2, 100},
		{Limits{MaxUnauthenticated: 64, EarlyDrop: -1, EarlyDropRate: 30}, 63, 63, 0},
		{Limits{MaxUnauthenticated: -1, EarlyDrop: 16, EarlyDropRate: 30}, 1000, 1000, 0},
	}
	for _, tt := range tests {
		if got := tt.lim.dropChance(tt.unauth, tt.stalled); got != tt.want {
			t.Errorf("dropChance(%d, %d stalled) with %d/%d/%d%% = %d, want %d", tt.unauth, tt.stalled,
				tt.lim.EarlyDrop, tt.lim.MaxUnauthenticated, tt.lim.EarlyDropRate, got, tt.want)
		}
	}
}

func TestStalledHandshakes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ages := []time.Duration{0, 10 * time.Millisecond, 999 * time.Millisecond, time.Second, 3 * time.Second}
	tests := []struct {
		name string
		lim  Limits
		want int
	}{
		{"default: a second or more", Limits{}, 2},
		{"after 5 ms", Limits{EarlyDropAfter: 5 * time.Millisecond}, 4},
		{"negative: every handshake, as OpenSSH", Limits{EarlyDropAfter: -1}, 5},
		{"early drop off", Limits{EarlyDrop: -1}, 0},
		{"no cap", Limits{MaxUnauthenticated: -1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(Config{Limits: tt.lim})
			for _, a := range ages {
				g.handshaking[&Conn{accepted: now.Add(-a)}] = struct{}{}
			}
			if got := g.stalledLocked(now); got != tt.want {
				t.Errorf("stalled = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestWithDefaults(t *testing.T) {
	t.Parallel()
	d := Limits{}.WithDefaults()
	if d.MaxPerSource != 16 || d.MaxUnauthenticated != 64 || d.PenaltyMin != 15*time.Second ||
		d.MaxSessionsPerPerson != DefaultMaxSessionsPerPerson || d.SendBuffer != 256<<10 {
		t.Errorf("defaults %+v", d)
	}
	off := Limits{MaxPerSource: -1, PenaltyMin: -1, EarlyDropRate: 250}.WithDefaults()
	if off.MaxPerSource != -1 || off.PenaltyMin != -1 || off.EarlyDropRate != 100 {
		t.Errorf("negative fields are kept, the rate bounded: %+v", off)
	}
}
