import ReckonData

/// Decodes the HTML character references that Open Trivia DB puts in its text, as a browser
/// does in text (and as Python's `html.unescape`): every one of HTML5's named references
/// (`&quot;`, `&eacute;`, `&Phi;`, `&NotEqualTilde;`), the legacy ones also without their
/// `;` (`&copy 2020`), and numeric ones (`&#039;`, `&#xE9;`, with or without `;`, the
/// standard's Windows-1252 reading of `&#128;`–`&#159;`, U+FFFD for `&#0;`, surrogates and
/// numbers past U+10FFFF). Anything else is left as it is (`AT&T`, `&bogus;`).
///
/// The names come from `ReckonData/html-entities.txt`, written by `scripts/html-entities`
/// from the standard's list and embedded in the binary, sorted: a name is found by binary
/// search over the embedded bytes, so nothing is parsed or built at start-up, and the first
/// decode only notes where the lines start.
public enum HTMLEntities {
  public static func decode(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "&"), let (replacement, end) = reference(in: bytes, at: i) {
        out += replacement
        i = end
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The longest name looked at after `&` (as the standard's longest name is).
  static let longestName = 32

  /// The reference that starts at `bytes[start]` (an `&`): what it stands for (UTF-8) and
  /// where it ends; nil when it is not one.
  static func reference(in bytes: [UInt8], at start: Int) -> ([UInt8], Int)? {
    var i = start + 1
    guard i < bytes.count else { return nil }
    if bytes[i] == UInt8(ascii: "#") {
      i += 1
      let hex = i < bytes.count && (bytes[i] == UInt8(ascii: "x") || bytes[i] == UInt8(ascii: "X"))
      if hex { i += 1 }
      let digitsStart = i
      var value: UInt32 = 0
      while i < bytes.count, let digit = digit(bytes[i], hex: hex) {
        // Past U+10FFFF the value no longer matters: it stays there.
        value = min(value * (hex ? 16 : 10) + digit, 0x11_0000)
        i += 1
      }
      guard i > digitsStart else { return nil }
      if i < bytes.count && bytes[i] == UInt8(ascii: ";") { i += 1 }
      return (numeric(value), i)
    }
    // A name: up to 32 bytes that cannot end one, then perhaps `;`.
    let nameStart = i
    while i < bytes.count && i - nameStart < longestName && !ends(bytes[i]) { i += 1 }
    let name = bytes[nameStart..<i]
    guard !name.isEmpty else { return nil }
    let semicolon = i < bytes.count && bytes[i] == UInt8(ascii: ";")
    if semicolon {
      if let value = lookup(name + [UInt8(ascii: ";")]) { return (value, i + 1) }
    } else if let value = lookup(name) {
      return (value, i)  // a legacy name, whole
    }
    // Otherwise the longest legacy name (valid without `;`) that the name starts with, of two
    // letters at least, and the rest stays as it is: `&copyright` is © and `right`.
    var length = semicolon ? name.count : name.count - 1
    while length >= 2 {
      if let value = lookup(name.prefix(length)) { return (value, nameStart + length) }
      length -= 1
    }
    return nil
  }

  /// Bytes that end a name: tab, line feed, form feed, space, `<`, `&`, `#` and `;`.
  static func ends(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x09, 0x0A, 0x0C, 0x20, UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: ";"): true
    default: false
    }
  }

  static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// What a numeric reference stands for: the table's reading where it has one (Windows-1252
  /// for 128–159, nothing for controls and noncharacters), U+FFFD for a surrogate or a number
  /// past U+10FFFF, otherwise the code point.
  static func numeric(_ value: UInt32) -> [UInt8] {
    if value <= 0x10_FFFF, let special = lookup(ArraySlice(Array("#\(value)".utf8))) { return special }
    guard let scalar = Unicode.Scalar(value) else { return [0xEF, 0xBF, 0xBD] }  // U+FFFD
    return Array(String(Character(scalar)).utf8)
  }

  // MARK: The table

  /// The embedded table's bytes.
  static var table: UnsafeBufferPointer<UInt8> {
    let file = reckon_data_html_entities()
    return UnsafeBufferPointer(start: file.bytes, count: Int(file.size))
  }

  /// Where each line of the table starts, found on first use (about 2,400 lines).
  static let lineStarts: [Int32] = {
    let bytes = table
    var starts: [Int32] = [0]
    for i in bytes.indices where bytes[i] == 0x0A && i + 1 < bytes.count { starts.append(Int32(i + 1)) }
    return starts
  }()

  /// The UTF-8 of what `name` (as written after `&`, with its `;` if it has one) stands for,
  /// or nil if it is not in the table.
  static func lookup(_ name: ArraySlice<UInt8>) -> [UInt8]? {
    let bytes = table
    let starts = lineStarts
    var (low, high) = (0, starts.count)
    while low < high {
      let middle = (low + high) / 2
      let start = Int(starts[middle])
      var tab = start
      while bytes[tab] != 0x09 && bytes[tab] != 0x0A { tab += 1 }
      let key = bytes[start..<tab]
      if key.elementsEqual(name) {
        guard bytes[tab] == 0x09 else { return nil }  // the comment line
        return value(bytes, from: tab + 1)
      }
      if key.lexicographicallyPrecedes(name) { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// The code points written in hex from `start` to the end of the line, as UTF-8.
  static func value(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> [UInt8] {
    var scalars = String.UnicodeScalarView()
    var i = start
    var code: UInt32 = 0
    var digits = 0
    while true {
      let byte = i < bytes.count ? bytes[i] : 0x0A
      if let d = digit(byte, hex: true) {
        code = code * 16 + d
        digits += 1
      } else {
        if digits > 0, let scalar = Unicode.Scalar(code) { scalars.append(scalar) }
        (code, digits) = (0, 0)
        if byte == 0x0A { break }
      }
      i += 1
    }
    return Array(String(scalars).utf8)
  }
}
