#include "CSQLiteTuning.h"

// Every `reckon -e 1+1` with a saved database reads its settings through one short-lived
// connection, which needs a page or two. By default SQLite's page cache starts by allocating
// 20 pages (about 90 KB) in one block and touching them: some 17 fresh pages, a page fault
// each, at every start-up. (Debian's SQLite is built without lookaside memory, the other
// per-connection block.)
int reckon_sqlite_no_bulk_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }
