import Foundation
internal import GRDB
internal import GRDBSQLite

/// A persistent index of listed documents, so that a listing reads only the documents that
/// changed since the last one and a search asks SQLite's full-text search instead of reading
/// every manifest.
///
/// One SQLite database (through GRDB) serves every folder; a row is keyed by the document's
/// absolute path and holds the file's device, inode, size, modification and status-change
/// times in nanoseconds as `stat` gave them before the document was read, its summary (or its
/// error) and the text a search looks at. A row is used only while all of these are unchanged.
///
/// The index is a cache: what the files say always wins.
/// - A document that changed is re-read: saving renames a new file into place (a new inode),
///   and writing in place changes the status-change time, which no program can set back (not
///   even `touch -d`, which restores only the modification time). A file whose times are within
///   two seconds of the listing is read again by the next listing too, so two writes within one
///   tick of the file system's clock cannot leave a stale row behind. What remains is a clock
///   set backwards between two writes of the same size, or a network file system whose clock
///   disagrees with this machine's by more than that margin.
/// - Any failure to open, migrate or query the database rebuilds it once; if that fails too (a
///   read-only or missing cache folder, a full disk), the listing is done without it. A
///   listing is therefore never wrong and never fails because of the index.
/// - Concurrent listings share the database (SQLite's write-ahead log and a busy timeout);
///   a listing killed half way leaves no trace, as each one writes in a single transaction.
///   The first listing builds the index aside and renames it into place whole
///   (`firstListing`); one killed half way leaves its aside file, which the next removes.
public struct DocumentIndex: Sendable, Equatable {
    /// The database file.
    public var location: URL

    /// How long after a file's last write its stamp may vouch for its content
    /// (`FileStamp.isSettled(before:)`); tests shorten it.
    var settlingNanoseconds = FileStamp.settlingNanoseconds

    /// How long a write waits for another listing's write to finish before giving up (and
    /// listing without updating the index); tests shorten it.
    var busyTimeout: TimeInterval = 5

    /// The database file's name in GalleryKit's cache folder.
    public static let fileName = "browse-index.sqlite"

    /// The index in the database file at `location`, created when first needed.
    public init(at location: URL) {
        self.location = location
    }

    /// The index in the user's cache folder: `$XDG_CACHE_HOME/gallery/browse-index.sqlite`
    /// (`~/.cache/gallery/browse-index.sqlite` by default).
    public init(directories: BaseDirectories = BaseDirectories()) {
        self.init(at: BaseDirectories.gallery(in: directories.cache).appendingPathComponent(Self.fileName))
    }

    /// Lists `files` through the index: the documents whose row is missing or out of date are
    /// read (in parallel, by `reader`), the rest come from the index; then the index is brought
    /// up to date in one transaction (rows for what was read, removal of documents of `scope`
    /// that no longer exist) and searched.
    ///
    /// - Parameter aside: the index being made aside (`makingAsideIndex()`) when there was no
    ///   index file when the folder was scanned: every document is then read, already while the
    ///   index is made, into the index built aside (`firstListing`).
    /// - Returns: `nil` if the index cannot be used, even rebuilt; the caller lists without it.
    ///   Documents `reader` read on the way are kept in it, so they are not read twice.
    func listing(
        of files: [ListedFile], in scope: ListingScope, matching search: DocumentSearch?, reader: DocumentReader,
        aside: BackgroundWork<AsideIndex?>?
    ) -> DocumentListing? {
        let lock: FileLock
        if let aside {
            reader.startReading(Array(files.indices))
            guard let made = aside.wait() else { return nil }
            if let listing = firstListing(of: files, in: scope, matching: search, reader: reader, into: made) { return listing }
            lock = made.lock
        } else {
            guard let shared = FileLock.sharingIndex(at: location) else { return nil }
            lock = shared
        }
        var hasRetried = false, hasRebuilt = false
        while true {
            do {
                let database = try openDatabase()
                // Closing checkpoints what the listing wrote; the lock is held until it is closed.
                return try listing(of: files, in: scope, matching: search, reader: reader, database: database) { [lock] isIndexed in
                    withExtendedLifetime(lock) { try? database.close() }
                    return isIndexed
                }
            } catch let error as DatabaseError where error.isBusy {
                // Another listing holds the database longer than the timeout: it is in use, so
                // certainly not to be deleted.
                return nil
            } catch {
                // Two listings creating the index at once: the second may trip over the first's
                // tables. One retry settles that without deleting anything.
                if !hasRetried {
                    hasRetried = true
                    if (try? openDatabase()) != nil { continue }
                }
                guard !hasRebuilt, lock.whileExclusive({ removeDatabaseFiles() }) else { return nil }
                hasRebuilt = true
            }
        }
    }

    /// - Parameters:
    ///   - commitsLater: whether the transaction that brings the index up to date is left open,
    ///     for `lastSteps` to commit (a first listing's aside index, which nobody else opens:
    ///     `firstListing`).
    ///   - lastSteps: what is left to do with `database` once the index is up to date (or
    ///     could not be brought up to date: their argument), started then in the background
    ///     (`BackgroundWork`) while the listing is made from what was read; they return whether
    ///     the index is up to date with the listing.
    func listing(
        of files: [ListedFile], in scope: ListingScope, matching search: DocumentSearch?, reader: DocumentReader,
        database: DatabaseQueue, commitsLater: Bool = false, lastSteps: @escaping @Sendable (_ isIndexed: Bool) -> Bool
    ) throws -> DocumentListing {
        // One snapshot of the rows in scope: each one's stamp, and the summary of those the
        // listing shows (all of them, or those the search matches: only those are decoded).
        let isFiltering = search.map { !$0.matchesEverything } ?? false
        // Built by the first search that asks it. Busy, the listing is made without the index;
        // failing otherwise, the index is rebuilt, as for any other failure.
        if let search, isFiltering, Self.usesFullText(search) { try Self.bringFullTextInStep(database) }
        let (stamps, shown) = try database.read { db in
            let shown = try Self.documents(in: scope, matching: isFiltering ? search : nil, expecting: files.count, db)
            return (isFiltering ? try Self.stamps(in: scope, expecting: files.count, db) : nil, shown)
        }
        // Each path's bytes as the index keys it, made once, and each document's row, looked up once.
        let keys = files.map(\.path)
        let rows = keys.map { shown.index(forKey: $0) }
        // What the index knows of the document at a position: from the stamps when a search
        // leaves rows out of `shown`, else from its row.
        func known(at position: Int) -> (stamp: FileStamp, isSettled: Bool)? {
            if let stamps { return stamps[keys[position]] }
            return rows[position].map { (shown[$0].value.stamp, shown[$0].value.isSettled) }
        }
        var knownCount = 0
        let stale = files.indices.filter { position in
            guard let known = known(at: position) else { return true }
            knownCount += 1
            return known.stamp != files[position].stamp || !known.isSettled
        }
        // Read in the background while the index stores what was read, chunk by chunk.
        reader.startReading(stale)
        // Rows of documents no longer there: none when every row in scope was matched.
        var gone: [Data] = []
        if knownCount < stamps?.count ?? shown.count {
            let present = Set(keys)
            gone = (stamps.map { Array($0.keys) } ?? Array(shown.keys)).filter { !present.contains($0) }
        }

        // Whether the documents just read match, asked of the index once they are in it (so
        // that the full-text search decides for every document); in memory if it is busy.
        var freshMatches: Set<Data>?
        var isIndexed = true
        if !stale.isEmpty || !gone.isEmpty {
            do {
                freshMatches = try Self.inTransaction(on: database, committing: !commitsLater) { db in
                    let ids = try Self.update(
                        stale.map { files[$0] }, removing: gone, db, leavingFullTextBehind: commitsLater && !isFiltering
                    ) { range in
                        let positions = Array(stale[range])
                        let documents = reader.documents(at: positions)
                        // A listing that shows every document needs only their summaries now.
                        if !isFiltering { reader.keepOnlySummaries(at: positions) }
                        return documents
                    }
                    SavePoint.indexRowsWritten.reached()
                    return try isFiltering ? Self.paths(ofRows: ids, matching: search!, db) : nil
                }
            } catch let error as DatabaseError where error.isBusy {
                // Another listing is writing for longer than the timeout: leave the index to
                // the next listing.
                isIndexed = false
                freshMatches =
                    isFiltering
                    ? Set(zip(stale, reader.documents(at: stale)).filter { search!.matches($1.text) }.map { keys[$0.0] }) : nil
            }
        }
        let finishing = BackgroundWork { [isIndexed] in lastSteps(isIndexed) }
        var isStale = [Bool](repeating: false, count: files.count)
        for position in stale { isStale[position] = true }
        var documents: [DocumentSummary] = []
        documents.reserveCapacity(isFiltering ? 0 : files.count)
        for position in files.indices {
            if isStale[position] {
                if freshMatches?.contains(keys[position]) ?? true, let summary = reader.takeSummary(at: position) {
                    documents.append(summary)
                }
            } else if let row = rows[position] {
                documents.append(shown[row].value.summary)
            }
        }
        return DocumentListing(documents: documents, readCount: reader.readCount, finishing: finishing)
    }

    /// Runs `updates` in a transaction on `database`, committed when they return if `committing`,
    /// else left open (for a database opened `isAside`).
    private static func inTransaction<T>(on database: DatabaseQueue, committing: Bool, _ updates: (Database) throws -> T) throws -> T {
        guard !committing else { return try database.write(updates) }
        return try database.writeWithoutTransaction { db in
            try db.beginTransaction()
            return try updates(db)
        }
    }

    /// Opens the database, creating or migrating it as needed; or, `isAside`, the file a first
    /// index is built in (`firstListing`), at `file`.
    /// - Throws: any error from SQLite, or `IndexUnusable` if the file is another program's
    ///   database or written by a newer GalleryKit.
    func openDatabase(at file: URL? = nil, isAside: Bool = false) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        // Write-ahead logging, so that a listing reads while another writes. Set here rather
        // than with `journalMode = .wal`, which also writes to the database at every opening
        // when the log is empty (as it is once the last connection closed): a write that
        // would wait for any other listing's.
        //
        // The log and its shared-memory file are kept when the last connection closes (the
        // log emptied by the checkpoint that closing makes, `journal_size_limit = 0`): a listing
        // that wrote nothing creates and deletes no files. Not closing without a checkpoint
        // (which would spare a listing that wrote two `fdatasync`s): the next connection would
        // then read the whole log to rebuild its index, 13 ms at every listing once it held
        // 20 MB.
        configuration.prepareDatabase { db in
            // Pages of 16 KiB for a new file (an existing one keeps its own): a first listing's
            // commit writes each page with a call of its own, 300 of 4 KiB for 2,000 documents
            // (-0.95 ms for that listing, paired median of 100 rounds). Warm listings and
            // searches measured the same; a listing storing 1% of 2,000 documents again, which
            // logs whole pages, +1.2 and -0.9 ms in two runs (25 and 40 rounds): noise.
            try db.execute(sql: "PRAGMA page_size = 16384")
            // Nobody else opens the file: no journal, no log, and nothing synced until it is whole.
            if isAside { return try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY") }
            var persist: Int32 = 1
            let status = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
            try db.execute(
                sql: """
                    PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;
                    PRAGMA journal_size_limit = 0
                    """)
        }
        configuration.busyMode = .timeout(busyTimeout)
        // A first listing commits the aside index after handing its documents over (`firstListing`).
        configuration.allowsUnsafeTransactions = isAside
        configuration.label = "GalleryKit.DocumentIndex"
        let database = try DatabaseQueue(path: (file ?? location).path, configuration: configuration)
        switch try database.read(Self.schemaState) {
        case .current:
            break
        case .outdated:
            try Self.migrator.migrate(database)
        case .unusable(let reason):
            throw IndexUnusable(reason: reason)
        }
        return database
    }

    /// The paths the index holds rows for, sorted (for tests).
    func indexedPaths() throws -> [String] {
        try openDatabase().read { db in
            try Data.fetchAll(db, sql: "SELECT path FROM document").map { String(decoding: $0, as: UTF8.self) }.sorted()
        }
    }

    /// Deletes the database (or the one at `file`) and its write-ahead log, shared-memory and
    /// rollback files.
    func removeDatabaseFiles(at file: URL? = nil) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            FileLocation.unlink(URL(fileURLWithPath: (file ?? location).path + suffix))
        }
    }
}

/// Why an existing file cannot serve as the index (it is then rebuilt).
struct IndexUnusable: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// What a listing found, and how.
struct DocumentListing: Sendable {
    var documents: [DocumentSummary]
    /// How many documents were read from their files (the rest came from the index).
    var readCount: Int
    /// The index's last steps, which may still be running.
    var finishing: BackgroundWork<Bool>

    /// Whether the index was used and is up to date with this listing, once its last steps
    /// are done (waiting for them).
    var isIndexed: Bool { finishing.wait() }
}

/// The documents a listing covers, as the index selects their rows.
struct ListingScope: Sendable {
    /// The listed folder's absolute path, without a trailing `/` (empty for the root).
    var folder: [UInt8]
    /// Whether documents in subfolders are listed too.
    var isRecursive: Bool

    init(folder: URL, isRecursive: Bool) {
        self.folder = Self.withoutTrailingSlashes(FileLocation.bytes(of: folder))
        self.isRecursive = isRecursive
    }

    /// The folder part of a document's path: everything before its last `/`.
    static func parent(of path: Data) -> Data {
        // Searched in place: Data's own `lastIndex(of:)` took 2,900 instructions a document stored.
        guard let slash = path.withUnsafeBytes({ $0.lastIndex(of: UInt8(ascii: "/")) }) else { return Data() }
        return path[..<(path.startIndex + slash)]
    }

    private static func withoutTrailingSlashes(_ path: [UInt8]) -> [UInt8] {
        var path = path
        while path.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }

    /// The SQL condition on `document` that selects the rows in scope, with its arguments.
    var condition: (sql: String, arguments: StatementArguments) {
        guard isRecursive else { return ("document.folder = ?", [Data(folder)]) }
        // Every path that starts with "folder/": from "folder/" up to, not including, "folder0"
        // ("0" follows "/" in byte order). A range on the unique index of `path`.
        return ("document.path >= ? AND document.path < ?", [Data(folder + [UInt8(ascii: "/")]), Data(folder + [UInt8(ascii: "0")])])
    }
}

/// The index's lock (`flock` on `browse-index.sqlite.lock`), which keeps a rebuild from deleting
/// the database under another listing: listings share it, a rebuild takes it alone.
///
/// A lock file rather than SQLite's own locks: a rebuild replaces the database file, and an
/// unlinked file's locks would no longer exclude anyone.
extension FileLock {
    /// Takes the shared lock of the index at `database`, waiting up to two seconds while a
    /// rebuild holds it; `nil` if the lock file cannot be created (a read-only or impossible
    /// cache folder) or the wait is over.
    static func sharingIndex(at database: URL) -> FileLock? {
        try? FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: database.path + ".lock")
        // In a read-only cache folder, a lock file made earlier is locked through a read-only descriptor.
        for flags in [O_RDWR | O_CREAT, O_RDONLY] {
            do throws(Failure) {
                return try FileLock(url, opening: flags, .shared, within: .seconds(2))
            } catch .cannotOpen {
                continue
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Runs `body` holding the lock alone, then shares it again; `false` (without running
    /// `body`) if other listings keep sharing it for half a second.
    func whileExclusive(_ body: () -> Void) -> Bool {
        // On failure the shared lock may be gone too, which is fine, as the caller then stops
        // using the index.
        guard convert(to: .exclusive, within: .milliseconds(500)) else { return false }
        body()
        return convert(to: .shared, within: .seconds(2))
    }
}

extension DatabaseError {
    /// Whether another connection holds the lock the statement needed, for longer than the busy timeout.
    var isBusy: Bool { resultCode == .SQLITE_BUSY || resultCode == .SQLITE_LOCKED }
}
