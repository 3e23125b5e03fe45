/// A profile's settings, kept as text by name.
public protocol SettingsStore {
  /// The settings saved for a profile, as text (`digits` → `20`).
  func settings(profile: String) throws(StoreError) -> SavedSettings
  /// Saves one setting for a profile, replacing any earlier value (and creating the
  /// profile at `milliseconds` if it is new).
  func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError)
}

/// Settings as the store keeps them: text by name (`digits` → `20`), each name once. Two
/// short lists of strings, not a dictionary nor a list of pairs: the first `Dictionary` a
/// process makes costs the Swift runtime a scan of every protocol conformance in the binary,
/// and each generic type met for the first time (an array of pairs) 10,000 instructions, of
/// a start-up that reads the settings.
public struct SavedSettings: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// The names, in the order they were set, and each one's text.
  public private(set) var keys: [String] = []
  private var values: [String] = []

  public init() {}

  public init(dictionaryLiteral elements: (String, String)...) {
    for (key, value) in elements { self[key] = value }
  }

  /// The text saved under `key`; setting nil removes it.
  public subscript(key: String) -> String? {
    get { keys.firstIndex(of: key).map { values[$0] } }
    set {
      switch (keys.firstIndex(of: key), newValue) {
      case (let i?, let value?): values[i] = value
      case (let i?, nil):
        keys.remove(at: i)
        values.remove(at: i)
      case (nil, let value?):
        keys.append(key)
        values.append(value)
      case (nil, nil): break
      }
    }
  }

  public var isEmpty: Bool { keys.isEmpty }
  public var count: Int { keys.count }

  /// The same names with the same texts, in any order.
  public static func == (a: SavedSettings, b: SavedSettings) -> Bool {
    a.count == b.count && a.keys.indices.allSatisfy { b[a.keys[$0]] == a.values[$0] }
  }

  /// In any order, as `==` compares: each setting hashed alone, the hashes combined by XOR.
  public func hash(into hasher: inout Hasher) {
    var settings = 0
    for i in keys.indices {
      var one = Hasher()
      one.combine(keys[i])
      one.combine(values[i])
      settings ^= one.finalize()
    }
    hasher.combine(count)
    hasher.combine(settings)
  }
}
