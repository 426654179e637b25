//go:build benchstats

package app

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"syscall"
)

// A binary built with -tags benchstats is for bench/ alone: the soak asks it for its goroutines and heap,
// which nothing outside the process can count, and a profile of the real binary shows where the CPU of a
// figure goes. Builds without the tag have none of this.
//
//	WARDEN_BENCH_STATS=FILE       on SIGUSR1, a JSON line {"goroutines", "heap_alloc", "heap_objects", "num_gc",
//	                              "live_heap"} is appended to FILE; live_heap is what the last collection found
//	                              alive (runtime/metrics /gc/heap/live:bytes), what the program holds on to
//	WARDEN_BENCH_CPUPROFILE=FILE  a CPU profile from the start, which appears as FILE (whole) on SIGUSR2,
//	                              with FILE.allocs, the allocations since the start
//	WARDEN_BENCH_HEAPPROFILE=FILE a heap profile written to FILE.N with the N-th SIGUSR1 (1, 2…), so that
//	                              two of them can be compared (go tool pprof -diff_base)
func init() {
	stats, profile := os.Getenv("WARDEN_BENCH_STATS"), os.Getenv("WARDEN_BENCH_CPUPROFILE")
	if stats == "" && profile == "" {
		return
	}
	var prof *os.File
	if profile != "" {
		if f, err := os.Create(profile + ".part"); err == nil {
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
			} else {
				prof = f
			}
		}
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		samples := 0
		for sig := range sigs {
			if sig == syscall.SIGUSR2 {
				if prof != nil {
					pprof.StopCPUProfile()
					prof.Close()
					os.Rename(prof.Name(), profile)
					prof = nil
					// Beside it, the allocations since the start (the heap profile's alloc_space):
					// what the collector's share of that CPU comes from.
					if f, err := os.Create(profile + ".allocs"); err == nil {
						pprof.Lookup("allocs").WriteTo(f, 0)
						f.Close()
					}
				}
				continue
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(live)
			line, _ := json.Marshal(map[string]uint64{"goroutines": uint64(runtime.NumGoroutine()),
				"heap_alloc": ms.HeapAlloc, "heap_objects": ms.HeapObjects, "num_gc": uint64(ms.NumGC),
				"live_heap": live[0].Value.Uint64()})
			samples++
			if heap := os.Getenv("WARDEN_BENCH_HEAPPROFILE"); heap != "" {
				if f, err := os.Create(fmt.Sprintf("%s.%d", heap, samples)); err == nil {
					pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
				}
			}
			if f, err := os.OpenFile(stats, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Write(append(line, '\n'))
				f.Close()
			}
		}
	}()
}
