//go:build !unix

package testkit

import "errors"

// Mkfifo fails where there are no named pipes; tests skip their case.
func Mkfifo(string) error { return errors.New("no named pipes here") }
