package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// checkDebugAddr refuses a debug address that is not on the loopback
// interface: the profiles show the server's insides, and a CPU profile
// costs CPU, so only someone on the machine may ask for them.
func checkDebugAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("debug address %q: %w", addr, err)
	}
	if loopbackHost(host) {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("debug address %q listens on %s: only a loopback address is allowed (127.0.0.1:PORT, [::1]:PORT or localhost:PORT)", addr, host)
}

// loopbackHost reports whether a listening address's host part is only
// reachable from this machine: "localhost" or a loopback IP.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// debugMux serves net/http/pprof under /debug/pprof/ on its own mux (the
// package's init registers on http.DefaultServeMux, which nothing here
// serves).
func debugMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// debugServer is the running profiling endpoint.
type debugServer struct {
	srv  *http.Server
	addr net.Addr
	done chan struct{}
}

// startDebug listens on addr (already checked by checkDebugAddr) and
// serves the profiles until stop.
func startDebug(addr string) (*debugServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug listen: %w", err)
	}
	d := &debugServer{
		srv:  &http.Server{Handler: debugMux(), ReadHeaderTimeout: 10 * time.Second},
		addr: ln.Addr(),
		done: make(chan struct{}),
	}
	go func() {
		defer close(d.done)
		_ = d.srv.Serve(ln) // ErrServerClosed after stop
	}()
	return d, nil
}

// stop closes the endpoint; a profile being taken is cut short.
func (d *debugServer) stop() error {
	if d == nil {
		return nil
	}
	err := d.srv.Close()
	<-d.done
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("debug server: %w", err)
	}
	return nil
}
