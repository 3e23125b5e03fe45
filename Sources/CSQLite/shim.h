#ifndef RECKON_CSQLITE_SHIM_H
#define RECKON_CSQLITE_SHIM_H

#include <sqlite3.h>

// What Swift cannot reach of sqlite3.h by itself, in static inline functions.

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: SQLite copies the bytes bound.
static inline sqlite3_destructor_type reckon_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic: one of its integer options, set (1), cleared (0) or read (-1).
static inline int reckon_sqlite_db_config_int(sqlite3 *db, int op, int value, int *out) {
  return sqlite3_db_config(db, op, value, out);
}

#endif
