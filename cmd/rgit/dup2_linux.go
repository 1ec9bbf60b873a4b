package main

import "syscall"

// dup2 is dup2(2); linux/arm64 has only dup3.
func dup2(from, to int) error { return syscall.Dup3(from, to, 0) }
