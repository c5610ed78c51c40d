// The Go contender: github.com/go-zookeeper/zk, the client of most Go infrastructure, driven as the Node and Java
// contenders are (src/contenders/driver-protocol.ts): one process per cell, the cell as key=value arguments,
// "@@ready" and the first turn's start on stdin for cells in turns, one "@@result {json}" line at the end.
// The library's calls block, and concurrent calls from goroutines are pipelined on its one connection: N
// requests in flight are N goroutines, each issuing its next request when the last returns.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zookeeper/zk"
)

var args = map[string]string{}

func arg(name string) string {
	v, ok := args[name]
	if !ok {
		panic("missing argument " + name)
	}
	return v
}

func intArg(name string) int {
	n, err := strconv.Atoi(args[name])
	if err != nil {
		return 0
	}
	return n
}

type quiet struct{}

func (quiet) Printf(string, ...interface{}) {}

// connect opens a session and waits until it has one; the events are drained (the library panics on a full channel).
func connect() *zk.Conn {
	conn, events, err := zk.Connect([]string{arg("connect")}, 30*time.Second, zk.WithLogger(quiet{}))
	if err != nil {
		panic(err)
	}
	connected := make(chan struct{})
	go func() {
		once := sync.Once{}
		for ev := range events {
			if ev.State == zk.StateHasSession {
				once.Do(func() { close(connected) })
			}
		}
	}()
	select {
	case <-connected:
	case <-time.After(10 * time.Second):
		panic("connect: no session in 10 s")
	}
	return conn
}

func cpuMicros() int64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u.Utime.Sec*1e6 + u.Utime.Usec + u.Stime.Sec*1e6 + u.Stime.Usec
}

type result map[string]interface{}

func latencyOf(samples []int64) map[string]int64 {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	pct := func(p float64) int64 {
		if len(samples) == 0 {
			return 0
		}
		i := int(float64(len(samples))*p/100+0.999999) - 1
		if i < 0 {
			i = 0
		}
		return samples[i]
	}
	m := map[string]int64{"count": int64(len(samples)), "p50": pct(50), "p90": pct(90), "p99": pct(99), "p999": pct(99.9), "max": pct(100)}
	return m
}

// counters shared by a cell's loops
var completed, failed atomic.Int64

// turns is the schedule of a cell in turns (TurnSchedule in src/types.ts), nil for a cell that runs alone.
type turns struct {
	startAt                 time.Time
	index, of, cycles       int
	turnMs, gapMs, warmUpMs int
}

func schedule() *turns {
	if intArg("turnCycles") == 0 {
		return nil
	}
	return &turns{index: intArg("turnsIndex"), of: intArg("turnsOf"), cycles: intArg("turnCycles"),
		turnMs: intArg("turnMs"), gapMs: intArg("gapMs"), warmUpMs: intArg("turnWarmupMs")}
}

// awaitStart says ready and reads the first turn's start (epoch ms) from stdin.
func (t *turns) awaitStart() {
	fmt.Println("@@ready")
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil {
		panic("stdin closed before the start line")
	}
	ms, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
	if err != nil {
		panic("bad start line " + line)
	}
	t.startAt = time.UnixMilli(ms)
}

func (t *turns) startOf(cycle int) time.Time {
	return t.startAt.Add(time.Duration((cycle*t.of+t.index)*(t.turnMs+t.gapMs)) * time.Millisecond)
}

// rampMs: a turn's first moments are not counted (rampMs in src/measure/turns.ts)
func (t *turns) rampMs() int {
	r := (t.turnMs + 2) / 5
	if r > 100 {
		return 100
	}
	return r
}

// loop runs N goroutines issuing op until stop is closed; done is closed once every one has returned.
func loop(n int, op func(slot int) error) (stop chan struct{}, done chan struct{}) {
	stop, done = make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	for slot := 0; slot < n; slot++ {
		wg.Add(1)
		go func(slot int) {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if op(slot) == nil {
					completed.Add(1)
				} else {
					failed.Add(1)
				}
			}
		}(slot)
	}
	go func() { wg.Wait(); close(done) }()
	return stop, done
}

// inTurns runs start/stop in each of this contender's turns and adds up the measured windows.
func inTurns(t *turns, start func(turnStart time.Time, recordFrom time.Time), stop func()) result {
	if t.warmUpMs > 0 {
		start(time.Now(), time.Now().Add(24*time.Hour))
		time.Sleep(time.Duration(t.warmUpMs) * time.Millisecond)
		stop()
	}
	t.awaitStart()
	var ops, errs, cpu int64
	var elapsed time.Duration
	rates, cpuPerOp := []float64{}, []float64{}
	for cycle := 0; cycle <= t.cycles; cycle++ {
		begin := t.startOf(cycle)
		time.Sleep(time.Until(begin))
		from := begin.Add(time.Duration(t.rampMs()) * time.Millisecond)
		start(begin, from)
		time.Sleep(time.Until(from))
		o0, e0, c0, t0 := completed.Load(), failed.Load(), cpuMicros(), time.Now()
		time.Sleep(time.Until(begin.Add(time.Duration(t.turnMs) * time.Millisecond)))
		o1, e1, c1, t1 := completed.Load(), failed.Load(), cpuMicros(), time.Now()
		stop()
		if cycle == 0 {
			continue
		}
		ops, errs, cpu, elapsed = ops+o1-o0, errs+e1-e0, cpu+c1-c0, elapsed+t1.Sub(t0)
		rates = append(rates, float64(o1-o0)/t1.Sub(t0).Seconds())
		per := 0.0
		if o1 > o0 {
			per = float64(c1-c0) / float64(o1-o0)
		}
		cpuPerOp = append(cpuPerOp, per)
	}
	return result{"ok": true, "ops": ops, "errors": errs, "elapsedMs": float64(elapsed.Microseconds()) / 1000,
		"cpuUs": cpu, "turnRates": rates, "turnCpuUsPerOp": cpuPerOp}
}

func throughput(conn *zk.Conn, t *turns) result {
	n := intArg("inFlight")
	data := []byte(strings.Repeat("a", intArg("dataSize")))
	var op func(slot int) error
	switch arg("op") {
	case "getData":
		op = func(int) error { _, _, err := conn.Get(arg("data")); return err }
	case "exists":
		op = func(int) error { _, _, err := conn.Exists(arg("data")); return err }
	case "setData":
		op = func(int) error { _, err := conn.Set(arg("data"), data, -1); return err }
	case "getChildren":
		op = func(int) error { _, _, err := conn.Children(arg("children")); return err }
	case "createDelete":
		paths := make([]string, n)
		for i := range paths {
			paths[i] = fmt.Sprintf("%s/%s-%d", arg("scratch"), arg("cellId"), i)
		}
		op = func(slot int) error {
			if _, err := conn.Create(paths[slot], data, 0, zk.WorldACL(zk.PermAll)); err != nil {
				return err
			}
			return conn.Delete(paths[slot], -1)
		}
	case "multi":
		ops := []interface{}{}
		for _, path := range strings.Split(arg("multi"), ",") {
			ops = append(ops, &zk.SetDataRequest{Path: path, Data: data, Version: -1})
		}
		op = func(int) error { _, err := conn.Multi(ops...); return err }
	default:
		return result{"ok": false, "unsupported": true, "error": "go has no " + arg("op")}
	}
	var stopLoop, done chan struct{}
	return inTurns(t, func(time.Time, time.Time) { stopLoop, done = loop(n, op) }, func() {
		close(stopLoop)
		<-done
	})
}

// latency: getData at a rate, request k due at the turn's start + k / rate and timed from then (no coordinated
// omission); the requests due after the turn's ramp are recorded.
func latency(conn *zk.Conn, t *turns) result {
	rate := intArg("rate")
	var mu sync.Mutex
	var samples []int64
	var turnP99s []int64
	var inFlight sync.WaitGroup
	var stopPacer chan struct{}
	var paced chan struct{}
	var turn []int64
	warmingUp := false
	cycle := 0
	start := func(begin, recordFrom time.Time) {
		stopPacer, paced = make(chan struct{}), make(chan struct{})
		end := begin.Add(time.Duration(t.turnMs) * time.Millisecond)
		share := rate
		warmingUp = recordFrom.After(end)
		if warmingUp { // the warm-up alongside the others: this contender's share of the rate
			share, end = max(1, rate/t.of), begin.Add(time.Duration(t.warmUpMs)*time.Millisecond)
		}
		go func() {
			defer close(paced)
			sent := 0
			for {
				now := time.Now()
				if now.After(end) {
					now = end
				}
				due := int(now.Sub(begin).Microseconds() * int64(share) / 1e6)
				for ; sent < due; sent++ {
					dueAt := begin.Add(time.Duration(int64(sent+1) * int64(time.Second) / int64(share)))
					record := !dueAt.Before(recordFrom)
					inFlight.Add(1)
					go func() {
						defer inFlight.Done()
						_, _, err := conn.Get(arg("data"))
						if err != nil {
							failed.Add(1)
							return
						}
						completed.Add(1)
						if record {
							mu.Lock()
							turn = append(turn, time.Since(dueAt).Microseconds())
							mu.Unlock()
						}
					}()
				}
				select {
				case <-stopPacer:
					return
				case <-time.After(time.Millisecond):
				}
				if now.Equal(end) {
					return
				}
			}
		}()
	}
	stop := func() {
		close(stopPacer)
		<-paced
		inFlight.Wait()
		mu.Lock()
		defer mu.Unlock()
		// neither the warm-up alongside the others nor the first cycle's turn counts
		if !warmingUp && cycle > 0 {
			samples = append(samples, turn...)
			turnP99s = append(turnP99s, latencyOf(append([]int64{}, turn...))["p99"])
		}
		if !warmingUp {
			cycle++
		}
		turn = nil
	}
	r := inTurns(t, start, stop)
	r["latency"] = latencyOf(samples)
	r["turnP99Us"] = turnP99s
	r["note"] = fmt.Sprintf("%d req/s, a goroutine per request", rate)
	return r
}

// alone runs body for warm-up + duration; the window opens after the warm-up.
func alone(body func(recording bool)) result {
	warmup := time.Duration(intArg("warmupMs")) * time.Millisecond
	end := time.Now().Add(warmup + time.Duration(intArg("durationMs"))*time.Millisecond)
	opened := time.Now().Add(warmup)
	var o0, c0 int64
	var t0 time.Time
	open := false
	for time.Now().Before(end) {
		if !open && !time.Now().Before(opened) {
			open, o0, c0, t0 = true, completed.Load(), cpuMicros(), time.Now()
		}
		body(open)
	}
	if !open {
		o0, c0, t0 = completed.Load(), cpuMicros(), time.Now()
	}
	return result{"ok": true, "ops": completed.Load() - o0, "errors": 0,
		"elapsedMs": float64(time.Since(t0).Microseconds()) / 1000, "cpuUs": cpuMicros() - c0}
}

func session() result {
	var samples []int64
	closing := make(chan struct{}, 32) // sessions closing in the background at once at most, as the others
	r := alone(func(recording bool) {
		t := time.Now()
		conn := connect()
		if recording {
			samples = append(samples, time.Since(t).Microseconds())
		}
		completed.Add(1)
		closing <- struct{}{}
		go func() { conn.Close(); <-closing }()
	})
	r["latency"] = latencyOf(samples)
	return r
}

func watch() result {
	watcher, writer := connect(), connect()
	data := []byte(strings.Repeat("b", intArg("dataSize")))
	var samples []int64
	r := alone(func(recording bool) {
		_, _, events, err := watcher.GetW(arg("watch"))
		if err != nil {
			panic(err)
		}
		t := time.Now()
		if _, err := writer.Set(arg("watch"), data, -1); err != nil {
			panic(err)
		}
		select {
		case <-events:
		case <-time.After(5 * time.Second):
			panic("watch event: none within 5 s")
		}
		if recording {
			samples = append(samples, time.Since(t).Microseconds())
		}
		completed.Add(1)
	})
	r["latency"] = latencyOf(samples)
	watcher.Close()
	writer.Close()
	return r
}

func run() (r result) {
	defer func() {
		if p := recover(); p != nil {
			r = result{"ok": false, "error": fmt.Sprint(p)}
		}
	}()
	switch arg("kind") {
	case "throughput", "latency":
		t := schedule()
		if t == nil {
			return result{"ok": false, "error": "this cell runs only in turns"}
		}
		conn := connect()
		defer conn.Close()
		if arg("kind") == "latency" {
			return latency(conn, t)
		}
		return throughput(conn, t)
	case "session":
		return session()
	case "watch":
		return watch()
	}
	return result{"ok": false, "unsupported": true, "error": "go has no " + arg("kind") + " cell"}
}

func main() {
	for _, a := range os.Args[1:] {
		if i := strings.IndexByte(a, '='); i > 0 {
			args[a[:i]] = a[i+1:]
		}
	}
	out, _ := json.Marshal(run())
	fmt.Printf("@@result %s\n", out)
	os.Exit(0)
}
