/// The two ways Open Trivia DB can encode its strings besides HTML's references
/// (`encode=url3986` and `urlLegacy`; `encode=base64`), decoded to their bytes (UTF-8, when
/// the file is right). Written here: the session does not import Foundation.
public enum TransferEncodings {
  /// Percent-encoding (RFC 3986): `%` and two hex digits is a byte; `+` is a space when
  /// `plusIsSpace` (the legacy form-encoding). Nil when a `%` is not followed by two hex
  /// digits.
  public static func percentDecoded(_ text: String, plusIsSpace: Bool = false) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          return nil
        }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace: bytes.append(0x20)
      default: bytes.append(byte)
      }
    }
    return bytes
  }

  /// Whether `text` could be percent-encoded: only RFC 3986's unreserved characters
  /// (`A–Z a–z 0–9 - . _ ~`), `%` with two hex digits, and `+`.
  public static func looksPercentEncoded(_ text: String) -> Bool {
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "+"):
        continue
      case UInt8(ascii: "%"):
        guard iterator.next().flatMap(hexValue) != nil, iterator.next().flatMap(hexValue) != nil else { return false }
      default: return false
      }
    }
    return true
  }

  /// Base64 (RFC 4648's standard alphabet, `=` padding optional), decoded; nil when it is
  /// not base64.
  public static func base64Decoded(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 4 * 3)
    var buffer: UInt32 = 0
    var count = 0
    var padding = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      // Nothing but padding after padding.
      guard padding == 0, let value = base64Value(byte) else { return nil }
      buffer = buffer << 6 | UInt32(value)
      count += 1
      if count == 4 {
        bytes += [
          UInt8(truncatingIfNeeded: buffer >> 16), UInt8(truncatingIfNeeded: buffer >> 8),
          UInt8(truncatingIfNeeded: buffer),
        ]
        (buffer, count) = (0, 0)
      }
    }
    // What is left: two characters make one byte, three make two; one is not base64, and
    // padding, when there is any, makes the length a multiple of four.
    switch count {
    case 0: guard padding == 0 else { return nil }
    case 2:
      guard padding == 0 || padding == 2 else { return nil }
      bytes.append(UInt8(truncatingIfNeeded: buffer >> 4))
    case 3:
      guard padding == 0 || padding == 1 else { return nil }
      bytes += [UInt8(truncatingIfNeeded: buffer >> 10), UInt8(truncatingIfNeeded: buffer >> 2)]
    default: return nil
    }
    return bytes
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  static func base64Value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}
