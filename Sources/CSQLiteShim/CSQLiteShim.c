#include "CSQLiteShim.h"

#include <sqlite3.h>

int gallerykit_sqlite_keep_write_ahead_log(void *connection) {
    sqlite3 *db = connection;
    int persist = 1;
    int status = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    if (status != SQLITE_OK) return status;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
