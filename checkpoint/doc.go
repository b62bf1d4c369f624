// Package checkpoint holds the input rules every note obeys before it is staged or remembered: read at most
// [MaxInput] bytes, accept only non-empty UTF-8, validate session IDs and task labels, and cap the stored text at
// [MaxStored] bytes with an explicit truncation marker.
package checkpoint
