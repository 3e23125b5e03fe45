/// Prepares prompt text for libedit's `EL_PROMPT_ESC`.
enum PromptText {
  /// The character that brackets non-printing prompt text.
  static let ignoreMarker: Character = "\u{1}"

  /// Encloses each ANSI escape sequence (CSI `ESC [ … final`, or a two-character
  /// `ESC x`) in ``ignoreMarker`` so that libedit does not count it as width.
  static func marked(_ prompt: String) -> String {
    guard prompt.contains("\u{1B}") else { return prompt }
    var output = ""
    var scalars = prompt.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\u{1B}" else {
        output.unicodeScalars.append(scalar)
        continue
      }
      var sequence = String(scalar)
      if let next = scalars.popFirst() {
        sequence.unicodeScalars.append(next)
        if next == "[" {
          while let part = scalars.popFirst() {
            sequence.unicodeScalars.append(part)
            if (0x40...0x7E).contains(part.value) { break }
          }
        }
      }
      output.append(ignoreMarker)
      output += sequence
      output.append(ignoreMarker)
    }
    return output
  }
}
