/// Text made safe for a terminal: the one rule every piece of text passes before it is
/// shown, whoever wrote it (a question file, a file name, a key in a quiz, a profile name).
///
/// C0 and C1 control characters, DEL and the bidirectional controls are shown as visible
/// escapes instead of being sent: `\e` for ESC, `\t`, `\r`, and `\u{HEX}` for the others
/// (`\u{7}`, `\u{9B}`, `\u{202E}`). An escape sequence in a file can then neither retitle the
/// window, clear the screen, write the clipboard (OSC 52) nor make text read backwards. Line
/// breaks are kept: they are how the session writes text of several lines.
public enum VisibleText {
  /// `text` with every character that could act on the terminal shown visibly.
  public static func escaped(_ text: String) -> String {
    // Most text is printable ASCII and line breaks: returned as it is, from its bytes.
    guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A || $0 >= 0x7F }) else { return text }
    guard text.unicodeScalars.contains(where: acts) else { return text }
    var shown = ""
    shown.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard acts(scalar) else {
        shown.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\u{1B}": shown += "\\e"
      case "\t": shown += "\\t"
      case "\r": shown += "\\r"
      default: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return shown
  }

  /// Whether a character would act on the terminal rather than be shown.
  public static func acts(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A: false  // a line break
    case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls
    default: false
    }
  }
}
