/// A recursive-descent parser for the grammar in `grammar/reckon.ebnf`:
///
///     line           = [ name "=" ] expression | binary-operator expression
///     additive       = multiplicative { ("+" | "-") multiplicative }      (a + p% rule)
///     multiplicative = percent-of { ("*" | "/" | "mod") percent-of }
///     percent-of     = implicit [ "of" percent-of ]                      (left side a percentage)
///     implicit       = unary { power }          (juxtaposed factor starts with a name or "(")
///     unary          = ("-" | "+") unary | power
///     power          = postfix [ "^" unary ]
///     postfix        = primary { "!" | "%" }
///     primary        = number | name "(" [ arguments ] ")" | name | "(" expression ")"
///
/// Every recursion counts towards a nesting limit, so hostile input gets an error, not a
/// stack overflow.
public struct Parser {
  let list: TokenList
  var tokens: [Token]
  var index = 0
  var depth = 0
  /// Set when the line starts with a binary operator: the first primary is then `ans`.
  var injectAnswer = false

  /// Nesting deeper than this is an error.
  public static let maxDepth = 1000

  /// A parser over a line's tokens (an `.end` is added if missing).
  public init(tokens: TokenList) {
    list = tokens.tokens.last?.kind == .end ? tokens : tokens.with(tokens.tokens)
    self.tokens = list.tokens
  }

  /// Parses a whole calculator line.
  public static func parseLine(_ source: String, maxExponent: Int = Lexer.maxExponent) throws(Diagnostic) -> Statement {
    var parser = Parser(tokens: try Lexer.tokenize(source, maxExponent: maxExponent))
    return try parser.parseStatement()
  }

  /// Parses a line that must be a single expression (no assignment, no continuation).
  public static func parseExpression(_ source: String) throws(Diagnostic) -> Expr {
    var parser = Parser(tokens: try Lexer.tokenize(source))
    let expr = try parser.expression()
    try parser.expectEnd()
    return expr
  }

  public mutating func parseStatement() throws(Diagnostic) -> Statement {
    if peek.kind == .end { return .empty }
    conversionAt = Parser.conversionStart(in: list)
    if let at = conversionAt, at == 0, tokens[1].kind != .equals {
      // "to hex" alone converts the last result ("to = 1" is refused as an assignment).
      let answer = Statement.expression(.name("ans", peek.span), continuesAnswer: true)
      return .converted(answer, try conversion())
    }
    let statement = try plainStatement()
    return startsConversion(peek) ? .converted(statement, try conversion()) : statement
  }

  /// Where the line's conversion starts: its `to` or `->`, or else the last `in` that has a
  /// target after it and a value before it (`100 cm in in`: the second; `3 in` has none, and
  /// is three inches). Nil for a line with none.
  static func conversionStart(in list: TokenList) -> Int? {
    let tokens = list.tokens
    var depth = 0
    var lastIn: Int?
    for (i, t) in tokens.enumerated() {
      switch t.kind {
      case .leftParen: depth += 1
      case .rightParen: depth -= 1
      case .arrow where depth == 0: return i
      case .name where depth == 0 && list.isName(t, "to"): return i
      case .name where depth == 0 && list.isName(t, "in") && i > 0:
        let before = tokens[i - 1].kind
        let after = tokens[i + 1].kind
        if [.number, .name, .rightParen, .percent, .bang].contains(before), after == .name || after == .percent {
          lastIn = i
        }
      default: break
      }
    }
    return lastIn
  }

  /// Where this line's conversion starts, once `parseStatement` has found it.
  var conversionAt: Int?

  /// Whether `token` (the next one) starts the line's conversion.
  func startsConversion(_ token: Token) -> Bool {
    guard let at = conversionAt else { return false }
    return index == at && (token.kind == .arrow || token.kind == .name)
  }

  /// An assignment or an expression, up to the end of the line or a `to`.
  mutating func plainStatement() throws(Diagnostic) -> Statement {
    if peek.kind == .name, tokens[index + 1].kind == .equals {
      let name = list.text(of: peek)
      let nameSpan = peek.span
      index += 2
      if peek.kind == .end {
        throw Diagnostic("expected a value after '='", at: peek.span, hint: "for example: \(name) = 3*4")
      }
      let value = try expression()
      if !startsConversion(peek) { try expectEnd() }
      return .assignment(name: name, nameSpan: nameSpan, value: value)
    }
    injectAnswer = startsWithBinaryOperator
    let continues = injectAnswer
    let expr = try expression()
    if !startsConversion(peek) { try expectEnd() }
    return .expression(expr, continuesAnswer: continues)
  }

  /// Whether the first token is a binary operator ("-" only when a space follows it).
  var startsWithBinaryOperator: Bool {
    switch peek.kind {
    case .plus, .star, .slash, .caret: true
    case .minus: peek.spaceAfter
    case .mod: true
    default: false
    }
  }

  // MARK: Conversions

  /// Whether `token` is the word `to`, which starts a conversion at the end of a line.
  func isTo(_ token: Token) -> Bool { list.isName(token, "to") }

  /// `("to" | "in" | "->") ( "hex" | "oct" | "bin" | "base" count | "fraction" | "percent" | units )`,
  /// ending the line.
  mutating func conversion() throws(Diagnostic) -> Conversion {
    let keyword = advance()
    let to = keyword.span
    let word0 = list.text(of: keyword)
    let usage = "to km, to km/h, to ft in, to hex, to base N (2 to 36), to fraction, to percent"
    let word = peek
    if word.kind == .percent, tokens[index + 1].kind == .end {
      // "to %": the ratio unit.
      index += 1
      return Conversion(.unit(.name("%", word.span), text: "%"), at: to.union(word.span))
    }
    guard let name = list.name(of: word) else {
      if word.kind == .end {
        throw Diagnostic("'\(word0)' needs what to convert to, but the line ends", at: word.span, hint: usage)
      }
      // to (1/s), to 1/s, to 45 min: a target that starts with a parenthesis or a number.
      if word.kind == .leftParen || word.kind == .number { return try unitConversion(from: to) }
      throw Diagnostic("expected what to convert to, found \(list.describe(word))", at: word.span, hint: usage)
    }
    let target: Conversion.Target
    guard Conversion.Target.words.contains(name) else { return try unitConversion(from: to) }
    index += 1
    switch name {
    case "hex": target = .hex
    case "oct": target = .oct
    case "bin": target = .bin
    case "fraction": target = .fraction
    case "percent": target = .percent
    case "base":
      let n = peek
      guard let value = list.number(of: n), let radix = value.intValue, (2...36).contains(radix) else {
        let found = n.kind == .end ? "the line ends" : "found '\(list.text(of: n))'"
        throw Diagnostic(
          "to base needs a whole number from 2 to 36, but \(found)", at: n.span, hint: "for example: 255 to base 3")
      }
      index += 1
      target = .base(radix)
    default:
      preconditionFailure("a format word")
    }
    let span = to.union(tokens[index - 1].span)
    if peek.kind != .end {
      throw Diagnostic(
        "a conversion ends the line: nothing may follow '\(list.text(of: span))'", at: peek.span,
        hint: "one conversion a line, for example: 255 to hex")
    }
    return Conversion(target, at: span)
  }

  /// A unit target: the rest of the line, an expression of units (`km/h`, `L/100km`), or
  /// several units side by side for a mixed result (`ft in`).
  mutating func unitConversion(from to: SourceSpan) throws(Diagnostic) -> Conversion {
    let start = peek.span.start
    let saved = conversionAt
    conversionAt = nil
    defer { conversionAt = saved }
    let target = try expression()
    try expectEnd()
    let span = SourceSpan(start, tokens[index - 1].span.end)
    let text = list.text(of: span)
    return Conversion(.unit(target, text: text), at: to.union(span))
  }

  /// The error for a `to` that does not end the line's expression.
  func misplacedTo(_ token: Token) -> Diagnostic {
    Diagnostic(
      "'to' converts a whole line: write it at the end, after the whole expression", at: token.span,
      hint: "for example: 255 to hex, or (2^8 - 1) to bin")
  }

  // MARK: Expressions

  /// A comparison, or an additive expression: `a < b` is true or false. Comparisons bind
  /// loosest of all and do not chain (`1 < 2 < 3` is an error, not a truth compared).
  public mutating func expression() throws(Diagnostic) -> Expr {
    let first = try additive()
    guard let comparison = Parser.comparison(peek.kind) else { return first }
    let span = advance().span
    let second = try operand(after: span) { (p) throws(Diagnostic) in try p.additive() }
    if Parser.comparison(peek.kind) != nil {
      throw Diagnostic(
        "comparisons do not chain", at: peek.span, hint: "compare two values at a time: a < b, then b < c")
    }
    return .comparison(first, comparison, second, operatorSpan: span)
  }

  static func comparison(_ kind: Token.Kind) -> Comparison? {
    switch kind {
    case .less: .less
    case .lessOrEqual: .lessOrEqual
    case .greater: .greater
    case .greaterOrEqual: .greaterOrEqual
    case .equalEqual: .equal
    case .notEqual: .notEqual
    default: nil
    }
  }

  /// Throws unless every token has been used.
  public mutating func expectEnd() throws(Diagnostic) {
    let t = peek
    switch t.kind {
    case .end: return
    case .rightParen:
      throw Diagnostic("unmatched ')'", at: t.span, hint: "there is no '(' for this ')' to close")
    case .number:
      if index > 0, tokens[index - 1].kind == .name, let f = Builtins.function(named: list.text(of: tokens[index - 1]))
      {
        throw Diagnostic(
          "\(f.name) needs parentheses: write \(f.name)(\(list.text(of: t)))", at: t.span,
          hint: "usage: \(f.usage)")
      }
      if index > 0 && tokens[index - 1].kind == .percent {
        throw Diagnostic(
          "missing operator before this number (% means percent; for a remainder write mod or rem)", at: t.span,
          hint: "15% is 0.15; 7 mod 2 is 1 (floored), rem(-7, 2) is -1 (truncated), idiv(7, 2) is 3")
      }
      throw Diagnostic("missing operator before this number", at: t.span, hint: "write * to multiply")
    case .equals:
      throw Diagnostic(
        "only a name can be assigned to", at: t.span, hint: "write name = value, for example x = 3*4")
    case .name where isTo(t):
      throw Diagnostic(
        "'to' converts the result of a calculation line, and cannot be used here", at: t.span,
        hint: "calculate the value on a line of its own, then convert it with: to hex")
    default:
      throw Diagnostic("unexpected \(list.describe(t))", at: t.span)
    }
  }

  mutating func additive() throws(Diagnostic) -> Expr {
    let first = try multiplicative()
    var links: [Expr.Link] = []
    while true {
      let op: BinaryOperator
      switch peek.kind {
      case .plus: op = .add
      case .minus: op = .subtract
      default: return links.isEmpty ? first : .chain(first, links)
      }
      let span = advance().span
      if links.isEmpty { links.reserveCapacity(4) }  // one allocation for most chains
      links.append(Expr.Link(op, span, try operand(after: span) { (p) throws(Diagnostic) in try p.multiplicative() }))
    }
  }

  mutating func multiplicative() throws(Diagnostic) -> Expr {
    let first = try percentOf()
    var links: [Expr.Link] = []
    while true {
      let op: BinaryOperator
      switch peek.kind {
      case .star: op = .multiply
      case .slash: op = .divide
      case .mod: op = .modulo
      default: return links.isEmpty ? first : .chain(first, links)
      }
      let span = advance().span
      if links.isEmpty { links.reserveCapacity(4) }  // one allocation for most chains
      links.append(Expr.Link(op, span, try operand(after: span) { (p) throws(Diagnostic) in try p.percentOf() }))
    }
  }

  /// `p% of x`, one factor: tighter than * / mod, right-associative (`20% of 50% of 80`).
  mutating func percentOf() throws(Diagnostic) -> Expr {
    let first = try implicit()
    guard peek.kind == .of else { return first }
    let span = advance().span
    let rest = try nested(at: span) { (p) throws(Diagnostic) in
      try p.operand(after: span) { (p) throws(Diagnostic) in try p.percentOf() }
    }
    return .chain(first, [Expr.Link(.of, span, rest)])
  }

  /// Juxtaposed factors (`2pi`, `5 km`), and a mixed quantity: number-and-unit groups side
  /// by side, added (`5 ft 11 in`, `1 h 20 min`, `30° 15' 10"`).
  mutating func implicit() throws(Diagnostic) -> Expr {
    let first = try juxtaposed()
    var parts: [Expr.Link] = []
    while Parser.isNumberAndUnit(parts.last?.operand ?? first), peek.kind == .number,
      tokens[index + 1].kind == .name, !startsConversion(tokens[index + 1]), !isTo(tokens[index + 1])
    {
      let at = SourceSpan(peek.span.start, peek.span.start)
      parts.append(Expr.Link(.mixed, at, try juxtaposed()))
    }
    return parts.isEmpty ? first : .chain(first, parts)
  }

  mutating func juxtaposed() throws(Diagnostic) -> Expr {
    let first = try unary()
    var links: [Expr.Link] = []
    while startsJuxtaposedFactor {
      let before = tokens[index - 1]
      if before.kind == .percent || list.isName(before, "‰") { throw percentThenFactor(after: before) }
      let at = SourceSpan(peek.span.start, peek.span.start)
      links.append(Expr.Link(.implicitMultiply, at, try power()))
    }
    return links.isEmpty ? first : .chain(first, links)
  }

  /// Whether a name is a currency's sign, written before an amount: `$`, `€`, `£`, `¥`, `A$`.
  public static func isCurrencySign(_ name: String) -> Bool {
    ["$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "₫", "₱", "₦"].contains(name)
      || (name.count > 1 && name.hasSuffix("$"))
  }

  /// A number followed by names only (`5 ft`, `20 min`, `30°`): one part of a mixed quantity.
  static func isNumberAndUnit(_ expr: Expr) -> Bool {
    guard case .chain(let first, let links) = expr, case .number = first else { return false }
    return links.allSatisfy {
      guard $0.op == .implicitMultiply, case .name = $0.operand else { return false }
      return true
    }
  }

  var startsJuxtaposedFactor: Bool {
    switch peek.kind {
    case .leftParen: true
    case .name: !isTo(peek) && !startsConversion(peek)
    default: false
    }
  }

  mutating func unary() throws(Diagnostic) -> Expr {
    if !injectAnswer {
      switch peek.kind {
      case .minus:
        let span = advance().span
        return .negate(
          try nested(at: span) { (p) throws(Diagnostic) in
            try p.operand(after: span) { (p) throws(Diagnostic) in try p.unary() }
          }, operatorSpan: span)
      case .plus:
        let span = advance().span
        return try nested(at: span) { (p) throws(Diagnostic) in
          try p.operand(after: span) { (p) throws(Diagnostic) in try p.unary() }
        }
      default: break
      }
    }
    return try power()
  }

  mutating func power() throws(Diagnostic) -> Expr {
    let base = try postfix()
    guard peek.kind == .caret else { return base }
    let span = advance().span
    let exponent = try nested(at: span) { (p) throws(Diagnostic) in
      try p.operand(after: span) { (p) throws(Diagnostic) in try p.unary() }
    }
    return Parser.insideProduct(base, to: exponent.span.end) { .power($0, exponent, operatorSpan: span) }
  }

  mutating func postfix() throws(Diagnostic) -> Expr {
    var expr = try primary()
    var count = 0
    while true {
      switch peek.kind {
      case .bang:
        let span = advance().span
        expr = Parser.insideProduct(expr, to: span.end) { .factorial($0, operatorSpan: span) }
      case .percent:
        let span = advance().span
        expr = Parser.insideProduct(expr, to: span.end) { .percent($0, operatorSpan: span) }
      default: return expr
      }
      count += 1
      if count > Parser.maxDepth {
        throw Diagnostic("too many '!' and '%' in a row (more than \(Parser.maxDepth))", at: peek.span)
      }
    }
  }

  mutating func primary() throws(Diagnostic) -> Expr {
    if injectAnswer {
      injectAnswer = false
      return .name("ans", SourceSpan(0, 0))
    }
    let token = peek
    switch token.kind {
    case .number:
      index += 1
      return .number(list.number(of: token)!, token.span)
    case .name:
      if isTo(token) { throw misplacedTo(token) }
      let name = list.text(of: token)
      index += 1
      if peek.kind == .number, Parser.isCurrencySign(name) {
        // $5, € 84.50: the amount after its currency's sign, as 5 $ is.
        let number = advance()
        return .chain(
          .number(list.number(of: number)!, number.span),
          [Expr.Link(.implicitMultiply, SourceSpan(number.span.end, number.span.end), .name(name, token.span))])
      }
      guard peek.kind == .leftParen else { return .name(name, token.span) }
      if name == "‰" { throw percentThenFactor(after: token) }
      let open = advance().span
      let arguments = try nested(at: open) { (p) throws(Diagnostic) in try p.arguments(openedAt: open) }
      let close = advance().span
      return .call(name: name, nameSpan: token.span, arguments: arguments, span: token.span.union(close))
    case .leftParen:
      let open = advance().span
      let inner = try nested(at: open) { (p) throws(Diagnostic) in
        try p.operand(after: open) { (p) throws(Diagnostic) in try p.expression() }
      }
      guard peek.kind == .rightParen else { throw missingClose(openedAt: open) }
      index += 1
      return inner
    default:
      throw expected(after: nil)
    }
  }

  /// The error for a factor right after `%` or `‰` (`7 % (2)`, `10 % pi`): a remainder meant,
  /// or a product? Neither is guessed.
  func percentThenFactor(after sign: Token) -> Diagnostic {
    let text = list.text(of: sign)
    return Diagnostic(
      "an operator is needed after '\(text)': a percentage is not multiplied by what follows it",
      at: tokens[tokens.firstIndex { $0.span.start >= sign.span.end } ?? index].span,
      hint: "7\(text) * 2 or 7\(text) of 2 for a share; 7 mod 2 for a remainder")
  }

  /// `operation` applied to `expr`, or, when `expr` is a name that is no function followed
  /// by a parenthesis (`x(2)`, `pi(2)`, `ft(3)`: a product, x·2), to the parenthesis alone:
  /// a `^`, `!` or `%` after the ")" binds to it as it does after a number's parenthesis
  /// (`x(2)^2` is x·2², as `2(2)^2` is 2·2²), not to the whole product.
  static func insideProduct(_ expr: Expr, to end: Int, _ operation: (Expr) -> Expr) -> Expr {
    guard case .call(let name, let nameSpan, let arguments, let span) = expr, arguments.count == 1,
      Builtins.function(named: name) == nil
    else { return operation(expr) }
    return .call(
      name: name, nameSpan: nameSpan, arguments: [operation(arguments[0])], span: SourceSpan(span.start, end))
  }

  mutating func arguments(openedAt open: SourceSpan) throws(Diagnostic) -> [Expr] {
    var list: [Expr] = []
    if peek.kind == .rightParen { return list }
    while true {
      list.append(try operand(after: open) { (p) throws(Diagnostic) in try p.expression() })
      if peek.kind == .comma {
        index += 1
        continue
      }
      guard peek.kind == .rightParen else { throw missingClose(openedAt: open) }
      return list
    }
  }

  // MARK: Helpers

  var peek: Token { tokens[index] }

  mutating func advance() -> Token {
    let t = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return t
  }

  /// Parses an operand that must follow `span`, with an error that names what is missing.
  mutating func operand(
    after span: SourceSpan, _ parse: (inout Parser) throws(Diagnostic) -> Expr
  ) throws(Diagnostic) -> Expr {
    if peek.kind == .end || peek.kind == .rightParen || peek.kind == .comma || isBinaryOnly(peek) {
      throw expected(after: span)
    }
    return try parse(&self)
  }

  func isBinaryOnly(_ t: Token) -> Bool {
    switch t.kind {
    case .star, .slash, .caret, .percent, .bang, .equals: true
    case .mod, .of: true
    case .less, .lessOrEqual, .greater, .greaterOrEqual, .equalEqual, .notEqual: true
    default: false
    }
  }

  mutating func nested<T>(at span: SourceSpan, _ body: (inout Parser) throws(Diagnostic) -> T) throws(Diagnostic) -> T {
    depth += 1
    defer { depth -= 1 }
    if depth > Parser.maxDepth {
      throw Diagnostic("nested too deeply (more than \(Parser.maxDepth) levels)", at: span)
    }
    return try body(&self)
  }

  func expected(after span: SourceSpan?) -> Diagnostic {
    let t = peek
    if t.kind == .end {
      return Diagnostic("expected a number, a name or '(' here, but the line ends", at: t.span)
    }
    return Diagnostic("expected a number, a name or '(' here, found \(list.describe(t))", at: t.span)
  }

  func missingClose(openedAt open: SourceSpan) -> Diagnostic {
    let t = peek
    if isTo(t) { return misplacedTo(t) }
    let what = t.kind == .end ? "the line ends" : "found \(list.describe(t))"
    return Diagnostic(
      "missing ')' to close the '(' at column \(open.column): \(what)", at: t.span)
  }
}
