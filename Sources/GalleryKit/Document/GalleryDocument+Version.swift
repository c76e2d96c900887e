import Foundation

extension GalleryDocument {
    /// A tag that changes whenever the file at `url` is saved, replaced or rewritten in place —
    /// its device, inode, size, modification and status-change times — or `gone` when there is
    /// none: for a front end to tell versions of a document apart without reading it.
    public static func versionTag(ofFileAt url: URL) -> String {
        guard let identity = FileIdentity.current(of: url) else { return "gone" }
        return "\(identity.device)-\(identity.inode)-\(identity.size)-\(identity.modifiedNanoseconds)-\(identity.changedNanoseconds)"
    }
}
