/// A range of characters (Unicode scalars) in one input line, 0-based, end exclusive.
public struct SourceSpan: Sendable, Hashable {
  public var start: Int
  public var end: Int

  public init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = max(end, start)
  }

  /// The 1-based column of the first character, as printed in `line:column`.
  public var column: Int { start + 1 }

  /// The smallest span covering both.
  public func union(_ other: SourceSpan) -> SourceSpan {
    SourceSpan(min(start, other.start), max(end, other.end))
  }
}
