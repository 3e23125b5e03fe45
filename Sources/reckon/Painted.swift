import LineEditor

/// Text to show, in pieces that each may have a style (bold, green…). The styles are not
/// text: only `OutputStream` turns them into escape codes, and every piece of text goes
/// through `VisibleText` on its way out, so nothing that came from a file or was typed can
/// act on the terminal, whichever way it reached the screen.
struct Painted: Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
  struct Piece: Equatable {
    var text: String
    var style: Style?
  }

  /// The styles the renderer uses, as SGR parameters.
  enum Style: String {
    case error = "31"
    case right = "32"
    case warning = "33"
    case dim = "2"
    case bold = "1"
    case known = "1;32"
    case learning = "4;31"
  }

  private(set) var pieces: [Piece]

  init(_ text: String = "", _ style: Style? = nil) {
    pieces = text.isEmpty ? [] : [Piece(text: text, style: style)]
  }

  init(stringLiteral text: String) { self.init(text) }

  init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

  /// The text without its styles.
  var plain: String { pieces.map(\.text).joined() }

  /// The text as a terminal gets it: each styled piece between its code and a reset, and
  /// control characters in the text made visible.
  var terminalText: String {
    pieces.map { piece in
      let text = VisibleText.escaped(piece.text)
      guard let style = piece.style else { return text }
      return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }.joined()
  }

  static func + (a: Painted, b: Painted) -> Painted {
    var joined = a
    joined.pieces += b.pieces
    return joined
  }

  static func + (a: Painted, b: String) -> Painted { a + Painted(b) }
  static func + (a: String, b: Painted) -> Painted { Painted(a) + b }

  static func += (a: inout Painted, b: Painted) { a = a + b }
  static func += (a: inout Painted, b: String) { a = a + Painted(b) }
}

extension Sequence<Painted> {
  func joined(separator: String = "") -> Painted {
    var result = Painted()
    for (i, piece) in enumerated() {
      if i > 0 { result += separator }
      result += piece
    }
    return result
  }
}
