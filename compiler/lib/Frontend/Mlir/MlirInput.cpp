//===- MlirInput.cpp - npuc's MLIR text input -----------------------------===//
//
// MLIR 19's linalg.transpose/broadcast/reduce custom parsers do
//
//   attributes.set(name, DenseI64ArrayAttr::parse(parser, Type{}));
//
// without checking the result: after a malformed list the parser has already
// printed its error, then stores a null attribute and crashes on it
// (NamedAttrList::set -> Attribute::getContext, SEGV). fuzz_mlir found it
// within a few thousand inputs. npuc cannot patch libMLIR, so it scans the
// text first, with MLIR's lexical rules for comments and strings, and rejects
// a malformed list at exactly the place that parser would read one.
//
//===----------------------------------------------------------------------===//

#include "npu/Frontend/MlirInput.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <cctype>
#include <cstdint>
#include <optional>

using namespace mlir;

namespace {

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         c == '$' || c == '.';
}

// A cursor over the buffer that steps over what MLIR's lexer skips.
class Scanner {
public:
  explicit Scanner(llvm::StringRef text) : text(text) {}

  size_t pos = 0;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  // Whitespace and `//` comments as MLIR's lexer skips them: a NUL byte
  // inside the buffer is whitespace to it, and a comment also ends at `\r`.
  void skipTrivia() {
    while (!atEnd()) {
      char c = text[pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0') {
        ++pos;
      } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
        while (!atEnd() && text[pos] != '\n' && text[pos] != '\r')
          ++pos;
      } else {
        return;
      }
    }
  }

  // A string literal starting at pos (on the opening quote); escapes as in
  // MLIR's lexer. An unterminated string runs to the end of the line, where
  // the parser reports it.
  void skipString() {
    ++pos;
    while (!atEnd() && text[pos] != '"' && text[pos] != '\n') {
      if (text[pos] == '\\' && pos + 1 < text.size())
        ++pos;
      ++pos;
    }
    if (!atEnd() && text[pos] == '"')
      ++pos;
  }

  // An int64 literal as DenseI64ArrayAttr::parse accepts it: an optional
  // `-`, decimal digits or `0x` hex digits, not followed by what would make
  // the lexer read another token kind (`1.5`, `1e3`, `12abc`).
  bool parseInt64() {
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos;
      skipTrivia();
    }
    size_t start = pos;
    unsigned __int128 value = 0;
    const unsigned __int128 limit =
        negative ? (unsigned __int128)INT64_MAX + 1 : INT64_MAX;
    if (peek() == '0' && pos + 1 < text.size() &&
        (text[pos + 1] == 'x' || text[pos + 1] == 'X')) {
      pos += 2;
      size_t digits = pos;
      while (!atEnd() && std::isxdigit(static_cast<unsigned char>(peek()))) {
        char c = peek();
        unsigned d = std::isdigit(static_cast<unsigned char>(c))
                         ? c - '0'
                         : (std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
        value = value * 16 + d;
        if (value > limit)
          return false;
        ++pos;
      }
      if (pos == digits)
        return false;
    } else {
      while (!atEnd() && std::isdigit(static_cast<unsigned char>(peek()))) {
        value = value * 10 + (peek() - '0');
        if (value > limit)
          return false;
        ++pos;
      }
      if (pos == start)
        return false;
    }
    return atEnd() || !isIdentChar(peek());
  }

  // `[` (int (`,` int)*)? `]`
  bool parseI64List() {
    if (peek() != '[')
      return false;
    ++pos;
    skipTrivia();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      if (!parseInt64())
        return false;
      skipTrivia();
      if (peek() == ']') {
        ++pos;
        return true;
      }
      if (peek() != ',')
        return false;
      ++pos;
      skipTrivia();
    }
  }

  // Moves past trivia and string literals (setting `previous` to `"` after
  // one) to the next other token; false at the end of the text.
  bool skipToToken(char &previous) {
    while (true) {
      skipTrivia();
      if (atEnd())
        return false;
      if (peek() != '"')
        return true;
      skipString();
      previous = '"';
    }
  }

  // A balanced `{...}` starting at pos (on the `{`), strings and comments
  // included; false if it does not close.
  bool skipBraces() {
    int depth = 0;
    while (true) {
      skipTrivia();
      if (atEnd())
        return false;
      char c = peek();
      if (c == '"') {
        skipString();
        continue;
      }
      ++pos;
      if (c == '{')
        ++depth;
      else if (c == '}' && --depth == 0)
        return true;
    }
  }

  // The bare word `word` at pos, not followed by more of an identifier.
  bool consumeWord(llvm::StringRef word) {
    if (!text.substr(pos).starts_with(word))
      return false;
    size_t end = pos + word.size();
    if (end < text.size() && isIdentChar(text[end]))
      return false;
    pos = end;
    return true;
  }

  // One type of a `:`-list, up to a `,` or `)` outside brackets (`->` is
  // not a bracket); its start, or nullopt where the list does not close.
  std::optional<size_t> skipType() {
    skipTrivia();
    size_t start = pos;
    int depth = 0;
    while (!atEnd()) {
      char c = peek();
      if (c == '"') {
        skipString();
        continue;
      }
      if (depth == 0 && (c == ',' || c == ')'))
        return start;
      if (c == '-' && pos + 1 < text.size() && text[pos + 1] == '>') {
        pos += 2;
        continue;
      }
      if (c == '<' || c == '(' || c == '[' || c == '{')
        ++depth;
      else if (c == '>' || c == ')' || c == ']' || c == '}')
        --depth;
      ++pos;
    }
    return std::nullopt;
  }

private:
  llvm::StringRef text;
};

// linalg.map's and linalg.reduce's short form, `linalg.map { arith.addf }
// ins(...) outs(...)`: MLIR 19's parser builds the payload block from each
// operand's element type through an unchecked cast to ShapedType, and
// crashes on any other type (`f32`, `i32`, ...). At `s` after the op name:
// the offsets of the operand types that are not spelled as a tensor, memref
// or vector type; anything not laid out like that form is left to the parser.
llvm::SmallVector<size_t> findUnshapedShortFormOperands(Scanner &s,
                                                        llvm::StringRef text) {
  llvm::SmallVector<size_t> unshaped;
  s.skipTrivia();
  if (s.peek() != '{' || !s.skipBraces())
    return unshaped;
  for (llvm::StringRef keyword : {"ins", "outs"}) {
    s.skipTrivia();
    if (!s.consumeWord(keyword))
      continue; // `ins` is optional; without `outs` the parser reports it
    s.skipTrivia();
    if (s.peek() != '(')
      return unshaped;
    while (!s.atEnd() && s.peek() != ':' && s.peek() != ')')
      ++s.pos;
    if (s.peek() != ':')
      return unshaped;
    ++s.pos;
    while (true) {
      std::optional<size_t> start = s.skipType();
      if (!start)
        return unshaped;
      Scanner type(text);
      type.pos = *start;
      bool shaped = type.consumeWord("tensor") || type.consumeWord("memref") ||
                    type.consumeWord("vector");
      if (shaped) {
        type.skipTrivia();
        shaped = type.peek() == '<';
      }
      if (!shaped)
        unshaped.push_back(*start);
      if (s.peek() == ')') {
        ++s.pos;
        break;
      }
      ++s.pos; // `,`
    }
  }
  return unshaped;
}

// A use of an SSA name that is defined only later, inside a region that does
// not enclose the use (`%m` used in one scf.execute_region, defined in the
// next). MLIR 19's parser resolves the use's placeholder to that definition;
// if the file then has a syntax error before the defining region's op is
// complete, it frees that region's block with the definition while the use
// still sits on its use list, and unlinking the use later writes into freed
// memory (the rare heap corruption fuzz_mlir found, docs/robustness.md). Such
// a use is never valid IR, so it is rejected whether or not an error
// follows. Scopes are `{...}`; uses and definitions are told apart by the
// tokens around them (`%a =`, `%a, %b =`, `%a:2 =`, `%a: T` in the argument
// list of `^bb` or `@f`, or of a region after `)` / `]`, as linalg.map's and
// linalg.reduce's `(%in: f32, %acc: f32) {`); only pairs within one function
// body count (a name is per function). Only a later op result (`%a = ...`,
// the form the corruption was found with) is reported: a valid file may
// reuse a name in a sibling region through argument forms this lexical
// check does not know (scf.forall's indices, ...), and such a name must not
// be mistaken for a use; for the same reason a use whose scope encloses the
// later definition's (an op's own header) is not reported either: only a
// use and a definition in disjoint regions, the form found.
struct ForwardRef {
  size_t use;
  size_t definition;
};

llvm::SmallVector<ForwardRef> findCrossRegionForwardRefs(llvm::StringRef text) {
  struct Token {
    size_t offset;
    unsigned scope;
    bool defines;
    bool result; // defined as an op result (`%a = ...`)
  };
  // Scope 0 is the file; each `{` opens a child of the current scope.
  llvm::SmallVector<unsigned> parent{0};
  llvm::SmallVector<bool> inFunction{false};
  llvm::SmallVector<unsigned> open{0};
  llvm::StringMap<llvm::SmallVector<Token>> tokens;
  Scanner s(text);
  // A `func.func`/`llvm.func` word arms the next `{` at its depth (its
  // attribute dictionary or its body) to start a function scope; 0: none.
  size_t functionDepth = 0;
  // The argument list of `^bb(`, `@f(` or a region's `) (` / `] (`: the
  // paren depth it started at, -1 outside one.
  int argumentList = -1;
  int parens = 0;
  char previous = '\0';
  while (s.skipToToken(previous)) {
    char c = s.peek();
    if (c == '{') {
      ++s.pos;
      unsigned scope = parent.size();
      parent.push_back(open.back());
      inFunction.push_back(inFunction[open.back()] ||
                           functionDepth == open.size());
      open.push_back(scope);
      previous = c;
      continue;
    }
    if (c == '}') {
      ++s.pos;
      if (open.size() > 1)
        open.pop_back();
      s.skipTrivia();
      if (functionDepth == open.size() && s.peek() != '{')
        functionDepth = 0;
      previous = c;
      continue;
    }
    if (c == '(') {
      if ((previous == '^' || previous == '@' || previous == ')' ||
           previous == ']') &&
          argumentList < 0)
        argumentList = parens;
      ++parens;
      ++s.pos;
      previous = c;
      continue;
    }
    if (c == ')') {
      --parens;
      if (argumentList == parens)
        argumentList = -1;
      ++s.pos;
      previous = c;
      continue;
    }
    if (c == '^' || c == '@' || isIdentChar(c)) {
      size_t start = s.pos;
      ++s.pos;
      while (!s.atEnd() && (isIdentChar(s.peek()) || s.peek() == '-'))
        ++s.pos;
      llvm::StringRef word = text.slice(start, s.pos);
      if (word.ends_with(".func"))
        functionDepth = open.size();
      previous = c == '^' || c == '@' ? c : 'a';
      continue;
    }
    if (c != '%') {
      ++s.pos;
      previous = c;
      continue;
    }
    size_t start = s.pos;
    ++s.pos;
    while (!s.atEnd() && (isIdentChar(s.peek()) || s.peek() == '-'))
      ++s.pos;
    llvm::StringRef name = text.slice(start, s.pos);
    // Look ahead for `=` after this name and any further `%b` / `%b:N`.
    Scanner ahead = s;
    bool defines = false, result = false;
    while (true) {
      ahead.skipTrivia();
      if (ahead.peek() == ':') {
        ++ahead.pos;
        ahead.skipTrivia();
        if (!std::isdigit(static_cast<unsigned char>(ahead.peek()))) {
          defines = argumentList >= 0; // `%a: T` of `^bb(` / `@f(`
          break;
        }
        while (std::isdigit(static_cast<unsigned char>(ahead.peek())))
          ++ahead.pos;
        ahead.skipTrivia();
      }
      if (ahead.peek() == '=') {
        defines = result = true;
        break;
      }
      if (ahead.peek() != ',')
        break;
      ++ahead.pos;
      ahead.skipTrivia();
      if (ahead.peek() != '%')
        break;
      ++ahead.pos;
      while (!ahead.atEnd() &&
             (isIdentChar(ahead.peek()) || ahead.peek() == '-'))
        ++ahead.pos;
    }
    tokens[name].push_back({start, open.back(), defines, result});
    previous = 'a';
  }

  auto encloses = [&](unsigned outer, unsigned scope) {
    while (true) {
      if (scope == outer)
        return true;
      if (scope == 0)
        return false;
      scope = parent[scope];
    }
  };
  llvm::SmallVector<ForwardRef> refs;
  for (auto &entry : tokens) {
    llvm::ArrayRef<Token> list = entry.second;
    for (size_t i = 0; i < list.size(); ++i) {
      const Token &use = list[i];
      if (use.defines)
        continue;
      bool visible = false;
      for (size_t j = i; j-- > 0 && !visible;)
        visible = list[j].defines && encloses(list[j].scope, use.scope);
      if (visible)
        continue;
      const Token *later = nullptr;
      for (size_t j = i + 1; j < list.size() && !later; ++j)
        if (list[j].defines)
          later = &list[j];
      if (!later || !later->result || encloses(later->scope, use.scope) ||
          encloses(use.scope, later->scope))
        continue;
      // Both in one function: their innermost common scope is inside it.
      unsigned common = later->scope;
      while (!encloses(common, use.scope))
        common = parent[common];
      if (!inFunction[common])
        continue;
      refs.push_back({use.offset, later->offset});
      break; // one report per name
    }
  }
  llvm::sort(refs, [](const ForwardRef &a, const ForwardRef &b) {
    return a.use < b.use;
  });
  return refs;
}

} // namespace

LogicalResult mlir::npu::checkParserHazards(llvm::SourceMgr &sourceMgr,
                                            MLIRContext *context) {
  unsigned bufferId = sourceMgr.getMainFileID();
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  llvm::StringRef text = buffer->getBuffer();
  Scanner s(text);
  bool ok = true;
  auto errorAt = [&](size_t offset) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(text.data() + offset), bufferId);
    return emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                         line, column));
  };
  // The last character of the previous token: `{` and `,` (and `<`) start
  // an attribute entry, which MLIR's generic attribute parser reads safely;
  // anywhere else a `permutation =` / `dimensions =` is read by the op's
  // custom parser.
  char previous = '\0';
  while (s.skipToToken(previous)) {
    char c = s.peek();
    if (!isIdentChar(c)) {
      // A sigil (`%`, `@`, `#`, `!`, `^`) makes what follows a different
      // token kind: skip it with its name.
      ++s.pos;
      if (c == '%' || c == '@' || c == '#' || c == '!' || c == '^') {
        while (!s.atEnd() && (isIdentChar(s.peek()) || s.peek() == '-'))
          ++s.pos;
      }
      previous = c;
      continue;
    }
    size_t start = s.pos;
    while (!s.atEnd() && isIdentChar(s.peek()))
      ++s.pos;
    llvm::StringRef word = text.slice(start, s.pos);
    char before = previous;
    previous = text[s.pos - 1];
    if (word == "linalg.map" || word == "linalg.reduce") {
      for (size_t at : findUnshapedShortFormOperands(s, text)) {
        errorAt(at)
            << "'" << word
            << "' with its payload op in braces needs each operand type "
               "spelled as a tensor or memref type here (MLIR 19's parser of "
               "this form crashes on any other type, so npuc rejects it "
               "before parsing)";
        ok = false;
      }
      previous = text[s.pos - 1];
      continue;
    }
    if ((word != "permutation" && word != "dimensions") || before == '{' ||
        before == ',' || before == '<')
      continue;
    s.skipTrivia();
    if (s.peek() != '=')
      continue;
    ++s.pos;
    s.skipTrivia();
    size_t listStart = s.pos;
    if (s.parseI64List()) {
      previous = ']';
      continue;
    }
    // Report at the list (where the parser's own error would point), then
    // resume after it: one error per malformed list.
    errorAt(listStart)
        << "'" << word
        << "' must be a list of 64-bit integers like [1, 0] here (MLIR 19's "
           "parser of this op crashes on anything else, so npuc rejects it "
           "before parsing)";
    ok = false;
    if (s.pos == listStart)
      ++s.pos;
  }
  for (const ForwardRef &ref : findCrossRegionForwardRefs(text)) {
    unsigned definitionLine =
        sourceMgr
            .getLineAndColumn(
                llvm::SMLoc::getFromPointer(text.data() + ref.definition),
                bufferId)
            .first;
    size_t end = ref.use + 1;
    while (end < text.size() && (isIdentChar(text[end]) || text[end] == '-'))
      ++end;
    errorAt(ref.use)
        << "'" << text.slice(ref.use, end)
        << "' is used here but defined only later (line " << definitionLine
        << ") inside a region that does not enclose this use: not valid IR, "
           "and MLIR 19's parser can free that definition while this use "
           "still refers to it (a heap corruption), so npuc rejects it "
           "before parsing";
    ok = false;
  }
  return success(ok);
}

// The op's inherent dense i64 array `name`, null if it is missing or of
// another kind (the verifier reports that). Read through the generic
// interface: the op is not verified yet, so its accessors may not assume the
// attribute is there or well-typed.
static DenseI64ArrayAttr getUnverifiedI64Array(Operation *op,
                                               llvm::StringRef name) {
  std::optional<Attribute> attr = op->getInherentAttr(name);
  return attr ? dyn_cast_or_null<DenseI64ArrayAttr>(*attr)
              : DenseI64ArrayAttr();
}

// linalg.broadcast's verifier checks the count and the range of
// `dimensions`, then maps every init dimension not listed to the next input
// dimension: a repeated entry leaves more of them than the input has, and
// it reads past the input's shape.
static bool checkBroadcastDimensions(Operation *op) {
  DenseI64ArrayAttr dimensions = getUnverifiedI64Array(op, "dimensions");
  if (!dimensions)
    return true;
  llvm::SmallDenseSet<int64_t, 8> seen;
  for (int64_t d : dimensions.asArrayRef()) {
    if (seen.insert(d).second)
      continue;
    op->emitError() << "'dimensions' must not repeat an entry, not "
                    << dimensions
                    << " (checked before MLIR 19's verifier, which reads out "
                       "of bounds on a repeated entry)";
    return false;
  }
  return true;
}

LogicalResult mlir::npu::checkVerifierHazards(Operation *root) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "linalg.broadcast") {
      ok &= checkBroadcastDimensions(op);
      return;
    }
    if (op->getName().getStringRef() != "linalg.transpose")
      return;
    DenseI64ArrayAttr permutation = getUnverifiedI64Array(op, "permutation");
    if (!permutation)
      return; // the verifier reports it
    ArrayRef<int64_t> values = permutation.asArrayRef();
    llvm::SmallVector<bool, 8> seen(values.size(), false);
    for (int64_t v : values) {
      if (v < 0 || v >= static_cast<int64_t>(values.size()) || seen[v]) {
        op->emitError() << "'permutation' must be a permutation of 0.."
                        << static_cast<int64_t>(values.size()) - 1 << ", not "
                        << permutation
                        << " (checked before MLIR 19's verifier, which reads "
                           "out of bounds on an entry outside that range)";
        ok = false;
        return;
      }
      seen[v] = true;
    }
  });
  return success(ok);
}

OwningOpRef<ModuleOp> mlir::npu::parseMlirInput(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context) {
  if (failed(checkParserHazards(sourceMgr, context)))
    return nullptr;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(context, /*verifyAfterParse=*/false));
  if (!module)
    return nullptr;
  // Ops the parser built rather than read -- a named linalg op's body, made
  // by its region builder -- have no location: they take their enclosing
  // op's, so that the verifier (linalg.div_unsigned on f32 builds an
  // arith.divui on floats) and every later diagnostic name the input line.
  module->walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<UnknownLoc>(op->getLoc()))
      if (Operation *parent = op->getParentOp())
        op->setLoc(parent->getLoc());
  });
  if (failed(checkVerifierHazards(*module)) || failed(verify(*module)))
    return nullptr;
  return module;
}
