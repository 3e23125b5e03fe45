/// A profile's settings, kept as text by name.
public protocol SettingsStore {
  /// The settings saved for a profile, as text (`digits` → `20`).
  func settings(profile: String) throws(StoreError) -> SavedSettings
  /// Saves one setting for a profile, replacing any earlier value (and creating the
  /// profile at `milliseconds` if it is new).
  func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError)
}

/// Settings as the store keeps them: text by name (`digits` → `20`).
public typealias SavedSettings = [String: String]
