/// A profile's settings, kept as text by name.
public protocol SettingsStore {
  /// The settings saved for a profile, as text (`digits` → `20`).
  func settings(profile: String) throws(StoreError) -> SavedSettings
  /// Saves one setting for a profile, replacing any earlier value (and creating the
  /// profile at `milliseconds` if it is new).
  func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError)
}

/// Settings as the store keeps them: text by name (`digits` → `20`), each name once. A short
/// list, not a dictionary: the first `Dictionary` a process makes costs the Swift runtime a
/// scan of every protocol conformance in the binary, 0.1 ms of a start-up that reads them.
public struct SavedSettings: Sendable, Equatable, ExpressibleByDictionaryLiteral {
  public struct Setting: Sendable, Equatable {
    public var key: String
    public var value: String
  }

  /// The settings, in the order they were set.
  public private(set) var list: [Setting] = []

  public init() {}

  public init(dictionaryLiteral elements: (String, String)...) {
    for (key, value) in elements { self[key] = value }
  }

  /// The text saved under `key`; setting nil removes it.
  public subscript(key: String) -> String? {
    get { list.first { $0.key == key }?.value }
    set {
      let index = list.firstIndex { $0.key == key }
      switch (index, newValue) {
      case (let i?, let value?): list[i].value = value
      case (let i?, nil): list.remove(at: i)
      case (nil, let value?): list.append(Setting(key: key, value: value))
      case (nil, nil): break
      }
    }
  }

  public var isEmpty: Bool { list.isEmpty }
  public var count: Int { list.count }

  /// The same names with the same texts, in any order.
  public static func == (a: SavedSettings, b: SavedSettings) -> Bool {
    a.count == b.count && a.list.allSatisfy { b[$0.key] == $0.value }
  }
}
