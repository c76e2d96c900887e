import Foundation
internal import GRDB
internal import GRDBSQLite

/// A prepared statement run with its values bound by SQLite's own functions, for the index's
/// bulk writes.
///
/// GRDB's `StatementArguments` box every value and check the whole set at each execution:
/// storing 2,000 documents that way took 55 ms, most of a first listing's index write. This
/// binds each value in place and steps the statement itself. Not `Sendable`: one statement,
/// used within one transaction.
struct DirectStatement {
    private let statement: Statement
    private var position: Int32 = 0

    /// Prepares `sql` on `db`'s connection.
    init(_ sql: String, in db: Database) throws {
        statement = try db.makeStatement(sql: sql)
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
            // SQLITE_TRANSIENT (a macro Swift does not import): SQLite copies the bytes. A
            // non-null pointer even for no bytes, or SQLite would store NULL instead of "".
            let start = text.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
            _ = sqlite3_bind_text(
                statement.sqliteStatement, position, start.assumingMemoryBound(to: CChar.self), Int32(text.count), transient)
        }
    }

    mutating func bind(_ value: Data) {
        position += 1
        value.withUnsafeBytes { bytes in
            // A non-null pointer even for no bytes, or SQLite would store NULL instead of an empty BLOB.
            _ = sqlite3_bind_blob(
                statement.sqliteStatement, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, Int32(bytes.count), transient)
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
            sqlite3_clear_bindings(handle)
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

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
