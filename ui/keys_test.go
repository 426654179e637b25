package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMapFields is every binding of the key map by its field name.
func keyMapFields(k keyMap) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(k)
	for i := 0; i < v.NumField(); i++ {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

// sameBinding compares bindings by what they are: their keys and their help.
func sameBinding(a, b key.Binding) bool {
	return reflect.DeepEqual(a.Keys(), b.Keys()) && a.Help() == b.Help()
}

// The help lists every binding of the key map, once, and shows each with its keys and its words: a key
// added to the map without a place in the help fails here.
func TestHelpListsEveryBindingOfTheKeyMap(t *testing.T) {
	k := newKeyMap()
	fields := keyMapFields(k)
	if len(fields) < 40 {
		t.Fatalf("the key map has %d bindings; the reflection found too few", len(fields))
	}
	listed := map[string]int{}
	for _, g := range k.helpGroups() {
		for _, b := range g.bindings {
			for name, f := range fields {
				if sameBinding(b, f) {
					listed[name]++
				}
			}
		}
	}
	for name := range fields {
		if listed[name] != 1 {
			t.Errorf("%s is listed %d times in the help", name, listed[name])
		}
	}

	m, _ := newTestModel(t, 100, 40)
	press(m, "?")
	s := plain(m)
	for name, b := range fields {
		if !strings.Contains(s, b.Help().Key) || !strings.Contains(s, b.Help().Desc) {
			t.Errorf("the help at 100×40 does not show %s (%q %q)", name, b.Help().Key, b.Help().Desc)
		}
	}
}

// typedKey is the key press a terminal sends for a key as bindings name it ("ctrl+c", "pgdown", "G"), and
// whether the name is one a terminal can send at all.
func typedKey(name string) (tea.KeyPressMsg, bool) {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+") && len(name) > len("ctrl+"):
			mod, name = mod|tea.ModCtrl, name[len("ctrl+"):]
			continue
		case strings.HasPrefix(name, "alt+") && len(name) > len("alt+"):
			mod, name = mod|tea.ModAlt, name[len("alt+"):]
			continue
		case strings.HasPrefix(name, "shift+") && len(name) > len("shift+"):
			mod, name = mod|tea.ModShift, name[len("shift+"):]
			continue
		}
		break
	}
	codes := map[string]rune{"enter": tea.KeyEnter, "tab": tea.KeyTab, "backspace": tea.KeyBackspace, "esc": tea.KeyEscape,
		"space": tea.KeySpace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"delete": tea.KeyDelete, "home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown}
	if c, ok := codes[name]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}, true
	}
	r := []rune(name)
	if len(r) != 1 {
		return tea.KeyPressMsg{}, false
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r[0], Mod: mod}, true
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}, true
}

// Every key the map names is one a terminal sends, spelt as Bubble Tea spells it: a binding for "pgdn" or
// "escape" would never match anything.
func TestEveryKeyOfTheKeyMapCanBeTyped(t *testing.T) {
	for name, b := range keyMapFields(newKeyMap()) {
		if len(b.Keys()) == 0 {
			t.Errorf("%s has no keys", name)
		}
		for _, k := range b.Keys() {
			msg, ok := typedKey(k)
			if !ok || msg.String() != k {
				t.Errorf("%s: %q is not a key a terminal sends (it reads %q)", name, k, msg.String())
				continue
			}
			if !key.Matches(msg, b) {
				t.Errorf("%s does not match its own key %q", name, k)
			}
		}
	}
	// The typing above is checked against Bubble Tea's own names.
	for _, k := range []string{"ctrl+c", "alt+up", "shift+tab", "pgdown", "space", "G", "?", "alt+backspace"} {
		if msg, ok := typedKey(k); !ok || msg.String() != k {
			t.Errorf("typedKey(%q) reads %q", k, msg.String())
		}
	}
}

// keyUses are the key map's fields the program's code matches keys against: arguments of key.Matches,
// the keys of a question's answers, and the bindings handed to the prompt editor's and the pager's own key
// maps. Their names are read from the source of the package, tests left out.
func keyUses(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fields := keyMapFields(newKeyMap())
	used := map[string]bool{}
	collect := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if _, ok := fields[s.Sel.Name]; ok {
					used[s.Sel.Name] = true
				}
			}
			return true
		})
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if s, ok := x.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Matches" && len(x.Args) > 1 {
					for _, a := range x.Args[1:] {
						collect(a)
					}
				}
			case *ast.CompositeLit:
				// viewport.KeyMap{Up: keys.Up, ...}
				if types.ExprString(x.Type) == "viewport.KeyMap" {
					collect(x)
				}
			case *ast.KeyValueExpr:
				// choice{keys: []key.Binding{keys.Yes}, ...}
				if v, ok := x.Value.(*ast.CompositeLit); ok && types.ExprString(x.Key) == "keys" && types.ExprString(v.Type) == "[]key.Binding" {
					collect(v)
				}
			case *ast.AssignStmt:
				// ta.KeyMap.InsertNewline = keys.Newline
				if len(x.Lhs) == 1 && strings.Contains(types.ExprString(x.Lhs[0]), ".KeyMap.") {
					collect(x.Rhs[0])
				}
			}
			return true
		})
	}
	return used
}

// Every binding of the map is matched somewhere: a binding the help lists but no code reads is a key
// that does nothing.
func TestEveryBindingIsMatchedWhereTheProgramReadsKeys(t *testing.T) {
	used := keyUses(t)
	var unused []string
	for name := range keyMapFields(newKeyMap()) {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("bindings no code matches: %v", unused)
	}
}

// The approval modal's answers and its scroll keys are all different keys: one key meaning two things in
// a question about running a command would be a trap.
func TestTheModalsKeysDoNotOverlap(t *testing.T) {
	k := newKeyMap()
	seen := map[string]string{}
	for name, b := range map[string]key.Binding{"Allow": k.Allow, "AllowSession": k.AllowSession,
		"AllowProject": k.AllowProject, "Deny": k.Deny, "DenyWithReason": k.DenyWithReason, "ModalScroll": k.ModalScroll} {
		for _, key := range b.Keys() {
			if other, ok := seen[key]; ok {
				t.Errorf("%q is both %s and %s", key, other, name)
			}
			seen[key] = name
		}
	}
}

// The hints name the bindings' keys: the pager's footer, the history's, the modal's answers and the
// status line change with the map.
func TestHintsAreWrittenFromTheBindings(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	m.keys.History = key.NewBinding(key.WithKeys("ctrl+h"), key.WithHelp("ctrl+h", "tool history"))
	m.keys.Allow = key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "allow once"))
	m.statusCache = ""
	if s := plain(m); !strings.Contains(s, "? keys · ctrl+h history") {
		t.Errorf("the status line does not follow the History binding:\n%s", s)
	}
	startCall(m, "c1", "touch x")
	msg, _ := touchRequest("c1", "Bash(touch:*)")
	m.Update(msg)
	if s := plain(m); !strings.Contains(s, "Y allow once · a always (session)") {
		t.Errorf("the modal's answers do not follow the Allow binding:\n%s", s)
	}
	press(m, "Y")
	if len(m.overlays) != 0 {
		t.Error("the modal did not take the key its Allow binding names")
	}
}
