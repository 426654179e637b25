package mdrender

import (
	"embed"
	"io/fs"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// Syntax colouring. chroma's own lexers package parses its 279 lexer definitions in its package
// initialisation, on every start of the executable; here a registry of the languages models write most is
// built from definitions kept beside this file (lexers/, chroma's own files, under chroma's licence in
// lexers/COPYING) the first time a code block asks for one, and Go's lexer, which chroma writes in Go, is
// below.

//go:embed lexers/*.xml
var lexerFiles embed.FS

var (
	registryOnce sync.Once
	registry     *chroma.LexerRegistry
)

// lexerFor is the lexer of a code block's language ("go", "py", "sh", "Dockerfile"…), nil when there
// is none: the block is then drawn in the code block's plain colour.
func lexerFor(language string) chroma.Lexer {
	if language == "" {
		return nil
	}
	registryOnce.Do(func() {
		reg := chroma.NewLexerRegistry()
		paths, _ := fs.Glob(lexerFiles, "lexers/*.xml")
		for _, path := range paths {
			if l, err := chroma.NewXMLLexer(lexerFiles, path); err == nil {
				reg.Register(l)
			}
		}
		reg.Register(chroma.MustNewLexer(&chroma.Config{Name: "Go", Aliases: []string{"go", "golang"}, Filenames: []string{"*.go"}}, goRules))
		registry = reg
	})
	if l := registry.Get(language); l != nil {
		return chroma.Coalesce(l)
	}
	switch strings.ToLower(language) {
	case "shell", "console", "zsh", "sh", "shell-session":
		return chroma.Coalesce(registry.Get("bash"))
	case "jsonc", "json5":
		return chroma.Coalesce(registry.Get("json"))
	}
	return nil
}

// highlight draws code as lines, each token in the theme's colour for its kind. Code no lexer knows, or
// that one fails on, is drawn in the code block's colour.
func highlight(code, language string, t *Theme) []string {
	code = strings.TrimSuffix(code, "\n")
	lexer := lexerFor(language)
	if lexer == nil || t.chroma == nil {
		return plainLines(code, t.codeBlock)
	}
	it, err := lexer.Tokenise(nil, code+"\n")
	if err != nil {
		return plainLines(code, t.codeBlock)
	}
	var lines []string
	var line strings.Builder
	open := ""
	for tok := it(); tok != chroma.EOF; tok = it() {
		sgr := t.tokenStyle(tok.Type).sgr()
		parts := strings.Split(tok.Value, "\n")
		for i, part := range parts {
			if i > 0 {
				if open != "" {
					line.WriteString(reset)
					open = ""
				}
				lines = append(lines, line.String())
				line.Reset()
			}
			if part == "" {
				continue
			}
			if sgr != open {
				if open != "" {
					line.WriteString(reset)
				}
				line.WriteString(sgr)
				open = sgr
			}
			line.WriteString(part)
		}
	}
	if open != "" {
		line.WriteString(reset)
	}
	if line.Len() > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

func plainLines(code string, s style) []string {
	lines := strings.Split(code, "\n")
	if sgr := s.sgr(); sgr != "" {
		for i, l := range lines {
			if l != "" {
				lines[i] = sgr + l + reset
			}
		}
	}
	return lines
}

// tokenClass is a kind of token the themes colour, after Glamour's chroma style entries.
type tokenClass int

const (
	tokText tokenClass = iota
	tokError
	tokComment
	tokCommentPreproc
	tokKeyword
	tokKeywordReserved
	tokKeywordNamespace
	tokKeywordType
	tokOperator
	tokPunctuation
	tokName
	tokNameBuiltin
	tokNameTag
	tokNameAttribute
	tokNameClass
	tokNameConstant
	tokNameDecorator
	tokNameFunction
	tokLiteralNumber
	tokLiteralString
	tokLiteralStringEscape
	tokGenericDeleted
	tokGenericEmph
	tokGenericInserted
	tokGenericStrong
	tokGenericSubheading
)

// tokenStyle is the theme's style for a token type: its own class's, else its category's, else text's.
func (t *Theme) tokenStyle(tt chroma.TokenType) style {
	class, parent := classOf(tt)
	if s, ok := t.chroma[class]; ok {
		return s
	}
	if s, ok := t.chroma[parent]; ok {
		return s
	}
	return t.chroma[tokText]
}

func classOf(tt chroma.TokenType) (class, parent tokenClass) {
	switch {
	case tt == chroma.Error:
		return tokError, tokText
	case tt.InSubCategory(chroma.CommentPreproc):
		return tokCommentPreproc, tokComment
	case tt.InCategory(chroma.Comment):
		return tokComment, tokText
	case tt == chroma.KeywordReserved:
		return tokKeywordReserved, tokKeyword
	case tt == chroma.KeywordNamespace:
		return tokKeywordNamespace, tokKeyword
	case tt == chroma.KeywordType:
		return tokKeywordType, tokKeyword
	case tt.InCategory(chroma.Keyword):
		return tokKeyword, tokText
	case tt.InCategory(chroma.Operator):
		return tokOperator, tokText
	case tt.InCategory(chroma.Punctuation):
		return tokPunctuation, tokText
	case tt.InSubCategory(chroma.NameBuiltin):
		return tokNameBuiltin, tokName
	case tt == chroma.NameTag:
		return tokNameTag, tokName
	case tt == chroma.NameAttribute:
		return tokNameAttribute, tokName
	case tt == chroma.NameClass:
		return tokNameClass, tokName
	case tt == chroma.NameConstant:
		return tokNameConstant, tokName
	case tt == chroma.NameDecorator:
		return tokNameDecorator, tokName
	case tt.InSubCategory(chroma.NameFunction):
		return tokNameFunction, tokName
	case tt.InCategory(chroma.Name):
		return tokName, tokText
	case tt.InSubCategory(chroma.LiteralNumber):
		return tokLiteralNumber, tokText
	case tt == chroma.LiteralStringEscape:
		return tokLiteralStringEscape, tokLiteralString
	case tt.InSubCategory(chroma.LiteralString):
		return tokLiteralString, tokText
	case tt == chroma.GenericDeleted:
		return tokGenericDeleted, tokText
	case tt == chroma.GenericEmph:
		return tokGenericEmph, tokText
	case tt == chroma.GenericInserted:
		return tokGenericInserted, tokText
	case tt == chroma.GenericStrong:
		return tokGenericStrong, tokText
	case tt == chroma.GenericSubheading:
		return tokGenericSubheading, tokText
	}
	return tokText, tokText
}

// goRules is Go's lexer as chroma writes it (lexers/go.go), but for raw strings, which chroma lexes as
// Go templates and which are strings here.
func goRules() chroma.Rules {
	words := chroma.Words
	return chroma.Rules{
		"root": {
			{Pattern: `\n`, Type: chroma.TextWhitespace},
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `//[^\s\n\r][^\n\r]*`, Type: chroma.CommentPreproc},
			{Pattern: `//[^\n\r]*`, Type: chroma.CommentSingle},
			{Pattern: `/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, Type: chroma.CommentMultiline},
			{Pattern: `(import|package)\b`, Type: chroma.KeywordNamespace},
			{Pattern: `(var|func|struct|map|chan|type|interface|const)\b`, Type: chroma.KeywordDeclaration},
			{Pattern: words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Type: chroma.Keyword},
			{Pattern: `(true|false|iota|nil)\b`, Type: chroma.KeywordConstant},
			{Pattern: words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), Type: chroma.ByGroups(chroma.NameBuiltin, chroma.Punctuation)},
			{Pattern: words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), Type: chroma.KeywordType},
			{Pattern: `\d+i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+\.\d*([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
			{Pattern: `\.\d+([Ee][-+]\d+)?i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+[Ee][-+]\d+i`, Type: chroma.LiteralNumber},
			{Pattern: `\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, Type: chroma.LiteralNumberFloat},
			{Pattern: `\.\d+([eE][+\-]?\d+)?`, Type: chroma.LiteralNumberFloat},
			{Pattern: `0[0-7]+`, Type: chroma.LiteralNumberOct},
			{Pattern: `0[xX][0-9a-fA-F_]+`, Type: chroma.LiteralNumberHex},
			{Pattern: `0b[01_]+`, Type: chroma.LiteralNumberBin},
			{Pattern: `(0|[1-9][0-9_]*)`, Type: chroma.LiteralNumberInteger},
			{Pattern: `'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, Type: chroma.LiteralStringChar},
			{Pattern: "`[^`]*`", Type: chroma.LiteralString},
			{Pattern: `"(\\\\|\\"|[^"])*"`, Type: chroma.LiteralString},
			{Pattern: `(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Type: chroma.Operator},
			{Pattern: `([a-zA-Z_]\w*)(\s*)(\()`, Type: chroma.ByGroups(chroma.NameFunction, chroma.UsingSelf("root"), chroma.Punctuation)},
			{Pattern: `[|^<>=!()\[\]{}.,;:~]`, Type: chroma.Punctuation},
			{Pattern: `[^\W\d]\w*`, Type: chroma.NameOther},
		},
	}
}
