// Package mdrender draws Markdown for the terminal: the model's answers in Warden's conversation and in
// the transcript printed at exit. It parses with goldmark (with GitHub's tables, strikethrough and task
// lists) and writes styled lines itself: headings, paragraphs, emphasis, code spans, links (as OSC 8
// hyperlinks followed by their address), lists, task lists, block quotes, tables, rules, images and code
// blocks, the last coloured by syntax.
//
// It replaces Glamour, whose look it keeps (the same 256 colours, margins and marks), for two costs
// Glamour could not shed: every start of Warden's executable, the helpers it re-executes included, paid
// 25 to 50 ms of package initialisation in chroma's lexer and style registries, which Glamour imports;
// and a block of a streaming answer took 0.4 to 0.8 ms to render. Syntax colouring here uses chroma's
// core with a registry of its own, built on the first code block from the lexer definitions kept in
// lexers/ (highlight.go), so that nothing of it runs before it is needed.
//
// Render never fails: what it cannot parse it shows as text. Lines are no wider than the width asked for;
// a word longer than a line is cut.
package mdrender
