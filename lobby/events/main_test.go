package events_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a goroutine they started outlives
// them (go.uber.org/goleak).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
