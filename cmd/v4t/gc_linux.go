package main

import (
	"bytes"
	"os"
	"syscall"
	"unsafe"
)

// physicalMemory is the machine's memory in bytes (0 if unknown).
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// hugePagesOnRequest reports whether the kernel gives transparent huge
// pages to memory that asks for them and not to all memory (enabled =
// madvise): where it gives them to all, the heap has them already, and
// where to none, asking does nothing.
func hugePagesOnRequest() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

// adviseHugePages asks for huge pages for b's memory (MADV_HUGEPAGE). The
// advice is a hint: an error changes nothing but the speed.
func adviseHugePages(b []byte) {
	if len(b) == 0 {
		return
	}
	const madvHugepage = 14
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), madvHugepage)
}

// strictOvercommit reports whether the kernel refuses to commit more
// memory than its commit limit (vm.overcommit_memory = 2); true where that
// cannot be read, to be safe.
func strictOvercommit() bool {
	b, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	b = bytes.TrimSpace(b)
	return err != nil || len(b) == 0 || b[0] == '2'
}
