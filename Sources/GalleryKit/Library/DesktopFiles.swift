import Foundation

/// What tells the desktop about `.gallery` documents: the shared-mime-info type definition
/// (`application/vnd.gallery+zip`, glob `*.gallery`, magic on the stored `mimetype` entry) and
/// the `file(1)` magic rule — the texts of `Specs/mime/gallery.xml` and `Specs/mime/gallery.magic`
/// (a test keeps them identical) — and their installation.
public enum DesktopFiles {
    /// The document type's MIME type.
    public static let mimeType = "application/vnd.gallery+zip"
    /// The shared-mime-info package's file name in `mime/packages/`.
    public static let packageFileName = "gallerykit.xml"

    /// `Specs/mime/gallery.xml`.
    public static let sharedMimeInfo = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <!--
          The .gallery document type for the freedesktop.org shared MIME-info database.
          Install it with `gallery install-desktop-files` (the user option installs it for you alone),
          or copy it to ~/.local/share/mime/packages/ and run `update-mime-database ~/.local/share/mime`.
          A .gallery document is a zip archive whose first entry is the stored file `mimetype` holding
          `application/vnd.gallery+zip` (Specs/gallery-format.md, Appendix B). The text starts after the
          local header's extra field: at byte 38 for writers that write none (Python zipfile, Info-ZIP),
          62 for GalleryKit (libarchive's 24 bytes of extra fields), 70 for bsdtar; the range covers them
          and Zip64 headers.
        -->
        <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
          <mime-type type="application/vnd.gallery+zip">
            <comment>Gallery document</comment>
            <sub-class-of type="application/zip"/>
            <generic-icon name="image-x-generic"/>
            <magic priority="60">
              <match type="string" value="PK\003\004" offset="0">
                <match type="string" value="mimetype" offset="30">
                  <match type="string" value="application/vnd.gallery+zip" offset="38:200"/>
                </match>
              </match>
            </magic>
            <glob pattern="*.gallery"/>
          </mime-type>
        </mime-info>

        """#

    /// `Specs/mime/gallery.magic`.
    public static let magic = #"""
        # file(1) magic for GalleryKit .gallery documents (magic(5) syntax).
        #
        # A .gallery document is a zip archive whose first entry is the stored file `mimetype` holding
        # `application/vnd.gallery+zip` (Specs/gallery-format.md, Appendix B). The text follows the local
        # header's name and extra field, so its offset is read from the header (extra field length at
        # byte 28, little-endian): byte 38 for writers with no extra field (Python zipfile, Info-ZIP),
        # 62 for GalleryKit (libarchive writes 24 bytes of extra fields), 70 for bsdtar.
        #
        # Use:   file --magic-file Specs/mime/gallery.magic Trip.gallery
        # or add these lines to /etc/magic (Debian's file reads it before its own database).
        0	string	PK\003\004
        >26	uleshort	8
        >>30	string	mimetype
        >>>(28.s+38)	string	application/vnd.gallery+zip	GalleryKit gallery document
        !:mime	application/vnd.gallery+zip
        !:ext	gallery

        """#

    /// What `installSharedMimeInfo(inDataFolder:)` did.
    public struct Installation: Sendable, Equatable {
        /// The definition's file, `<data>/mime/packages/gallerykit.xml`.
        public var packageFile: URL
        /// The MIME database folder, `<data>/mime`.
        public var databaseFolder: URL
        /// Whether `update-mime-database` ran and succeeded; `false` when it is not installed
        /// (the definition takes effect once it runs).
        public var updatedDatabase: Bool
    }

    /// Installs the type definition into `<data>/mime/packages/` (atomically; an older version
    /// is replaced) and runs `update-mime-database <data>/mime` if it is on `PATH`.
    ///
    /// `data` is `$XDG_DATA_HOME` (default `~/.local/share`) for the user alone, or `/usr/share`
    /// (`/usr/local/share`) for everyone.
    /// - Throws: `.cannotCreate` when the folder cannot be written; `.ioFailure` when
    ///   `update-mime-database` fails.
    public static func installSharedMimeInfo(inDataFolder data: URL) throws -> Installation {
        let database = data.appendingPathComponent("mime", isDirectory: true)
        let packages = database.appendingPathComponent("packages", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
        } catch {
            throw GalleryError(.cannotCreate, url: packages, "cannot create the folder: \((error as NSError).localizedDescription)")
        }
        let package = packages.appendingPathComponent(packageFileName)
        try AtomicFile.write(to: FileLocation.target(of: package), naming: package, mode: .replace) { descriptor in
            let bytes = Array(sharedMimeInfo.utf8)
            guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
                throw GalleryError.system("cannot write", url: package)
            }
        }
        guard let program = executable(named: "update-mime-database") else {
            return Installation(packageFile: package, databaseFolder: database, updatedDatabase: false)
        }
        let process = Process()
        process.executableURL = program
        process.arguments = [database.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw GalleryError(.ioFailure, url: program, "cannot run: \((error as NSError).localizedDescription)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let firstLine = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw GalleryError(.ioFailure, url: database, "update-mime-database failed: \(firstLine)")
        }
        return Installation(packageFile: package, databaseFolder: database, updatedDatabase: true)
    }

    /// A program on `PATH`.
    private static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
