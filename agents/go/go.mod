module github.com/versus/agents/go

go 1.23.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
)

require golang.org/x/text v0.14.0
