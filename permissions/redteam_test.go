package permissions

import (
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/treewalk"
)

// redTeamCases come from a red-team review of the classifier: each was once allowed as read-only. They
// join the corpus (see corpus_test.go), with the false positives the same review found next to them.
var redTeamCases = []corpusCase{
	// A1: a function shadows a command only where bash is certain to have defined it.
	ask("(rm() { :; }); rm -rf a.txt"), ask("false && rm() { :; }; rm a.txt"), ask("if false; then rm() { :; }; fi; rm a.txt"),
	ask("echo $(rm() { :; }); rm a.txt"), ask("(git() { :; }); git push --force origin main"), ask("true || rm() { :; }; rm x"),
	ask("rm() { :; } | true; rm x"), ask("rm() { :; } & rm x"), ask("g() { rm() { :; }; }; rm x"), ask("bash -c 'rm() { :; }'; rm x"),
	ask("rm() { :; }; command rm x"), ask("rm() { :; }; env rm x"), ask("rm() { :; }; timeout 5 rm x"), ask("rm() { :; }; unset -f rm; rm x"),
	ask("rm() { :; }; unset rm; rm x"), ask("for i in 1; do rm() { :; }; done; rm x"), ask("case a in b) rm() { :; };; esac; rm x"),
	ask("eval() { :; }; eval 'rm x'"), ask("sh -c 'eval() { :; }; eval \"rm x\"'"), ask("while false; do rm() { :; }; done; rm x"),
	ask("f() { cat a.txt; }; cd secrets; f").denying("Read(./secrets/**)"), // a function runs where it is called
	allow("rm() { :; }; rm x"), allow("f() { ls; }; f"), allow("f() { ls; }; { f; }"), allow("(f() { ls; }; f)"),
	allow("f() { git status; }; f && f"), allow("{ rm() { :; }; }; rm x"),
	// A2: xargs gives a wrapper its command from stdin.
	ask("echo 'sh -c \"touch p\"' | xargs env"), ask("echo x | xargs nice"), ask("echo x | xargs timeout"),
	ask("echo 5 rm x | xargs timeout"), ask("echo x | xargs nohup"), ask("echo x | xargs setsid"), ask("echo x | xargs command"),
	ask("echo x | xargs time"), ask("echo x | xargs stdbuf -oL"), ask("echo x | xargs xargs"), ask("echo x | xargs ionice -c3"),
	ask("echo x | xargs nice -n"), ask("echo x | xargs builtin"), ask("echo x | xargs -0I{} sh -c {}"), ask("xargs -0a.env echo"),
	ask("echo x | xargs -rtI{} cat {}"), ask("echo x | xargs -0p rm"), allow("echo x | xargs echo"), allow("echo a | xargs -0 -n1 echo"),
	// A8: find -exec ends at `;` or at `{} +` only; {} never names the program.
	ask("find . -maxdepth 0 -exec rg x + --pre=rm . \\;"), ask("find /usr/bin/true . -name '*.sh' -exec {} \\;"),
	ask("find . -exec env {} \\;"), ask("find . -exec {}/x \\;"), ask("find . -exec xargs {} \\;"), ask("find . -execdir {} +"),
	ask("find . -exec timeout 5 {} \\;"), allow("find src -exec grep -l x {} +"), allow("find src -type f -exec wc -l {} +"),
	allow("find . -name '*.go' -exec grep -n + {} +"),
	// A3: short options cluster; a letter that takes a value takes the rest of the word.
	ask("git grep -nO'touch pwned' hi"), ask("git grep -iO x"), ask("git grep -3O x"), allow("git grep -ne O src"),
	allow("git grep -nie foo"), ask("git grep -hO0 x"), ask("git branch -vd x"), ask("git branch -aD x --list"),
	ask("git tag -ld v1"), ask("git tag -lfa v1"), allow("git branch -av"), allow("git tag -ln5"),
	// A4: sed labels end at whitespace; comments, blocks and flags follow GNU sed.
	ask("sed -n 't x e touch p\n:x' a.txt"), ask("sed -n 'b x w file\n:x' a.txt"), ask("sed ':a w out' a.txt"), ask("sed 'T x;e id' a.txt"),
	ask("sed -e 'b x' -e 'w out' a.txt"), ask("sed 'bx\tw out' a.txt"), ask("sed -n '/x/{p;w out\n}' a.txt"), ask("sed 's/a/b/gw out' a.txt"),
	ask("sed 's/a/b/Ie' a.txt"), ask("sed 's|a|b|M;e id' a.txt"), ask("sed '#n\nw out' a.txt"), ask("sed 'y/a/b/;w out' a.txt"),
	ask("sed '1R /etc/passwd' a.txt"), ask("sed 's€a€b€w out' a.txt"), ask("sed '$!{$!{w out\n}}' a.txt"), ask("sed 'l 5;w out' a.txt"),
	ask("sed -e 'a\\' -e 'x' -e 'w out' a.txt"), ask("sed 'q5 w out' a.txt"),
	allow("sed -n '/a/{p;q}' README.md"), allow("sed ':a;N;$!ba;s/\\n/ /g' README.md"), allow("sed -n 't x\n:x\np' README.md"),
	allow("sed '#n\n1p' README.md"), allow("sed -n '1~2p' README.md"), allow("sed '0,/a/s//b/' README.md"), allow("sed '/x/I,+3d' README.md"),
	allow("sed 'a\\\nhello w out' README.md"), allow("sed 's/a/b/3g;l 40' README.md"), allow("sed -e 'a\\' -e 'w out' README.md"),
	// A5: awk regex literals and comments hide no code from the scanner.
	ask("awk 'BEGIN { x = /\"/; print \"owned\" > \"pwned\" }'"), ask("awk 'BEGIN { # \"\n print \"x\" > \"out\" # \"\n }'"),
	ask("awk 'BEGIN { x = 1 / 2; print x > \"out\" }'"), ask("awk '{ printf(\"%s\", $0) > \"out\" }' README.md"),
	ask("awk 'BEGIN { f = \"system\"; @f(\"id\") }'"), ask("awk 'BEGIN { print \"x\" |& \"cat\" }'"), ask("awk '/[/]\"/ { print > \"o\" }' README.md"),
	ask("awk '{ print $1 \\\n > \"out\" }' README.md"), ask("awk 'BEGIN { if (1) /\"/; print 1 > \"o\" }'"), ask("awk '{ print length /\"/ > \"x\" }'"),
	ask("awk 'BEGIN { print 1,\n2 > \"out\" }'"), ask("awk '{ print SYMTAB[\"x\"] }' README.md"), ask("awk 'BEGIN { print (1\n) > \"o\" }'"),
	allow("awk '$3 > 100' README.md"), allow("awk '{ if ($2 > 1) print $1 }' README.md"), allow("awk '/a\"b/ { print \"a > b\" }' README.md"),
	allow("awk 'NR > 1 && $1 ~ /x/ { print $1 / 2 }' README.md"), allow("awk '{ print ($1 > 2) }' README.md"),
	allow("awk '{ n++ } END { print n }' README.md"), allow("awk -F, '{ s += $2 } END { print s / NR }' README.md"),
	allow("awk '# a comment with > and \"\n{ print }' README.md"), allow("awk '$1 == \"x\" || $2 == \"y\"' README.md"),
	// A6: printf -vNAME is printf -v NAME.
	ask("printf -vPATH %s /tmp"), ask("printf -va '%s' 'a[$(rm y)]'; echo $((a))"), ask("printf -v'a[$(rm y)]' x"), ask("printf -vIFS x"),
	allow("printf -vx '%s' y"), allow("printf -- -v"), ask("printf \"$f\" x"), allow("printf \"n: $HOME/$x\\n\""),
	// A7: shopt and set options that change how later words expand.
	ask("shopt -s nullglob"), ask("shopt -s nocaseglob; cat .EN?"), ask("shopt -s globstar dotglob; cat **/*"), ask("shopt -u sourcepath"),
	ask("shopt -s extglob"), ask("shopt -os posix"), ask("set -P; cd link-out/.."), ask("set -o physical"), ask("cd -P link-out/.. && ls"),
	allow("shopt -s"), allow("shopt -p nullglob"), allow("set -f"), allow("set -o noglob"),
	// A9: options given to a shell are vetted like `set`'s.
	ask("bash -kc 'git diff GIT_EXTERNAL_DIFF=\"touch p;:\"'"), ask("bash -o keyword -c 'ls'"), ask("bash -O extglob -c 'ls'"),
	ask("bash +O nullglob -c 'ls'"), ask("bash -Hc ls"), ask("sh -o posix -c ls"), ask("zsh -c 'echo *(e:\"touch p\":)'"),
	ask("ksh -c ls"), ask("bash -oc keyword ls"), allow("bash -ec 'ls'"), allow("bash -o pipefail -c 'ls'"), allow("bash -euxo pipefail -c ls"),
	// A10: watch -d takes an optional value glued to it, so -dx is not -x.
	ask("watch -dx -n1 ls '; touch pwned'"), ask("watch -d -n1 ls '; touch pwned'"), ask("watch --differences=x ls '; touch p'"),
	ask("watch -q 3 ls ';' rm x"), ask("watch -n 1 -x sh -c 'rm x'"), ask("watch --foo ls"), allow("watch -n1 git status"),
	allow("watch -x ls -la"), ask("watch echo \"$x\""), allow("watch -d -n 2 ls"),
	// A11: git config reads only in its read forms.
	ask("git config diff.external 'touch p;:' list"), ask("git config --get-regexp x --unset y"), ask("git config user.name x"),
	ask("git config --add user.name x"), ask("git config -e"), ask("git config --edit"), ask("git config set user.name x"),
	ask("git config --global --unset user.name"), ask("git config --file=.env --list"), ask("git config --list --rename-section a b"),
	ask("git config get.x y"), ask("git config --remove-section x"), ask("git config -lf x y z"),
	allow("git config user.name"), allow("git config user.email"), allow("git config --global user.name"), allow("git config --list"),
	allow("git config -l --show-origin"), allow("git config --get-regexp '^alias'"), allow("git config get user.name"),
	allow("git config list --global"), allow("git config --type=bool core.bare"), allow("git config --get-all remote.origin.fetch"),
	// A12: go flags in every spelling.
	ask("go env --w GOFLAGS=x"), ask("go env -w=true GOFLAGS=x"), ask("go env -u GOFLAGS"), ask("go env --u=1 GOFLAGS"),
	ask("go list -export=true ./..."), ask("go list --export ./..."), ask("go list -compiled ./..."), ask("go list -mod mod ./..."),
	ask("go list --mod=mod ./..."), ask("go list -toolexec x ./..."), ask("go doc -http"), ask("go doc --http=:8080"),
	ask("go list -json -export ./..."), ask("go list -f x -modfile=/tmp/go.mod"), ask("go mod tidy"), ask("go mod download"),
	allow("go list -json ./..."), allow("go list -f '{{.Dir}}' ./..."), allow("go list -mod readonly ./..."), allow("go list -deps -test ./..."),
	allow("go env -json"), allow("go doc -all fmt"), allow("go mod graph"), allow("go mod why -m golang.org/x/text"), allow("go version -m /usr/bin/true"),
	// A13: git stash reads only as `stash list` and `stash show`.
	ask("git stash -m show"), ask("git stash -u -m list"), ask("git stash push -m list"), ask("git stash -- list"),
	ask("git stash show --output=x"), ask("git stash list --ext-diff"), allow("git stash show -p"), allow("git stash list --oneline"),
	ask("git reflog expire --all"), ask("git reflog delete HEAD@{1}"), ask("git worktree -v add x"), ask("git remote -v add x y"),
	allow("git reflog -n 5"), allow("git reflog show main"), allow("git remote -v"), allow("git remote get-url origin"),
	// A14: long options are matched by their prefixes, the way git and GNU getopt accept them.
	ask("git branch --set-upstream-t=other"), ask("git branch --unset-up"), ask("git branch --edit-descr"), ask("git branch --cop a b"),
	ask("git tag --del v1"), ask("git diff --out=x"), ask("git diff --o=x"), ask("git log --ext"), ask("sort --outp=x README.md"),
	ask("grep --reg=SECRET .env"), ask("grep --recur KEY ."), ask("grep --dereference-rec KEY ."), ask("git grep --open x"),
	allow("git branch --con HEAD"), allow("git branch --contains HEAD"), allow("git log --no-ext-diff"), allow("grep --reg=x README.md"),
	// A15: yq writes files with -i, --in-place and --split-exp.
	ask("yq --in-place '.a=1' x.yaml"), ask("yq --in-pl '.a=1' x.yaml"), ask("yq -s '.a' x.yaml"), ask("yq --split-exp '.a' x.yaml"),
	ask("yq --split-exp-file x '.a' x.yaml"), ask("yq -Pi '.a=1' x.yaml"), ask("yq --from-file x.yq x.yaml"), allow("yq '.a' README.md"),
	// A16: a repository other than the workspace's can configure programs to run.
	ask("git --bare log"), ask("GIT_DIR=/tmp/x git log"), ask("git --git-dir=x log"), ask("git --work-tree=. log"), ask("env GIT_DIR=x git log"),
	ask("export GIT_DIR=/tmp/x; git log"), ask("git --namespace=x log"),
	// A17: BSD-style `e` makes ps print other processes' environments.
	ask("ps axeww"), ask("ps aux e"), ask("ps -eo pid,args e"), ask("ps e"), ask("ps -o environ"), ask("ps eww 1"), ask("ps -O pid,environ"),
	ask("ps --format=pid,environ"), ask("ps axo pid,command,env"), allow("ps -e"), allow("ps aux"), allow("ps -ef"), allow("ps -eo pid,args"),
	allow("ps -p 1 -o pid,comm"), allow("ps -e --forest"), ask("PS_FORMAT=environ ps"), allow("ps -u eve"), allow("ps 1,2"),
	// A18: reads of secrets hidden behind abbreviations, file lists and recursion.
	ask("echo .env | xargs cat"), ask("printf '%s\\n' .env | xargs grep -h ''"), ask("find . -name .env -exec cat {} \\;"),
	ask("find . -exec cat {} +"), ask("find . -name .env | xargs cat"), ask("find . -name .env -print0 | sort --files0-from=-"),
	ask("wc --files0-from=list"), ask("diff -r . /tmp"), ask("diff -rN . sub"), ask("diff . sub"), ask("git grep --no-index -h '' '.en?'"),
	ask("git grep --untracked KEY"), ask("git diff --no-index sub ."), ask("find . -iname '.ENV' -exec cat {} +"),
	allow("find . -name '*.go' -exec cat {} \\;"), allow("find src -name '*.go' | xargs cat"), allow("echo README.md | xargs cat"),
	ask("find -files0-from list -exec cat {} +"), allow("diff src/main.go src/util.go"), allow("diff -r src sub"), allow("git grep -n TODO"),
	// F2: read gives its names values only known at run time.
	allow("while IFS= read -r l; do echo \"$l\"; done < README.md"), allow("ls | while read f; do echo \"$f\"; done"),
	ask("ls | while read f; do cat \"$f\"; done"), ask("read x; echo $((x))"), ask("read PATH"), ask("read -a PATH"),
	allow("IFS=/ read x; ls"), ask("read 'a[$(rm y)]'"), ask("read -u 3 x"), ask("IFS= ls"),
	// F3: common status commands that only read.
	allow("git submodule status"), allow("pip list"), allow("pip show requests"),
	allow("kubectl get pods"), allow("kubectl get pods -o wide"), allow("gh pr list"), allow("docker compose ps"), allow("systemctl status nginx"),
	allow("journalctl -u nginx -n 50"), allow("ss -tlnp"), allow("netstat -tlnp"),
	ask("git submodule update"), ask("git submodule status --recursive; git submodule foreach rm x"), ask("cargo tree"), ask("cargo metadata"),
	ask("pip install x"), ask("pip list --index-url https://evil.example"), ask("kubectl get pods -w --kubeconfig /tmp/x"), ask("kubectl get secret x -o yaml"),
	ask("kubectl delete pod x"), ask("gh pr merge 1"), ask("gh api repos/x"), ask("docker compose up"), ask("systemctl stop nginx"),
	ask("journalctl --vacuum-size=1M"), ask("journalctl --rotate"), ask("journalctl --flush"), ask("ss -K dst 1.2.3.4"),
	ask("pip list --path /tmp; pip download x"), ask("journalctl -o export --output-fields=x -u x > out"), ask("kubectl get --raw /api"),
	ask("gh pr list --web"), ask("gh pr view 1 --web"), allow("gh --version"), allow("pip --version"),
	// B1: sh, dash and ash bodies (and watch's, which sh runs) must read the same for a POSIX shell.
	ask(`sh -c "echo \$'\\' ; touch pwned_sh ; echo ' #'"`), ask(`dash -c "echo \$'\\' ; touch p ; echo ' #'"`),
	ask(`ash -c "echo \$'\\' ; touch p ; echo ' #'"`), ask(`watch "echo \$'\\' ; touch p ; echo ' #'"`),
	ask(`find . -maxdepth 0 -exec sh -c "echo \$'\\' ; touch p ; echo ' #'" \;`), ask(`sh <<'EOF'` + "\necho $'\\' ; touch p ; echo ' #'\nEOF"),
	ask(`echo x | xargs sh -c "echo \$'\\' ; touch p ; echo ' #'"`), ask(`flock -c "echo \$'\\' ; touch p ; echo ' #'" /tmp/l`),
	allow("dash -c 'ls | head'"), allow("sh -c 'git status && ls'"), allow(`bash -c "echo \$'x'"`), allow("watch -n1 'ls -la'"),
	// B2: xargs reads the files its input names; only echo, printf and find are modelled, exactly.
	ask("ls -A | xargs cat"), ask("git ls-files | xargs grep KEY"), ask("ls -d secrets/* | xargs cat"), ask("xargs cat < README.md"),
	ask("cat README.md | xargs head"), ask("printf '.e%s' nv | xargs cat"), ask(`echo -e '.e\x6ev' | xargs cat`),
	ask(`echo '.e\x6ev' | sh -c 'xargs cat'`), ask("echo --files0-from=.env | xargs du"), ask(`echo "'.env'" | xargs cat`),
	ask("find . -name '*.go' -exec echo .env \\; | xargs cat"), ask("find . -name '*.go' | sed s/main.go/.env/ | xargs cat"),
	ask("echo README.md | xargs cat | xargs cat"), ask("find src -name '*.go' | xargs -a README.md cat"),
	ask("find -L . -name id_rsa | xargs cat"), ask("find -L . -name id_rsa -exec cat {} +"), ask("find . -name '*.go' |& xargs cat"),
	ask("find src -name '*.go' | head -c 3 | xargs cat"), ask("find src | uniq -c | xargs cat"), ask("xargs du <<< --files0-from=.env"),
	ask("echo secrets/a.txt | xargs cat").denying("Read(./secrets/**)"), ask("printf '%s\\n' secrets/a.txt | xargs head").denying("Read(./secrets/**)"),
	ask("echo --files0-from=secrets/a.txt | xargs du").denying("Read(./secrets/**)"),
	allow("find . -name '*.go' | xargs grep -l foo"), allow("printf '%s\\n' README.md src/main.go | xargs cat"),
	allow("find src -name '*.go' | sort | xargs wc -l"), allow("find src -name '*.go' -print0 | xargs -0 grep -n main"),
	allow("echo src/main.go src/util.go | xargs -n1 head -3"), allow("ls | xargs echo"), allow("find src -type f | head -n 5 | xargs cat"),
	// B3: options whose value is a file read are read like file operands.
	ask("du --files0-from .env"), ask("du --files0-from=.env"), ask("du --files0 .env"), ask("date -f .env"), ask("date --file=.env"),
	ask("jq -f .env README.md"), ask("jq --from-file .env"), ask("jq --from-file README.md .env"), ask("grep -f .env README.md"),
	ask("grep --file=.env README.md"), ask("grep -rf .env src"), ask("file -f .env"), ask("file -m .env README.md"),
	ask("git blame --ignore-revs-file .env README.md"), ask("git -c blame.ignoreRevsFile=README.md blame README.md"),
	ask("tree --fromtabfile .env"), ask("strings @.env"), ask("rg --ignore-file .env x"), ask("diff -X .env src sub"),
	ask("sort --random-source=.env README.md"), ask("hexdump -f .env README.md"), ask("git grep -f .env x"), ask("git diff -O.env"),
	ask("du --files0-from secrets/a.txt").denying("Read(./secrets/**)"), ask("date -f secrets/a.txt").denying("Read(./secrets/**)"),
	ask("grep -f secrets/a.txt README.md").denying("Read(./secrets/**)"), ask("tree --gitfile secrets/a.txt").denying("Read(./secrets/**)"),
	ask("git blame --contents secrets/a.txt README.md").denying("Read(./secrets/**)"), ask("jq -f secrets/a.txt README.md").denying("Read(./secrets/**)"),
	allow("grep -f README.md src/main.go"), allow("du -sh src"), allow("du -d 1 src"), allow("jq -f README.md package.json"), allow("date -r README.md"),
	// B4: gawk goes on past a newline after `?` and `:`.
	ask("gawk 'BEGIN { print 1 ?\n\"a\" : \"b\" > \"out1\" }'"), ask("awk 'BEGIN { print 1 ? \"a\" :\n\"b\" > \"out2\" }'"),
	allow("awk '{ print ($1 > 2) ? \"a\" : \"b\" }' README.md"),
	// B5: variables that point allowed programs at code or files.
	ask("KUBECONFIG=kc.yaml kubectl get pods"), ask("env KUBECONFIG=kc.yaml kubectl get pods"), ask("export KUBECONFIG=kc.yaml; kubectl get pods"),
	ask("GH_BROWSER=./x gh pr list"), ask("GH_CONFIG_DIR=. gh pr list"), ask("DOCKER_CONFIG=. docker compose ps"), ask("MAGIC=.env file README.md"),
	ask("LESSOPEN='|./x %s' ls"), ask("PIP_CONFIG_FILE=x pip list"), ask("JQ_LIBRARY_PATH=. jq . package.json"), ask("KUBERC=x kubectl get pods"),
	ask("OPENSSL_CONF=x pip list"), ask("GLIBC_TUNABLES=x ls"), ask("SYSTEMD_LESS=x systemctl status x"),
	// B6: a function's cd outlives its call; tilde forms; git reads of paths in history.
	ask("f() { cd secrets; }; f; cat a.txt").denying("Read(./secrets/**)"), ask("f() { cd secrets; }; f && cat a.txt").denying("Read(./secrets/**)"),
	ask("f() { cd sub; cd ../secrets; }; g() { f; }; g; cat a.txt").denying("Read(./secrets/**)"),
	allow("f() { cd src; }; f; cat main.go"), allow("f() ( cd src ); f; cat README.md"),
	ask("cat ~+/secrets/a.txt").denying("Read(./secrets/**)"), ask("head ~+/secrets/*").denying("Read(./secrets/**)"),
	ask("cd src && cat ~-/secrets/a.txt").denying("Read(./secrets/**)").expect(Ask), ask("cat ~root/.bashrc"), ask("cat ~+/.env"),
	ask("cat ~+1/a.txt"), allow("ls ~+/src"), allow("cat ~+/README.md"),
	ask("git show HEAD:secrets/a.txt").denying("Read(./secrets/**)"), ask("git cat-file -p HEAD:secrets/a.txt").denying("Read(./secrets/**)"),
	ask("git diff --no-index secrets/a.txt README.md").denying("Read(./secrets/**)"), ask("git grep -h '' -- secrets").denying("Read(./secrets/**)"),
	ask("git log -p -- secrets/").denying("Read(./secrets/**)"), ask("cd src && git show HEAD:secrets/a.txt").denying("Read(./secrets/**)"),
	ask("cd src && git show HEAD:../secrets/a.txt").denying("Read(./secrets/**)"), ask("git show :secrets/a.txt").denying("Read(./secrets/**)"),
	ask("git log -L 1,2:secrets/a.txt").denying("Read(./secrets/**)"), ask("git show HEAD -- ':(glob)secrets/*'").denying("Read(./secrets/**)").expect(Ask),
	ask("git log -p secrets").denying("Read(./secrets/**)"), ask("git show HEAD:./secrets/a.txt").denying("Read(./secrets/**)"),
	allow("git show HEAD:README.md"), allow("git log -p -- src"), allow("git log -n 5 --oneline"), allow("git grep -n 'TODO.*'"),
	allow("git log -S foo -- src"), allow("git grep -n foo -- '*.go'"), ask("git grep -n foo -- '*secret*'").denying("Read(./secrets/**)").expect(Ask),
	ask("git grep -n KEY -- '*.env'"), allow("git show HEAD~1:src/main.go"), allow("git diff HEAD~1 -- src/main.go"),
	ask("git show HEAD:src/main.go").denying("Read(./secrets/**)").expect(Allow),
	// B7: gh's -w is --web except under `gh run list`; docker inspect prints environments.
	ask("gh pr view 1 -w"), ask("gh issue view 1 -w"), ask("gh pr list -w"), ask("gh issue list -w"), ask("gh run view 1 -w"),
	allow("gh run list -w ci.yml"), ask("docker inspect x"), ask("docker container inspect x"), ask("docker image inspect x"),
	allow("docker network inspect bridge"), allow("docker volume ls"),
	// C1: an xargs stage with its own input, or nested in a stage, does not read the pipe's modelled names.
	ask("echo README.md | xargs cat <<< .env"), ask("find src -name '*.go' | xargs cat <<< secrets/a.txt").denying("Read(./secrets/**)").expect(Ask),
	ask("echo README.md | xargs cat <<EOF\n.env\nEOF"), ask("echo README.md | xargs cat 0< <(echo .env)"), ask("echo README.md | xargs cat < <(ls -A)"),
	ask("echo README.md | xargs cat 0<.env"), ask("exec 3<.env; echo README.md | xargs cat 0>&3"), ask("echo README.md | xargs cat <&0"),
	ask("echo README.md | { ls -A | xargs cat; }"), ask("echo README.md | (xargs cat <<< .env)"), ask("ls -A | xargs echo README.md | xargs cat"),
	ask("echo README.md >&2 | xargs cat"), ask("find src 1>&2 | xargs cat"), ask("bash 3<<<ls <<<'rm x'"),
	allow("echo README.md | xargs cat"), allow("find src -name '*.go' 2>/dev/null | xargs cat"), allow("echo README.md 2>/dev/null | sort | xargs cat"),
	// C2: a function named like a modelled producer, or like any program judged as itself, fakes it.
	ask("echo() { printf .env; }; echo x | xargs cat"), ask("printf() { command printf .env; }; printf x | xargs cat"),
	ask("for i in 1 2; do echo x | xargs cat; echo() { printf .env; }; done"), ask("sort() { printf .env; }; echo x | sort | xargs cat"),
	ask("cd sub; cat() { head ../secrets/a.txt; }; cd ..; cat README.md").denying("Read(./secrets/**)"),
	ask("cd sub; cat() { head secrets/a.txt; }; cd ..; cat README.md").denying("Read(./secrets/**)"),
	ask("(cat() { :; }); cat README.md"), ask("read() { ls $HOME; }; IFS=/ read x"), allow("f() { ls; }; f; ls"),
	// C3: `..` after a symlink goes to the link target's parent; /proc/*/cwd and /dev/fd are the command's own.
	ask("cat lnk/../../secrets/a.txt").denying("Read(./secrets/**)"), ask("cat lnk/../../.env"), ask("cat lnk/../../.e*"),
	ask("head lnk/../../secrets/*").denying("Read(./secrets/**)"), ask("for f in lnk/../../s*/a.txt; do cat $f; done").denying("Read(./secrets/**)"),
	ask("cat /dev/fd/../cwd/secrets/a.txt").denying("Read(./secrets/**)").expect(Ask),
	ask("cat /proc/self/cwd/../ws/secrets/a.txt").denying("Read(./secrets/**)").expect(Ask),
	ask("cat /dev/fd/../environ"), ask("cat /proc/self/cwd/.env"), ask("cat /proc/1/root/etc/hostname"), ask("cat /proc/self/fd/0"),
	ask("cat /proc/thread-self/environ"), allow("cat lnk/../../README.md"), allow("cat sub/../README.md"), allow("cat /proc/cpuinfo"),
	// C4: git reading object names or revisions from its input.
	ask("echo HEAD:secrets/a.txt | git cat-file --batch"), ask("git cat-file --batch-all-objects --batch"), ask("git cat-file --batch-check"),
	ask("git diff-tree -p --stdin"), ask("git log --stdin"), ask("git rev-list --stdin"), ask("git log --std <<< HEAD"), ask("git show --stdin"),
	// C5: git config's files and blobs are reads.
	ask("git config -f secrets/a.txt --list").denying("Read(./secrets/**)"), ask("git config --file secrets/a.txt --list").denying("Read(./secrets/**)"),
	ask("git config --blob HEAD:secrets/a.txt --list").denying("Read(./secrets/**)"), ask("git config --blob=HEAD:.env --list"),
	ask("git config -f .env --list"), ask("git config -f - --list"), allow("git config -f README.md --list"), allow("git config --no-includes --blob HEAD:README.md -l"),
	// git follows a blob's includes unless told not to, and Warden does not read the blob.
	ask("git config --blob HEAD:README.md -l"), ask("git config --no-includes --includes --blob HEAD:README.md -l"),
	// C8: REV:path splits at the first `:` outside braces; a later one may start the path too.
	ask("git show 'HEAD^{/d[:]?b}:secrets/a.txt'").denying("Read(./secrets/**)"), ask("git show 'HEAD@{2030-01-01 00:00}:secrets/a.txt'").denying("Read(./secrets/**)"),
	ask("git show 'HEAD^{/x:y}:.env'"), ask("git show 'HEAD@{1}:.env'"), ask("git show 'HEAD{:.env'"), ask("git show HEAD:credentials"),
	ask("git show HEAD:.npmrc"), ask("git show HEAD:id_rsa"), ask("git cat-file -p 'HEAD^{tree}:secrets/a.txt'").denying("Read(./secrets/**)"),
	allow("git show 'HEAD@{1}:README.md'"), allow("git show HEAD~1:src/main.go"),
	// C9: status commands' options that read files.
	ask("ss -F secrets/a.txt").denying("Read(./secrets/**)"), ask("ss -F .env"), ask("journalctl -D secrets"), ask("journalctl --directory=x"),
	ask("kubectl get pods -o go-template-file=secrets/a.txt").denying("Read(./secrets/**)"), ask("kubectl get pods -o jsonpath-file=.env"),
	ask("kubectl get pods --output=custom-columns-file=.env"), ask("kubectl get pods --output custom-columns-file=secrets/a.txt").denying("Read(./secrets/**)"),
	ask("pip list -r .env"), allow("ss -tlnp"), allow("kubectl get pods -o jsonpath-file=README.md"),
	// C6, C7 (TestGitWholeRepoReads has them in real repositories): git grep and history with no path
	// read every file the repository holds. The fixture's repository holds none, so nothing of secrets/
	// can be printed; an object named by an id nothing reaches may hold anything.
	allow("git grep -h ''").denying("Read(./secrets/**)").expect(Allow), allow("git log -p").denying("Read(./secrets/**)").expect(Allow),
	allow("git show HEAD~2").denying("Read(./secrets/**)").expect(Allow), allow("git diff HEAD~2 HEAD").denying("Read(./secrets/**)").expect(Allow),
	allow("git whatchanged -p").denying("Read(./secrets/**)").expect(Allow), allow("git diff-tree -p HEAD").denying("Read(./secrets/**)").expect(Allow),
	allow("git diff").denying("Read(./secrets/**)").expect(Allow), ask("git cat-file -p 0123abcd").denying("Read(./secrets/**)").expect(Ask),
	allow("git log -p --all").denying("Read(./secrets/**)").expect(Allow),
	ask("git show HEAD --stat").denying("Read(./secrets/**)").expect(Allow), ask("git log --oneline").denying("Read(./secrets/**)").expect(Allow),
	ask("cd src && git grep -n TODO").denying("Read(./secrets/**)").expect(Allow),
	// F4: a recursive read that only covers a denied subtree asks; naming a denied path denies.
	ask("find . -name '*.go' -exec grep -l TODO {} +").denying("Read(./secrets/**)").expect(Allow),
	ask("find . -name '*.go' | xargs wc -l").denying("Read(./secrets/**)").expect(Allow),
	ask("find . -name '*.txt' | xargs wc -l").denying("Read(./secrets/**)").expect(Ask), ask("grep -rn TODO .").denying("Read(./secrets/**)").expect(Ask),
	ask("rg TODO").denying("Read(./secrets/**)").expect(Ask), allow("git grep -n TODO -- .").denying("Read(./secrets/**)").expect(Allow),
	allow("git diff HEAD -- .").denying("Read(./secrets/**)").expect(Allow), allow("git log -p -- .").denying("Read(./secrets/**)").expect(Allow),
	ask("grep -rn TODO secrets").denying("Read(./secrets/**)"), ask("cat secrets/a.txt").denying("Read(./secrets/**)"),
	// R1: git reflog and git stash show print what files hold, like git log -p.
	allow("git reflog -p").denying("Read(./secrets/**)").expect(Allow), ask("git reflog show -p -- secrets/a.txt").denying("Read(./secrets/**)"),
	ask("git reflog show -p -- .env"), ask("git reflog -p -- .env"), allow("git stash show -p").denying("Read(./secrets/**)").expect(Allow),
	allow("git stash show -p stash@{0}").denying("Read(./secrets/**)").expect(Allow), allow("git reflog show --patch").denying("Read(./secrets/**)").expect(Allow),
	ask("git stash show").denying("Read(./secrets/**)").expect(Allow), ask("git reflog").denying("Read(./secrets/**)").expect(Allow),
	ask("git reflog show -3").denying("Read(./secrets/**)").expect(Allow), allow("git reflog list"), allow("git stash show --stat"),
	// R2: globs in the words echo and printf print are expanded before xargs gets the names.
	ask("echo secre*/* | xargs cat").denying("Read(./secrets/**)"), ask("printf \"%s\\n\" .e?v | xargs cat"), ask("echo .e* | xargs cat"),
	ask("echo .en[v] | xargs cat"), ask("echo s*/a.txt | xargs grep x").denying("Read(./secrets/**)"), ask("printf '%s\\n' *.md .e* | xargs cat"),
	ask("echo {ws}/.e* | xargs cat"), allow("echo *.md | xargs cat"), allow("echo src/*.go | xargs wc -l"), allow("echo nomatch* | xargs cat"),
	// R6: `command f` runs the program, not the function; the command's own standard streams hold no secret.
	allow("cat /dev/stdin"), allow("cat /dev/fd/0"), allow("head -c 10 /dev/stdin"), ask("cat /dev/fd/3"), ask("cat /proc/self/fd/0"),
	ask("cat /dev/fd/3/../0"), ask("cat /dev/stdin < .env"), danger("f() { f; }; f"), danger("cat() { cat; }; cat"),
	allow("cat() { command cat README.md; }; cat"), ask("cat() { command cat \"$@\"; }; cat .env"),
	// R6: a directory the read leaves out keeps a deny rule below it out of the read, unless links are followed.
	ask("grep -rn TODO --exclude-dir=secrets --exclude='.e*' .").denying("Read(./secrets/**)").expect(Allow), ask("rg TODO -g '!secrets'").denying("Read(./secrets/**)").expect(Allow),
	ask("rg TODO -g '!secrets/'").denying("Read(./secrets/**)").expect(Allow), ask("grep -rn TODO --exclude-dir='secr*' --exclude='.e*' .").denying("Read(./secrets/**)").expect(Allow),
	ask("grep -Rn TODO --exclude-dir=secrets --exclude='.e*' .").denying("Read(./secrets/**)").expect(Ask), ask("rg -L TODO -g '!secrets'").denying("Read(./secrets/**)").expect(Ask),
	allow("rg TODO -g '!secrets' -g 'secrets/**'").denying("Read(./secrets/**)").expect(Allow), ask("grep -rn TODO --exclude-dir=src .").denying("Read(./secrets/**)").expect(Ask),
	ask("grep -rn TODO --exclude-dir='secret[!s]' .").denying("Read(./secrets/**)").expect(Ask), ask("grep -rn x --exclude-dir='[!s]*' .").denying("Read(./secrets/**)").expect(Ask),
	ask("grep -rn x --exclude-dir='[!s]*' ."), ask("rg --hidden x -g '!secrets'"), ask("grep -rn x --exclude='.e[!n]v' ."),
}

// TestReasonNamesGitSubcommand: a reason names git's subcommand, not the value of a global option.
func TestReasonNamesGitSubcommand(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{"git -C . log -1": "`git log` only reads", "git -c color.ui=never status": "`git status` only reads"} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Reason != want {
			t.Errorf("%q: reason %q, want %q", cmd, v.Reason, want)
		}
	}
}

// TestXargsSplitsNamesWithBlanks: xargs splits find's names at blanks, so a file named `x .env y.go`
// makes it read .env; with -print0 and -0 the names stay whole.
func TestXargsSplitsNamesWithBlanks(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"x .env y.go", ".env", "main.go"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := NewEngine(Policy{Workspace: ws, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]Decision{
		"find . -name '*.go' | xargs cat":                Ask,
		"find . -name '*.go' -print0 | xargs -0 cat":     Allow,
		"find . -name 'main.go' | xargs cat":             Allow,
		"find . -name '*.go' -exec cat {} +":             Allow,
		"find . -name '*.go' | sort | xargs grep -l foo": Ask,
	} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
			t.Errorf("%q: got %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
}

// TestNestedLoopsStayBounded: seven nested loops over ten values would judge the body ten million times;
// past maxLoopRounds the body is judged once with its variable unknown. The deadline only guards against
// a hang.
func TestNestedLoopsStayBounded(t *testing.T) {
	ws, home := fixture(t)
	cmd := "ls $a"
	for _, v := range []string{"g", "f", "e", "d", "c", "b", "a"} {
		cmd = "for " + v + " in 0 1 2 3 4 5 6 7 8 9; do " + cmd + "; done"
	}
	done := make(chan Classification, 1)
	go func() { done <- Classify(cmd, shell.Context{Cwd: ws, Workspace: ws, Home: home}) }()
	select {
	case cls := <-done:
		if !cls.ReadOnly {
			t.Errorf("%q: %s", cmd, cls.Reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%q is still being classified after 10s", cmd)
	}
	// Past the budget a loop's variable is unknown, and a body that needs it asks.
	cmd = "for z in .env README.md; do cat $z; done"
	for _, v := range []string{"g", "f", "e", "d", "c", "b", "a"} {
		cmd = "for " + v + " in 0 1 2 3 4 5 6 7 8 9; do " + cmd + "; done"
	}
	if cls := Classify(cmd, shell.Context{Cwd: ws, Workspace: ws, Home: home}); cls.ReadOnly && !cls.Secret {
		t.Errorf("%q is read-only without a secret", cmd)
	}
}

// TestGitWholeRepoReads: a content-printing git command with no path reads every tracked file, so it asks
// when the repository tracks a secret or a deny rule covers part of it; one that prints no content does not.
func TestGitWholeRepoReads(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := func(t *testing.T, files ...string) string {
		ws, _ := filepath.EvalSymlinks(t.TempDir())
		for _, f := range files {
			p := filepath.Join(ws, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
			cmd := osexec.Command("git", args...)
			cmd.Dir = ws
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
		return ws
	}
	plain := repo(t, "README.md", "src/main.go")
	withEnv := repo(t, "README.md", "src/main.go", ".env")
	withSecrets := repo(t, "README.md", "src/main.go", "secrets/key.txt")
	content := []string{"git log -p", "git log -p --all", "git show HEAD~2", "git diff HEAD~2 HEAD", "git whatchanged -p",
		"git diff-tree -p HEAD", "git diff", "git grep -h ''", "git log -p -3", "git cat-file -p HEAD", "git log --patc", "git show",
		"git reflog -p", "git reflog show -p", "git stash show -p", "git stash show -p stash@{1}", "git reflog show --patch"}
	quiet := []string{"git show HEAD --stat", "git log --oneline", "git log -3", "git diff --stat", "git diff-tree HEAD",
		"git show HEAD:README.md", "git cat-file -t HEAD", "git stash show", "git reflog", "git reflog list"}
	check := func(ws string, deny []string, cmd string, want Decision) {
		t.Helper()
		e, err := NewEngine(Policy{Workspace: ws, Home: t.TempDir(), Deny: deny})
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
			t.Errorf("%s in %s (deny %q): got %s (%s), want %s", cmd, filepath.Base(ws), deny, v.Decision, v.Reason, want)
		}
	}
	for _, cmd := range content {
		check(plain, nil, cmd, Allow)
		check(withEnv, nil, cmd, Ask)
		check(withSecrets, []string{"Read(./secrets/**)"}, cmd, Ask)
		check(plain, []string{"Read(./src/**)"}, cmd, Ask)
	}
	for _, cmd := range quiet {
		check(withEnv, nil, cmd, Allow)
		check(withSecrets, []string{"Read(./secrets/**)"}, cmd, Allow)
	}
	// git grep searches the directory it runs in; deny rules elsewhere leave it be.
	check(withSecrets, []string{"Read(./secrets/**)"}, "cd src && git grep -n TODO", Allow)
	check(withEnv, nil, "cd src && git grep -n TODO", Allow)
	check(withSecrets, []string{"Read(./secrets/**)"}, "git grep -n TODO", Ask)
	// Naming the denied path itself still denies.
	check(withSecrets, []string{"Read(./secrets/**)"}, "git log -p -- secrets", Deny)
	// stash.showPatch makes git stash show print the patch.
	showPatch := repo(t, "README.md", ".env")
	if out, err := osexec.Command("git", "-C", showPatch, "config", "stash.showPatch", "true").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v: %s", err, out)
	}
	check(showPatch, nil, "git stash show", Ask)
	check(showPatch, nil, "git stash show --stat", Allow)

	run := func(ws string, args ...string) {
		t.Helper()
		cmd := osexec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	// An index Warden cannot list in full (split, sparse) makes a whole-repository read ask; version 4
	// is read.
	v4 := repo(t, "README.md", "src/main.go")
	run(v4, "update-index", "--index-version", "4")
	v4env := repo(t, "README.md", "src/main.go", ".env")
	run(v4env, "update-index", "--index-version", "4")
	check(v4, nil, "git log -p", Allow)
	check(v4env, nil, "git log -p", Ask)
	split := repo(t, "README.md", "src/main.go")
	run(split, "update-index", "--split-index")
	check(split, nil, "git log -p", Ask)
	check(split, nil, "git show", Ask)
	check(split, nil, "git log --oneline", Allow)
	sparse := repo(t, "README.md", "src/main.go", "conf/.env")
	run(sparse, "commit", "-qm", "x")
	run(sparse, "sparse-checkout", "init", "--cone", "--sparse-index")
	run(sparse, "sparse-checkout", "set", "src")
	check(sparse, nil, "git log -p", Ask)
	check(sparse, nil, "git grep x HEAD", Ask)
	check(sparse, nil, "git log --oneline", Allow)
	// A secret removed from the index but still on disk is in HEAD: reads of HEAD or history see it.
	removed := repo(t, "README.md", "src/main.go", ".env")
	run(removed, "commit", "-qm", "x")
	run(removed, "rm", "-q", "--cached", ".env")
	for _, cmd := range []string{"git diff --cached", "git diff HEAD", "git grep x HEAD", "git log -p", "git show", "git diff --stag"} {
		check(removed, nil, cmd, Ask)
	}
	// Only the index and the work tree: .env is in neither comparison.
	for _, cmd := range []string{"git diff", "git grep HEAD", "git grep -n x", "git log --oneline"} {
		check(removed, nil, cmd, Allow)
	}
	// Submodules are not followed: a .gitmodules file, a gitlink, or options that go into them ask.
	modules := repo(t, "README.md", "src/main.go", ".gitmodules")
	gitlink := repo(t, "README.md", "src/main.go")
	run(gitlink, "update-index", "--add", "--cacheinfo", "160000,0123456789012345678901234567890123456789,lib")
	for _, ws := range []string{modules, gitlink} {
		check(ws, nil, "git log -p", Ask)
		check(ws, nil, "git diff", Ask)
		check(ws, nil, "git grep -n x", Ask)
		check(ws, nil, "git log --oneline", Allow)
	}
	for _, cmd := range []string{"git grep --recurse-submodules x -- src", "git ls-files --recurse-submodules", "git diff --submodule=diff -- src",
		"git log -p --submodule=diff -- src", "git grep --recurse x -- src", "git diff --submod=diff -- src"} {
		check(plain, nil, cmd, Ask)
	}
	for _, cmd := range []string{"git diff --submodule=log -- src", "git diff --submodule -- src", "git grep x -- src"} {
		check(plain, nil, cmd, Allow)
	}
}

// TestTreeWalkBound: a recursive read of a tree bigger than treewalk.MaxEntries asks, since a secret past the
// bound would not be seen; whole-repository git reads that look at the work tree too.
func TestTreeWalkBound(t *testing.T) {
	defer func(n int) { treewalk.MaxEntries = n }(treewalk.MaxEntries)
	treewalk.MaxEntries = 3000
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"big", "small"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i <= treewalk.MaxEntries; i++ {
		if err := os.WriteFile(filepath.Join(ws, "big", fmt.Sprintf("f%d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "small", "a.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(Policy{Workspace: ws, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]Decision{
		"grep -rn x big": Ask, "rg x": Ask, "grep -rn x .": Ask, "find big -exec cat {} +": Ask, "find . | xargs cat": Ask,
		"grep -rn x small": Allow, "rg x small": Allow, "find small -exec cat {} +": Allow, "ls big": Allow,
	} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
			t.Errorf("%q: got %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
}

// disguise is a denied command in one of its spellings.
type disguise struct{ rule, cmd string }

// disguises are the spellings of denied commands a deny rule must see through: options reordered,
// clustered, split and spelled long; git's global options before the subcommand; wrappers, multi-call
// binaries, other shells, eval, a shell fed by a pipe, "$@"; $HOME, ${HOME} and ~. Built from bases ×
// wrappers × carriers, every one a row.
var disguises = func() []disguise {
	var out []disguise
	add := func(rule string, cmds ...string) {
		for _, c := range cmds {
			out = append(out, disguise{rule, c})
		}
	}
	rmForms := []string{"rm -rf build", "rm -fr build", "rm -r -f build", "rm -f -r build", "rm -Rf build", "rm -rfv build",
		"rm --recursive --force build", "rm --force --recursive build", "rm -r --force -- build", "rm -rf -- build",
		"rm -R -f build", "rm --recursive -f build", "rm -vfr build", "rm -r -v -f build", "rm -fR ./build", "rm -rf build/ dist"}
	wrappers := []string{"", "sudo ", "timeout 5 ", "nice -n 5 ", "nohup ", "env ", "env -i ", "command ", "\\", "/bin/",
		"/usr/bin/", "exec ", "stdbuf -o0 ", "ionice -c3 ", "busybox ", "toybox ", "time ", "env A=1 ", "setsid "}
	for _, f := range rmForms {
		for _, w := range wrappers {
			add("Bash(rm -rf:*)", w+f)
		}
	}
	carriers := []string{"bash -c '%s'", "sh -c '%s'", "dash -c '%s'", "zsh -c '%s'", "ksh -c '%s'", "fish -c '%s'",
		"script -qc '%s' /dev/null", "eval '%s'", "echo '%s' | sh", "printf '%%s\\n' '%s' | bash", "bash <<< '%s'",
		"(%s)", "{ %s; }", "true && %s", "false || %s", "echo $(%s)", "watch -n1 '%s'", "bash -lc '%s'", "sh -ec '%s'",
		"xargs -0 %s < /dev/null", "find . -maxdepth 0 -exec %s \\;"}
	for _, c := range carriers {
		for _, f := range []string{"rm -rf build", "rm -fr build", "rm --recursive --force build"} {
			add("Bash(rm -rf:*)", fmt.Sprintf(c, f))
		}
	}
	add("Bash(rm -rf:*)", "sh -c '\"$@\"' _ rm -rf build", "bash -c 'exec \"$@\"' x rm -fr build", "sh -c '\"$0\" \"$@\"' rm -r -f build",
		"eval rm -rf build", "cd src && rm -rf ../build", "rm -rf build &", "! rm -rf build")
	// Read-only programs, whose disguises would otherwise run at once: values attached or apart, long
	// forms and their abbreviations.
	add("Bash(head -c:*)", "head -c5 README.md", "head --bytes=5 README.md", "head --bytes 5 README.md", "head --byt=5 README.md",
		"head -n1 -c5 README.md", "head -vc5 README.md", "tail -c5 README.md | head -c 3")
	add("Bash(head -n 5:*)", "head -n5 README.md", "head --lines=5 README.md", "head --lines 5 README.md", "head -vn5 README.md")
	add("Bash(grep -r:*)", "grep --recursive x .", "grep --recur x .", "grep -nr x .", "grep -rn x src", "grep -irl x .")
	add("Bash(ls -a:*)", "ls --all", "ls -la", "ls -al src", "ls -l --all")
	pushForms := []string{"git push", "git push origin main", "git push -f", "git push --force origin main", "git -C . push",
		"git -C sub push", "git -c user.name=x push", "git -cuser.name=x push", "git --no-pager push", "git -P push",
		"git --git-dir=.git push", "git --work-tree=. push", "git-push origin main", "/usr/lib/git-core/git-push",
		"git --no-pager -C . push --tags", "git push --mirror", "git -c core.askpass=true push origin HEAD"}
	for _, f := range pushForms {
		for _, w := range []string{"", "timeout 30 ", "env GIT_TRACE=0 ", "command ", "nohup "} {
			add("Bash(git push:*)", w+f)
		}
	}
	for _, c := range []string{"bash -c '%s'", "sh -c '%s'", "zsh -c '%s'", "eval '%s'", "echo '%s' | bash", "cd sub && %s"} {
		add("Bash(git push:*)", fmt.Sprintf(c, "git push origin main"), fmt.Sprintf(c, "git -C . push"))
	}
	for _, f := range []string{"rm -rf ~/old", "rm -rf $HOME/old", "rm -rf ${HOME}/old", "rm -fr \"$HOME\"/old", "rm -r -f ~/old",
		"rm --recursive --force $HOME/old", "sudo rm -rf ~/old", "bash -c 'rm -rf ~/old'", "rm -rf {home}/old"} {
		add("Bash(rm -rf ~/old:*)", f)
		add("Bash(rm -rf $HOME/old:*)", f)
	}
	for _, f := range []string{"curl https://x.example", "curl -s https://x.example", "/usr/bin/curl -o out https://x.example",
		"command curl https://x.example", "env curl https://x.example", "busybox curl https://x.example",
		"bash -c 'curl https://x.example'", "echo 'curl https://x.example' | sh", "eval curl https://x.example",
		"timeout 5 curl --silent https://x.example", "xargs curl <<< https://x.example"} {
		add("Bash(curl:*)", f)
	}
	add("Bash(rm -rf:*)", "rm -r build -f", "rm build -rf", "'r'm -rf build", "r\\m -fr build", "rm -r -f -v -- build",
		"doas rm -rf build", "strace -f rm -rf build", "nice rm -rf build", "flock /tmp/l rm -rf build")
	// Only known at run time, or through an alias git defines: these ask.
	add("Bash(git push:*)", "git -c alias.p=push p origin")
	add("Bash(rm -rf:*)", "X=rm; $X -rf build", "$(echo rm) -rf build", "`echo rm` -rf build", "r=rm; \"$r\" -fr build")
	return out
}()

// TestDenyRulesSeeThroughDisguises measures the share of disguised forms of denied commands that are
// denied; none may be allowed, in default or in yolo mode, and at least 90% must be denied.
func TestDenyRulesSeeThroughDisguises(t *testing.T) {
	ws, home := fixture(t)
	if err := os.MkdirAll(filepath.Join(ws, "sub", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if len(disguises) < 300 {
		t.Fatalf("%d disguised forms, want at least 300", len(disguises))
	}
	denied := 0
	for _, d := range disguises {
		cmd := strings.ReplaceAll(d.cmd, "{home}", home)
		for _, mode := range []Mode{ModeDefault, ModeYolo} {
			e, err := NewEngine(Policy{Mode: mode, Deny: []string{d.rule}, Workspace: ws, Home: home})
			if err != nil {
				t.Fatal(err)
			}
			v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
			if v.Decision == Allow {
				t.Errorf("%q (deny %s, %s): allowed (%s)", cmd, d.rule, mode, v.Reason)
			}
			if mode == ModeDefault && v.Decision == Deny {
				denied++
			} else if mode == ModeDefault {
				t.Logf("asks, not denied: %q (%s): %s", cmd, d.rule, v.Reason)
			}
		}
	}
	rate := float64(denied) / float64(len(disguises))
	t.Logf("deny-hit rate: %d of %d disguised forms denied (%.1f%%), the rest ask, none allowed", denied, len(disguises), 100*rate)
	if rate < 0.9 {
		t.Errorf("deny-hit rate %.1f%% is below 90%%", 100*rate)
	}
}

// TestDenyRulesSeeThroughGitAliases: an alias in the repository's configuration is what it names, for
// deny rules, in every mode.
func TestDenyRulesSeeThroughGitAliases(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.sh("", "git config alias.p push && git config alias.nuke '!rm -rf build' && git config alias.st status")
	for _, c := range []struct{ rule, cmd string }{
		{"Bash(git push:*)", "git p origin main"}, {"Bash(git push:*)", "git -c alias.q=push q"},
		{"Bash(rm -rf:*)", "git nuke"}, {"Bash(rm -rf:*)", "git -c 'alias.z=!rm -fr build' z"},
	} {
		for _, mode := range []Mode{ModeDefault, ModeYolo} {
			e, err := NewEngine(Policy{Mode: mode, Deny: []string{c.rule}, Workspace: l.ws, Home: l.home})
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: c.cmd, Cwd: l.ws}); v.Decision != Deny {
				t.Errorf("%q (deny %s, %s): %s (%s)", c.cmd, c.rule, mode, v.Decision, v.Reason)
			}
		}
	}
	// An alias named like a builtin is never used: git status is git status.
	if v := l.engine().Decide(Request{Kind: Exec, Command: "git status", Cwd: l.ws}); v.Decision != Allow {
		t.Errorf("git status with alias.st defined: %s (%s)", v.Decision, v.Reason)
	}
}

// An alias set in a file that may hold secrets, which the repository's configuration includes, is judged
// as any alias is, but its reason does not quote the value: the person and the model read the reason.
// Before, `git lg` with `.git/config` including `.env` quoted the line read from `.env`.
func TestAnAliasFromASecretFileIsJudgedButNotQuoted(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.write(filepath.Join(l.ws, ".env"), "[alias]\n\tlg = !echo sk-live-alias-marker\n")
	l.sh("", "git config include.path ../.env")
	v := l.engine().Decide(Request{Kind: Exec, Command: "git lg", Cwd: l.ws})
	if v.Decision == Allow {
		t.Errorf("git lg ran unasked: %s", v.Reason)
	}
	if strings.Contains(v.Reason, "sk-live-alias-marker") || !strings.Contains(v.Reason, "may hold secrets") {
		t.Errorf("the reason is %q", v.Reason)
	}
}
