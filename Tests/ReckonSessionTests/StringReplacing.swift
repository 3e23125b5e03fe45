/// Test support: edits to a fixture's text, without Foundation.
extension String {
  /// Every `target` replaced by `replacement`.
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
