import Foundation

/// Lists the `.gallery` documents in a folder, like the Files app's document browser.
public struct DocumentBrowser: Sendable {
    public var limits: BundleLimits

    public init(limits: BundleLimits = .standard) {
        self.limits = limits
    }

    /// The documents in `folder` (and its subfolders when `recursive`), with their manifests'
    /// titles and counts. Only `mimetype` and `manifest.json` of each are read. A damaged
    /// document is listed with its error; it never stops the listing. Hidden files are skipped.
    /// - Parameter search: keep only documents whose name, title, captions or URLs contain it.
    /// - Throws: `.fileNotFound` if `folder` does not exist.
    /// - Complexity: O(documents × manifest size).
    public func documents(in folder: URL, recursive: Bool = false, search: String? = nil) throws -> [DocumentSummary] {
        let files = try galleryFiles(in: folder, recursive: recursive)
        let summaries = ResultSlots<DocumentSummary?>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            summaries[index] = .success(summary(of: files[index], search: search))
        }
        return try summaries.values().compactMap { $0 }
    }

    private func summary(of file: URL, search: String?) -> DocumentSummary? {
        let bytes = Int64((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        var summary = DocumentSummary(url: file, name: file.deletingPathExtension().lastPathComponent, bytes: bytes)
        do {
            let gallery = try BundleReader.summary(of: file, limits: limits)
            summary.title = gallery.title
            summary.imageCount = gallery.images.count
            summary.cachedImageCount = gallery.images.count { $0.isCached }
            summary.modified = gallery.modified
            summary.created = gallery.created
            if let search, !summary.matches(search, in: gallery) { return nil }
        } catch {
            summary.error = (error as? GalleryError)?.about(file) ?? GalleryError(.ioFailure, url: file, "\(error)")
            if let search, !summary.matches(search, in: nil) { return nil }
        }
        return summary
    }

    private func galleryFiles(in folder: URL, recursive: Bool) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw GalleryError(.fileNotFound, url: folder, "no such folder")
        }
        guard isFolder.boolValue else { throw GalleryError(.invalidArgument, url: folder, "is not a folder") }
        var options: FileManager.DirectoryEnumerationOptions = [.skipsHiddenFiles]
        if !recursive { options.insert(.skipsSubdirectoryDescendants) }
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: options
        ) else {
            throw GalleryError(.ioFailure, url: folder, "cannot list the folder")
        }
        var files: [URL] = []
        for case let file as URL in enumerator where file.pathExtension == "gallery" {
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(file) }
        }
        return files
    }
}
