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
  /// The text without its invisible marks (`withoutInvisibles`) and with each control
  /// character (C0, DEL, C1) as a space; line breaks kept if asked. Text without any is
  /// returned as it is.
  static func withoutControls(_ text: String, keepingLineBreaks: Bool = false) -> String {
    // Most text has none, nor an invisible mark: one look at the bytes first (C0 and DEL are
    // single bytes; C1 and the soft hyphen start 0xC2, the other marks 0xE2 and 0xEF).
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == 0xEF })
    else { return text }
    let text = withoutInvisibles(text)
    func isControl(_ s: Unicode.Scalar) -> Bool {
      (s.value < 0x20 && !(keepingLineBreaks && s == "\n")) || (0x7F...0x9F).contains(s.value)
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
  }

  /// The text without the invisible format characters that text copied from elsewhere
  /// carries (`Jamaica\u{200E}`): left-to-right and right-to-left marks (U+200E, U+200F),
  /// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width spaces,
  /// non-joiners and word joiners (U+200B, U+200C, U+2060, U+FEFF) and soft hyphens
  /// (U+00AD); a zero-width joiner too, but inside an emoji sequence (👩‍💻), where it joins.
  /// Nothing would show them but as escapes, and they tell which answer was pasted.
  static func withoutInvisibles(_ text: String) -> String {
    // All of them start with byte 0xC2 (U+00AD), 0xE2 (U+20xx) or 0xEF (U+FEFF).
    guard text.utf8.contains(where: { $0 == 0xC2 || $0 == 0xE2 || $0 == 0xEF }),
      text.unicodeScalars.contains(where: isInvisible)
    else { return text }
    let scalars = Array(text.unicodeScalars)
    // An emoji's part: a pictograph, a skin tone, or the variation selector that makes one.
    func isEmojiPart(_ s: Unicode.Scalar) -> Bool { s.value == 0xFE0F || s.value > 0xFF && s.properties.isEmoji }
    var kept = String.UnicodeScalarView()
    for (index, scalar) in scalars.enumerated()
    where !isInvisible(scalar)
      || scalar.value == 0x200D
        && index > 0 && index + 1 < scalars.count && isEmojiPart(scalars[index - 1]) && isEmojiPart(scalars[index + 1])
    {
      kept.append(scalar)
    }
    return String(kept)
  }

  static func isInvisible(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0xAD, 0x200B...0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: true
    default: false
    }
  }
}
