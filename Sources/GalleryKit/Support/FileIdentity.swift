import Foundation

/// Which file a path named when it was read: enough to tell, later, whether it was replaced or rewritten.
///
/// The device and inode change when a save renames a new file into place; the size and times
/// when a file is rewritten in place. The status-change time moves at every write and cannot be
/// set back, not even by `touch -d`, which restores only the modification time: without it, a
/// rewrite of the same size whose writer kept the old modification time would pass for the
/// version that was read.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64
}

extension FileIdentity {
    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedNanoseconds = status.modifiedNanoseconds
        changedNanoseconds = status.changedNanoseconds
    }

    /// The identity of the open file `descriptor`.
    init(fileDescriptor descriptor: Int32, url: URL) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw GalleryError.system("cannot read", url: url) }
        self.init(status)
    }

    /// The identity of the file at `url` now, or `nil` if there is none.
    static func current(of url: URL) -> FileIdentity? {
        FileLocation.status(of: url).map(FileIdentity.init)
    }
}
