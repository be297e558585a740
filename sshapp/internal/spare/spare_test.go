package spare

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestReusesASpareGoroutine: functions run one after another run on the
// goroutine that ran the one before, not each on a new one. (Go never
// waits: a function handed over while the spare goroutine is between
// counting itself spare and waiting starts another, so a few may.)
func TestReusesASpareGoroutine(t *testing.T) {
	p := New(4, time.Minute)
	done := make(chan struct{})
	for range 100 {
		p.Go(func() { done <- struct{}{} })
		<-done
		for p.spare.Load() == 0 { // spare once it counts itself so
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Millisecond) // and waiting, most often, a moment later
	}
	if n := p.started.Load(); n > 10 {
		t.Errorf("100 functions one after another started %d goroutines, want a few", n)
	}
	drain(t, p)
}

// TestBlockedHoldsUpNothing: a function that blocks does not delay the
// next: it runs on another goroutine.
func TestBlockedHoldsUpNothing(t *testing.T) {
	p := New(4, time.Minute)
	release := make(chan struct{})
	p.Go(func() { <-release })
	ran := make(chan struct{})
	p.Go(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("a function waited behind a blocked one")
	}
	close(release)
	if n := p.started.Load(); n != 2 {
		t.Errorf("%d goroutines started, want 2", n)
	}
	drain(t, p)
}

// TestKeepsAtMostMaxSpare: after a burst, at most maxSpare goroutines wait.
func TestKeepsAtMostMaxSpare(t *testing.T) {
	p := New(3, time.Minute)
	var wg sync.WaitGroup
	release := make(chan struct{})
	for range 10 {
		wg.Add(1)
		p.Go(func() { defer wg.Done(); <-release })
	}
	close(release)
	wg.Wait()
	for i := 0; p.spare.Load() < 3 && i < 1000; i++ {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the goroutines past the bound end meanwhile
	if n := p.spare.Load(); n > 3 {
		t.Errorf("%d spare goroutines, at most 3", n)
	}
	drain(t, p)
}

// TestSpareGoroutinesEnd: with no work, the spare goroutines end after
// their idle time.
func TestSpareGoroutinesEnd(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent()) // the other tests' ending meanwhile
	p := New(8, 10*time.Millisecond)
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		p.Go(wg.Done)
	}
	wg.Wait()
}

// drain ends p's goroutines, as their idle time would: each that is
// spare, or becomes so (a function that just returned), is handed one
// that ends it.
func drain(t *testing.T, p *Pool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.running.Load() > 0 {
		select {
		case p.jobs <- runtimeGoexit:
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left", p.running.Load())
		}
	}
}

var runtimeGoexit = runtime.Goexit
