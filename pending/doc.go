// Package pending keeps staged checkpoints: one private JSON file per session in a directory that nothing else
// reads, written atomically under a per-session lock. Pending text never leaves this directory except through
// an explicit review command.
package pending
