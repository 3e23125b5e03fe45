/// Profile names: who is practising. Each profile has its own settings and progress.
public enum Profiles {
  public static let maxLength = 32

  /// What is wrong with a name as a profile name, or nil if it will do: 1 to 32 letters,
  /// digits, `-`, `_` or `.`, starting with a letter or digit.
  public static func problem(with name: String) -> String? {
    guard !name.isEmpty else { return "a profile needs a name" }
    // Most names (every login name) are plain ASCII: checked on bytes, every start-up skips
    // grapheme breaking and Unicode's property tables (each a page fault or two).
    let bytes = name.utf8
    if bytes.count <= maxLength, let first = bytes.first, isASCIILetterOrDigit(first),
      bytes.allSatisfy({
        isASCIILetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
      })
    {
      return nil
    }
    guard name.count <= maxLength else { return "a profile name has at most \(maxLength) characters" }
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
      return "a profile name starts with a letter or a digit"
    }
    let allowed = name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
    }
    return allowed ? nil : "a profile name holds only letters, digits, '-', '_' and '.'"
  }

  static func isASCIILetterOrDigit(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
      || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
  }

  /// The profile a session starts with: the login name when it makes a valid profile name.
  public static func initial(loginName: String?) -> String {
    guard let loginName, problem(with: loginName) == nil else { return "default" }
    return loginName
  }
}
