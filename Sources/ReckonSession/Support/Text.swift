extension String {
  /// Without the spaces and tabs at either end. Most fields have none, and those are
  /// returned at once from their bytes (an importer trims seven fields a row); the others
  /// are trimmed by characters, so a space carrying a combining mark stays whole.
  var trimmingSpaces: String {
    let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 }
    guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return self }
    let isBlank = { (c: Character) in c == " " || c == "\t" }
    guard let start = firstIndex(where: { !isBlank($0) }) else { return "" }
    let end = lastIndex(where: { !isBlank($0) })!
    return String(self[start...end])
  }
}

extension StringProtocol {
  /// Where `needle` first occurs at or after `start`, character by character. (The standard
  /// library's `firstRange(of:)`, `contains(_:)` of a string and `split(separator:)` by a
  /// string come from the regular expression module, a megabyte and a half of the binary.)
  func range(ofText needle: String, from start: Index? = nil) -> Range<Index>? {
    let needle = Array(needle)
    guard let first = needle.first else { return nil }
    var index = start ?? startIndex
    while let found = self[index...].firstIndex(of: first) {
      var end = found
      var matched = 0
      while matched < needle.count, end < endIndex, self[end] == needle[matched] {
        end = self.index(after: end)
        matched += 1
      }
      if matched == needle.count { return found..<end }
      index = self.index(after: found)
    }
    return nil
  }

  /// Whether `needle` occurs in the text.
  func holds(_ needle: String) -> Bool { range(ofText: needle) != nil }
}

/// What imported text may show.
enum PlainText {
  /// The text with each control character (C0, DEL, C1) as a space; line breaks kept if
  /// asked. Text without any is returned as it is.
  static func withoutControls(_ text: String, keepingLineBreaks: Bool = false) -> String {
    func isControl(_ s: Unicode.Scalar) -> Bool {
      (s.value < 0x20 && !(keepingLineBreaks && s == "\n")) || (0x7F...0x9F).contains(s.value)
    }
    // Most text has none: look at the bytes first (C0 and DEL are single bytes; C1 starts 0xC2).
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
      text.unicodeScalars.contains(where: isControl)
    else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
  }
}
