package main

import (
	"errors"
	"io"
	"reflect"
	"regexp"
	"time"
)

// testDeps satisfies testing.MainStart's unexported dependency interface, like the testing
// package's own matchStringOnly (used by testing.Main), so tests run through M.Run, which returns
// the exit code instead of calling os.Exit. InitRuntimeCoverage is only needed from Go 1.20 on.
type testDeps struct{}

// corpusEntry mirrors testing's alias for an anonymous struct.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}

var errNoProfiles = errors.New("testing: unsupported in the Go playground engine")

var matchCache = map[string]*regexp.Regexp{}

func (testDeps) MatchString(pat, str string) (bool, error) {
	re, ok := matchCache[pat]
	if !ok {
		var err error
		if re, err = regexp.Compile(pat); err != nil {
			return false, err
		}
		matchCache[pat] = re
	}
	return re.MatchString(str), nil
}
func (testDeps) StartCPUProfile(io.Writer) error             { return errNoProfiles }
func (testDeps) StopCPUProfile()                             {}
func (testDeps) WriteProfileTo(string, io.Writer, int) error { return errNoProfiles }
func (testDeps) ImportPath() string                          { return "" }
func (testDeps) StartTestLog(io.Writer)                      {}
func (testDeps) StopTestLog() error                          { return errNoProfiles }
func (testDeps) SetPanicOnExit0(bool)                        {}
func (testDeps) RunFuzzWorker(func(corpusEntry) error) error { return errNoProfiles }
func (testDeps) CheckCorpus([]any, []reflect.Type) error     { return nil }
func (testDeps) ResetCoverage()                              {}
func (testDeps) SnapshotCoverage()                           {}
func (testDeps) ReadCorpus(string, []reflect.Type) ([]corpusEntry, error) {
	return nil, errNoProfiles
}
func (testDeps) CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error {
	return errNoProfiles
}
func (testDeps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}
