internal import CArchive
import Foundation

/// Writes a zip archive with libarchive, one complete entry at a time. Not `Sendable`.
///
/// Every entry is a regular file owned by uid/gid 0 with mode 0644 and no owner names, so the
/// bytes depend only on the names, data and timestamps given.
final class ArchiveWriter {
    enum Compression: Sendable {
        /// Stored as is: for data that is already compressed (images) and for `mimetype`.
        case stored
        case deflated
    }

    private let archive: OpaquePointer
    private let descriptor: Int32
    private var isFinished = false
    /// Where each entry's local header starts, and its modification time: `finish` sets the
    /// entries' DOS times in UTC there (`ZipDOSTime`).
    private var headers: [(offset: Int64, modified: time_t)] = []

    /// Starts a zip archive on `fileDescriptor`, which stays owned by the caller and must be
    /// open for reading and writing (`finish` reads the central directory back).
    init(fileDescriptor: Int32) throws {
        descriptor = fileDescriptor
        guard let archive = archive_write_new() else {
            throw GalleryError(.ioFailure, "libarchive could not allocate a writer")
        }
        self.archive = archive
        try LibArchive.check(archive_write_set_format_zip(archive), archive, "cannot write zip")
        // 1 MiB writes instead of libarchive's 10 KiB blocks: a hundredth of the system calls.
        try LibArchive.check(archive_write_set_bytes_per_block(archive, 1 << 20), archive, "cannot write zip")
        // No padding of the last block: the archive ends where its central directory ends.
        try LibArchive.check(archive_write_set_bytes_in_last_block(archive, 1), archive, "cannot write zip")
        try LibArchive.check(archive_write_open_fd(archive, fileDescriptor), archive, "cannot write zip")
    }

    deinit {
        if !isFinished {
            // An abandoned archive: release the handle without writing a central directory.
            archive_write_fail(archive)
        }
        archive_write_free(archive)
    }

    /// Writes one entry whose bytes are in memory.
    func writeEntry(named name: String, data: Data, modified: Date, compression: Compression) throws {
        try writeEntry(named: name, size: Int64(data.count), modified: modified, compression: compression) { (write) throws in
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in try write(bytes) }
        }
    }

    /// Writes one entry of exactly `size` bytes, handed over in chunks by `produce`.
    ///
    /// The size must be known first: without it libarchive writes a Zip64 entry, and a short
    /// write silently leaves the local header and the central directory disagreeing.
    func writeEntry(
        named name: String,
        size: Int64,
        modified: Date,
        compression: Compression,
        produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        guard let entry = archive_entry_new() else { throw GalleryError(.ioFailure, "libarchive could not allocate an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname(entry, name)
        archive_entry_set_filetype(entry, CArchiveFileTypeRegular)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        archive_entry_set_size(entry, size)
        let seconds = time_t(modified.timeIntervalSince1970.rounded(.down))
        archive_entry_set_mtime(entry, seconds, 0)

        let method =
            compression == .stored
            ? archive_write_zip_set_compression_store(archive)
            : archive_write_zip_set_compression_deflate(archive)
        try LibArchive.check(method, archive, "cannot write \(name)")
        // The bytes libarchive has been given so far: where this entry's local header starts.
        headers.append((archive_filter_bytes(archive, 0), seconds))
        let header = archive_write_header(archive, entry)
        guard header == ARCHIVE_OK else { throw LibArchive.writeError(archive, "cannot write \(name)") }

        var written: Int64 = 0
        try produce { (chunk: UnsafeRawBufferPointer) throws in
            guard chunk.count > 0, let base = chunk.baseAddress else { return }
            let count = archive_write_data(archive, base, chunk.count)
            guard count == chunk.count else { throw LibArchive.writeError(archive, "cannot write \(name)") }
            written += Int64(count)
        }
        guard written == size else {
            throw GalleryError(.ioFailure, "cannot write \(name): \(written) bytes given for a \(size)-byte entry")
        }
        guard archive_write_finish_entry(archive) == ARCHIVE_OK else { throw LibArchive.writeError(archive, "cannot write \(name)") }
    }

    /// Writes the central directory. The archive is complete only if this succeeds.
    func finish() throws {
        isFinished = true
        let directoryStart = archive_filter_bytes(archive, 0)
        let status = archive_write_close(archive)
        guard status == ARCHIVE_OK else { throw LibArchive.writeError(archive, "cannot finish the archive") }
        try ZipDOSTime.setUTC(headers, directory: directoryStart..<archive_filter_bytes(archive, 0), in: descriptor)
    }
}
