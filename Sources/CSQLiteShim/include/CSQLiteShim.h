#ifndef GALLERYKIT_CSQLITESHIM_H
#define GALLERYKIT_CSQLITESHIM_H

/* sqlite3_db_config is variadic, which Swift cannot call. Plain C types only, so that this
 * header does not clash with GRDB's import of SQLite's. */

/// Keeps the connection's write-ahead log between connections: the log and its shared-memory
/// file stay when the last connection closes (SQLITE_FCNTL_PERSIST_WAL), and closing does not
/// checkpoint (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE); the log is copied into the database by the
/// automatic checkpoint of a later commit instead. `connection` is a `sqlite3 *`.
/// Returns 0 on success, else SQLite's error code.
int gallerykit_sqlite_keep_write_ahead_log(void *connection);

#endif
