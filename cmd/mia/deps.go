package main

// The pinned dependencies of DEVELOPERS.md, held in go.mod until the packages
// that use them import them. This file goes once they all do.
import (
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "go.etcd.io/bbolt"
)
