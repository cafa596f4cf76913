//go:build !unix

package main

import "os"

// peakRSS is unknown where there is no getrusage; the report says n/a.
func peakRSS(*os.ProcessState) int64 { return 0 }
