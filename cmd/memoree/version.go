package main

import (
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// versionFlag is --version only: -v means verbose to too many users to spend it here. urfave/cli reads the
// version flag from a package variable, which newApp sets to this.
var versionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and exit", DisableDefaultText: true}

// buildVersion is set by 'make build' (-ldflags -X main.buildVersion=…) to what git describe says.
var buildVersion string

// version is what --version prints: buildVersion when the Makefile set it; else the module version when
// memoree was installed as a module; else "devel" and, when the build recorded it, the commit it was built
// from ("-dirty" with uncommitted changes).
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "devel"
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		v += "+" + rev[:min(12, len(rev))]
		if dirty {
			v += "-dirty"
		}
	}
	return v
}
