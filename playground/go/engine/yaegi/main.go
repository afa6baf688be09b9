//go:build js && wasm

package main

// The Web Worker side (playground/go/engine/worker.ts) loads this program, waits for
// globalThis.__yaegiReady(), then calls globalThis.__yaegiRun({ files, mode }) once.
// globalThis.__yaegiShouldWarmUp() tells whether no job is waiting yet.
// Output goes to os.Stdout / os.Stderr, which wasm_exec.js sends to globalThis.fs.writeSync,
// and the job's exit code goes to the Go instance's exit callback. One instance runs one job.

import (
	"os"
	"syscall/js"
	"time"
)

func main() {
	jobs := make(chan Job, 1)
	js.Global().Set("__yaegiRun", js.FuncOf(func(this js.Value, args []js.Value) any {
		jobs <- readJob(args[0])
		return nil
	}))
	// Warm up while this worker waits as the runner's spare. Sleeping first returns to the
	// worker's event loop, so a job that is already waiting is seen and not delayed.
	time.Sleep(time.Millisecond)
	if js.Global().Call("__yaegiShouldWarmUp").Truthy() {
		WarmUp()
	}
	js.Global().Call("__yaegiReady")
	job := <-jobs
	os.Exit(Run(job, os.Stdout, os.Stderr))
}

// readJob copies { files: Record<string, string>, mode: string } out of JavaScript.
func readJob(v js.Value) Job {
	job := Job{Files: map[string]string{}, Mode: v.Get("mode").String()}
	files := v.Get("files")
	keys := js.Global().Get("Object").Call("keys", files)
	for i, n := 0, keys.Length(); i < n; i++ {
		k := keys.Index(i).String()
		job.Files[k] = files.Get(k).String()
	}
	return job
}
