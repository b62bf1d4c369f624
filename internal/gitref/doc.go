// Package gitref reads the commit and branch of a git work tree from its .git directory, without running git.
package gitref
