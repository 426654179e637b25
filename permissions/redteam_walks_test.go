package permissions

// linkAndWalkCases come from a red-team review of what runs unasked after names from substitutions,
// ignore-aware walks, links and here-documents were judged more finely: each was allowed as read-only
// and is not, or is a false positive the same review found next to one.
var linkAndWalkCases = []corpusCase{
	// H1: bash ends a here-document early (a line starting with the delimiter and holding `)` inside a
	// substitution; a backslash joining two lines of an unquoted body) where the parser reads on.
	ask("x=$(cat <<'EOF'\nfoo\nEOF)\ntouch p\nEOF\n)"), ask("x=$(cat <<'EOF'\nEOF ); touch p; (\nEOF\n)"),
	ask("cat <(cat <<'EOF'\nEOF)\ntouch p\nEOF\n)"), ask("cat <<EOF\nfoo\nEO\\\nF\ntouch p\nEOF"),
	ask("cat <<-EOF\nfoo\n\tE\\\nOF\ntouch p\nEOF"), ask("x=$(cat <<'E'\nEcho (x)\nE\n)"),
	allow("cat <<'EOF'\nfoo (bar)\nEOF)\nEOF"), allow("x=$(cat <<'EOF'\nfoo\nEOF\n)"), allow("cat <<EOF\na \\\nb\nEOF"),
	allow("cat <<'EOF'\nEO\\\nF\nEOF"),
	// T1: tools that write unless told not to: cargo resolves (rewriting a stale Cargo.lock, downloading
	// crates) unless frozen; ruff applies the fixes and writes the cache its configuration names; bat
	// writes its configuration file.
	ask("cargo tree --offline"), ask("cargo metadata --offline --format-version 1"), allow("cargo metadata --frozen"),
	ask("ruff check ."), ask("ruff format --diff ."), allow("ruff check --no-fix --no-cache ."), ask("bat --generate-config-file"),
	ask("batcat --generate-config"), allow("bat --config-file"),
}
