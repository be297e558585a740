package alerts

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// Allow is where a table's own hook may go (--webhook-allow): host names,
// each exact or "*.example.org" for every name under example.org, and
// addresses and networks (CIDR). A table's hook names a listed host (or
// an address a listed network holds); and whatever its name resolves to,
// it never reaches an address of a special range (loopback, link-local,
// private, shared, unspecified, multicast) that no listed network holds:
// the address is checked as the connection is made, so a name that
// resolves elsewhere later is caught too. A hook is a request the server
// makes on a user's behalf.
type Allow struct {
	names []string       // lower case; "*.example.org" for the names under it
	nets  []netip.Prefix // addresses are /32 or /128
}

// ErrBadAllow is the kind of ParseAllow's errors.
var ErrBadAllow = lobby.NewError(lobby.Refused, "--webhook-allow takes host names (exact, or *.example.org), addresses and CIDR networks, comma-separated")

// ParseAllow reads a comma-separated list of hosts, addresses and
// networks: "hooks.slack.com, *.example.org, 10.1.0.0/16".
func ParseAllow(s string) (Allow, error) {
	var a Allow
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		switch {
		case f == "":
			continue
		case strings.Contains(f, "/"):
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return Allow{}, fmt.Errorf("%w: %q: %w", ErrBadAllow, f, err)
			}
			a.nets = append(a.nets, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(strings.Trim(f, "[]")); err == nil {
			a.nets = append(a.nets, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		name := strings.TrimPrefix(f, "*.")
		if name == "" || len(name) > 253 || strings.ContainsAny(name, " /:@*?#[]") {
			return Allow{}, fmt.Errorf("%w: %q", ErrBadAllow, f)
		}
		a.names = append(a.names, f)
	}
	return a, nil
}

// Empty reports whether nothing is allowed: tables may have no hooks.
func (a Allow) Empty() bool { return len(a.names) == 0 && len(a.nets) == 0 }

// String is the list, as ParseAllow reads it.
func (a Allow) String() string {
	out := slices.Clone(a.names)
	for _, p := range a.nets {
		out = append(out, p.String())
	}
	return strings.Join(out, ",")
}

// Host reports whether a table's hook may name host (a URL's host, without
// its port).
func (a Allow) Host(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.holds(ip)
	}
	for _, n := range a.names {
		if n == host || strings.HasPrefix(n, "*.") && strings.HasSuffix(host, n[1:]) {
			return true
		}
	}
	return false
}

// holds reports whether a listed network holds ip.
func (a Allow) holds(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range a.nets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// specialNets are the ranges of addresses besides those netip names
// (loopback, private, link-local, unspecified, multicast) that a table's
// hook never reaches unless allowed.
var specialNets = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // shared (carrier-grade NAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: an IPv4 address inside
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local NAT64
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4: an IPv4 address inside
	netip.MustParsePrefix("fec0::/10"),       // site-local
}

// Special says why ip is of a special range a table's hook never reaches
// unless allowed ("" if it is not): "loopback", "private", "link-local",
// "reserved".
func Special(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsPrivate():
		return "private"
	case ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast():
		return "reserved"
	}
	for _, p := range specialNets {
		if p.Contains(ip) {
			return "reserved"
		}
	}
	return ""
}

// AddressError refuses a connection of a table's hook to an address of a
// special range no listed network holds.
type AddressError struct {
	Addr netip.Addr
	Why  string // Special's word
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("the address %s is %s: a table's hook does not go there unless the server allows it", e.Addr, e.Why)
}

// Kind is Refused.
func (e *AddressError) Kind() lobby.ErrorKind { return lobby.Refused }

// newClient is the HTTP client of hooks: one request bounded by timeout,
// no redirect followed. With allow (a table's hooks) its connections are
// checked against allow (Special) as they are made, and go through no
// proxy; without (the server's) they take the environment's proxy.
func newClient(timeout time.Duration, allow *Allow) *http.Client {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	proxy := http.ProxyFromEnvironment
	if allow != nil {
		proxy = nil
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("hook address %q: %w", address, err)
			}
			if why := Special(ap.Addr()); why != "" && !allow.holds(ap.Addr()) {
				return &AddressError{Addr: ap.Addr().Unmap(), Why: why}
			}
			return nil
		}
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{Proxy: proxy, DialContext: dialer.DialContext, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout, MaxIdleConns: 16, MaxIdleConnsPerHost: 2,
			IdleConnTimeout: 90 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Sign is the signature of a body as X-Mia-Signature-256 carries it:
// "sha256=" and the hex of its HMAC-SHA256 under secret (as GitHub signs
// its webhooks).
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// The headers of a delivery (sshapp/PROTOCOL.md §6).
const (
	HeaderEvent     = "X-Mia-Event"
	HeaderDelivery  = "X-Mia-Delivery"
	HeaderSignature = "X-Mia-Signature-256"
	userAgent       = "mia-webhook/1"
)

// answer is how one request went.
type answer struct {
	status   int    // 0: no answer
	body     string // the start of the answer, cleaned
	location string // a redirect's, not followed
	err      error  // no answer: why
	took     time.Duration
}

// retry reports whether a try may go better later: an answer of 5xx or
// 429, a timeout, no connection; never a refused address or a redirect.
func (r answer) retry() bool {
	var ae *AddressError
	switch {
	case r.err != nil:
		return !errors.As(r.err, &ae)
	case r.status >= 500, r.status == http.StatusTooManyRequests:
		return true
	}
	return false
}

// result is r as the metrics count it.
func (r answer) result() string {
	var ae *AddressError
	switch {
	case r.err != nil && errors.As(r.err, &ae), r.status >= 300 && r.status < 400:
		return resultRefused
	case r.err == nil && r.status >= 200 && r.status < 300:
		return resultOK
	}
	return resultFailed
}

// said is what went wrong, in words ("" if nothing did).
func (r answer) said() string {
	var ae *AddressError
	switch {
	case r.err != nil && errors.As(r.err, &ae):
		return ae.Error()
	case r.err != nil && isTimeout(r.err):
		return "no answer in time"
	case r.err != nil:
		var ue *url.Error
		if errors.As(r.err, &ue) {
			return words.Clean(ue.Err.Error(), 200)
		}
		return words.Clean(r.err.Error(), 200)
	case r.status >= 300 && r.status < 400:
		return fmt.Sprintf("answered %d, a redirect to %s: not followed", r.status, words.Clean(r.location, 200))
	case r.status < 200 || r.status >= 300:
		return fmt.Sprintf("answered %d %s", r.status, http.StatusText(r.status))
	}
	return ""
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// send makes one request of d to the hook.
func (h *hook) send(ctx context.Context, d delivery) answer {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(d.body))
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Content-Type", d.contentType)
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(HeaderEvent, string(d.kind))
	req.Header.Set(HeaderDelivery, d.id)
	if h.secret != "" {
		req.Header.Set(HeaderSignature, Sign(h.secret, d.body))
	}
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	return answer{status: resp.StatusCode, body: words.Clean(string(body), 200), location: resp.Header.Get("Location"),
		took: time.Since(start)}
}
