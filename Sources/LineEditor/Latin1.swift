/// Text to and from Latin-1 (ISO-8859-1), for a terminal whose locale uses it: the line
/// editor's prompt, history and typed lines, and the executable's output and piped input.
public enum Latin1 {
  /// What Reckon prints that Latin-1 has no byte for, in ASCII.
  static let substitutes: [Unicode.Scalar: String] = [
    "✓": "+", "✗": "x", "…": "...", "≈": "~", "−": "-", "–": "-", "—": "-", "→": "->", "←": "<-",
    "█": "#", "▏": "|", "●": "#", "◐": "+", "○": "o", "’": "'", "‘": "'", "“": "\"", "”": "\"",
    "─": "-", "│": "|", "⁰": "0", "¹": "1",
  ]

  /// `text` in Latin-1: code points below 256 as one byte each, known symbols in ASCII,
  /// emoji left out, anything else as "?".
  public static func encode(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if scalar.value < 256 {
        bytes.append(UInt8(scalar.value))
      } else if let substitute = substitutes[scalar] {
        bytes.append(contentsOf: substitute.utf8)  // ASCII
      } else if scalar.properties.isEmojiPresentation || scalar.value == 0xFE0F {
        continue
      } else {
        bytes.append(UInt8(ascii: "?"))
      }
    }
    return bytes
  }

  /// `text` in Latin-1 and NUL-terminated, for libedit.
  static func cString(_ text: String) -> [CChar] {
    encode(text).map { CChar(bitPattern: $0) } + [0]
  }

  /// Latin-1 bytes as text: each byte is the code point of the same number.
  public static func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }
}
