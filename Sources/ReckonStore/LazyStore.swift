import Foundation
import ReckonSession

/// A store that creates its database only when something is saved: a script or a pipe that
/// changes no setting leaves no files behind, and reads cost nothing while there is no file.
public final class LazyStore: Store, @unchecked Sendable {
  let path: String
  private var store: SQLiteStore?
  private let lock = NSLock()

  public init(path: String) { self.path = path }

  public func settings(profile: String) throws(StoreError) -> [String: String] {
    guard FileManager.default.fileExists(atPath: path) else { return [:] }
    return try opened().settings(profile: profile)
  }

  public func saveSetting(_ key: String, value: String, profile: String) throws(StoreError) {
    try opened().saveSetting(key, value: value, profile: profile)
  }

  /// The real store, opened on first use. A database that could only be opened in memory
  /// is an error here: what was asked will not last.
  func opened() throws(StoreError) -> SQLiteStore {
    lock.lock()
    defer { lock.unlock() }
    let store = self.store ?? SQLiteStore.open(path: path)
    self.store = store
    if store.path == nil { throw StoreError(store.warnings.first ?? "the database cannot be opened") }
    return store
  }
}
