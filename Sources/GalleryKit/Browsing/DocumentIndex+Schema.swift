import Foundation
internal import GRDB

// The index's tables, how they are migrated, and how a document becomes a row and back.
extension DocumentIndex {
    /// `PRAGMA application_id` of the index ("GKbi"), which tells it from another program's
    /// database that happens to sit at its path.
    static let applicationID: Int32 = 0x474B_6269

    /// The schema's versions. A database with a migration this list does not know was written
    /// by a newer GalleryKit: it is rebuilt rather than misread.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            // `path` and `folder` are the path's bytes (a BLOB): a name need not be UTF-8, and
            // bytes sort so that a folder's documents form one range of the unique index.
            // The stamp is what `stat` said before the document was read; `isSettled` is false
            // when the file's times were too close to that moment to rule out a later write
            // within the same tick (the row is then used for nothing but this listing).
            try db.execute(
                sql: """
                    CREATE TABLE document (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        folder BLOB NOT NULL,
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        size INTEGER NOT NULL,
                        modifiedNanoseconds INTEGER NOT NULL,
                        changedNanoseconds INTEGER NOT NULL,
                        isSettled BOOLEAN NOT NULL,
                        name TEXT NOT NULL,
                        title TEXT,
                        imageCount INTEGER,
                        cachedImageCount INTEGER,
                        created DOUBLE,
                        modified DOUBLE,
                        errorCode TEXT,
                        errorPath TEXT,
                        errorReason TEXT,
                        searchName TEXT NOT NULL,
                        searchTitle TEXT NOT NULL,
                        searchCaptions TEXT NOT NULL,
                        searchURLs TEXT NOT NULL,
                        searchText TEXT NOT NULL
                    );
                    CREATE INDEX document_folder ON document(folder);
                    """)
            // The full-text index (`createFullTextTable`), made as "v2" leaves an older one:
            // "v2" then has nothing to do.
            try createFullTextTable(db)
        }
        // Indexes made before the full-text table was created without its column sizes (a new
        // index gets it so from "v1"): it is made again, from the rows it indexes.
        migrator.registerMigration("v2") { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'documentText_docsize')") == true
            else { return }
            try db.drop(table: "documentText")
            try createFullTextTable(db)
            try db.execute(sql: "INSERT INTO documentText (documentText) VALUES ('rebuild')")
        }
        // Whether the full-text index holds every row's text (`isFullTextInStep`): an index
        // made before holds it. A GalleryKit that does not know this rebuilds the index rather
        // than search one that a first listing left without its text.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE fullTextState (isInStep BOOLEAN NOT NULL); INSERT INTO fullTextState VALUES (1)")
        }
        // A damaged document's error keeps the library's own words beside the reason
        // (`GalleryError.detail`). Rows of damaged documents are read again at the next
        // listing (a size no file has fails their stamp): their reasons were worded otherwise.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: "ALTER TABLE document ADD COLUMN errorDetail TEXT; UPDATE document SET size = -1 WHERE errorCode IS NOT NULL")
        }
        return migrator
    }()

    /// Whether the full-text index holds the text of every row. A first listing that searches
    /// nothing stores its rows without it, and later listings keep it that way, until the
    /// first search builds it whole (`bringFullTextInStep`): most listings are never searched,
    /// and the full-text inserts and their flush at the commit took a first listing of 2,000
    /// documents 5.0 ms longer (paired median of 120 rounds), the flush on its critical path.
    /// Only a database without rows is put behind (`update`), so an index in use never falls
    /// behind between a search's `bringFullTextInStep` and its query.
    static func isFullTextInStep(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT isInStep FROM fullTextState") ?? false
    }

    /// Builds the full-text index from the rows, unless it holds their text already: in a
    /// transaction of its own, taking the write lock from the start (a read then a write
    /// fails at once when another listing commits in between), before a search asks it.
    static func bringFullTextInStep(_ database: DatabaseQueue) throws {
        guard try !database.read(isFullTextInStep) else { return }
        try database.inTransaction(.immediate) { db in
            // Another listing's search may have built it meanwhile.
            guard try !isFullTextInStep(db) else { return .commit }
            try db.execute(
                sql: """
                    INSERT INTO documentText (documentText) VALUES ('rebuild');
                    DELETE FROM fullTextState; INSERT INTO fullTextState VALUES (1)
                    """)
            return .commit
        }
    }

    /// Whether `search` asks the full-text index: not when it has no word to look up (only text
    /// written without spaces, found by substring, or nothing that can match).
    static func usesFullText(_ search: DocumentSearch) -> Bool {
        !search.matchesNothing && !search.prefixes.isEmpty
    }

    /// The full-text index over a row's search text (`SearchableText`: name, title, captions and
    /// URLs, folded by GalleryKit), built whole by `bringFullTextInStep` and kept in step by
    /// `update`, not by triggers: they would tell it to forget and to add row by row, and FTS5
    /// flushes whenever the two alternate (see `update`). unicode61 folds case and (with
    /// remove_diacritics 2) Latin diacritics too: "cafe" finds "Café". `searchText` holds all
    /// of it folded for substrings (`DocumentSearch.substrings`).
    ///
    /// Without the size of each column in tokens, which only ranking (`bm25`) reads and a
    /// listing does not rank: storing them took every insert a second one into a table of
    /// their own (2,000 such inserts through Python's sqlite3 took 5.3 ms with them, 4.2
    /// without).
    private static func createFullTextTable(_ db: Database) throws {
        try db.create(virtualTable: "documentText", using: FTS5()) { table in
            table.content = "document"
            table.contentRowID = "id"
            table.tokenizer = .unicode61(diacritics: .remove)
            table.columnSize = 0
            table.column("searchName")
            table.column("searchTitle")
            table.column("searchCaptions")
            table.column("searchURLs")
        }
    }

    /// Whether a database can serve as the index as it is, after migrating, or not at all.
    enum SchemaState {
        case current, outdated
        case unusable(String)
    }

    static func schemaState(_ db: Database) throws -> SchemaState {
        // A new (empty) file, or one another listing is creating: GRDB makes its table of
        // applied migrations before the first migration's transaction.
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.allSatisfy({ $0 == "grdb_migrations" }) { return .outdated }
        guard try Int32.fetchOne(db, sql: "PRAGMA application_id") == applicationID else {
            return .unusable("not a GalleryKit browse index")
        }
        if try migrator.hasBeenSuperseded(db) { return .unusable("written by a newer GalleryKit") }
        return try migrator.hasCompletedMigrations(db) ? .current : .outdated
    }

    /// The columns `IndexRow` decodes, in order.
    private static let columns = """
        path, device, inode, size, modifiedNanoseconds, changedNanoseconds, isSettled, name, title, \
        imageCount, cachedImageCount, created, modified, errorCode, errorPath, errorReason, errorDetail
        """

    /// The columns `FileStamp.init(_: Row)` decodes (after `path`), then `isSettled`.
    private static let stampColumns = "path, device, inode, size, modifiedNanoseconds, changedNanoseconds, isSettled"

    /// The columns of `SearchableText`, in order.
    private static let textColumns = "path, searchName, searchTitle, searchCaptions, searchURLs, searchText"

    /// The rows of the documents in `scope` that `search` matches (all of them without one), by
    /// path; `expectedCount` is about how many there will be (the documents listed).
    /// - Complexity: O(rows in scope), a range of an index, plus the full-text query.
    static func documents(
        in scope: ListingScope, matching search: DocumentSearch?, expecting expectedCount: Int, _ db: Database
    ) throws -> [Data: IndexRow] {
        let condition = scope.condition
        var sql = "SELECT \(columns) FROM document WHERE \(condition.sql)"
        var arguments = condition.arguments
        if let search {
            guard let match = searchCondition(search) else { return [:] }
            sql += " AND " + match.sql
            arguments += match.arguments
        }
        let statement = try DirectStatement(sql, in: db)
        try statement.bind(arguments)
        var documents: [Data: IndexRow] = [:]
        documents.reserveCapacity(expectedCount)
        try statement.forEachRow { row in
            let document = try IndexRow(row)
            documents[document.summary.path] = document
        }
        return documents
    }

    /// The stamp of each document in `scope`, by path; `expectedCount` is about how many.
    static func stamps(in scope: ListingScope, expecting expectedCount: Int, _ db: Database) throws -> [Data: (FileStamp, isSettled: Bool)]
    {
        let condition = scope.condition
        let statement = try DirectStatement("SELECT \(stampColumns) FROM document WHERE \(condition.sql)", in: db)
        try statement.bind(condition.arguments)
        var stamps: [Data: (FileStamp, isSettled: Bool)] = [:]
        stamps.reserveCapacity(expectedCount)
        try statement.forEachRow { row in
            stamps[try row.blob(0)] = (try FileStamp(row), try row.required(row.integer(6), 6) != 0)
        }
        return stamps
    }

    /// The paths of the documents with these row ids that `search` matches.
    static func paths(ofRows ids: [Int64], matching search: DocumentSearch, _ db: Database) throws -> Set<Data> {
        guard let match = searchCondition(search), !ids.isEmpty else { return [] }
        // The ids as one JSON array argument: no temporary table, and one statement whatever their number.
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        return Set(
            try Data.fetchAll(
                db, sql: "SELECT path FROM document WHERE id IN (SELECT value FROM json_each(?)) AND \(match.sql)",
                arguments: [list] + match.arguments
            ))
    }

    /// The SQL condition on `document` for a search: every word by the full-text index, every
    /// run of text without spaces by substring; `nil` if nothing can match.
    private static func searchCondition(_ search: DocumentSearch) -> (sql: String, arguments: StatementArguments)? {
        if search.matchesNothing { return nil }
        var conditions: [String] = []
        var arguments = StatementArguments()
        if !search.prefixes.isEmpty {
            guard let pattern = search.pattern else { return nil }
            // A subquery, run once: joined, SQLite ran the full-text query again for every
            // document in scope (80 ms for 2,000 instead of 1).
            conditions.append("document.id IN (SELECT rowid FROM documentText WHERE documentText MATCH ?)")
            arguments += [pattern]
        }
        for substring in search.substrings {
            conditions.append("instr(document.searchText, ?) > 0")
            arguments += [substring]
        }
        return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), arguments)
    }

    /// Stores what was read of each file (a new row, or the file's row updated), removes the
    /// rows of documents that no longer exist (or were gone when read), and keeps the full-text
    /// index in step, unless it is behind (`isFullTextInStep`) or left behind.
    /// - Parameters:
    ///   - leavingFullTextBehind: whether the rows are stored without the full-text index, for
    ///     its first search to build, if the database has no rows yet: a first listing's, which
    ///     searches nothing. An index with rows is never put behind.
    ///   - read: the documents of a range of `files`, asked for in order, a chunk at a time, so
    ///     that they can be read while the previous chunk is stored.
    /// - Returns: the row ids of the stored documents, in order.
    /// - Complexity: O(documents + gone) runs of four prepared statements.
    static func update(
        _ files: [ListedFile], removing gone: [Data], _ db: Database, leavingFullTextBehind: Bool = false,
        read: (Range<Int>) -> [IndexedDocument]
    ) throws -> [Int64] {
        let hasRows = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document)") ?? true
        var keepsFullText = try isFullTextInStep(db)
        if keepsFullText && leavingFullTextBehind && !hasRows {
            try db.execute(sql: "UPDATE fullTextState SET isInStep = 0")
            keepsFullText = false
        }
        let text = "searchName, searchTitle, searchCaptions, searchURLs"
        // An external-content FTS5 table forgets a row only when told the text it indexed, so
        // every row about to change tells it first. By path, under this transaction: a row
        // another listing added since this one's snapshot is forgotten too. All of them
        // first: a statement on the full-text table between two inserts into it makes it
        // flush what it holds (2,000 rows took 190 ms that way, 25 in two runs).
        var forget = try DirectStatement(
            """
            INSERT INTO documentText (documentText, rowid, \(text))
            SELECT 'delete', id, \(text) FROM document WHERE path = ?
            """, in: db)
        // Nothing to forget in a new index (2,000 lookups that find no row were 3 ms of a first
        // listing's main thread), nor in a full-text index that is behind (built whole later).
        for path in keepsFullText && hasRows ? files.map(\.path) + gone : [] {
            forget.bind(path)
            try forget.run()
        }
        var remove = try DirectStatement("DELETE FROM document WHERE path = ?", in: db)
        for path in gone {
            remove.bind(path)
            try remove.run()
        }
        let names = (columns + ", " + textColumns.dropFirst("path, ".count) + ", folder").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        var store = try DirectStatement(
            """
            INSERT INTO document (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT(path) DO UPDATE SET \(names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """, in: db)
        // Not `RETURNING id`, which doubled the time of this loop: a new row's id is the last
        // inserted one, and a row updated in place is looked up.
        var lookUp = try DirectStatement("SELECT id FROM document WHERE path = ?", in: db)
        var index = try DirectStatement("INSERT INTO documentText (rowid, \(text)) VALUES (?, ?, ?, ?, ?)", in: db)
        var ids: [Int64] = []
        ids.reserveCapacity(files.count)
        // Statements on `document` between the full-text inserts do not make it flush.
        for start in stride(from: 0, to: files.count, by: updateChunkSize) {
            let range = start..<min(start + updateChunkSize, files.count)
            let documents = read(range)
            for (file, document) in zip(files[range], documents) {
                // Its text is forgotten already: its row goes too.
                if document.isGone {
                    remove.bind(file.path)
                    try remove.run()
                    continue
                }
                let summary = document.summary, stamp = document.stamp, text = document.text
                store.bind(file.path)
                store.bind(Int64(bitPattern: stamp.device))
                store.bind(Int64(bitPattern: stamp.inode))
                store.bind(stamp.size)
                store.bind(stamp.modifiedNanoseconds)
                store.bind(stamp.changedNanoseconds)
                store.bind(document.isSettled)
                store.bind(summary.name)
                store.bind(summary.title)
                store.bind(summary.imageCount)
                store.bind(summary.cachedImageCount)
                store.bind(summary.created?.timeIntervalSinceReferenceDate)
                store.bind(summary.modified?.timeIntervalSinceReferenceDate)
                store.bind(summary.error?.code.description)
                store.bind(summary.error?.path)
                store.bind(summary.error?.reason)
                store.bind(summary.error?.detail)
                store.bind(text.name)
                store.bind(text.title)
                store.bind(text.captions)
                store.bind(text.urls)
                store.bind(text.substringText)
                store.bind(ListingScope.parent(of: file.path))
                let lastInserted = store.lastInsertedRowID
                try store.run()
                let inserted = store.lastInsertedRowID
                let id: Int64
                if inserted != lastInserted {
                    id = inserted
                } else {
                    lookUp.bind(file.path)
                    guard let found = try lookUp.run() else { throw IndexUnusable(reason: "no row for a stored document") }
                    id = found
                }
                ids.append(id)
                guard keepsFullText else { continue }
                index.bind(id)
                index.bind(text.name)
                index.bind(text.title)
                index.bind(text.captions)
                index.bind(text.urls)
                try index.run()
            }
        }
        return ids
    }

    /// How many documents `update` asks for at a time: small enough that storing starts soon
    /// after reading does, large enough that waiting for them costs nothing.
    private static let updateChunkSize = 64
}

/// One row of the index: a document as it was when its file had `stamp`.
struct IndexRow {
    var stamp: FileStamp
    var isSettled: Bool
    /// The document's summary; its path is the row's key.
    var summary: DocumentSummary

    /// Decodes a row selected with `DocumentIndex.columns`.
    /// - Throws: if a value has the wrong type (a damaged index, which is then rebuilt).
    init(_ row: DirectRow) throws {
        stamp = try FileStamp(row)
        isSettled = try row.required(row.integer(6), 6) != 0
        summary = DocumentSummary(path: try row.blob(0), name: try row.required(row.text(7), 7), bytes: stamp.size)
        summary.title = try row.text(8)
        summary.imageCount = try row.integer(9).map { Int($0) }
        summary.cachedImageCount = try row.integer(10).map { Int($0) }
        summary.created = try row.double(11).map(Date.init(timeIntervalSinceReferenceDate:))
        summary.modified = try row.double(12).map(Date.init(timeIntervalSinceReferenceDate:))
        if let code = try row.text(13) {
            guard let value = GalleryError.Code.Value(rawValue: code) else { throw IndexUnusable(reason: "unknown error code \(code)") }
            summary.error = GalleryError(
                GalleryError.Code(value: value), path: try row.text(14), try row.text(15) ?? "", detail: try row.text(16))
        }
    }
}

extension FileStamp {
    /// Decodes columns 1 to 5 of a row that starts with `DocumentIndex.stampColumns`.
    init(_ row: DirectRow) throws {
        let identity = FileIdentity(
            device: UInt64(bitPattern: try row.required(row.integer(1), 1)), inode: UInt64(bitPattern: try row.required(row.integer(2), 2)),
            size: try row.required(row.integer(3), 3), modifiedNanoseconds: try row.required(row.integer(4), 4),
            changedNanoseconds: try row.required(row.integer(5), 5)
        )
        self.init(identity: identity)
    }
}
