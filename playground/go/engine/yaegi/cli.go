//go:build !js

package main

// A native command for debugging the engine without a browser:
//   go run . [run|test] DIR
// runs DIR's files as the Web Worker would and exits with the job's exit code
// (GOTRACEBACK=none hides the interpreter's stack when an interpreted goroutine panics).

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: yaegi-engine run|test DIR")
		os.Exit(64)
	}
	files := map[string]string{}
	root := os.Args[2]
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			files[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(64)
	}
	os.Exit(Run(Job{Files: files, Mode: os.Args[1]}, os.Stdout, os.Stderr))
}
