package outbox

import (
	"errors"
	"io"
	"testing"
	"time"
)

func TestBound(t *testing.T) {
	tests := []struct {
		name    string
		max     int
		writes  []int // sizes
		wantErr int   // index of the first write that fails; -1 none
	}{
		{"under the bound", 100, []int{40, 40, 20}, -1},
		{"past the bound", 100, []int{40, 40, 21, 1}, 2},
		{"one write too big", 100, []int{101}, 0},
		{"no bound", 0, []int{1 << 20, 1 << 20}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe() // a client that reads nothing until the pipe is read
			defer pr.Close()
			overs := make(chan int, 4)
			o := New(pw, tt.max, func(owed int) { overs <- owed })
			first := -1
			for i, n := range tt.writes {
				if _, err := o.Write(make([]byte, n)); err != nil {
					if !errors.Is(err, ErrOwes) {
						t.Fatalf("write %d: %v", i, err)
					}
					if first < 0 {
						first = i
					}
				}
			}
			if first != tt.wantErr {
				t.Fatalf("first failed write %d, want %d", first, tt.wantErr)
			}
			if tt.wantErr >= 0 {
				select {
				case owed := <-overs:
					if owed <= tt.max {
						t.Errorf("over called with %d owed, bound %d", owed, tt.max)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("over was not called")
				}
			}
			if tt.wantErr < 0 && o.Close(10*time.Millisecond) {
				t.Error("close reports done while the client reads nothing")
			}
			go func() { _, _ = io.Copy(io.Discard, pr) }() // the client reads again
			if !o.Close(5 * time.Second) {
				t.Error("close still waits once the client reads")
			}
			if len(overs) > 0 {
				t.Error("over called more than once")
			}
			if _, err := o.Write([]byte("x")); err == nil {
				t.Error("a write after close went through")
			}
		})
	}
}
