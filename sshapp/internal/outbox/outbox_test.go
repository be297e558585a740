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

// A Box hands its output over in order, in bursts with pauses between
// them, and keeps no goroutine or buffer while it has nothing to hand over.
func TestIdleBetweenBursts(t *testing.T) {
	pr, pw := io.Pipe()
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(pr)
		got <- b
	}()
	o := New(pw, 1<<20, nil)
	if !o.idle() {
		t.Fatal("a new Box is not idle")
	}
	var want []byte
	for burst := range 5 {
		for i := range 10 {
			line := []byte{byte('a' + burst), byte('0' + i), '\n'}
			want = append(want, line...)
			if _, err := o.Write(line); err != nil {
				t.Fatalf("burst %d write %d: %v", burst, i, err)
			}
		}
		deadline := time.Now().Add(5 * time.Second)
		for !o.idle() {
			if time.Now().After(deadline) {
				t.Fatalf("burst %d: still handing over after 5s (%d owed)", burst, o.Owed())
			}
			time.Sleep(time.Millisecond)
		}
	}
	if !o.Close(5 * time.Second) {
		t.Fatal("close waits with nothing owed")
	}
	pw.Close()
	if b := <-got; string(b) != string(want) {
		t.Errorf("the client got %q, want %q", b, want)
	}
}

func TestCloseUnwritten(t *testing.T) {
	o := New(io.Discard, 0, nil)
	if !o.Close(0) {
		t.Error("closing a Box never written to waits")
	}
	if _, err := o.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("write after close: %v, want ErrClosed", err)
	}
}

// idle reports whether no goroutine runs for o and it holds no buffer.
func (o *Box) idle() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.draining && o.buf == nil
}

// TestHandOverAllocs: a frame written to an idle Box and handed over
// allocates no buffer: the Box takes one a Box that went idle left
// (spareBufs). What is left is the method value handed to the spare
// goroutine.
func TestHandOverAllocs(t *testing.T) {
	const budget = 1 // measured: 1; a buffer made afresh each frame was 2
	o := New(io.Discard, 1<<16, nil)
	frame := make([]byte, 700)
	handOver := func() {
		if _, err := o.Write(frame); err != nil {
			t.Fatal(err)
		}
		for o.Owed() > 0 || o.handing() {
			time.Sleep(time.Microsecond)
		}
	}
	handOver()
	got := testing.AllocsPerRun(100, handOver)
	if got > budget {
		t.Errorf("a frame handed over: %.1f allocations, budget %d", got, budget)
	}
	t.Logf("a frame handed over: %.1f allocations", got)
}

// handing reports whether the goroutine handing output over runs.
func (o *Box) handing() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.draining
}
