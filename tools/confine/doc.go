// Package confine holds the pieces every confinement of a command shares, whichever backend sets it up:
// the seccomp filter and the dropping of capabilities. It is a leaf: it imports nothing of Warden's, so
// that the sandbox, the read-only jail and the helper processes Warden re-executes can all use it.
package confine
