// Package faults is the fault suite: tests that build the memoree binary and drive it as a user would, through
// kills at random moments, full disks, a second user on a shared home, and racing commands, checking after each
// trial what must always hold. It runs only with MEMOREE_FAULTS=1 (make faults); see harness_test.go.
package faults
