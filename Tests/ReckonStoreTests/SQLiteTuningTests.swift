import CSQLiteTuning
import GRDBSQLite
import Testing

/// The C wrapper for SQLite's variadic configuration call.
@Suite struct SQLiteTuningTests {
  /// It reaches sqlite3_config: once SQLite is in use the configuration can no longer
  /// change, SQLite says so, and the connection goes on working. (Its effect, before
  /// SQLite's first use, is on start-up's page faults: see linker/README.md.)
  @Test func afterSQLiteStartedItChangesNothing() {
    var db: OpaquePointer?
    #expect(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(reckon_sqlite_no_bulk_page_cache() == SQLITE_MISUSE)
    #expect(
      sqlite3_exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES (1); SELECT * FROM t", nil, nil, nil) == SQLITE_OK)
  }
}
