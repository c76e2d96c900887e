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
            // SQLITE_TRANSIENT (a macro Swift does not import): SQLite copies the bytes.
            _ = sqlite3_bind_text(statement.sqliteStatement, position, text.baseAddress, Int32(text.count), transient)
        }
    }

    mutating func bind(_ value: [UInt8]) {
        position += 1
        value.withUnsafeBytes { bytes in
            // A non-null pointer even for no bytes, or SQLite would store NULL instead of an empty BLOB.
            _ = sqlite3_bind_blob(statement.sqliteStatement, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
        }
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

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
