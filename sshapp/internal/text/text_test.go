package text

import "testing"

func TestClean(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain", 16, "plain"},
		{"\x1b[31mred\x1b[0m", 16, "[31mred[0m"},
		{"bidi\u202eevil", 16, "bidievil"},
		{"zero\u200dwidth", 16, "zerowidth"},
		{"bad\xffutf8", 16, "badutf8"},
		{"tab\there\r\n", 16, "tabhere"},
		{"ünïcode", 16, "ünïcode"},
		{"toolongtoolong", 5, "toolo"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in, tt.max); got != tt.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
