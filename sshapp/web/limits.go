package web

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// addrs holds what each client address has open and how fast it asks:
// its connections (capped at accept), its event streams, and a token
// bucket of requests. An address with nothing open is forgotten once its
// bucket is full again.
type addrs struct {
	lim     Limits
	limited atomic.Uint64 // requests and connections refused by a limit

	mu      sync.Mutex
	by      map[string]*addr
	streams int // event streams of every address
	swept   time.Time
}

type addr struct {
	conns, streams int
	bucket         *rate.Limiter
	used           time.Time // the last request
}

func newAddrs(lim Limits) *addrs { return &addrs{lim: lim, by: make(map[string]*addr)} }

// ipOf is the address part of a remote address ("192.0.2.1:5555").
func ipOf(remote string) string {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}

// get returns ip's entry, made if missing; a.mu held.
func (a *addrs) get(ip string, now time.Time) *addr {
	e := a.by[ip]
	if e == nil {
		e = &addr{bucket: rate.NewLimiter(rate.Limit(a.lim.Rate), a.lim.Burst)}
		a.by[ip] = e
	}
	e.used = now
	a.sweep(now)
	return e
}

// sweep forgets, at most once a minute, the addresses with nothing open
// whose bucket has refilled; a.mu held.
func (a *addrs) sweep(now time.Time) {
	if now.Sub(a.swept) < time.Minute {
		return
	}
	a.swept = now
	full := time.Duration(float64(a.lim.Burst)/a.lim.Rate*float64(time.Second)) + time.Second
	for ip, e := range a.by {
		if e.conns == 0 && e.streams == 0 && now.Sub(e.used) > full {
			delete(a.by, ip)
		}
	}
}

// allow takes a request of ip from its bucket.
func (a *addrs) allow(ip string) bool {
	now := time.Now()
	a.mu.Lock()
	ok := a.get(ip, now).bucket.AllowN(now, 1)
	a.mu.Unlock()
	if !ok {
		a.limited.Add(1)
	}
	return ok
}

// errStreams says which cap refused a stream.
type streamCap int

const (
	streamOK      streamCap = iota
	streamAddrCap           // the address's
	streamAllCap            // everyone's
)

// openStream counts an event stream of ip, unless a cap refuses it; the
// caller closes it with closeStream.
func (a *addrs) openStream(ip string) streamCap {
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.get(ip, time.Now())
	switch {
	case e.streams >= a.lim.MaxStreamsPerAddr:
		a.limited.Add(1)
		return streamAddrCap
	case a.streams >= a.lim.MaxStreams:
		a.limited.Add(1)
		return streamAllCap
	}
	e.streams++
	a.streams++
	return streamOK
}

func (a *addrs) closeStream(ip string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e := a.by[ip]; e != nil && e.streams > 0 {
		e.streams--
		a.streams--
	}
}

// sendBuffer caps the kernel's send buffer of each connection (Linux
// doubles it).
const sendBuffer = 128 << 10

// listener caps the connections of each address: one over the cap is
// closed as it comes.
func (a *addrs) listener(ln net.Listener) net.Listener { return &capListener{Listener: ln, a: a} }

type capListener struct {
	net.Listener
	a *addrs
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := ipOf(c.RemoteAddr().String())
		l.a.mu.Lock()
		e := l.a.get(ip, time.Now())
		if e.conns >= l.a.lim.MaxConnsPerAddr {
			l.a.mu.Unlock()
			l.a.limited.Add(1)
			c.Close()
			continue
		}
		e.conns++
		l.a.mu.Unlock()
		if tc, ok := c.(*net.TCPConn); ok {
			// What a client that stops reading holds in the kernel is
			// bounded too, not grown by autotuning to megabytes.
			_ = tc.SetWriteBuffer(sendBuffer)
		}
		return &capConn{Conn: c, a: l.a, ip: ip}, nil
	}
}

// capConn gives its place back when closed (once).
type capConn struct {
	net.Conn
	a    *addrs
	ip   string
	once sync.Once
}

func (c *capConn) Close() error {
	c.once.Do(func() {
		c.a.mu.Lock()
		if e := c.a.by[c.ip]; e != nil && e.conns > 0 {
			e.conns--
		}
		c.a.mu.Unlock()
	})
	return c.Conn.Close()
}

// limit is the middleware of the request limits: a request over its
// address's rate is refused with 429 and a Retry-After.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.addrs.allow(ipOf(r.RemoteAddr)) {
			w.Header().Set("Retry-After", "1")
			s.plain(w, http.StatusTooManyRequests, "Too many requests from your address: wait a moment, then reload.")
			return
		}
		next.ServeHTTP(w, r)
	})
}
