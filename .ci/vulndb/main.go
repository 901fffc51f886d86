// Command vulndb turns the OSV entries of the golang.org/x/vulndb module
// (its data/osv/GO-YYYY-NNNN.json files) into the directory layout that
// govulncheck reads with -db file://DIR, the v1 schema of
// https://go.dev/security/vuln/database#api:
//
//	DIR/index/db.json       {"modified": newest modified time of any entry}
//	DIR/index/modules.json  [{"path", "vulns": [{"id", "modified", "fixed"}]}], sorted by path, then id
//	DIR/index/vulns.json    [{"id", "modified", "aliases"}], sorted by id
//	DIR/ID/GO-YYYY-NNNN.json one OSV entry each
//
// It does what x/vulndb's internal/database (New, Add, Write) does when the
// database is deployed, with one difference: the deployer takes each entry's
// modified time from the git history of its file, which a module zip does not
// carry, so the repository's files all say 0001-01-01. An entry whose modified
// time is zero gets the time given by -modified (the commit time of the vulndb
// pseudo-version), in its ID/ file and in the indexes alike.
//
// Usage: go run . -src VULNDB_MODULE_DIR/data/osv -dst DIR -modified 2006-01-02T15:04:05Z
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/semver"
)

// entry is the part of an OSV entry the indexes need.
type entry struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Aliases  []string  `json:"aliases"`
	Affected []struct {
		Package struct {
			Name string `json:"name"` // the module path ("stdlib", "toolchain" for Go itself)
		} `json:"package"`
		Ranges []osvRange `json:"ranges"`
	} `json:"affected"`
}

type osvRange struct {
	Type   string `json:"type"`
	Events []struct {
		Introduced string `json:"introduced"`
		Fixed      string `json:"fixed"`
	} `json:"events"`
}

// osvTime marshals as RFC 3339 in UTC, as the OSV format and x/vulndb's
// osv.Time do.
type osvTime time.Time

func (t osvTime) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format(time.RFC3339))
}

type moduleVuln struct {
	ID       string  `json:"id"`
	Modified osvTime `json:"modified"`
	Fixed    string  `json:"fixed,omitempty"`
}

type module struct {
	Path  string       `json:"path"`
	Vulns []moduleVuln `json:"vulns"`
}

type vuln struct {
	ID       string   `json:"id"`
	Modified osvTime  `json:"modified"`
	Aliases  []string `json:"aliases,omitempty"`
}

func main() {
	src := flag.String("src", "", "directory of OSV entries (the vulndb module's data/osv)")
	dst := flag.String("dst", "", "directory to write the database to (created)")
	fallback := flag.String("modified", "", "RFC 3339 time for entries whose modified time is zero")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("vulndb: ")
	if *src == "" || *dst == "" || *fallback == "" || flag.NArg() > 0 {
		log.Fatal("usage: vulndb -src DIR -dst DIR -modified TIME")
	}
	fallbackTime, err := time.Parse(time.RFC3339, *fallback)
	if err != nil {
		log.Fatalf("-modified: %v", err)
	}

	files, err := filepath.Glob(filepath.Join(*src, "*.json"))
	if err != nil {
		log.Fatal(err)
	}
	if len(files) == 0 {
		log.Fatalf("no OSV entries in %s", *src)
	}
	for _, d := range []string{"index", "ID"} {
		if err := os.MkdirAll(filepath.Join(*dst, d), 0o755); err != nil {
			log.Fatal(err)
		}
	}

	var newest time.Time
	modules := map[string]*module{}
	var vulns []vuln
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			log.Fatal(err)
		}
		var e entry
		if err := json.Unmarshal(raw, &e); err != nil {
			log.Fatalf("%s: %v", file, err)
		}
		if filepath.Base(file) != e.ID+".json" {
			log.Fatalf("%s: entry has id %q; the file must be named <id>.json", file, e.ID)
		}
		if e.Modified.IsZero() {
			e.Modified = fallbackTime
			if raw, err = setModified(raw, fallbackTime); err != nil {
				log.Fatalf("%s: %v", file, err)
			}
		}
		if err := os.WriteFile(filepath.Join(*dst, "ID", e.ID+".json"), raw, 0o644); err != nil {
			log.Fatal(err)
		}

		if e.Modified.After(newest) {
			newest = e.Modified
		}
		vulns = append(vulns, vuln{ID: e.ID, Modified: osvTime(e.Modified), Aliases: e.Aliases})
		for _, a := range e.Affected {
			m := modules[a.Package.Name]
			if m == nil {
				m = &module{Path: a.Package.Name, Vulns: []moduleVuln{}}
				modules[a.Package.Name] = m
			}
			m.Vulns = append(m.Vulns, moduleVuln{ID: e.ID, Modified: osvTime(e.Modified), Fixed: latestFixed(a.Ranges)})
		}
	}

	mods := make([]*module, 0, len(modules))
	for _, m := range modules {
		sort.Slice(m.Vulns, func(i, j int) bool { return m.Vulns[i].ID < m.Vulns[j].ID })
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	sort.Slice(vulns, func(i, j int) bool { return vulns[i].ID < vulns[j].ID })

	writeJSON(filepath.Join(*dst, "index", "db.json"), struct {
		Modified osvTime `json:"modified"`
	}{osvTime(newest)})
	writeJSON(filepath.Join(*dst, "index", "modules.json"), mods)
	writeJSON(filepath.Join(*dst, "index", "vulns.json"), vulns)
	fmt.Printf("vulndb: %d entries, %d modules, last modified %s\n",
		len(vulns), len(mods), newest.UTC().Format(time.RFC3339))
}

// latestFixed is x/vulndb's osvutils.LatestFixed (and x/vuln's
// semver.NonSupersededFix): the highest fixed version of the SEMVER ranges,
// or "" when the vulnerability is introduced again after it. govulncheck
// skips an entry for a module version at or above this, so it must never be
// too low.
func latestFixed(ranges []osvRange) string {
	var latest string
	for _, r := range ranges {
		if r.Type != "SEMVER" {
			continue
		}
		for _, e := range r.Events {
			if e.Fixed != "" && before(latest, e.Fixed) {
				latest = e.Fixed
			}
		}
		for _, e := range r.Events {
			if e.Introduced != "" && e.Introduced != "0" && before(latest, e.Introduced) {
				latest = ""
				break
			}
		}
	}
	return latest
}

// before reports whether v < w for unprefixed semantic versions ("" sorts
// first, as an invalid version does in semver.Compare).
func before(v, w string) bool {
	return semver.Compare("v"+strings.TrimPrefix(v, "v"), "v"+strings.TrimPrefix(w, "v")) < 0
}

// setModified returns the OSV entry raw with its "modified" field set to t,
// every other field kept as it is.
func setModified(raw []byte, t time.Time) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	b, err := osvTime(t).MarshalJSON()
	if err != nil {
		return nil, err
	}
	fields["modified"] = b
	return json.MarshalIndent(fields, "", "  ")
}

func writeJSON(file string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		log.Fatal(err)
	}
}
