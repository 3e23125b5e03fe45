/// An error with the place in the input where it happened, and an optional hint.
public struct Diagnostic: Error, Sendable, Hashable {
  public var message: String
  public var span: SourceSpan
  public var hint: String?
  /// Lines that explain the error further (each problem of a file that was refused), shown
  /// after it, on the same stream.
  public var details: [String]

  public init(_ message: String, at span: SourceSpan, hint: String? = nil, details: [String] = []) {
    self.message = message
    self.span = span
    self.hint = hint
    self.details = details
  }

  /// A name or word from the input as a message quotes it: `'x2'`, and one of more than 40
  /// characters cut in the middle with its length (`'aaaaaaaaaaaaaaaaaaaa…aaaaaaaaaaaaaaaaaaaa'
  /// (65,000 characters)`), so that a pasted page is not repeated in full.
  public static func quoted(_ text: String) -> String {
    let count = text.unicodeScalars.count
    guard count > 40 else { return "'\(text)'" }
    let scalars = text.unicodeScalars
    let start = String(String.UnicodeScalarView(scalars.prefix(20)))
    let end = String(String.UnicodeScalarView(scalars.suffix(20)))
    return "'\(start)…\(end)' (\(count.grouped) characters)"
  }

  /// Whether `quoted` cuts the text.
  public static func isLong(_ text: String) -> Bool { text.unicodeScalars.count > 40 }

  /// The 1-based column where the error points.
  public var column: Int { span.column }

  /// A caret line to print under the input: spaces, then `^` under the span (at least one).
  /// `indent` is the width of whatever precedes the input on screen (the prompt).
  public func caretLine(indent: Int = 0) -> String {
    String(repeating: " ", count: indent + span.start)
      + String(repeating: "^", count: max(1, min(span.end - span.start, 80)))
  }

  /// The input line, the caret under it and the message, as plain text.
  public func rendered(source: String) -> String {
    var text = "error: \(message)\n  \(source)\n\(caretLine(indent: 2))"
    if let hint { text += "\nhint: \(hint)" }
    for line in details { text += "\n  \(line)" }
    return text
  }
}
