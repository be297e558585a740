package sshapp

import (
	"reflect"
	"testing"
)

// TestSessionEmbedsNothing: session writes out every method of the
// ssh.Session it wraps (sessionraw.go), so that no promoted method reaches
// the session's output or window around the outbox and the clamp.
func TestSessionEmbedsNothing(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[session]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Anonymous {
			t.Errorf("session embeds %s: its methods would reach the session around the outbox", f.Type)
		}
	}
}
