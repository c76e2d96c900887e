import Foundation
internal import GRDB
internal import GRDBSQLite

/// A prepared statement run with its values bound by SQLite's own functions, for the index's
/// bulk writes.
///
/// GRDB's `StatementArguments` box every value and check the whole set at each execution:
/// storing 2,000 documents that way took 55 ms, most of a first listing's index write. This
/// binds each value in place and steps the statement itself. Not `Sendable`: one statement,
/// used within one transaction; not copyable, as the bytes bound to it are its own.
struct DirectStatement: ~Copyable {
    private let statement: Statement
    private var position: Int32 = 0
    /// The bytes of the text and BLOB values bound since the last run, which SQLite reads in
    /// place (`SQLITE_STATIC`). Bound as `SQLITE_TRANSIENT`, SQLite copied each into memory of
    /// its own and freed it at the next run, and copied each full-text column once more to end
    /// it with a NUL: 18 M instructions of a first listing of 2,000 documents (callgrind).
    private var boundBytes = BoundBytes()

    /// Prepares `sql` on `db`'s connection.
    init(_ sql: String, in db: Database) throws {
        statement = try db.makeStatement(sql: sql)
    }

    // SQLite may keep a static value's address until the statement is finalized: none is left
    // pointing into the bound bytes when they go (a statement bound but never run).
    deinit {
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    /// Binds the next parameter.
    mutating func bind(_ value: Int64?) {
        position += 1
        if let value { sqlite3_bind_int64(statement.sqliteStatement, position, value) } else { bindNull() }
    }

    mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    mutating func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

    mutating func bind(_ value: Double?) {
        position += 1
        if let value { sqlite3_bind_double(statement.sqliteStatement, position, value) } else { bindNull() }
    }

    mutating func bind(_ value: String?) {
        position += 1
        guard var value else { return bindNull() }
        value.withUTF8 { text in
            let start = boundBytes.append(UnsafeRawBufferPointer(text))
            // A length of -1 marks the text as ending with a NUL, so that the full-text index
            // reads it in place (SQLite copies a text without one to end it with one); a text
            // that holds a NUL of its own is bound with its length.
            let length = memchr(start, 0, text.count) == nil ? -1 : Int32(text.count)
            _ = sqlite3_bind_text(statement.sqliteStatement, position, start.assumingMemoryBound(to: CChar.self), length, nil)
        }
    }

    mutating func bind(_ value: Data) {
        position += 1
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(statement.sqliteStatement, position, boundBytes.append(bytes), Int32(bytes.count), nil)
        }
    }

    /// Binds GRDB arguments, once, to a statement run for its rows (`forEachRow`).
    func bind(_ arguments: StatementArguments) throws {
        try statement.setArguments(arguments)
    }

    /// The row id its connection last inserted, from SQLite itself: GRDB's
    /// `Database.lastInsertedRowID` first checks that it is called on the connection's queue
    /// (450 instructions a call; storing a document calls it twice).
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(sqlite3_db_handle(statement.sqliteStatement))
    }

    private func bindNull() {
        sqlite3_bind_null(statement.sqliteStatement, position)
    }

    /// Runs the statement with the parameters bound since the last run, then clears them.
    /// - Returns: the first column of the first row it returned, as an integer (`RETURNING id`), if any.
    /// - Throws: `DatabaseError` with SQLite's code and message.
    @discardableResult
    mutating func run() throws -> Int64? {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            // No parameter points into the bound bytes any more: they can be written over.
            sqlite3_clear_bindings(handle)
            boundBytes.removeAll()
            position = 0
        }
        var first: Int64?
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW:
                if first == nil { first = sqlite3_column_int64(handle, 0) }
            case SQLITE_DONE:
                return first
            default:
                let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
        }
    }
}

extension DirectStatement {
    /// Runs the statement, calling `body` with each row it returns (valid only during the
    /// call); reading 2,000 rows of the index through GRDB's `Row` took 11 ms, this 2.
    /// - Throws: `DatabaseError` with SQLite's code and message, or what `body` throws.
    func forEachRow(_ body: (DirectRow) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW:
                try body(DirectRow(handle: handle))
            case SQLITE_DONE:
                return
            default:
                let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
        }
    }
}

/// The current row of a `DirectStatement`, read column by column (numbered from 0).
///
/// A value of another type than asked for throws `IndexUnusable`: only a damaged index or
/// another program's database holds one, and the index is then rebuilt.
struct DirectRow {
    fileprivate let handle: OpaquePointer

    private func type(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

    private func mismatch(_ column: Int32, _ expected: String) -> IndexUnusable {
        IndexUnusable(reason: "column \(column) does not hold \(expected)")
    }

    func integer(_ column: Int32) throws -> Int64? {
        switch type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, column)
        default: throw mismatch(column, "an integer")
        }
    }

    func double(_ column: Int32) throws -> Double? {
        switch type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(handle, column)
        default: throw mismatch(column, "a number")
        }
    }

    func text(_ column: Int32) throws -> String? {
        switch type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let start = sqlite3_column_text(handle, column) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        default: throw mismatch(column, "text")
        }
    }

    func blob(_ column: Int32) throws -> Data {
        guard type(column) == SQLITE_BLOB else { throw mismatch(column, "bytes") }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// A value that must not be NULL.
    func required<T>(_ value: T?, _ column: Int32) throws -> T {
        guard let value else { throw mismatch(column, "a value") }
        return value
    }
}

/// Copies of the values bound to a statement, each followed by a NUL, kept in place until
/// `removeAll()`: in blocks that are reused from one run to the next, not an allocation a value.
/// A value type (a class's properties are checked for exclusive access at every use).
private struct BoundBytes: ~Copyable {
    private var blocks: [UnsafeMutableRawBufferPointer] = []
    /// The block being filled, and how much of it is.
    private var current = 0
    private var used = 0
    /// The bytes appended since `removeAll()`, in every block.
    private var total = 0

    /// Appends a copy of `bytes` and a NUL after it, at an address that stays valid until
    /// `removeAll()` (never null, even for no bytes: SQLite would bind NULL instead of an empty
    /// value); returns that address.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let size = bytes.count + 1
        while current < blocks.count, blocks[current].count - used < size {
            current += 1
            used = 0
        }
        if current == blocks.count {
            blocks.append(.allocate(byteCount: max(size, 16_384), alignment: 1))
            used = 0
        }
        let start = blocks[current].baseAddress! + used
        if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
        start.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        used += size
        total += size
        return UnsafeRawPointer(start)
    }

    /// Makes every block free to be written over. A run that took more than one block leaves
    /// one block of its size instead: blocks kept as they were made would add up, when the
    /// values grow from run to run, to all the values bound since the statement was made.
    mutating func removeAll() {
        if current > 0 {
            for block in blocks { block.deallocate() }
            blocks = [.allocate(byteCount: max(total, 16_384), alignment: 1)]
        }
        current = 0
        used = 0
        total = 0
    }

    deinit {
        for block in blocks { block.deallocate() }
    }
}
