/// A user's file as bytes, checked to be UTF-8 before any format reads it.
public enum TextFile {
  /// Where the first invalid UTF-8 sequence is: a line (from 1) and a byte within it (from 1).
  public struct InvalidUTF8: Error, Sendable, Equatable {
    public var line: Int
    public var byte: Int
  }

  /// The text of `bytes` without a leading byte-order mark, or where it stops being UTF-8.
  public static func decode(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
    var start = 0
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
    var line = 1
    var lineStart = start
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x80 {
        if b == 0x0A {
          line += 1
          lineStart = i + 1
        }
        i += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch b {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; high = 0x9F  // no surrogates
      case 0xF0: length = 4; low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; high = 0x8F
      default: return .failure(InvalidUTF8(line: line, byte: i - lineStart + 1))
      }
      guard i + length <= bytes.count else { return .failure(InvalidUTF8(line: line, byte: i - lineStart + 1)) }
      if !(low...high).contains(bytes[i + 1]) { return .failure(InvalidUTF8(line: line, byte: i - lineStart + 1)) }
      for k in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[i + k]) {
        return .failure(InvalidUTF8(line: line, byte: i - lineStart + 1))
      }
      i += length
    }
    return .success(String(decoding: bytes[start...], as: UTF8.self))
  }
}
