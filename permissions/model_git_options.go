package permissions

// gitOptions are the options of the git subcommands Warden models (model_git.go), as git version 2.39.5 lists them
// (`git SUB -h` for the short ones and whether a value is required or optional, `git SUB
// --git-completion-helper-all` for every long one, hidden and negated forms included): `-x` is a flag,
// `-x=` takes a value, `-x?` takes one attached. TestGitOptionTablesKnowEveryOptionOfTheInstalledGit
// compares them with the git that is installed.
var gitOptions = map[string]string{
	"add": `-A -N -e -f -i -n -p -u -v --all --chmod= --dry-run --edit --force --ignore-errors --ignore-missing
		--ignore-removal --intent-to-add --interactive --no-all --no-chmod --no-dry-run --no-edit --no-force
		--no-ignore-errors --no-ignore-missing --no-ignore-removal --no-intent-to-add --no-interactive
		--no-patch --no-pathspec-file-nul --no-pathspec-from-file --no-refresh --no-renormalize --no-sparse
		--no-update --no-verbose --no-warn-embedded-repo --patch --pathspec-file-nul --pathspec-from-file=
		--refresh --renormalize --sparse --update --verbose --warn-embedded-repo`,
	"am": `-3 -C= -S? -c -i -k -m -p= -q -r -s -u --3way --abort --allow-empty --binary
		--committer-date-is-author-date --continue --directory= --empty= --exclude= --gpg-sign?
		--ignore-date --ignore-space-change --ignore-whitespace --include= --interactive --keep --keep-cr
		--keep-non-patch --message-id --no-3way --no-binary --no-committer-date-is-author-date
		--no-directory --no-exclude --no-gpg-sign --no-ignore-date --no-ignore-space-change
		--no-ignore-whitespace --no-include --no-interactive --no-keep --no-keep-cr --no-keep-non-patch
		--no-message-id --no-patch-format --no-quiet --no-rebasing --no-reject --no-rerere-autoupdate
		--no-resolvemsg --no-scissors --no-signoff --no-utf8 --no-whitespace --patch-format= --quiet --quit
		--quoted-cr= --rebasing --reject --rerere-autoupdate --resolved --resolvemsg= --scissors
		--show-current-patch? --signoff --skip --utf8 --whitespace=`,
	"apply": `-3 -C= -N -R -p= -q -v -z --3way --add --allow-binary-replacement --allow-empty --allow-overlap
		--apply --binary --build-fake-ancestor= --cached --check --directory= --exclude=
		--ignore-space-change --ignore-whitespace --inaccurate-eof --include= --index --intent-to-add
		--no-3way --no-add --no-allow-binary-replacement --no-allow-empty --no-allow-overlap --no-apply
		--no-binary --no-build-fake-ancestor --no-cached --no-check --no-directory --no-ignore-space-change
		--no-ignore-whitespace --no-inaccurate-eof --no-index --no-intent-to-add --no-numstat --no-quiet
		--no-recount --no-reject --no-reverse --no-stat --no-summary --no-unidiff-zero --no-unsafe-paths
		--no-verbose --no-whitespace --numstat --quiet --recount --reject --reverse --stat --summary
		--unidiff-zero --unsafe-paths --verbose --whitespace=`,
	"branch": `-C -D -M -a -c -d -f -i -l -m -q -r -t? -u= -v --abbrev? --all --color? --column? --contains= --copy
		--create-reflog --delete --edit-description --force --format= --ignore-case --list --merged= --move
		--no-abbrev --no-all --no-color --no-column --no-contains= --no-copy --no-create-reflog --no-delete
		--no-edit-description --no-force --no-format --no-ignore-case --no-list --no-merged= --no-move
		--no-points-at --no-quiet --no-recurse-submodules --no-remotes --no-set-upstream
		--no-set-upstream-to --no-show-current --no-sort --no-track --no-unset-upstream --no-verbose
		--points-at= --quiet --recurse-submodules --remotes --set-upstream --set-upstream-to= --show-current
		--sort= --track? --unset-upstream --verbose --with --without`,
	"checkout": `-2 -3 -B= -b= -d -f -l -m -p -q -t? --conflict= --detach --force --guess --ignore-other-worktrees
		--ignore-skip-worktree-bits --merge --no-conflict --no-detach --no-force --no-guess
		--no-ignore-other-worktrees --no-ignore-skip-worktree-bits --no-merge --no-orphan --no-overlay
		--no-overwrite-ignore --no-patch --no-pathspec-file-nul --no-pathspec-from-file --no-progress
		--no-quiet --no-recurse-submodules --no-track --orphan= --ours --overlay --overwrite-ignore --patch
		--pathspec-file-nul --pathspec-from-file= --progress --quiet --recurse-submodules? --theirs --track?`,
	"cherry-pick": `-S? -X= -e -m= -n -s -x --abort --allow-empty --allow-empty-message --cleanup= --commit --continue
		--edit --ff --gpg-sign? --keep-redundant-commits --mainline= --no-allow-empty
		--no-allow-empty-message --no-cleanup --no-commit --no-edit --no-ff --no-gpg-sign
		--no-keep-redundant-commits --no-mainline --no-rerere-autoupdate --no-signoff --no-strategy
		--no-strategy-option --quit --rerere-autoupdate --signoff --skip --strategy= --strategy-option=`,
	"clean": `-X -d -e= -f -i -n -q -x --dry-run --exclude= --force --interactive --no-dry-run --no-force
		--no-interactive --no-quiet --quiet`,
	"clone": `-4 -6 -b= -c= -j= -l -n -o= -q -s -u= -v --also-filter-submodules --bare --branch= --bundle-uri=
		--checkout --config= --depth= --dissociate --filter= --hardlinks --ipv4 --ipv6 --jobs= --local
		--mirror --naked --no-also-filter-submodules --no-bare --no-branch --no-bundle-uri --no-checkout
		--no-config --no-depth --no-dissociate --no-filter --no-hardlinks --no-ipv4 --no-ipv6 --no-jobs
		--no-local --no-mirror --no-naked --no-origin --no-progress --no-quiet --no-recurse-submodules
		--no-recursive --no-reference --no-reference-if-able --no-reject-shallow --no-remote-submodules
		--no-separate-git-dir --no-server-option --no-shallow-exclude --no-shallow-since
		--no-shallow-submodules --no-shared --no-single-branch --no-sparse --no-tags --no-template
		--no-upload-pack --no-verbose --origin= --progress --quiet --recurse-submodules? --recursive?
		--reference= --reference-if-able= --reject-shallow --remote-submodules --separate-git-dir=
		--server-option= --shallow-exclude= --shallow-since= --shallow-submodules --shared --single-branch
		--sparse --tags --template= --upload-pack= --verbose`,
	"commit": `-C= -F= -S? -a -c= -e -i -m= -n -o -p -q -s -t= -u? -v -z --ahead-behind --all --allow-empty
		--allow-empty-message --amend --author= --branch --cleanup= --date= --dry-run --edit --file=
		--fixup= --gpg-sign? --include --interactive --long --message= --no-ahead-behind --no-all
		--no-allow-empty --no-allow-empty-message --no-amend --no-author --no-branch --no-cleanup --no-date
		--no-dry-run --no-edit --no-file --no-fixup --no-gpg-sign --no-include --no-interactive --no-long
		--no-message --no-null --no-only --no-patch --no-pathspec-file-nul --no-pathspec-from-file
		--no-porcelain --no-post-rewrite --no-quiet --no-reedit-message --no-reset-author --no-reuse-message
		--no-short --no-signoff --no-squash --no-status --no-template --no-untracked-files --no-verbose
		--no-verify --null --only --patch --pathspec-file-nul --pathspec-from-file= --porcelain
		--post-rewrite --quiet --reedit-message= --reset-author --reuse-message= --short --signoff --squash=
		--status --template= --trailer= --untracked-files? --verbose --verify`,
	"config": `-e -f= -l -t= -z --add --blob= --bool --bool-or-int --bool-or-str --default= --edit --expiry-date
		--file= --fixed-value --get --get-all --get-color --get-colorbool --get-regexp --get-urlmatch
		--global --includes --int --list --local --name-only --no-add --no-blob --no-default --no-edit
		--no-file --no-fixed-value --no-get --no-get-all --no-get-color --no-get-colorbool --no-get-regexp
		--no-get-urlmatch --no-global --no-includes --no-list --no-local --no-name-only --no-null
		--no-remove-section --no-rename-section --no-replace-all --no-show-origin --no-show-scope
		--no-system --no-type --no-unset --no-unset-all --no-worktree --null --path --remove-section
		--rename-section --replace-all --show-origin --show-scope --system --type= --unset --unset-all
		--worktree`,
	"fetch": `-4 -6 -P -a -f -j= -k -m -n -o= -p -q -t -u -v --all --append --atomic --auto-gc --auto-maintenance
		--deepen= --depth= --dry-run --filter= --force --ipv4 --ipv6 --jobs= --keep --multiple
		--negotiate-only --negotiation-tip= --no-all --no-append --no-atomic --no-auto-gc
		--no-auto-maintenance --no-deepen --no-depth --no-dry-run --no-filter --no-force --no-ipv4 --no-ipv6
		--no-jobs --no-keep --no-multiple --no-negotiate-only --no-negotiation-tip --no-prefetch
		--no-progress --no-prune --no-prune-tags --no-quiet --no-recurse-submodules
		--no-recurse-submodules-default --no-server-option --no-set-upstream --no-shallow-exclude
		--no-shallow-since --no-show-forced-updates --no-stdin --no-submodule-prefix --no-tags
		--no-update-head-ok --no-update-shallow --no-upload-pack --no-verbose --no-write-commit-graph
		--no-write-fetch-head --prefetch --progress --prune --prune-tags --quiet --recurse-submodules?
		--recurse-submodules-default= --refetch --refmap= --server-option= --set-upstream --shallow-exclude=
		--shallow-since= --show-forced-updates --stdin --submodule-prefix= --tags --unshallow
		--update-head-ok --update-shallow --upload-pack= --verbose --write-commit-graph --write-fetch-head`,
	"gc": `-q --aggressive --auto --cruft --force --keep-largest-pack --no-aggressive --no-auto --no-cruft
		--no-force --no-keep-largest-pack --no-prune --no-quiet --prune? --quiet`,
	"grep": `-A= -B= -C= -E -F -G -H -I -L -O? -P -W -a -c -e= -f= -h -i -l -m= -n -o -p -q -r -v -w -z
		--after-context= --all-match --and --basic-regexp --before-context= --break --cached --color?
		--column --context= --count --exclude-standard --ext-grep --extended-regexp --files-with-matches
		--files-without-match --fixed-strings --full-name --function-context --heading --ignore-case --index
		--invert-match --line-number --max-count= --max-depth= --name-only --no-after-context --no-all-match
		--no-basic-regexp --no-before-context --no-break --no-cached --no-color --no-column --no-context
		--no-count --no-exclude-standard --no-ext-grep --no-extended-regexp --no-files-with-matches
		--no-files-without-match --no-fixed-strings --no-full-name --no-function-context --no-heading
		--no-ignore-case --no-index --no-invert-match --no-line-number --no-max-count --no-name-only
		--no-null --no-only-matching --no-open-files-in-pager --no-or --no-perl-regexp --no-quiet
		--no-recurse-submodules --no-recursive --no-show-function --no-text --no-textconv --no-threads
		--no-untracked --no-word-regexp --not --null --only-matching --open-files-in-pager? --or
		--perl-regexp --quiet --recurse-submodules --recursive --show-function --text --textconv --threads=
		--untracked --word-regexp`,
	"init": `-b= -q --bare --initial-branch= --no-bare --no-initial-branch --no-object-format --no-quiet
		--no-separate-git-dir --no-template --object-format= --quiet --separate-git-dir= --shared?
		--template=`,
	"merge": `-F= -S? -X= -e -m= -n -q -s= -v --abort --allow-unrelated-histories --autostash --cleanup= --commit
		--continue --edit --ff --ff-only --file= --gpg-sign? --into-name= --log? --message= --no-abort
		--no-allow-unrelated-histories --no-autostash --no-cleanup --no-commit --no-continue --no-edit
		--no-ff --no-gpg-sign --no-into-name --no-log --no-message --no-overwrite-ignore --no-progress
		--no-quiet --no-quit --no-rerere-autoupdate --no-signoff --no-squash --no-stat --no-strategy
		--no-strategy-option --no-summary --no-verbose --no-verify --no-verify-signatures --overwrite-ignore
		--progress --quiet --quit --rerere-autoupdate --signoff --squash --stat --strategy=
		--strategy-option= --summary --verbose --verify --verify-signatures`,
	"mv": `-f -k -n -v --dry-run --force --no-dry-run --no-force --no-sparse --no-verbose --sparse --verbose`,
	"pull": `-4 -6 -S? -X= -a -f -j? -k -n -o= -p -q -r? -s= -t -v --all --allow-unrelated-histories --append
		--autostash --cleanup= --commit --deepen= --depth= --dry-run --edit --ff --ff-only --force
		--gpg-sign? --ipv4 --ipv6 --jobs? --keep --log? --negotiation-tip= --no-all
		--no-allow-unrelated-histories --no-append --no-autostash --no-cleanup --no-commit --no-deepen
		--no-depth --no-dry-run --no-edit --no-ff --no-force --no-gpg-sign --no-ipv4 --no-ipv6 --no-jobs
		--no-keep --no-log --no-negotiation-tip --no-progress --no-prune --no-quiet --no-rebase
		--no-recurse-submodules --no-server-option --no-set-upstream --no-shallow-exclude --no-shallow-since
		--no-show-forced-updates --no-signoff --no-squash --no-stat --no-strategy --no-strategy-option
		--no-summary --no-tags --no-update-shallow --no-upload-pack --no-verbose --no-verify
		--no-verify-signatures --progress --prune --quiet --rebase? --recurse-submodules? --refmap=
		--server-option= --set-upstream --shallow-exclude= --shallow-since= --show-forced-updates --signoff?
		--squash --stat --strategy= --strategy-option= --summary --tags --unshallow --update-shallow
		--upload-pack= --verbose --verify --verify-signatures`,
	"push": `-4 -6 -d -f -n -o= -q -u -v --all --atomic --delete --dry-run --exec= --follow-tags --force
		--force-if-includes --force-with-lease? --ipv4 --ipv6 --mirror --no-all --no-atomic --no-delete
		--no-dry-run --no-exec --no-follow-tags --no-force --no-force-if-includes --no-force-with-lease
		--no-ipv4 --no-ipv6 --no-mirror --no-porcelain --no-progress --no-prune --no-push-option --no-quiet
		--no-receive-pack --no-recurse-submodules --no-repo --no-set-upstream --no-signed --no-tags
		--no-thin --no-verbose --no-verify --porcelain --progress --prune --push-option= --quiet
		--receive-pack= --recurse-submodules= --repo= --set-upstream --signed? --tags --thin --verbose
		--verify`,
	"rebase": `-C= -S? -X= -f -i -m -n -q -r? -s= -v -x= --abort --allow-empty-message --apply --autosquash
		--autostash --committer-date-is-author-date --continue --edit-todo --empty= --exec= --ff
		--force-rebase --fork-point --gpg-sign? --ignore-date --ignore-whitespace --interactive --keep-base
		--keep-empty --merge --no-allow-empty-message --no-autosquash --no-autostash
		--no-committer-date-is-author-date --no-exec --no-ff --no-force-rebase --no-fork-point --no-gpg-sign
		--no-ignore-date --no-ignore-whitespace --no-keep-base --no-keep-empty --no-onto
		--no-preserve-merges --no-quiet --no-reapply-cherry-picks --no-rebase-merges --no-rerere-autoupdate
		--no-reschedule-failed-exec --no-reset-author-date --no-root --no-signoff --no-stat --no-strategy
		--no-strategy-option --no-update-refs --no-verbose --no-verify --no-whitespace --onto=
		--preserve-merges --quiet --quit --reapply-cherry-picks --rebase-merges? --rerere-autoupdate
		--reschedule-failed-exec --reset-author-date --root --show-current-patch --signoff --skip --stat
		--strategy= --strategy-option= --update-refs --verbose --verify --whitespace=`,
	"reset": `-N -p -q --hard --intent-to-add --keep --merge --mixed --no-hard --no-intent-to-add --no-keep
		--no-merge --no-mixed --no-patch --no-pathspec-file-nul --no-pathspec-from-file --no-quiet
		--no-recurse-submodules --no-refresh --no-soft --patch --pathspec-file-nul --pathspec-from-file=
		--quiet --recurse-submodules? --refresh --soft`,
	"restore": `-2 -3 -S -W -m -p -q -s= --conflict= --ignore-skip-worktree-bits --ignore-unmerged --merge
		--no-conflict --no-ignore-skip-worktree-bits --no-ignore-unmerged --no-merge --no-overlay --no-patch
		--no-pathspec-file-nul --no-pathspec-from-file --no-progress --no-quiet --no-recurse-submodules
		--no-source --no-staged --no-worktree --ours --overlay --patch --pathspec-file-nul
		--pathspec-from-file= --progress --quiet --recurse-submodules? --source= --staged --theirs
		--worktree`,
	"revert": `-S? -X= -e -m= -n -s --abort --cleanup= --commit --continue --edit --gpg-sign? --mainline=
		--no-cleanup --no-commit --no-edit --no-gpg-sign --no-mainline --no-reference --no-rerere-autoupdate
		--no-signoff --no-strategy --no-strategy-option --quit --reference --rerere-autoupdate --signoff
		--skip --strategy= --strategy-option=`,
	"rm": `-f -n -q -r --cached --dry-run --force --ignore-unmatch --no-cached --no-dry-run --no-force
		--no-ignore-unmatch --no-pathspec-file-nul --no-pathspec-from-file --no-quiet --no-sparse
		--pathspec-file-nul --pathspec-from-file= --quiet --sparse`,
	"switch": `-C= -c= -d -f -m -q -t? --conflict= --create= --detach --discard-changes --force --force-create=
		--guess --ignore-other-worktrees --merge --no-conflict --no-create --no-detach --no-discard-changes
		--no-force --no-force-create --no-guess --no-ignore-other-worktrees --no-merge --no-orphan
		--no-overwrite-ignore --no-progress --no-quiet --no-recurse-submodules --no-track --orphan=
		--overwrite-ignore --progress --quiet --recurse-submodules? --track?`,
	"tag": `-F= -a -d -e -f -i -l -m= -n? -s -u= -v --annotate --cleanup= --color? --column? --contains=
		--create-reflog --delete --edit --file= --force --format= --ignore-case --list --local-user=
		--merged= --message= --no-annotate --no-cleanup --no-color --no-column --no-contains=
		--no-create-reflog --no-edit --no-file --no-force --no-format --no-ignore-case --no-local-user
		--no-merged= --no-points-at --no-sign --no-sort --points-at= --sign --sort= --verify --with
		--without`,
	"ls-remote": `-h -o= -q -t --exec= --exit-code --get-url --heads --no-exec --no-exit-code --no-get-url --no-heads
		--no-quiet --no-refs --no-server-option --no-sort --no-symref --no-tags --no-upload-pack --quiet
		--refs --server-option= --sort= --symref --tags --upload-pack=`,
	"stash push": `-S -a -k -m= -p -q -u --all --include-untracked --keep-index --message= --no-all
		--no-include-untracked --no-keep-index --no-message --no-patch --no-pathspec-file-nul
		--no-pathspec-from-file --no-quiet --no-staged --patch --pathspec-file-nul --pathspec-from-file=
		--quiet --staged`,
	"stash pop":    `-q --index --no-index --no-quiet --quiet`,
	"stash apply":  `-q --index --no-index --no-quiet --quiet`,
	"stash drop":   `-q --no-quiet --quiet`,
	"stash branch": ``,
	"stash list":   ``,
	"stash show":   `-u --include-untracked --no-include-untracked --only-untracked`,
	"stash save": `-S -a -k -m= -p -q -u --all --include-untracked --keep-index --message= --no-all
		--no-include-untracked --no-keep-index --no-message --no-patch --no-quiet --no-staged --patch
		--quiet --staged`,
	"stash clear": ``,
	"remote add": `-f -m= -t= --fetch --master= --mirror? --no-fetch --no-master --no-mirror --no-tags --no-track
		--tags --track=`,
	"remote rename":       `--no-progress --progress`,
	"remote remove":       ``,
	"remote rm":           ``,
	"remote set-url":      `--add --delete --no-add --no-delete --no-push --push`,
	"remote set-head":     `-a -d --auto --delete --no-auto --no-delete`,
	"remote prune":        `-n --dry-run --no-dry-run`,
	"remote update":       `-p --no-prune --prune`,
	"remote set-branches": `--add --no-add`,
	"worktree add": `-B= -b= -d -f -q --checkout --detach --force --guess-remote --lock --no-checkout --no-detach
		--no-force --no-guess-remote --no-lock --no-quiet --no-reason --no-track --quiet --reason= --track`,
	"worktree remove": `-f --force --no-force`,
	"worktree prune":  `-n -v --dry-run --expire= --no-dry-run --no-expire --no-verbose --verbose`,
	"worktree move":   `-f --force --no-force`,
	"worktree lock":   `--no-reason --reason=`,
	"worktree unlock": ``,
	"worktree list":   `-v -z --expire= --no-expire --no-porcelain --no-verbose --porcelain --verbose`,
	"worktree repair": ``,
}
