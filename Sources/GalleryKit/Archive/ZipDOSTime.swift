import Foundation

/// A zip entry's DOS date and time, computed in UTC, and set in place in a finished archive.
///
/// libarchive computes them with `localtime_r`, so the same document would come out with other
/// bytes in another time zone (spec §7). Pinning the process's `TZ` to UTC around each header,
/// as GalleryKit once did, changes what every thread shares: glibc's `setenv`, `getenv` and
/// `localtime_r` are not safe against each other, and `gallery serve` lists and reads documents
/// while it saves another. So the writer records where each local header starts, and once the
/// archive is complete the central directory is read back and both copies of each entry's date
/// and time are overwritten with the UTC values where they differ: where the process's zone is
/// UTC, nothing is written again.
struct ZipDOSTime: Equatable {
    var time: UInt16
    var date: UInt16

    /// The DOS form of `seconds` since 1970, in UTC, with two-second resolution; clamped to
    /// 1980-01-01 00:00:00 … 2107-12-31 23:59:58 as libarchive clamps it.
    init(utc seconds: time_t) {
        var parts = tm()
        var value = seconds
        gmtime_r(&value, &parts)
        if parts.tm_year < 1980 - 1900 {
            (date, time) = (0x0021, 0)
        } else if parts.tm_year > 2107 - 1900 {
            (date, time) = (0xFF9F, 0xBF7D)
        } else {
            date = UInt16(parts.tm_year - 80) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
            time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec >> 1)
        }
    }

    init(time: UInt16, date: UInt16) {
        self.time = time
        self.date = date
    }

    /// Where a local header keeps the time (then the date), and where a central directory record does.
    private static let localHeaderField: Int64 = 10
    private static let directoryRecordField = 12
    private static let directoryRecordSignature: UInt32 = 0x0201_4B50
    private static let directoryRecordLength = 46

    /// Sets every entry's date and time in the finished archive in `descriptor` (open for
    /// reading and writing) to its modification time in UTC.
    /// - Parameters:
    ///   - headers: each entry's local header offset and modification time, in the order written.
    ///   - directory: where the central directory starts, and where the archive ends.
    /// - Throws: `.ioFailure` if the file cannot be read or written, or its central directory is
    ///   not the one just written.
    /// - Complexity: O(size of the central directory), one write per entry whose time differs.
    static func setUTC(_ headers: [(offset: Int64, modified: time_t)], directory: Range<Int64>, in descriptor: Int32) throws {
        var records = [UInt8](repeating: 0, count: Int(directory.count))
        try records.withUnsafeMutableBytes { try transfer({ pread($0, $1, $2, $3) }, descriptor, $0, at: directory.lowerBound) }
        var position = 0
        var isChanged = false
        for header in headers {
            guard position + directoryRecordLength <= records.count, records.integer(at: position) == directoryRecordSignature else {
                throw GalleryError(.ioFailure, "cannot set the entries' times: the central directory is not as written")
            }
            let localOffset: UInt32 = records.integer(at: position + 42)
            // Spec §7: the value libarchive wrote is replaced; an offset too large for 32 bits is in a Zip64 field.
            guard localOffset == UInt32.max || Int64(localOffset) == header.offset else {
                throw GalleryError(.ioFailure, "cannot set the entries' times: the central directory is not as written")
            }
            let wanted = ZipDOSTime(utc: header.modified)
            let field = position + directoryRecordField
            if ZipDOSTime(time: records.integer(at: field), date: records.integer(at: field + 2)) != wanted {
                records.store(wanted.time, at: field)
                records.store(wanted.date, at: field + 2)
                var bytes = [UInt8](records[field..<field + 4])
                try bytes.withUnsafeMutableBytes {
                    try transfer({ pwrite($0, $1, $2, $3) }, descriptor, $0, at: header.offset + localHeaderField)
                }
                isChanged = true
            }
            let nameLength: UInt16 = records.integer(at: position + 28)
            let extraLength: UInt16 = records.integer(at: position + 30)
            let commentLength: UInt16 = records.integer(at: position + 32)
            position += directoryRecordLength + Int(nameLength) + Int(extraLength) + Int(commentLength)
        }
        if isChanged {
            try records.withUnsafeMutableBytes { try transfer({ pwrite($0, $1, $2, $3) }, descriptor, $0, at: directory.lowerBound) }
        }
    }

    /// Reads or writes all of `buffer` at `offset` with `call` (`pread` or `pwrite`).
    private static func transfer(
        _ call: (Int32, UnsafeMutableRawPointer?, Int, off_t) -> Int, _ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer,
        at offset: Int64
    ) throws {
        var done = 0
        while done < buffer.count {
            let count = call(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw LibArchive.systemError(count == 0 ? EIO : errno, "cannot set the entries' times")
            }
            done += count
        }
    }
}

extension [UInt8] {
    /// The little-endian integer at `offset`.
    fileprivate func integer<T: FixedWidthInteger>(at offset: Int) -> T {
        (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(self[offset + $1]) << ($1 * 8) }
    }

    /// Stores `value` little-endian at `offset`.
    fileprivate mutating func store(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(truncatingIfNeeded: value)
        self[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }
}
