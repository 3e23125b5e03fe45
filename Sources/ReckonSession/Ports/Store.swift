/// Persistence, injected: the session asks for what it needs and never knows it is SQLite.
/// Later modes (drill, quiz) add their records here.
public protocol Store: AnyObject, Sendable {
  /// The settings saved for a profile, as text (`digits` → `20`).
  func settings(profile: String) throws(StoreError) -> [String: String]
  /// Saves one setting for a profile, replacing any earlier value.
  func saveSetting(_ key: String, value: String, profile: String) throws(StoreError)
}

/// Why the store could not do something, in words for the user.
public struct StoreError: Error, Sendable, Equatable {
  public var message: String

  public init(_ message: String) { self.message = message }
}
