import Foundation

extension ExportStaging {
    /// Writes a zip of staged files at `file` (in the staging folder; it must not exist), synced:
    /// each member's bytes stored as they are, not compressed again (images are compressed
    /// already, and comic readers expect them stored), in the order given.
    /// - Parameters:
    ///   - members: each entry's name in the zip and the file's path in the staging folder.
    ///   - output: the export's output, which errors name (the staging folder is never the user's).
    /// - Returns: the zip's size in bytes.
    @discardableResult
    static func writeStoredZip(
        _ members: [(entry: String, path: String)], at file: URL, modified: Date, reportingAs output: URL
    ) throws
        -> Int64
    {
        let staging = file.deletingLastPathComponent()
        let descriptor = FileLocation.open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create", url: output) }
        defer { close(descriptor) }
        try GalleryError.attributing(to: output) {
            let writer = try ArchiveWriter(fileDescriptor: descriptor)
            for member in members {
                let source = staging.appendingPathComponent(member.path)
                guard let size = FileLocation.status(of: source)?.st_size else { throw GalleryError.system("cannot read", url: source) }
                try writer.writeEntry(named: member.entry, size: Int64(size), modified: modified, compression: .stored) { write in
                    try FileChunks.read(source, write)
                }
            }
            try writer.finish()
        }
        guard fsync(descriptor) == 0 else { throw GalleryError.system("cannot write", url: output) }
        return Int64(lseek(descriptor, 0, SEEK_END))
    }
}
