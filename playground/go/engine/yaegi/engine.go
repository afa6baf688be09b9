// Package main is the Go side of the demo's Go page: a Yaegi interpreter that runs or tests a
// set of files given as a path -> contents map. main.go (GOOS=js) takes the job from the Web
// Worker; cli.go (any other GOOS) reads a directory, for debugging the engine natively.
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// defaultModule is the import path of the root package when the files have no go.mod.
const defaultModule = "play"

// Job is one run or test of a snapshot of the page's files.
type Job struct {
	// Files maps slash-separated paths relative to the project root to file contents.
	// A key ending in "/" is a directory (its value is ignored).
	Files map[string]string
	// Mode is "run" (run the root main package) or "test" (test every package).
	Mode string
}

// project is a job's files laid out as a GOPATH tree: Yaegi 0.14 resolves imports only through
// GOPATH, so the module's files go under src/<module path>/ and GOPATH is ".".
type project struct {
	fsys   fstest.MapFS
	module string
	srcDir string // "src/<module>"
}

func newProject(files map[string]string) (*project, error) {
	module := defaultModule
	if mod, ok := files["go.mod"]; ok {
		if m := modulePath(mod); m != "" {
			module = m
		}
	}
	p := &project{fsys: fstest.MapFS{}, module: module, srcDir: path.Join("src", module)}
	for name, contents := range files {
		isDir := strings.HasSuffix(name, "/")
		clean := path.Clean("/" + name)[1:] // resolves "..", strips leading "/" and "./"
		if clean == "" {
			continue
		}
		if !fs.ValidPath(clean) {
			return nil, fmt.Errorf("invalid file path %q", name)
		}
		if isDir {
			p.fsys[path.Join(p.srcDir, clean)] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		} else {
			p.fsys[path.Join(p.srcDir, clean)] = &fstest.MapFile{Data: []byte(contents), Mode: 0o644}
		}
	}
	if _, err := fs.Stat(p.fsys, p.srcDir); err != nil {
		p.fsys[p.srcDir] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	return p, nil
}

var moduleLine = regexp.MustCompile(`(?m)^\s*module\s+"?([^\s"/]+[^\s"]*)"?\s*(?://.*)?$`)

// modulePath returns the module path declared in a go.mod, or "" when there is none.
func modulePath(gomod string) string {
	m := moduleLine.FindStringSubmatch(gomod)
	if m == nil {
		return ""
	}
	return m[1]
}

// importPath is the import path of the package in dir ("" = root).
func (p *project) importPath(dir string) string {
	if dir == "" || dir == "." {
		return p.module
	}
	return p.module + "/" + dir
}

// tidy rewrites the interpreter's file names (src/<module>/x.go) to what `go` prints (./x.go).
func (p *project) tidy(msg string) string {
	return strings.ReplaceAll(strings.ReplaceAll(msg, p.srcDir+"/", "./"), p.srcDir, ".")
}

// tidyWriter applies tidy to Yaegi's own messages ("src/<module>/x.go:5:2: panic"). Yaegi
// writes each such message in one Write. Interpreted code keeps the real os.Stderr: Yaegi only
// hands it the interpreter's Stderr when that is an *os.File.
func (p *project) tidyWriter(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		if _, err := io.WriteString(w, p.tidy(string(b))); err != nil {
			return 0, err
		}
		return len(b), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// packages lists the directories (relative to the root, "" = root) that hold .go files, sorted,
// skipping the directories the go command ignores.
func (p *project) packages() []string {
	seen := map[string]bool{}
	_ = fs.WalkDir(p.fsys, p.srcDir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, p.srcDir), "/")
		base := path.Base(rel)
		if d.IsDir() {
			if rel != "" && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "vendor") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(base, ".go") && !strings.HasPrefix(base, ".") && !strings.HasPrefix(base, "_") {
			dir := path.Dir(rel)
			if dir == "." {
				dir = ""
			}
			seen[dir] = true
		}
		return nil
	})
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// newInterp makes an interpreter that sees the standard library only: no syscall, unsafe,
// syscall/js or unrestricted symbols, so interpreted code cannot reach the page (GO-8).
func newInterp(fsys fs.FS, stdout, stderr io.Writer) (*interp.Interpreter, error) {
	i := interp.New(interp.Options{
		GoPath:               ".",
		SourcecodeFilesystem: fsys,
		Stdout:               stdout,
		Stderr:               stderr,
		Args:                 []string{"main"},
		Env:                  []string{"HOME=/", "PATH=/"},
	})
	if err := i.Use(stdlib.Symbols); err != nil {
		return nil, err
	}
	// Yaegi's restricted os.Exit and log.Fatal panic; `go run` exits with the code instead
	// (GO-5). The real os.Exit ends the whole program, from any goroutine, after the output
	// already written (writes are synchronous).
	logOutput, _ := i.Symbols("log")["log"]["Output"].Interface().(func(int, string) error)
	fatal := func(msg string) {
		if logOutput != nil {
			_ = logOutput(3, msg)
		} else {
			fmt.Fprint(stderr, msg)
		}
		os.Exit(1)
	}
	return i, i.Use(interp.Exports{
		"os/os": {"Exit": reflect.ValueOf(os.Exit)},
		"log/log": {
			"Fatal":   reflect.ValueOf(func(v ...interface{}) { fatal(fmt.Sprint(v...)) }),
			"Fatalf":  reflect.ValueOf(func(f string, v ...interface{}) { fatal(fmt.Sprintf(f, v...)) }),
			"Fatalln": reflect.ValueOf(func(v ...interface{}) { fatal(fmt.Sprintln(v...)) }),
		},
	})
}

// anchor makes Yaegi resolve imports it cannot find to "unable to find source related to:
// \"syscall/js\"" instead of asking the OS for the working directory (not implemented on js):
// the first Compile names the interpreter's source "_.go", which Yaegi treats as no source file.
func anchor(i *interp.Interpreter) error {
	_, err := i.Compile("")
	return err
}

// notMain returns the package name of the root directory when it is not main (go run refuses
// it); "" when it is main, holds no Go files or does not parse (Yaegi reports those).
func (p *project) notMain() string {
	entries, _ := fs.ReadDir(p.fsys, p.srcDir)
	fset := token.NewFileSet()
	name := ""
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		src, err := fs.ReadFile(p.fsys, path.Join(p.srcDir, n))
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, n, src, parser.PackageClauseOnly)
		if err != nil || f.Name.Name == "main" {
			return ""
		}
		name = f.Name.Name
	}
	return name
}

// printErr prints a compile error the way the go command does: one line per error.
func (p *project) printErr(w io.Writer, err error) {
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, p.tidy(e.Error()))
		}
		return
	}
	fmt.Fprintln(w, p.tidy(err.Error()))
}

// panicMessage formats a recovered value as the Go runtime prints it after "panic: ".
func panicMessage(r interface{}) string {
	if p, ok := r.(interp.Panic); ok {
		r = p.Value
	}
	// Yaegi panics with reflect.Values for interpreted values; their methods (Error, String) are
	// not visible from here, so such values print with %v.
	if v, ok := r.(reflect.Value); ok && v.IsValid() && v.CanInterface() {
		r = v.Interface()
	}
	switch v := r.(type) {
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	default:
		return fmt.Sprint(v)
	}
}

// Run runs a job and returns the exit code that `go run` / `go test` would give:
// 0 success, 1 compile error or failed test, 2 panic. os.Exit(n) in the program ends the
// process directly with n.
func Run(job Job, stdout, stderr io.Writer) int {
	p, err := newProject(job.Files)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	switch job.Mode {
	case "run":
		return p.run(stdout, stderr)
	case "test":
		return p.test(stdout, stderr)
	default:
		fmt.Fprintf(stderr, "unknown mode %q\n", job.Mode)
		return 1
	}
}

func (p *project) run(stdout, stderr io.Writer) (code int) {
	if p.notMain() != "" {
		fmt.Fprintf(stderr, "package %s is not a main package\n", p.module)
		return 1
	}
	i, err := newInterp(p.fsys, stdout, p.tidyWriter(stderr))
	if err == nil {
		err = anchor(i)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	// A panic in main (not in another goroutine) reaches here: EvalPath of a directory does not
	// recover it. Yaegi has already printed "file:line:col: panic" on stderr.
	panicked := true
	defer func() {
		if panicked {
			r := recover()
			fmt.Fprintf(stderr, "panic: %s\n", p.tidy(panicMessage(r)))
			code = 2
		}
	}()
	_, err = i.EvalPath(p.module)
	panicked = false
	if err != nil {
		var pe interp.Panic
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "panic: %s\n", p.tidy(panicMessage(pe)))
			return 2
		}
		p.printErr(stderr, err)
		return 1
	}
	return 0
}

var flagsOnce bool

// testFuncs lists a package's Test functions in source order (files sorted by name, as go test).
func (p *project) testFuncs(dir string) []string {
	full := path.Join(p.srcDir, dir)
	entries, err := fs.ReadDir(p.fsys, full)
	if err != nil {
		return nil
	}
	var names []string
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := fs.ReadFile(p.fsys, path.Join(full, e.Name()))
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && isTestName(fn.Name.Name) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	c := name[4]
	return !(c >= 'a' && c <= 'z')
}

// guard wraps each test so that a panic in the test function (on the test's goroutine) marks it
// failed, prints "panic: … [recovered]" and stops the package's remaining tests (-test.failfast),
// instead of crashing the whole engine. Panics on other goroutines still end the program.
func guard(tests []testing.InternalTest, stdout io.Writer) []testing.InternalTest {
	out := make([]testing.InternalTest, len(tests))
	for k, t := range tests {
		f := t.F
		out[k] = testing.InternalTest{Name: t.Name, F: func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					fmt.Fprintf(stdout, "panic: %s [recovered]\n", panicMessage(r))
					_ = flag.Set("test.failfast", "true")
					t.FailNow()
				}
			}()
			f(t)
		}}
	}
	return out
}

func (p *project) test(stdout, stderr io.Writer) int {
	if !flagsOnce {
		flagsOnce = true
		testing.Init()
		// -test.v: the raw "=== RUN" / "--- PASS" / "--- FAIL" lines (GO-5).
		if err := flag.CommandLine.Parse([]string{"-test.v=true"}); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	code := 0
	for _, dir := range p.packages() {
		ip := p.importPath(dir)
		names := p.testFuncs(dir)
		if len(names) == 0 {
			fmt.Fprintf(stdout, "?   \t%s\t[no test files]\n", ip)
			continue
		}
		start := time.Now()
		i, err := newInterp(p.fsys, stdout, p.tidyWriter(stderr))
		if err == nil {
			err = anchor(i)
		}
		if err == nil {
			err = i.EvalTest(ip)
		}
		if err != nil {
			p.printErr(stderr, err)
			fmt.Fprintf(stdout, "FAIL\t%s [build failed]\n", ip)
			code = 1
			continue
		}
		syms := i.Symbols(ip)[ip]
		var tests []testing.InternalTest
		for _, name := range names {
			if fn, ok := syms[name].Interface().(func(*testing.T)); ok {
				tests = append(tests, testing.InternalTest{Name: name, F: fn})
			}
		}
		// A panicking test ends its package's run, as it ends a test binary; the panic is
		// recovered so the other packages still run (see guard).
		_ = flag.Set("test.failfast", "false")
		m := testing.MainStart(testDeps{}, guard(tests, stdout), nil, nil, nil)
		if m.Run() != 0 {
			fmt.Fprintf(stdout, "FAIL\t%s\t%.3fs\n", ip, time.Since(start).Seconds())
			code = 1
		} else {
			fmt.Fprintf(stdout, "ok  \t%s\t%.3fs\n", ip, time.Since(start).Seconds())
		}
	}
	if code != 0 {
		fmt.Fprintln(stdout, "FAIL")
	}
	return code
}

// warmUpProgram touches common parts of the interpreter (types, methods, interfaces, closures,
// goroutines, channels, maps, fmt).
const warmUpProgram = `package main

import (
	"errors"
	"fmt"
	"strings"
)

type shape interface{ area() float64 }

type square struct{ side float64 }

func (s square) area() float64 { return s.side * s.side }

func main() {
	var b strings.Builder
	for i, s := range []shape{square{2}} {
		fmt.Fprintf(&b, "%d %v\n", i, s.area())
	}
	ch := make(chan int, 1)
	go func() { ch <- len(b.String()) }()
	m := map[string]int{"n": <-ch}
	if m["n"] == 0 {
		fmt.Println(errors.New("unreachable"))
	}
}
`

// WarmUp runs a small program once, discarding its output. Yaegi's first evaluation in a
// process costs ~0.4 s more than later ones (hello world in V8: 445 ms, then 60 ms); the worker
// does this before it reports ready, while it waits as the runner's spare.
func WarmUp() {
	p, err := newProject(map[string]string{"main.go": warmUpProgram})
	if err == nil {
		p.run(io.Discard, io.Discard)
	}
}
