internal import CArchive
import Foundation

/// What the archive says about one entry, before any of its data is read.
struct ArchiveEntry: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case regularFile
        case directory
        case symbolicLink
        case hardLink
        /// Devices, fifos, sockets: never acceptable in a document.
        case special
    }

    /// The entry's name exactly as stored (not sanitised: the caller checks it).
    var name: String
    var kind: Kind
    /// The uncompressed size the archive declares, if it declares one.
    var declaredSize: Int64?
    var isEncrypted: Bool
    /// How the entry's data is compressed, as libarchive names it: `uncompressed`, `deflation`,
    /// `bzip2`, `lzma`, `xz`…; `nil` if it did not say.
    var compression: String?

    /// Reads the fields of a libarchive entry; `formatName` is the archive's format name after
    /// reading the entry's header, which for zip ends with the entry's method: "ZIP 2.0 (deflation)".
    init(_ entry: OpaquePointer, formatName: String?) throws {
        // In a UTF-8 locale (the reader sets one up) the name libarchive stores is the UTF-8 one;
        // asking for UTF-8 would convert it through wide characters (`mbrtowc`), about 1 ms for
        // the 600 entries of a 300-photo document.
        let stored = ArchiveReader.storesNamesInUTF8 ? archive_entry_pathname(entry) : nil
        guard let pathname = stored ?? archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry) else {
            throw GalleryError(.unsafeArchive, "an entry has a name that is not valid UTF-8")
        }
        name = String(cString: pathname)
        if archive_entry_hardlink(entry) != nil {
            kind = .hardLink
        } else if archive_entry_symlink(entry) != nil {
            kind = .symbolicLink
        } else {
            switch UInt32(archive_entry_filetype(entry)) {
            case CArchiveFileTypeRegular: kind = .regularFile
            case CArchiveFileTypeDirectory: kind = .directory
            case CArchiveFileTypeSymbolicLink: kind = .symbolicLink
            default: kind = .special
            }
        }
        declaredSize = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        isEncrypted = archive_entry_is_encrypted(entry) != 0
        // libarchive has no per-entry accessor for the method; its zip reader puts it here.
        // On the bytes (the names are ASCII): Character's search took 2% of a listing.
        compression = formatName.flatMap { name in
            let bytes = name.utf8
            guard bytes.last == UInt8(ascii: ")"), let open = bytes.lastIndex(of: UInt8(ascii: "(")) else { return nil }
            return String(name[bytes.index(after: open)..<bytes.index(before: bytes.endIndex)])
        }
    }
}
