package tui

import (
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestDrawnLinesKeepNoPadding: the lines a screen keeps drawn are its
// view's lines without their padding, and hold none of the padded view:
// an empty line points nowhere, the others into one string exactly as
// long as what they say together.
func TestDrawnLinesKeepNoPadding(t *testing.T) {
	s := NewStyles(NewRenderer(nil, "xterm-256color", nil))
	tests := []struct {
		name string
		rows []string
	}{
		{"empty list", nil},
		{"a few rows", []string{"den  · classic · 1 of 4", "", "pub  · pips · 2 of 2   "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vp := s.newView()
			sizeView(&vp, 100, 20)
			setRows(&vp, tt.rows, 0)
			padded := strings.Split(vp.View(), "\n")
			var want []string
			n := 0
			for _, l := range padded {
				want = append(want, strings.TrimRight(l, " "))
				n += len(want[len(want)-1])
			}
			got := s.rowLines(100, 20, tt.rows)
			if !slices.Equal(got, want) {
				t.Fatalf("lines %q, want %q", got, want)
			}
			var first, end uintptr
			for _, l := range got {
				p := uintptr(unsafe.Pointer(unsafe.StringData(l)))
				if l == "" {
					if p != 0 {
						t.Fatalf("an empty line points into a string")
					}
					continue
				}
				if first == 0 {
					first = p
				} else if p != end {
					t.Fatalf("the lines are not one string of their own")
				}
				end = p + uintptr(len(l))
			}
			if int(end-first) != n {
				t.Fatalf("the lines span %d bytes, want %d", end-first, n)
			}
		})
	}
}
