// SQLite's full-text search (FTS3, FTS4, FTS5) and R-tree modules: Debian's libsqlite3.a is
// built with them, and every connection's opening calls their registration functions, so
// the static link kept their objects (fts5.o alone is 157 KB, with FTS3's and R-tree's about
// 270 KB of code and more of unwind tables) although no table of Reckon's, nor of an Anki
// collection, is one of theirs. The release link sends the three calls to these (the
// linker's --wrap: Package.swift), and the objects, no longer referenced, are not linked: a
// schema that names one of these modules (a hostile Anki package's, say) reads as "no such
// module", as in an SQLite built without them. LinkageTests checks that they are gone.

typedef struct sqlite3 sqlite3;

int __wrap_sqlite3Fts3Init(sqlite3 *db) {
  (void)db;
  return 0;  // SQLITE_OK: nothing to register
}

int __wrap_sqlite3Fts5Init(sqlite3 *db) {
  (void)db;
  return 0;
}

int __wrap_sqlite3RtreeInit(sqlite3 *db) {
  (void)db;
  return 0;
}
