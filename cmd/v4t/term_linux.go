package main

import "syscall"

// termGet is the ioctl that reads a terminal's settings: it fails on
// anything that is not a terminal, /dev/null and other character devices
// among them.
const termGet = syscall.TCGETS
