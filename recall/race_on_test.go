//go:build race

package recall_test

// raceDetector is whether the tests run under the race detector (go test -race).
const raceDetector = true
