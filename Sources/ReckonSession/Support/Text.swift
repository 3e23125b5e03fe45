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
