#ifndef RECKON_CSQLITE_SHIM_H
#define RECKON_CSQLITE_SHIM_H

#include <sqlite3.h>

// What Swift cannot reach of sqlite3.h by itself, in static inline functions.

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: SQLite copies the bytes bound.
static inline sqlite3_destructor_type reckon_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
