// GoRunner against the real engine: yaegi.wasm + worker.js built by playground/go/build.mjs into
// dist/site/go/engine/ (build first: `node esbuild.config.mjs go`, or `node playground/go/build.mjs`).
import { expect } from '@open-wc/testing';
import { GoRunner, type GoFiles, type GoMode, type GoRunnerState } from '../../playground/go/engine/go-runner.js';
import { createGoRunControl, type GoRunControl } from '../../playground/go/run-control.js';
import { createGoOperations } from '../../tools/go/operations.js';
import { caller } from '../helpers/tools-call.js';

/** Whether `promise` settles before a task queued now runs (microtasks only: no timer, no message). */
async function answeredBeforeNextTask(promise: Promise<unknown>): Promise<boolean> {
  const nextTask = new Promise<false>((resolve) => setTimeout(() => resolve(false), 0));
  return Promise.race([promise.then(() => true, () => true), nextTask]);
}

const engine = { workerUrl: '/dist/site/go/engine/worker.js', wasmUrl: '/dist/site/go/engine/yaegi.wasm' };

const GO_MOD = 'module example.com/app\n\ngo 1.19\n';

async function runGo(runner: GoRunner, files: GoFiles, mode: GoMode = 'run') {
  let output = '';
  const started = performance.now();
  const { done } = runner.start(files, mode, (chunk) => {
    output += chunk;
  });
  const result = await done;
  return { ...result, output, ms: performance.now() - started };
}

function main(body: string, imports: string[] = ['fmt']): Record<string, string> {
  return {
    'go.mod': GO_MOD,
    'main.go': `package main\n\nimport (\n${imports.map((i) => `\t"${i}"\n`).join('')})\n\n${body}\n`,
  };
}

describe('GoRunner (Yaegi in a Web Worker)', function () {
  // The first load fetches and compiles a 34 MB wasm.
  this.timeout(120000);

  const runner = new GoRunner(engine);
  const states: GoRunnerState[] = [];
  runner.subscribe((s) => states.push(s));

  after(() => runner.dispose());

  it('[GO-4] loads lazily: nothing is fetched before load(), load() is idempotent and reports loading', async () => {
    const wasmEntries = () => performance.getEntriesByName(new URL(engine.wasmUrl, location.href).href);
    expect(runner.loaded).to.equal(false);
    expect(runner.state).to.equal('idle');
    expect(wasmEntries()).to.have.length(0);
    const started = performance.now();
    const first = runner.load();
    expect(runner.state).to.equal('loading');
    const second = runner.load();
    await Promise.all([first, second]);
    console.log(`[go] cold load (fetch + compile yaegi.wasm): ${Math.round(performance.now() - started)} ms`);
    expect(runner.loaded).to.equal(true);
    expect(runner.state).to.equal('idle');
    expect(states).to.deep.equal(['loading', 'idle']);
    await runner.load();
    expect(wasmEntries()).to.have.length(1);
  });

  it('[GO-5] hello world exits 0 with its output right after the load; a second run works', async () => {
    const first = await runGo(runner, main('func main() { fmt.Println("hello, world") }'));
    expect(first).to.include({ exitCode: 0, stopped: false });
    expect(first.output).to.equal('hello, world\n');
    const second = await runGo(runner, main('func main() { fmt.Println("again") }'));
    expect(second.exitCode).to.equal(0);
    expect(second.output).to.equal('again\n');
    console.log(`[go] first run: ${Math.round(first.ms)} ms, second run: ${Math.round(second.ms)} ms`);
  });

  it('[GO-4] a wasm that cannot be fetched makes load() reject, and start() reject its done', async () => {
    const broken = new GoRunner({ ...engine, wasmUrl: '/dist/site/go/engine/missing.wasm' });
    let error: unknown;
    await broken.load().catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('missing.wasm');
    expect(broken.state).to.equal('idle');
    error = undefined;
    await broken.start(main('func main() {}'), 'run', () => {}).done.catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
  });

  it('[GO-4] start() before load() loads first (loading → running → idle); stop() during the load cancels the job', async () => {
    const fresh = new GoRunner({ ...engine, warm: false });
    const seen: GoRunnerState[] = [];
    fresh.subscribe((s) => seen.push(s));
    const cancelled = fresh.start(main('func main() { fmt.Println("never") }'), 'run', () => {});
    expect(fresh.state).to.equal('loading');
    expect(() => fresh.start(main('func main() {}'), 'run', () => {})).to.throw(/loading/);
    cancelled.stop();
    expect(await cancelled.done).to.deep.equal({ exitCode: -1, stopped: true });
    await fresh.load();
    expect(fresh.state).to.equal('idle');
    seen.length = 0;
    const r = await runGo(fresh, main('func main() { fmt.Println("loaded on demand") }'));
    expect(r).to.include({ exitCode: 0, output: 'loaded on demand\n' });
    expect(seen).to.deep.equal(['running', 'idle']);
  });

  it('[GO-5] a run on a warmed-up runner starts at once', async () => {
    const warmStart = performance.now();
    await runner.warmUp();
    const warming = performance.now() - warmStart;
    const r = await runGo(runner, main('func main() { fmt.Println("warm") }'));
    expect(r.exitCode).to.equal(0);
    expect(r.output).to.equal('warm\n');
    console.log(`[go] waiting for the spare worker: ${Math.round(warming)} ms, then run: ${Math.round(r.ms)} ms`);
  });

  it('[GO-7] state is running during a job and a second start throws', async () => {
    states.length = 0;
    const job = runner.start(main('func main() { fmt.Println("x") }'), 'run', () => {});
    expect(runner.state).to.equal('running');
    expect(() => runner.start(main('func main() {}'), 'run', () => {})).to.throw(/running/);
    await job.done;
    expect(runner.state).to.equal('idle');
    expect(states).to.deep.equal(['running', 'idle']);
  });

  it('[GO-5] a compile error exits 1 with the error in the output', async () => {
    const r = await runGo(runner, main('func main() {\n\tundefinedThing()\n}'));
    expect(r.exitCode).to.equal(1);
    expect(r.output).to.contain('undefined: undefinedThing');
    expect(r.output).to.contain('main.go:');
  });

  it('[GO-5] os.Exit(3) exits 3 without running deferred calls', async () => {
    const r = await runGo(runner, main('func main() {\n\tdefer fmt.Println("deferred")\n\tfmt.Println("bye")\n\tos.Exit(3)\n}', ['fmt', 'os']));
    expect(r.exitCode).to.equal(3);
    expect(r.output).to.equal('bye\n');
  });

  it('[GO-5] a panic exits 2 with the panic message', async () => {
    const r = await runGo(runner, main('func main() {\n\tfmt.Println("before")\n\tpanic("boom")\n}'));
    expect(r.exitCode).to.equal(2);
    expect(r.output).to.contain('before\n');
    expect(r.output).to.contain('panic: boom');
  });

  it('[GO-5] a panic on another goroutine exits 2 with the panic message', async () => {
    const r = await runGo(runner, main('func main() {\n\tgo func() { panic("in goroutine") }()\n\ttime.Sleep(time.Second)\n}', ['time']));
    expect(r.exitCode).to.equal(2);
    expect(r.output).to.contain('panic: in goroutine');
    expect(r.output).not.to.contain('github.com/traefik/yaegi');
  });

  it('[GO-5] a deadlocked program exits 2 with Go\'s deadlock message instead of hanging', async () => {
    const r = await runGo(runner, main('func main() {\n\tfmt.Println("waiting")\n\tch := make(chan int)\n\t<-ch\n}'));
    expect(r.exitCode).to.equal(2);
    expect(r.output).to.equal('waiting\nfatal error: all goroutines are asleep - deadlock!\n');
  });

  it('[GO-5] goroutines, channels, timers and a pending fetch are not taken for a deadlock', async () => {
    const url = new URL('/package.json', location.href).href;
    const r = await runGo(
      runner,
      main(
        'func main() {\n' +
          '\tch := make(chan string)\n' +
          '\tgo func() { time.Sleep(50 * time.Millisecond); ch <- "tick" }()\n' +
          '\tfmt.Println(<-ch)\n' +
          `\tresp, err := http.Get(${JSON.stringify(url)})\n` +
          '\tif err != nil {\n\t\tpanic(err)\n\t}\n' +
          '\tb, _ := io.ReadAll(resp.Body)\n' +
          '\tfmt.Println(resp.StatusCode, strings.Contains(string(b), "\\"name\\""))\n' +
          '}',
        ['fmt', 'io', 'net/http', 'strings', 'time'],
      ),
    );
    expect(r.output).to.equal('tick\n200 true\n');
    expect(r.exitCode).to.equal(0);
  });

  it('[GO-3] go run refuses a root package that is not main', async () => {
    const r = await runGo(runner, { 'go.mod': GO_MOD, 'lib.go': 'package lib\n\nfunc F() {}\n' });
    expect(r.exitCode).to.equal(1);
    expect(r.output).to.equal('package example.com/app is not a main package\n');
  });

  it('[GO-5] log.Fatal exits 1 with its message', async () => {
    const r = await runGo(runner, main('func main() {\n\tlog.SetFlags(0)\n\tlog.Fatalf("fatal %d", 7)\n}', ['log']));
    expect(r.exitCode).to.equal(1);
    expect(r.output).to.equal('fatal 7\n');
  });

  it('[GO-3] [GO-5] go test prints raw === RUN / --- PASS / --- FAIL output and exits 1 when a test fails', async () => {
    const files = {
      'go.mod': GO_MOD,
      'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
      'calc/calc_test.go':
        'package calc\n\nimport "testing"\n\n' +
        'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("wrong")\n\t}\n}\n\n' +
        'func TestBroken(t *testing.T) {\n\tt.Errorf("got %d, want %d", Add(2, 2), 5)\n}\n',
      'main.go': 'package main\n\nfunc main() {}\n',
    };
    const r = await runGo(runner, files, 'test');
    expect(r.exitCode).to.equal(1);
    expect(r.output).to.contain('=== RUN   TestAdd\n--- PASS: TestAdd');
    expect(r.output).to.contain('=== RUN   TestBroken\n');
    expect(r.output).to.contain('    got 4, want 5\n--- FAIL: TestBroken');
    expect(r.output).to.contain('FAIL\texample.com/app/calc');
    expect(r.output).to.contain('?   \texample.com/app\t[no test files]');
    expect(r.output).not.to.contain('value.go');
  });

  it('[GO-3] [GO-5] go test exits 0 when every test of every package passes', async () => {
    const files = {
      'go.mod': GO_MOD,
      'a/a_test.go': 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
      'b/b_test.go': 'package b\n\nimport "testing"\n\nfunc TestB(t *testing.T) { t.Log("in b") }\n',
    };
    const r = await runGo(runner, files, 'test');
    expect(r.exitCode).to.equal(0);
    expect(r.output).to.contain('--- PASS: TestA');
    expect(r.output).to.contain('    in b\n--- PASS: TestB');
    expect(r.output).to.contain('ok  \texample.com/app/a');
    expect(r.output).to.contain('ok  \texample.com/app/b');
  });

  it('[GO-5] a panicking test fails its package with the panic message and exit 1', async () => {
    const files = {
      'go.mod': GO_MOD,
      'p/p_test.go': 'package p\n\nimport "testing"\n\nfunc TestPanics(t *testing.T) { panic("test boom") }\n',
    };
    const r = await runGo(runner, files, 'test');
    expect(r.exitCode).to.equal(1);
    expect(r.output).to.contain('panic: test boom');
    expect(r.output).to.contain('--- FAIL: TestPanics');
  });

  it('[GO-3] main imports a package from a subdirectory through the go.mod module path', async () => {
    const files = {
      'go.mod': GO_MOD,
      'main.go': 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/app/greet"\n)\n\nfunc main() { fmt.Println(greet.Hello("gopher")) }\n',
      'greet/greet.go': 'package greet\n\nfunc Hello(name string) string { return "hello, " + name }\n',
      'docs/': '',
    };
    const r = await runGo(runner, new Map(Object.entries(files)));
    expect(r.output).to.equal('hello, gopher\n');
    expect(r.exitCode).to.equal(0);
  });

  for (const pkg of ['syscall/js', 'syscall', 'unsafe']) {
    it(`[GO-8] importing ${pkg} fails to compile with exit 1`, async () => {
      const r = await runGo(runner, main('func main() { fmt.Println("x") }', ['fmt', pkg]));
      expect(r.exitCode).to.equal(1);
      expect(r.output).to.contain(`import "${pkg}" error: unable to find source related to: "${pkg}"`);
    });
  }

  it('[GO-6] stop() ends a `for {}` program promptly and the next run works', async () => {
    let output = '';
    let printed!: () => void;
    const spinning = new Promise<void>((resolve) => (printed = resolve));
    const job = runner.start(main('func main() {\n\tfmt.Println("spinning")\n\tfor {\n\t}\n}'), 'run', (c) => {
      output += c;
      if (output.includes('spinning')) printed();
    });
    // Wait until the program is inside its loop: it printed the line just before it.
    await spinning;
    expect(output).to.equal('spinning\n');
    const stopAt = performance.now();
    job.stop();
    // Promptly: stop() terminates the worker, so the job is done before the page's next task.
    expect(await answeredBeforeNextTask(job.done)).to.equal(true);
    const result = await job.done;
    expect(result).to.deep.equal({ exitCode: -1, stopped: true });
    expect(runner.state).to.equal('idle');
    const next = await runGo(runner, main('func main() { fmt.Println("after stop") }'));
    expect(next.exitCode).to.equal(0);
    expect(next.output).to.equal('after stop\n');
    console.log(`[go] restart after stop (stop → next run done): ${Math.round(performance.now() - stopAt)} ms`);
    // A run once the replacement worker has started.
    await runner.warmUp();
    const warm = await runGo(runner, main('func main() { fmt.Println("warm again") }'));
    expect(warm.output).to.equal('warm again\n');
    console.log(`[go] stop → replacement worker ready: ${Math.round(performance.now() - stopAt - warm.ms)} ms; then run: ${Math.round(warm.ms)} ms`);
  });

  it('[GO-3] [GO-4] the job runs the files as they were at start, not later edits', async () => {
    const files = new Map(Object.entries(main('func main() {\n\ttime.Sleep(300 * time.Millisecond)\n\tfmt.Println("original")\n}', ['fmt', 'time'])));
    let output = '';
    const { done } = runner.start(files, 'run', (c) => (output += c));
    files.set('main.go', 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("edited") }\n');
    files.delete('go.mod');
    const r = await done;
    expect(r.exitCode).to.equal(0);
    expect(output).to.equal('original\n');
  });

  it('[GO-5] output streams while the program runs and multi-byte text survives chunking', async () => {
    const chunks: string[] = [];
    // What the page had been given when the first chunk came, read right then (in that task).
    let firstSeen!: (text: string) => void;
    const first = new Promise<string>((resolve) => (firstSeen = resolve));
    const { done } = runner.start(
      main('func main() {\n\tfmt.Println("こんにちは")\n\ttime.Sleep(200 * time.Millisecond)\n\tfmt.Print("世界")\n}', ['fmt', 'time']),
      'run',
      (c) => {
        chunks.push(c);
        if (chunks.length === 1) firstSeen(chunks.join(''));
      },
    );
    // The first line arrives while the program still sleeps before its second write.
    expect(await first).to.equal('こんにちは\n');
    await done;
    expect(chunks.join('')).to.equal('こんにちは\n世界');
  });
});

/** `go_run` / `go_test` through the real call path over a page run function (files are not read here). */
function goCaller(control: GoRunControl) {
  return caller(createGoOperations({
    files: { isLoaded: () => true, list: () => [], read: () => null, write: () => {}, remove: () => {} },
    getRunnerState: () => control.runState.getState().status,
    run: (mode, options) => control.run(mode, options),
  }));
}

describe('the Go page run function over the real engine (go_run / go_test answers)', function () {
  this.timeout(120000);

  const runner = new GoRunner(engine);
  let files: Record<string, string> = {};
  // The files module is tested on its own (playground/go/files.ts); here a plain snapshot is enough.
  const control = createGoRunControl({ runner, files: { isLoaded: () => true, snapshot: () => ({ ...files }) } });
  const call = goCaller(control);
  let output = '';
  control.subscribeOutput((event) => {
    if (event.type === 'start') output = '';
    if (event.type === 'chunk') output += event.text;
  });
  /** Resolves once `done()` holds, checked now and after each output event and run-state change of `of`. */
  const until = (done: () => boolean, of: GoRunControl = control) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        stopOutput();
        stopState();
        resolve();
      };
      const stopOutput = of.subscribeOutput(check);
      const stopState = of.runState.subscribe(check);
      check();
    });
  const spinning = main('func main() {\n\tfmt.Println("spinning")\n\tfor {\n\t}\n}');
  const spinningTest = {
    'go.mod': GO_MOD,
    'spin/spin_test.go': 'package spin\n\nimport "testing"\n\nfunc TestSpin(t *testing.T) {\n\tfor {\n\t}\n}\n',
  };

  before(() => runner.warmUp());
  after(() => runner.dispose());

  for (const mode of ['run', 'test'] as const) {
    it(`[GO-9] the user's 停止 during an agent's go_${mode} answers a failure saying the user stopped it, with the output so far`, async () => {
      files = mode === 'run' ? spinning : spinningTest;
      const running = call(`go_${mode}`, { timeoutMs: 30000 });
      await until(() => output.includes(mode === 'run' ? 'spinning\n' : '=== RUN   TestSpin'));
      const soFar = output;
      control.stop();
      const answer = (await running).result;
      expect(answer.ok, JSON.stringify(answer)).to.equal(false);
      expect(answer.error?.code).to.equal('declined');
      expect(answer.error?.message).to.contain('the user stopped');
      expect(answer).to.deep.include({ output: soFar, truncated: false });
      expect(control.runState.getState()).to.deep.include({ status: 'idle', end: { kind: 'stopped' } });
    });
  }

  it("[GO-9] 停止 while Yaegi still loads answers that the user stopped it, with no output", async () => {
    const fresh = createGoRunControl({ runner: new GoRunner({ ...engine, warm: false }), files: { isLoaded: () => true, snapshot: () => spinning } });
    const running = goCaller(fresh)('go_run', { timeoutMs: 30000 });
    await until(() => fresh.runState.getState().status === 'loading', fresh);
    fresh.stop();
    const answer = (await running).result;
    expect(answer).to.deep.include({ ok: false, output: '', truncated: false });
    expect(answer.error?.code).to.equal('declined');
  });

  it('[NAT-6] [NAT-2] a cancelled go_run stops the Go worker at once and answers declined with the output so far; the next run works', async () => {
    files = spinning;
    const controller = new AbortController();
    const running = call('go_run', { timeoutMs: 30000 }, 'accept', { signal: controller.signal });
    await until(() => output.includes('spinning\n'));
    controller.abort();
    // "At once": the abort stops the job in the same task, the worker terminated, before any answer.
    expect(runner.state).to.equal('idle');
    const answer = (await running).result;
    expect(answer).to.deep.include({ ok: false, output: 'spinning\n', truncated: false });
    expect(answer.error?.code).to.equal('declined');
    expect(answer.error?.message).to.contain('cancelled');
    expect(control.runState.getState().status).to.equal('idle');
    files = main('func main() { fmt.Println("after the cancel") }');
    expect(await control.run('run', { timeoutMs: 30000 })).to.deep.equal({ kind: 'exited', exitCode: 0, output: 'after the cancel\n' });
  });

  it('[NAT-2] a go_test whose signal is already aborted runs nothing and answers that the caller cancelled it', async () => {
    files = spinningTest;
    const controller = new AbortController();
    controller.abort();
    output = 'nothing since';
    const outcome = await control.run('test', { timeoutMs: 30000, signal: controller.signal });
    expect(outcome).to.deep.equal({ kind: 'cancelled', output: '' });
    // Through the call path, an already aborted call never reaches the run function.
    const answer = (await call('go_test', { timeoutMs: 30000 }, 'accept', { signal: controller.signal })).result;
    expect(answer.error?.code).to.equal('declined');
    // No run started: the output pane was neither cleared nor written.
    expect(output).to.equal('nothing since');
    expect(control.runState.getState().status).to.equal('idle');
  });
});
