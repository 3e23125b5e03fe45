import CSQLiteTuning
import GRDBSQLite
import Glibc
import ReckonSession

/// Reads a profile's settings straight through SQLite's C interface, on one read-only
/// connection, without migrations.
///
/// Every `reckon -e 1+1` needs the settings before it prints, and opening the store through
/// GRDB (a connection pool, WAL set-up, the migration check, and the Swift runtime's first
/// protocol-conformance lookups in a large binary) costs about 8 ms, several times the whole
/// start-up. This costs a fraction of a millisecond. Anything unexpected (no `setting`
/// table yet, a damaged file, a lock) returns nil, and the caller opens the store properly,
/// which knows how to deal with it.
enum QuickRead {
  static func settings(path: String, profile: String) -> SavedSettings? {
    var db: OpaquePointer?
    // With no -wal file every change is in the database file itself (the last writer
    // checkpointed and closed), so it can be read as immutable: no -wal and -shm files are
    // created and no locks taken, which is most of this read's cost. A writer starting at
    // that very moment could give a stale or failed read: a failure falls back as below.
    var flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    var name = path
    if access(path + "-wal", F_OK) != 0, !path.contains(where: { $0 == "?" || $0 == "#" || $0 == "%" }) {
      name = "file:" + path + "?immutable=1"
      flags |= SQLITE_OPEN_URI
    }
    // Usually SQLite's first use in the process: no bulk page-cache allocation for a read of
    // a page or two (17 page faults fewer at every start-up).
    _ = reckon_sqlite_no_bulk_page_cache()
    guard sqlite3_open_v2(name, &db, flags, nil) == SQLITE_OK else {
      sqlite3_close(db)
      return nil
    }
    defer { sqlite3_close(db) }
    sqlite3_busy_timeout(db, 2000)
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, "SELECT key, value FROM setting WHERE profile = ?", -1, &statement, nil) == SQLITE_OK
    else { return nil }
    defer { sqlite3_finalize(statement) }
    // SQLITE_TRANSIENT: SQLite copies the text.
    guard sqlite3_bind_text(statement, 1, profile, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self)) == SQLITE_OK
    else { return nil }
    var settings = SavedSettings()
    while true {
      switch sqlite3_step(statement) {
      case SQLITE_DONE:
        return settings
      case SQLITE_ROW:
        guard let key = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1) else {
          continue
        }
        settings.append(key: String(cString: key), value: String(cString: value))
      default:
        return nil
      }
    }
  }
}
