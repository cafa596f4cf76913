//go:build !linux

package main

// physicalMemory is unknown here: the limit is only relative to the input.
func physicalMemory() int64 { return 0 }

// hugePagesOnRequest: transparent huge pages are Linux's.
func hugePagesOnRequest() bool { return false }

func adviseHugePages([]byte) {}

func strictOvercommit() bool { return true }
