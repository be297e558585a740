package tui

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// BenchmarkNoticeCost is what following a person's notices costs a
// session: its queue, registered with the lobby, and the goroutine that
// waits on it (waitNotices), measured over 10,000 sessions as the heap
// and the stacks grow:
//
//	go test -run '^$' -bench NoticeCost -benchtime 3x ./sshapp/tui
func BenchmarkNoticeCost(b *testing.B) {
	e := newEnv(b)
	const sessions = 10_000
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		done := make(chan struct{})
		var wg sync.WaitGroup
		for i := range sessions {
			wait := waitNotices(e.lobby, e.lobby.Notices(fmt.Sprint("p:", i)), done)
			wg.Go(func() { wait() })
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse)/sessions, "B/session")
		close(done)
		wg.Wait()
		if st := e.lobby.NewsStats(); st.Noticed != 0 {
			b.Fatalf("%d people still heard", st.Noticed)
		}
	}
}
