/// The profiles: who has used Reckon, and how much.
public protocol ProfileStore {
  /// Creates a profile unless it exists.
  func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError)
  /// Every profile with what it has done, by name.
  func profiles() throws(StoreError) -> [ProfileSummary]
}

/// A profile and how much it has done.
public struct ProfileSummary: Sendable, Hashable {
  public var name: String
  public var answers: Int
  /// The local day of its last answer, if any.
  public var lastDay: Day?

  public init(name: String, answers: Int, lastDay: Day?) {
    self.name = name
    self.answers = answers
    self.lastDay = lastDay
  }
}
