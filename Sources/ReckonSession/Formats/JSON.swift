/// A JSON value, read by `JSON.parse`, with the line each value starts on so that problems
/// in a user's file can name their place.
///
/// The session does not import Foundation, and a user's file needs better messages than
/// `JSONSerialization` gives: this reader is small, strict (RFC 8259) and never recurses
/// deeper than `maxDepth`.
public indirect enum JSON: Sendable, Equatable {
  case object([(key: String, value: JSON, line: Int)])
  case array([(value: JSON, line: Int)])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  public static func == (a: JSON, b: JSON) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.value == $1.value }
    case (.string(let x), .string(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.bool(let x), .bool(let y)): x == y
    case (.null, .null): true
    default: false
    }
  }

  /// The value of a key of an object (the last, if repeated).
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  public var string: String? { if case .string(let s) = self { s } else { nil } }

  /// What kind of value this is, for messages: `a string`, `an array`.
  public var kind: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "true or false"
    case .null: "null"
    }
  }

  /// A whole number's value (nil for anything else, or a number with a fraction).
  public var integer: Int? {
    guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
    return Int(n)
  }

  /// The value written as compact JSON (keys in their order), which `parse` reads back equal:
  /// how a game writes what it keeps of a round (`GameResult.data`).
  public var text: String {
    switch self {
    case .object(let members):
      "{" + members.map { JSON.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
    case .array(let values): "[" + values.map(\.value.text).joined(separator: ",") + "]"
    case .string(let s): JSON.quoted(s)
    case .number(let n):
      if n.rounded() == n && abs(n) < 9.0e15 { "\(Int(n))" } else if n.isFinite { "\(n)" } else { "null" }
    case .bool(let b): b ? "true" : "false"
    case .null: "null"
    }
  }

  /// An object of the given members, each on line 0 (a value made, not read).
  public static func object(_ members: KeyValuePairs<String, JSON>) -> JSON {
    .object(members.map { (key: $0.key, value: $0.value, line: 0) })
  }

  /// A string in quotes, with what JSON must escape escaped.
  static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  public static let maxDepth = 256

  /// Where and why a text is not JSON, or is more of it than may be read.
  public struct SyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var message: String
    /// The text holds more values than `parse` was allowed (it may be valid JSON).
    public var isTooLarge = false
  }

  /// The value of `text`, or where and why it is not JSON. Past `maxValues` values (each
  /// takes about 50 bytes of memory, several times its text) reading stops with an error
  /// that `isTooLarge`.
  /// A string longer than `maxStringBytes` (in the text, escapes as written) keeps only about
  /// its first `maxStringBytes`; the rest is passed over, not kept (a file that is one 20 MB
  /// string is not 20 MB of strings a few times over).
  public static func parse(_ text: String, maxValues: Int = .max, maxStringBytes: Int = .max) -> Result<
    JSON, SyntaxError
  > {
    var reader = Reader(Array(text.utf8))
    reader.valuesLeft = maxValues
    reader.maxStringBytes = maxStringBytes
    do throws(SyntaxError) {
      reader.skipSpace()
      let value = try reader.value(depth: 0)
      reader.skipSpace()
      if reader.index < reader.bytes.count { throw reader.error("unexpected text after the end of the JSON value") }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var valuesLeft = Int.max
    var maxStringBytes = Int.max

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> SyntaxError {
      // Columns count characters, not bytes.
      let column = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
      return SyntaxError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0D: index += 1
        case 0x0A:
          index += 1
          line += 1
          lineStart = index
        default: return
        }
      }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
      skipSpace()
      guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
      index += 1
    }

    mutating func value(depth: Int) throws(SyntaxError) -> JSON {
      guard depth < JSON.maxDepth else { throw error("nested more than \(JSON.maxDepth) levels deep") }
      valuesLeft -= 1
      guard valuesLeft >= 0 else {
        var tooLarge = error("more values than may be read")
        tooLarge.isTooLarge = true
        throw tooLarge
      }
      skipSpace()
      guard index < bytes.count else { throw error("the file ends where a value should be") }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var members: [(key: String, value: JSON, line: Int)] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        }
        while true {
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a name in double quotes")
          }
          let key = try string()
          try expect(UInt8(ascii: ":"), "':' after the name")
          skipSpace()
          let line = self.line
          members.append((key, try value(depth: depth + 1), line))
          skipSpace()
          guard index < bytes.count else { throw error("the file ends inside an object: expected '}'") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
          } else {
            throw error("expected ',' or '}'")
          }
        }
      case UInt8(ascii: "["):
        index += 1
        var items: [(value: JSON, line: Int)] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(items)
        }
        while true {
          skipSpace()
          let line = self.line
          items.append((try value(depth: depth + 1), line))
          skipSpace()
          guard index < bytes.count else { throw error("the file ends inside an array: expected ']'") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
          } else {
            throw error("expected ',' or ']'")
          }
        }
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "t"): return try word("true", .bool(true))
      case UInt8(ascii: "f"): return try word("false", .bool(false))
      case UInt8(ascii: "n"): return try word("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return try number()
      default:
        throw error("expected a value (a string, number, object, array, true, false or null)")
      }
    }

    mutating func word(_ text: String, _ value: JSON) throws(SyntaxError) -> JSON {
      let utf8 = Array(text.utf8)
      guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
        throw error("expected a value (a string, number, object, array, true, false or null)")
      }
      index += utf8.count
      return value
    }

    mutating func number() throws(SyntaxError) -> JSON {
      let start = index
      func digits() -> Int {
        let from = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - from
      }
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      let whole = index
      guard digits() > 0 else { throw error("a number needs digits") }
      if bytes[whole] == UInt8(ascii: "0") && index - whole > 1 {
        index = start
        throw error("a number cannot start with 0")
      }
      if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw error("a number needs digits after '.'") }
      }
      if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
        index += 1
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
          index += 1
        }
        guard digits() > 0 else { throw error("a number needs digits in its exponent") }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      return .number(Double(text) ?? .infinity)
    }

    mutating func string() throws(SyntaxError) -> String {
      // A string that may be too long: where to stop keeping it (the start of an escape or a
      // character at most `maxStringBytes` in), and where it ends.
      var cut: (at: Int, quote: Int)?
      if maxStringBytes < bytes.count - index - 1 {
        var end = index + 1
        var keepTo = end
        let last = index + 1 + maxStringBytes
        while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
          if end <= last { keepTo = end }
          if bytes[end] < 0x20 { break }  // an error, which the reading below reports
          end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        if end >= bytes.count {
          index = bytes.count  // where the reading below would find it, without keeping the string
          throw error("the file ends inside a string: expected '\"'")
        }
        if end > last && bytes[end] == UInt8(ascii: "\"") { cut = (keepTo, end) }
      }
      index += 1  // the opening quote
      var scalars = String.UnicodeScalarView()
      var runStart = index
      func flush() {
        if runStart < index {
          scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
        }
      }
      while true {
        if let cut, index >= cut.at {
          flush()
          index = cut.quote + 1
          return String(scalars)
        }
        guard index < bytes.count else { throw error("the file ends inside a string: expected '\"'") }
        let b = bytes[index]
        if b == UInt8(ascii: "\"") {
          flush()
          index += 1
          return String(scalars)
        }
        if b < 0x20 {
          throw error(
            b == 0x0A ? "a string cannot run over the end of a line (write \\n)" : "a control character inside a string"
          )
        }
        if b != UInt8(ascii: "\\") {
          index += 1
          continue
        }
        flush()
        index += 1
        guard index < bytes.count else { throw error("the file ends inside a string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            // A surrogate pair: the low half must follow.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
              throw error("a \\u escape for the first half of a surrogate pair needs the second half")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("an invalid surrogate pair") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(code) {
            throw error("an invalid surrogate pair")
          }
          scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default:
          // The whole character after the backslash, not its first byte.
          var end = index
          while end < bytes.count && end < index + 3 && bytes[end] & 0xC0 == 0x80 { end += 1 }
          let character = String(decoding: bytes[(index - 1)..<end], as: UTF8.self)
          index -= 2
          throw error("unknown escape '\\\(character)' in a string")
        }
        runStart = index
      }
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
      var code: UInt32 = 0
      for _ in 0..<4 {
        guard let digit = hexValue(bytes[index]) else { throw error("\\u needs four hex digits") }
        code = code << 4 | digit
        index += 1
      }
      return code
    }

    func hexValue(_ b: UInt8) -> UInt32? {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
      default: nil
      }
    }
  }
}
