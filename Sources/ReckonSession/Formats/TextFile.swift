/// A user's file as bytes, checked to be UTF-8 before any format reads it. Every reader of a
/// file takes its bytes through here, so a byte-order mark and CRLF line ends are dealt with
/// once: a file saved by Windows' Notepad or Excel reads as the same file without them.
public enum TextFile {
  /// Where the first invalid UTF-8 sequence is: a line (from 1) and a byte within it (from 1).
  public struct InvalidUTF8: Error, Sendable, Equatable {
    public var line: Int
    public var byte: Int
  }

  /// The bytes without a leading UTF-8 byte-order mark (EF BB BF), which is not text. The one
  /// place a mark is taken off: `decode` uses it, and so do readers that work on bytes
  /// whatever their encoding (a word list may be Latin-1).
  public static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
  }

  /// Where the first invalid UTF-8 sequence of one line's bytes starts (from 1), or nil when
  /// they are all UTF-8.
  public static func firstInvalidByte(_ line: ArraySlice<UInt8>) -> Int? {
    if !line.contains(where: { $0 >= 0x80 }) { return nil }
    if String(validating: line, as: UTF8.self) != nil { return nil }
    // An ASCII byte first, so that nothing at the start is taken for a byte-order mark.
    if case .failure(let bad) = decode([0x78] + line) { return bad.byte - 1 }
    return nil
  }

  /// The text of `bytes` without a leading byte-order mark and with each CRLF line end as LF,
  /// or where it stops being UTF-8 (bytes counted after the mark). A lone CR is kept.
  public static func decode(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
    let content = withoutByteOrderMark(bytes)
    let start = content.startIndex
    var line = 1
    var lineStart = start
    var crlf = false
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x80 {
        if b == 0x0A {
          line += 1
          lineStart = i + 1
          if i > start && bytes[i - 1] == 0x0D { crlf = true }
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
    guard crlf else { return .success(String(decoding: content, as: UTF8.self)) }
    // Only a file that has CRLF pays for a copy.
    var unix: [UInt8] = []
    unix.reserveCapacity(content.count)
    for j in content.indices where !(bytes[j] == 0x0D && j + 1 < bytes.count && bytes[j + 1] == 0x0A) {
      unix.append(bytes[j])
    }
    return .success(String(decoding: unix, as: UTF8.self))
  }
}
