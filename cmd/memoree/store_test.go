package main

import (
	"reflect"
	"testing"
)

// TestStoreRuns checks that storeRuns provides every store command's runner: a nil one would leave its
// command failing with "cannot run".
func TestStoreRuns(t *testing.T) {
	v := reflect.ValueOf(storeRuns)
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			t.Errorf("storeRuns.%s is nil", v.Type().Field(i).Name)
		}
	}
}
