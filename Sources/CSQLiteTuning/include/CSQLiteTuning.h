#ifndef RECKON_CSQLITETUNING_H
#define RECKON_CSQLITETUNING_H

#include <sqlite3.h>

/// SQLite's configuration call is variadic, which Swift cannot call: this wraps the one that
/// start-up needs (see SQLiteTuning.c).

/// Before SQLite's first use in the process: the page cache allocates pages as it needs them
/// instead of 20 in one block up front. SQLITE_MISUSE when SQLite is already in use (then
/// nothing changes).
int reckon_sqlite_no_bulk_page_cache(void);

#endif
