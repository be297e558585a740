package guard

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// queued reports whether the client has sent bytes that the server has
// not read yet (the socket's receive queue, TIOCINQ): a connection whose
// handshake goroutine has not run yet on a busy server is not silent.
func queued(sc syscall.Conn) bool {
	if sc == nil {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	if err := rc.Control(func(fd uintptr) { n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil {
		return false
	}
	return n > 0
}
