package sshapp

import (
	"net"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/ssh"
)

// clean makes text someone typed safe to show on another person's
// terminal: invalid UTF-8, control characters (escape codes included) and
// format characters (bidi overrides, zero-width joiners) are dropped, and
// the result is cut to max runes.
func clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			break
		}
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r) {
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// hint is the ssh command line that reaches this server, with extra flags
// ("-t"): "ssh -t -p 23234 mia.example.org". It uses Config.PublicAddr, or
// the address the client connected to.
func (srv *Server) hint(s ssh.Session, flags string) string {
	addr := srv.cfg.PublicAddr
	if addr == "" && s != nil && s.LocalAddr() != nil {
		addr = s.LocalAddr().String()
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = addr, ""
	}
	if host == "" {
		host = "HOST"
	}
	var b strings.Builder
	b.WriteString("ssh")
	if flags != "" {
		b.WriteString(" " + flags)
	}
	if port != "" && port != "22" {
		b.WriteString(" -p " + port)
	}
	b.WriteString(" " + host)
	return b.String()
}
