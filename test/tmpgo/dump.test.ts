import { GoRunner } from '../../demo/go/engine/go-runner.js';
const runner = new GoRunner({ workerUrl: '/dist/site/go/engine/worker.js', wasmUrl: '/dist/site/go/engine/yaegi.wasm' });
const cases: [string, Record<string, string>, 'run' | 'test'][] = [
  ['js', { 'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"syscall/js"\n)\n\nfunc main() { fmt.Println(js.Global()) }\n' }, 'run'],
  ['unsafe', { 'main.go': 'package main\n\nimport "unsafe"\n\nfunc main() { println(unsafe.Sizeof(1)) }\n' }, 'run'],
  ['syscall', { 'main.go': 'package main\n\nimport "syscall"\n\nfunc main() { syscall.Exit(0) }\n' }, 'run'],
  ['nomain', { 'go.mod': 'module x\n' }, 'run'],
  ['pan', { 'main.go': 'package main\n\nfunc main() { var m map[string]int; m["a"] = 1 }\n' }, 'run'],
  ['tests', { 'go.mod': 'module example.com/m\n', 'm.go': 'package m\n\nfunc F() int { return 1 }\n', 'm_test.go': 'package m\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n\tt.Run("sub", func(t *testing.T) { t.Log("inner") })\n\tif F() != 2 {\n\t\tt.Errorf("F() = %d", F())\n\t}\n}\n' }, 'test'],
  ['testbuild', { 'm_test.go': 'package m\n\nimport "testing"\n\nfunc TestF(t *testing.T) { undefined() }\n' }, 'test'],
  ['http', { 'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"net/http"\n)\n\nfunc main() { _, err := http.Get("http://127.0.0.1:1/"); fmt.Println("err:", err) }\n' }, 'run'],
  ['os', { 'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() { fmt.Println(os.Args, os.Getenv("HOME")); fmt.Fprintln(os.Stderr, "to stderr"); _, err := os.ReadFile("/etc/passwd"); fmt.Println(err) }\n' }, 'run'],
  ['deadlock', { 'main.go': 'package main\n\nfunc main() { ch := make(chan int); <-ch }\n' }, 'run'],
];
describe('dump', function () {
  this.timeout(120000);
  for (const [name, files, mode] of cases) {
    it(name, async () => {
      let out = '';
      const r = await runner.start(files, mode, (c) => (out += c)).done;
      console.log(`### ${name} exit=${r.exitCode}\n${out}`);
    });
  }
});
