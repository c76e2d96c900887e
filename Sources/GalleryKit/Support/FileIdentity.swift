import Foundation

/// Which file a path named when it was read: enough to tell, later, whether it was replaced or rewritten.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64

    init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedNanoseconds = status.modifiedNanoseconds
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
