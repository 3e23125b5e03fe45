/// Text compared the way a person reads it: whatever the case, the accents, the kind of
/// apostrophe or the spacing. `Curaçao`, `CURACAO` and ` curacao ` fold to the same key.
///
/// No Unicode normalisation library is at hand (the session does not import Foundation), so
/// accents come off through a table of the Latin letters that carry them (Latin-1 and
/// Latin Extended-A, which cover the languages of Western and Central Europe), and
/// combining marks (U+0300–U+036F) are dropped, so decomposed input folds too.
public enum Folding {
  public static func key(_ text: some StringProtocol) -> String {
    if let ascii = asciiKey(text) { return ascii }
    var out = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.lowercased().unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !out.isEmpty
        continue
      }
      if (0x300...0x36F).contains(scalar.value) { continue }
      if pendingSpace {
        out.append(" ")
        pendingSpace = false
      }
      if scalar.isASCII {
        out.append(scalar)
      } else if let plain = table[scalar] {
        out.append(contentsOf: plain.unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// The key of ASCII text, straight from its bytes (most text is ASCII, and a large file
  /// folds hundreds of thousands of fields); nil when the text is not all ASCII.
  static func asciiKey(_ text: some StringProtocol) -> String? {
    let utf8 = text.utf8
    guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    // Written straight into the new string: one allocation, no array between.
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
      var count = 0
      var pendingSpace = false
      for byte in utf8 {
        if (0x09...0x0D).contains(byte) || byte == 0x20 {
          pendingSpace = count > 0
          continue
        }
        if pendingSpace {
          buffer[count] = 0x20
          count += 1
          pendingSpace = false
        }
        buffer[count] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
        count += 1
      }
      return count
    }
  }

  /// Each plain spelling and the letters that fold to it.
  private static let table: [Unicode.Scalar: String] = {
    let groups: [(String, String)] = [
      ("a", "àáâãäåāăą"), ("c", "çćĉċč"), ("d", "ďđð"), ("e", "èéêëēĕėęě"), ("g", "ĝğġģ"), ("h", "ĥħ"),
      ("i", "ìíîïĩīĭįı"), ("j", "ĵ"), ("k", "ķ"), ("l", "ĺļľŀł"), ("n", "ñńņňŉ"), ("o", "òóôõöøōŏő"),
      ("r", "ŕŗř"), ("s", "śŝşšſ"), ("t", "ţťŧ"), ("u", "ùúûüũūŭůűų"), ("w", "ŵ"), ("y", "ýÿŷ"), ("z", "źżž"),
      ("ss", "ß"), ("ae", "æ"), ("oe", "œ"), ("th", "þ"), ("'", "‘’‛′´"), ("\"", "“”„″"), ("-", "‐‑‒–—−"),
    ]
    var table: [Unicode.Scalar: String] = [:]
    for (plain, letters) in groups {
      for scalar in letters.unicodeScalars { table[scalar] = plain }
    }
    return table
  }()
}

/// FNV-1a, 64 bits: a hash that is the same in every process and on every machine (Swift's
/// `Hasher` is seeded afresh each run), for keys kept in the store and for daily questions.
public struct StableHash: Sendable {
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  public mutating func add(_ text: some StringProtocol) {
    for byte in text.utf8 {
      value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    // A separator, so ("ab", "c") and ("a", "bc") differ.
    value = (value ^ 0xFF) &* 0x0000_0100_0000_01B3
  }

  public static func of(_ text: some StringProtocol) -> UInt64 {
    var hash = StableHash()
    hash.add(text)
    return hash.value
  }

  /// Sixteen lowercase hex digits.
  public static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
