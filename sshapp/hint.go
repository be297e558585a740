package sshapp

import (
	"net"
	"strings"

	"github.com/charmbracelet/ssh"
)

// hint is the ssh command line that reaches this server, with extra flags
// ("-t"): "ssh -t -p 23234 mia.example.org". It uses Config.PublicAddr, or
// the address the client connected to.
func (srv *Server) hint(s ssh.Session, flags string) string {
	addr := srv.cfg.PublicAddr
	if addr == "" && s != nil && s.LocalAddr() != nil {
		addr = s.LocalAddr().String()
	}
	return Hint(addr, flags)
}

// Hint is the ssh command line that reaches a server at addr ("host:port"),
// with extra flags ("-t"): "ssh -t -p 23234 mia.example.org"; the port is
// left out when it is 22, the host is HOST when addr has none.
func Hint(addr, flags string) string {
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
