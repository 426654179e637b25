package bash

import (
	"strings"
	"testing"
)

func TestInteractiveProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd  string
		want string // a word the explanation must contain; "" for commands that must run
	}{
		{"vim file.txt", "edit_file"},
		{"vi", "edit_file"},
		{"nano README.md", "edit_file"},
		{"/usr/bin/vim x", "edit_file"},
		{"emacs -nw notes.org", "edit_file"},
		{"cd src && vim main.go", "edit_file"},
		{"sudo vim /etc/hosts", "edit_file"},
		{"env TERM=xterm vim x", "edit_file"},
		{"less", "pager"},
		{"top", "top -b"},
		{"htop", "monitor"},
		{"watch -n 1 date", "run_in_background"},
		{"python3", "-c"},
		{"python", "-c"},
		{"python3 -i script.py", "-c"},
		{"node", "heredoc"},
		{"irb", "heredoc"},
		{"ipython", "heredoc"},
		{"psql -h db.local mydb", "heredoc"},
		{"sqlite3 app.db", "SELECT"},
		{"ssh example.com", "ssh HOST"},
		{"ssh -p 2222 user@host", "ssh HOST"},
		{"git add -p", "git apply"},
		{"git add --patch src/", "git apply"},
		{"git -C repo add -i", "git apply"},
		{"git rebase -i HEAD~3", "GIT_SEQUENCE_EDITOR"},
		{"git checkout -p main -- f", "git apply"},
		{"git stash -p", "git apply"},
		{"git clean -i", "git clean -n"},
		{"if true; then vim x; fi", "edit_file"},
		{"for f in *; do nano $f; done", "edit_file"},

		// Must run: batch forms, input given, lookups, not the program at all.
		{"vim -es -c 'wq' file", ""},
		{"vim +wq file", ""},
		{"nvim --headless +q", ""},
		{"emacs --batch -l x.el", ""},
		{"vim - < input.txt", ""},
		{"less file.txt", ""},
		{"git log | less", ""},
		{"man ls", ""},
		{"top -b -n 1", ""},
		{"top -bn1", ""},
		{"python3 script.py", ""},
		{"python3 -c 'print(1)'", ""},
		{"python3 -m pytest -q", ""},
		{"python3 - <<'EOF'\nprint(1)\nEOF", ""},
		{"echo 'print(1)' | python3", ""},
		{"python3 --version", ""},
		{"python3 -u -W ignore app.py", ""},
		{"node index.js", ""},
		{"node -e 'console.log(1)'", ""},
		{"psql -c 'select 1' mydb", ""},
		{"psql mydb < dump.sql", ""},
		{"sqlite3 app.db 'select 1'", ""},
		{"ssh host ls -la", ""},
		{"ssh -T git@github.com", ""},
		{"ssh -N -L 8080:localhost:80 host", ""},
		{"git add .", ""},
		{"git add -A", ""},
		{"git commit -m 'x'", ""},
		{"git rebase main", ""},
		{"GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash main", ""},
		{"git -c sequence.editor=true rebase -i main", ""},
		{"command -v vim", ""},
		{"which python3", ""},
		{"type nano", ""},
		{"echo vim", ""},
		{"grep -r top .", ""},
		{"$EDITOR file", ""},
		{"f() { vim x; }", ""},
		{"watch", ""},
		{"this is ( not bash", ""},
	} {
		got := interactiveProblem(tc.cmd)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%q flagged: %s", tc.cmd, got)
		case tc.want != "" && got == "":
			t.Errorf("%q not flagged", tc.cmd)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%q: explanation %q does not mention %q", tc.cmd, got, tc.want)
		}
	}
}
