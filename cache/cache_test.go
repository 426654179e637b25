package cache

import (
	"fmt"
	"sync"
	"testing"
)

func TestTheLeastRecentlyUsedEntryGoesFirst(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 { // a is now the most recent
		t.Fatalf("a = %d, %v", v, ok)
	}
	c.Put("c", 3) // b goes
	if _, ok := c.Get("b"); ok {
		t.Fatal("b is still held though it was used least recently")
	}
	for k, want := range map[string]int{"a": 1, "c": 3} {
		if v, ok := c.Get(k); !ok || v != want {
			t.Fatalf("%s = %d, %v", k, v, ok)
		}
	}
	if c.Len() != 2 {
		t.Fatalf("Len = %d", c.Len())
	}
}

func TestPutReplacesWithoutGrowing(t *testing.T) {
	c := New[int, string](3)
	for i := 0; i < 10; i++ {
		c.Put(1, fmt.Sprint(i))
	}
	if v, _ := c.Get(1); v != "9" || c.Len() != 1 {
		t.Fatalf("Get(1) = %q, Len = %d", v, c.Len())
	}
}

func TestDeleteAndClearForget(t *testing.T) {
	c := New[int, int](4)
	c.Put(1, 1)
	c.Put(2, 2)
	c.Delete(1)
	if _, ok := c.Get(1); ok || c.Len() != 1 {
		t.Fatal("Delete kept the entry")
	}
	c.Clear()
	if _, ok := c.Get(2); ok || c.Len() != 0 {
		t.Fatal("Clear kept an entry")
	}
	c.Put(3, 3) // still usable after Clear
	if v, ok := c.Get(3); !ok || v != 3 {
		t.Fatal("a cache cleared cannot be used again")
	}
}

func TestTheBoundHoldsUnderConcurrentUse(t *testing.T) {
	c := New[int, int](50)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.Put(g*1000+i, i)
				c.Get(i)
			}
		}(g)
	}
	wg.Wait()
	if c.Len() != 50 {
		t.Fatalf("Len = %d, want the bound 50", c.Len())
	}
}
