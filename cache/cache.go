// Package cache holds the one cache type Warden's packages use: a map bounded in entries that forgets the
// least recently used first. A cache belongs to the value that needs it (the permission engine, a
// repository, a walk), never to a package, so that two sessions, or two tests, never share what one of them
// learnt, and so that everything a process remembers has a bound.
//
// It is a leaf: it imports nothing of Warden's.
package cache

import (
	"container/list"
	"sync"
)

// LRU is a map of at most Max entries, safe for concurrent use. When a Put would pass Max, the entry used
// least recently goes. The zero value is not usable: make one with New.
type LRU[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recently used; elements hold *entry[K, V]
	items map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key K
	val V
}

// New returns an empty cache of at most max entries (at least one).
func New[K comparable, V any](max int) *LRU[K, V] {
	if max < 1 {
		max = 1
	}
	return &LRU[K, V]{max: max, order: list.New(), items: make(map[K]*list.Element)}
}

// Get returns the value for k, and whether there was one; a hit counts as a use.
func (c *LRU[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Put sets the value for k, forgetting the least recently used entry when the cache is full.
func (c *LRU[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		el.Value.(*entry[K, V]).val = v
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&entry[K, V]{k, v})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry[K, V]).key)
	}
}

// Delete forgets k.
func (c *LRU[K, V]) Delete(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.order.Remove(el)
		delete(c.items, k)
	}
}

// Len is the number of entries held.
func (c *LRU[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Clear forgets everything.
func (c *LRU[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.items)
}
