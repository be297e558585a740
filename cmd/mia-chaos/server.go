package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// server is one run of the mia binary.
type server struct {
	cmd    *exec.Cmd
	addr   string // where it listens
	hostFP string // its host key's fingerprint
	exited chan error

	mu     sync.Mutex
	errors []string // its log lines of level error
	// paused and resumed are the tables the log said paused (and why)
	// and resumed, in order.
	paused  []pauseLine
	resumed []string
}

// pauseLine is a table's pause as the log tells it.
type pauseLine struct{ table, why string }

// startServer runs mia on 127.0.0.1 with env and waits for its listening
// line.
func startServer(bin string, env []string) (*server, error) {
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-format", "json")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start mia: %w", err)
	}
	s := &server{cmd: cmd, exited: make(chan error, 1)}
	listening := make(chan map[string]any, 1)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		s.readLog(stderr, listening)
	}()
	go func() {
		<-logDone // every line read before Wait closes the pipe
		s.exited <- cmd.Wait()
	}()
	select {
	case m := <-listening:
		s.addr, _ = m["addr"].(string)
		s.hostFP, _ = m["fingerprint"].(string)
		return s, nil
	case err := <-s.exited:
		return nil, fmt.Errorf("mia exited before it listened: %v; %s", err, strings.Join(s.errorLines(), "; "))
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-s.exited
		return nil, errors.New("mia did not listen within 30 s")
	}
}

// readLog reads the server's JSON log: the listening line, and every
// error.
func (s *server) readLog(r io.Reader, listening chan<- map[string]any) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			s.noteError(sc.Text()) // a panic's trace, or anything not a log line
			continue
		}
		switch {
		case m["msg"] == "listening":
			select {
			case listening <- m:
			default:
			}
		case m["level"] == "error":
			s.noteError(sc.Text())
		case m["msg"] == "table paused: a write was not saved":
			table, _ := m["table"].(string)
			why, _ := m["why"].(string)
			s.mu.Lock()
			s.paused = append(s.paused, pauseLine{table, why})
			s.mu.Unlock()
		case m["msg"] == "storage answered: table resumed":
			table, _ := m["table"].(string)
			s.mu.Lock()
			s.resumed = append(s.resumed, table)
			s.mu.Unlock()
		}
	}
}

func (s *server) noteError(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, line)
}

// pauses returns the pauses and the resumes the log told so far.
func (s *server) pauses() ([]pauseLine, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]pauseLine(nil), s.paused...), append([]string(nil), s.resumed...)
}

func (s *server) errorLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errors...)
}

// kill ends the server at once (SIGKILL) and waits for it.
func (s *server) kill() error {
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill mia: %w", err)
	}
	<-s.exited
	return nil
}

// stop ends the server cleanly (SIGTERM) and returns its exit error.
func (s *server) stop() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop mia: %w", err)
	}
	select {
	case err := <-s.exited:
		return err
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return errors.New("mia did not stop within 15 s of SIGTERM")
	}
}
