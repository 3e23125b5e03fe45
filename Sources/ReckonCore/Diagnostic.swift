/// An error with the place in the input where it happened, and an optional hint.
public struct Diagnostic: Error, Sendable, Hashable {
  public var message: String
  public var span: SourceSpan
  public var hint: String?
  /// Lines that explain the error further (each problem of a file that was refused), shown
  /// after it, on the same stream.
  public var details: [String]
  /// Other places the error is about, marked with carets too (the right side of
  /// `3 m + 2 s`, whose left side is `span`).
  public var also: [SourceSpan]

  public init(
    _ message: String, at span: SourceSpan, hint: String? = nil, details: [String] = [], also: [SourceSpan] = []
  ) {
    self.message = message
    self.span = span
    self.hint = hint
    self.details = details
    self.also = also
  }

  /// A name or word from the input as a message quotes it: `'x2'`, and one of more than 40
  /// characters cut in the middle with its length (`'aaaaaaaaaaaaaaaaaaaa…aaaaaaaaaaaaaaaaaaaa'
  /// (65,000 characters)`), so that a pasted page is not repeated in full.
  public static func quoted(_ text: String) -> String {
    isLong(text) ? "'\(shortened(text))' (\(text.unicodeScalars.count.grouped) characters)" : "'\(text)'"
  }

  /// A long text by its ends, 20 scalars each side of an ellipsis (`quoted` without the
  /// quotes and the count); a short one as it is.
  public static func shortened(_ text: String) -> String {
    guard isLong(text) else { return text }
    let scalars = text.unicodeScalars
    return String(String.UnicodeScalarView(scalars.prefix(20))) + "…"
      + String(String.UnicodeScalarView(scalars.suffix(20)))
  }

  /// Whether `quoted` cuts the text.
  public static func isLong(_ text: String) -> Bool { text.unicodeScalars.count > 40 }

  /// The 1-based column where the error points.
  public var column: Int { span.column }

  /// A caret line to print under the input: spaces, then `^` under the span (at least one).
  /// `indent` is the width of whatever precedes the input on screen (the prompt).
  public func caretLine(indent: Int = 0) -> String {
    var line = ""
    var column = 0
    for place in ([span] + also).sorted(by: { $0.start < $1.start }) where indent + place.start >= column {
      let width = max(1, min(place.end - place.start, 80))
      line += String(repeating: " ", count: indent + place.start - column) + String(repeating: "^", count: width)
      column = indent + place.start + width
    }
    return line
  }

  /// The input line, the caret under it and the message, as plain text.
  public func rendered(source: String) -> String {
    var text = "error: \(message)\n  \(source)\n\(caretLine(indent: 2))"
    if let hint { text += "\nhint: \(hint)" }
    for line in details { text += "\n  \(line)" }
    return text
  }
}
