extension LineEditor {
  /// The result of ``LineEditor/readLine(prompt:)``.
  public enum Event: Equatable, Sendable {
    /// A line the user entered, without its newline.
    case line(String)
    /// Ctrl-C: the line being typed was abandoned (the terminal shows `^C`
    /// and the cursor is on a fresh line).
    case interrupted
    /// The line went past ``LineEditor/lineLimit`` and was refused as it arrived: the rest
    /// of it (up to its line break, or a pause in the input) is dropped.
    case tooLong
    /// Ctrl-D on an empty line, or the end of the input.
    case endOfInput
  }
}
