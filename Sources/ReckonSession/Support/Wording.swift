import ReckonCore

/// Small pieces of English that several replies share.
enum Wording {
  /// `1 answer`, `2 answers`, `1,000 answers`.
  static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n.grouped) \(n == 1 ? singular : plural ?? singular + "s")"
  }

  /// `part` as a whole percentage of `whole`, rounded half up (2 of 3 is `67%`); `–` for none.
  static func percent(_ part: Int, of whole: Int) -> String {
    whole == 0 ? "–" : "\((part * 200 + whole) / (2 * whole))%"
  }

  /// `Owl`, `Owl and Fox`, `Owl, Fox and Dolphin` (or `Owl or Fox`).
  static func list(_ items: [String], or: Bool = false) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + items.last!
  }
}
