// A module of its own, so that the main module's go test ./..., go vet ./...
// and go.mod never see this CI helper or its dependency.
module rollstep.invalid/ci/vulndb

go 1.25.0

require golang.org/x/mod v0.39.0
