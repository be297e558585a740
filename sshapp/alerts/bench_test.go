package alerts

import (
	"net/http"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
)

// BenchmarkGamesBesideHooks is one game of a table of bots, played to its
// end, with no hook, and beside a hook that hangs and one that answers
// 500 for ever (and a good one): the games take as long either way, as a
// hook never holds up a move. Compare the ns/op of the two:
//
//	go test -run '^$' -bench GamesBesideHooks -count 5 ./sshapp/alerts
func BenchmarkGamesBesideHooks(b *testing.B) {
	for _, tc := range []struct {
		name string
		bad  bool
	}{{"no hooks", false}, {"a hanging hook, a failing one", true}} {
		b.Run(tc.name, func(b *testing.B) {
			release := make(chan struct{})
			defer close(release)
			var hooks []ServerHook
			if tc.bad {
				hanging := newReceiver(b, func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-release:
					case <-r.Context().Done():
					}
				})
				failing := newReceiver(b, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
				good := newReceiver(b, nil)
				hooks = []ServerHook{{hanging.URL, JSON}, {failing.URL, JSON}, {good.URL, Slack}}
			}
			e := newEnv(b, Config{Hooks: hooks, Timeout: time.Minute, Backoff: time.Millisecond})
			ended := e.lob.Follow()
			defer e.lob.Unfollow(ended)
			host := e.person("host")
			tbl := e.table("busy", false, 3, host)
			b.ResetTimer()
			e.bots(tbl, host)
			for n := 0; n < b.N; {
				<-ended.Ready()
				for _, news := range ended.Take() {
					if news.Kind == lobby.NewsGameEnded {
						n++
					}
				}
			}
			b.StopTimer()
		})
	}
}
