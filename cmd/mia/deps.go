package main

// The pinned dependencies of DEVELOPERS.md, held in go.mod until the packages
// that use them import them. This file goes once they all do.
import (
	_ "github.com/charmbracelet/bubbles/help"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/log"
	_ "github.com/charmbracelet/ssh"
	_ "github.com/charmbracelet/wish"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/crypto/ssh"
)

func main() {}
