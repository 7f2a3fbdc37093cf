package workload

import (
	"encoding/json"
	"strings"
	"testing"
)

const testSchema = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "level": {"type": "integer", "minimum": 0, "maximum": 9, "default": 6},
    "name": {"type": "string", "minLength": 1}
  }
}`

type testSettings struct {
	Level int    `json:"level"`
	Name  string `json:"name"`
}

func TestDecodeKeepsDefaultsAndReadsGivenFields(t *testing.T) {
	s := MustCompileSchema("test", []byte(testSchema))
	got := testSettings{Level: 6, Name: "x"}
	if err := s.Decode(json.RawMessage(`{"name":"y"}`), &got); err != nil {
		t.Fatal(err)
	}
	if got.Level != 6 || got.Name != "y" {
		t.Fatalf("got %+v", got)
	}
	if err := s.Decode(nil, &got); err != nil {
		t.Fatalf("absent settings: %v", err)
	}
}

func TestDecodeNamesEachBadField(t *testing.T) {
	s := MustCompileSchema("test", []byte(testSchema))
	var got testSettings
	err := s.Decode(json.RawMessage(`{"level": 12, "name": "", "colour": "red"}`), &got)
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	for _, want := range []string{"settings.level:", "settings.name:", "colour"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

func TestDecodeRejectsNonObjects(t *testing.T) {
	s := MustCompileSchema("test", []byte(testSchema))
	var got testSettings
	for _, raw := range []string{`[1]`, `"x"`, `{"level": "high"}`, `{"level": 1.5}`, `{`} {
		if err := s.Decode(json.RawMessage(raw), &got); err == nil {
			t.Errorf("%s: want an error", raw)
		}
	}
}

// A misspelt or foreign setting ("target" and "vus" are k6's words) must say what the workload
// takes instead, at the top level and inside a nested object.
func TestUnknownSettingsNameTheValidOnes(t *testing.T) {
	s := MustCompileSchema("test", []byte(`{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "url": {"type": "string"},
    "method": {"type": "string"},
    "selfTarget": {"type": "object", "additionalProperties": false, "properties": {"responseBytes": {"type": "integer"}, "delayMs": {"type": "number"}}}
  }
}`))
	var got map[string]any
	err := s.Decode(json.RawMessage(`{"target": "http://x", "vus": 10}`), &got)
	if err == nil {
		t.Fatal("want an error")
	}
	if want := "settings: unknown settings 'target', 'vus'; valid settings are url, method, selfTarget"; err.Error() != want {
		t.Errorf("got  %q\nwant %q", err.Error(), want)
	}
	err = s.Decode(json.RawMessage(`{"selfTarget": {"bytes": 10}}`), &got)
	if want := "settings.selfTarget: unknown setting 'bytes'; valid settings are responseBytes, delayMs"; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %q", err, want)
	}
}

func TestSettingsNotGivenTogetherNameTheOneToTakeOut(t *testing.T) {
	s := MustCompileSchema("test", []byte(`{
  "type": "object",
  "properties": {"url": {"type": "string"}, "target": {"type": "object"}},
  "not": {"required": ["url", "target"]}
}`))
	var got map[string]any
	err := s.Decode(json.RawMessage(`{"url": "http://x/", "target": {}}`), &got)
	if err == nil || err.Error() != "settings.target: cannot be given together with url (give one or the other)" {
		t.Fatalf("got %v", err)
	}
	for _, alone := range []string{`{"url": "http://x/"}`, `{"target": {}}`} {
		if err := s.Decode(json.RawMessage(alone), &got); err != nil {
			t.Fatalf("%s: %v", alone, err)
		}
	}
}
