#ifndef RECKON_CSQLITE_SHIM_H
#define RECKON_CSQLITE_SHIM_H

#include <sqlite3.h>

// What Swift cannot reach of sqlite3.h by itself, in static inline functions.

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: SQLite copies the bytes bound.
static inline sqlite3_destructor_type reckon_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic. Before SQLite's first use in the process: its page cache
// allocates pages as it needs them instead of 20 in one block up front (about 90 KB touched
// at once: some 17 page faults for a read that needs a page or two). SQLITE_MISUSE once
// SQLite is in use (then nothing changes).
static inline int reckon_sqlite_no_bulk_page_cache(void) {
  return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

#endif
