package sshapp

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

func TestDrawers(t *testing.T) {
	t.Parallel()
	d := newDrawers(3)
	defer d.stop()

	t.Run("each session's calls in order, sessions at once", func(t *testing.T) {
		var wg sync.WaitGroup
		got := make([][]int, 8)
		for s := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				done := make(chan *drawPanic, 1)
				for i := range 200 {
					d.do(done, func() { got[s] = append(got[s], i) })
				}
			}()
		}
		wg.Wait()
		for s, calls := range got {
			for i, v := range calls {
				if v != i {
					t.Fatalf("session %d: call %d ran as %d", s, i, v)
				}
			}
			if len(calls) != 200 {
				t.Fatalf("session %d: %d calls ran, want 200", s, len(calls))
			}
		}
	})

	t.Run("at most n at once", func(t *testing.T) {
		var now, most atomic.Int32
		var wg sync.WaitGroup
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d.do(make(chan *drawPanic, 1), func() {
					n := now.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					time.Sleep(5 * time.Millisecond)
					now.Add(-1)
				})
			}()
		}
		wg.Wait()
		if m := most.Load(); m > 3 {
			t.Errorf("%d calls ran at once on 3 drawers", m)
		}
	})

	t.Run("a panic comes back to the caller, the drawer goes on", func(t *testing.T) {
		done := make(chan *drawPanic, 1)
		p := func() (p any) {
			defer func() { p = recover() }()
			d.do(done, func() { panic("boom") })
			return nil
		}()
		dp, ok := p.(*drawPanic)
		if !ok || fmt.Sprint(dp.value) != "boom" {
			t.Fatalf("caller recovered %v, want boom", p)
		}
		if !strings.Contains(string(dp.stack), "draw_test.go") || !strings.Contains(fmt.Sprint(p), "boom") {
			t.Errorf("the panic does not tell where it happened:\n%v", p)
		}
		for range 6 { // more calls than drawers: none was lost
			ran := false
			d.do(done, func() { ran = true })
			if !ran {
				t.Fatal("a call after the panic did not run")
			}
		}
	})
}

func TestDrawersStopped(t *testing.T) {
	t.Parallel()
	d := newDrawers(2)
	d.stop()
	d.stop() // twice is fine
	ran := false
	d.do(make(chan *drawPanic, 1), func() { ran = true })
	if !ran {
		t.Error("a call after stop did not run on the caller")
	}
}

// panicModel panics in Update on p.
type panicModel struct{}

func (panicModel) Init() tea.Cmd { return nil }
func (m panicModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "p" {
		panic("a bug in a screen")
	}
	return m, nil
}
func (panicModel) View() string { return "fine" }

// A screen that panics on a drawer ends its own program with Bubble Tea's
// panic error, as it would on its own goroutine; the drawers serve on.
func TestFramedPanic(t *testing.T) {
	t.Parallel()
	d := newDrawers(1)
	defer d.stop()
	var out syncBuffer
	p := tea.NewProgram(newFramed(panicModel{}, newFrames(&out, 1000, newFrameShare()), d),
		tea.WithInput(strings.NewReader("p")), tea.WithOutput(&out), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	if _, err := p.Run(); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("Run = %v, want the program's panic error", err)
	}
	ran := false
	d.do(make(chan *drawPanic, 1), func() { ran = true })
	if !ran {
		t.Error("the drawer is gone after the panic")
	}
}
