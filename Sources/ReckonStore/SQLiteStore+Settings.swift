import ReckonSession
import SQLite

/// Settings: a row per profile and key.
extension SQLiteStore: SettingsStore {
  public func settings(profile: String) throws(StoreError) -> SavedSettings {
    if let file, !isOpen {
      guard fileExists else { return [:] }
      if let settings = SQLiteStore.quickSettings(path: file, profile: profile) { return settings }
    }
    return try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
      let statement = try db.cached(SQLiteStore.settingsQuery)
      try statement.bind(profile)
      return try SQLiteStore.settings(from: statement)
    }
  }

  public func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(profile, at: milliseconds, in: db)
      try db.run(
        """
        INSERT INTO setting (profile, key, value) VALUES (?, ?, ?)
        ON CONFLICT (profile, key) DO UPDATE SET value = excluded.value
        """, profile, key, value)
    }
  }
}
