package skills

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFrontMatterReadsTheYAMLSkillsUse(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       meta
	}{
		{"plain", "name: pdf\ndescription: Reads PDFs # a comment", meta{"name": {"pdf"}, "description": {"Reads PDFs"}}},
		{"plain over lines", "description: Reads PDFs\n  and forms.", meta{"description": {"Reads PDFs and forms."}}},
		{"double quotes", `description: "say \"hi\"\tand \u00e9"`, meta{"description": {"say \"hi\"\tand é"}}},
		{"single quotes", `description: 'it''s # not a comment'`, meta{"description": {"it's # not a comment"}}},
		{"folded", "description: >\n  one\n  two\n\n  three\nname: x", meta{"description": {"one two\nthree"}, "name": {"x"}}},
		{"literal", "description: |-\n  one\n  two", meta{"description": {"one\ntwo"}}},
		{"block list", "allowed-tools:\n  - Read\n  - \"Bash(git *)\"", meta{"allowed-tools": {"Read", "Bash(git *)"}}},
		{"list at the key's indent", "allowed-tools:\n- Read\n- Grep", meta{"allowed-tools": {"Read", "Grep"}}},
		{"flow list", "allowed-tools: [Read, 'Bash(git log, diff)', Grep]", meta{"allowed-tools": {"Read", "Bash(git log, diff)", "Grep"}}},
		{"nested map skipped", "metadata:\n  author: a\n  version: \"1\"\nname: x", meta{"name": {"x"}}},
		{"keys any case", "Name: x", meta{"name": {"x"}}},
		{"comments and blanks", "# c\n\nname: x\n", meta{"name": {"x"}}},
	} {
		m, body, err := frontMatter("---\n" + tc.yaml + "\n---\nBODY\n")
		if err != nil || body != "BODY\n" || !reflect.DeepEqual(m, tc.want) {
			t.Errorf("%s: %q %q %v, want %q", tc.name, m, body, err, tc.want)
		}
	}
	if m, body, err := frontMatter("# no front matter\n"); err != nil || len(m) != 0 || body != "# no front matter\n" {
		t.Errorf("without front matter: %v %q %v", m, body, err)
	}
	if _, _, err := frontMatter("\ufeff---\r\nname: x\r\n---\r\nb\r\n"); err != nil {
		t.Errorf("CRLF with a byte-order mark: %v", err)
	}
	if _, _, err := frontMatter("---\nname: x\n"); err == nil {
		t.Error("unclosed front matter was read")
	}
}

// FuzzFrontMatter: whatever a SKILL.md holds, reading it neither panics nor takes more than it was given.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{"---\nname: x\n---\n", "---\nd: >\n  a\n\n b\n---\n", "---\nd: \"\\u12\n---\n",
		"---\na: [x, 'y\n---\n", "---\n- a\n  -\n---\n", "---\nd: '\n---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, body, err := frontMatter(s)
		if err != nil {
			return
		}
		if len(body) > len(s) {
			t.Fatalf("body longer than the file")
		}
		for k, vs := range m {
			for _, v := range vs {
				if utf8.ValidString(s) && !utf8.ValidString(v) && !strings.Contains(s, `\`) {
					t.Fatalf("%s: invalid UTF-8 from valid input", k)
				}
			}
		}
	})
}
