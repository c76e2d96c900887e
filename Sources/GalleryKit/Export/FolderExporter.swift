import Foundation

/// The images of a document as plain files in a new folder, numbered in gallery order
/// (`001-harbour.jpg`, `002-tower.png`, …). Failed images are left out.
public struct FolderExporter: DocumentExporter {
    public init() {}

    public func export(_ document: GalleryDocument, to output: URL) throws {
        guard !FileManager.default.fileExists(atPath: output.path) else {
            throw GalleryError(.alreadyExists, url: output, "already exists; choose a new folder")
        }
        let images = document.gallery.images.filter { !$0.hasFailed }
        if let remote = images.firstIndex(where: { !$0.isCached && !$0.url.isFileURL }) {
            throw GalleryError(.invalidArgument, url: document.url, "image \(remote + 1) is not cached and not a local file")
        }
        // Build the folder under a hidden name and rename it at the end: a failed export leaves nothing.
        let staging = output.deletingLastPathComponent()
            .appendingPathComponent(AtomicFile.temporaryPrefix(for: output) + UUID().uuidString.prefix(8))
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw GalleryError(.cannotCreate, url: output, "cannot create the folder (\((error as NSError).localizedDescription))")
        }
        do {
            let names = fileNames(for: images)
            var archived: [String: [URL]] = [:]
            for (image, name) in zip(images, names) {
                let destination = staging.appendingPathComponent(name)
                if let cached = image.cached {
                    archived[cached.path, default: []].append(destination)
                } else {
                    try copyFile(image.url, to: destination)
                }
            }
            try extract(archived, from: document)
            guard rename(staging.path, output.path) == 0 else { throw GalleryError.system("cannot create", url: output) }
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// `NNN-<original name>.<ext>`, numbered from 1 with at least three digits.
    private func fileNames(for images: [GalleryImage]) -> [String] {
        let digits = max(3, String(images.count).count)
        return images.enumerated().map { offset, image in
            let number = String(offset + 1)
            let padded = String(repeating: "0", count: digits - number.count) + number
            let stem = image.url.deletingPathExtension().lastPathComponent
            let safeStem = String(stem.map { $0.isLetter || $0.isNumber || "-_".contains($0) ? $0 : "-" }.prefix(60))
            let fileExtension = image.cached.map { ($0.path as NSString).pathExtension } ?? image.url.pathExtension.lowercased()
            return "\(padded)-\(safeStem.isEmpty ? "image" : safeStem).\(fileExtension.isEmpty ? "img" : fileExtension)"
        }
    }

    private func copyFile(_ source: URL, to destination: URL) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw GalleryError(.fileNotFound, url: source, "no such file (the image is not cached)")
        }
        try writeFile(destination) { write in try FileChunks.read(source, write) }
    }

    /// Streams each cached entry out of the archive into its files, in one pass.
    private func extract(_ destinations: [String: [URL]], from document: GalleryDocument) throws {
        let inflation = document.limits.inflation
        try BundleReader.visitEntries(named: Set(destinations.keys), of: document.url) { name, reader in
            guard let first = destinations[name]?.first else { return }
            try writeFile(first) { write in try reader.readData(inflation: inflation, write) }
            for copy in destinations[name]?.dropFirst() ?? [] {
                try writeFile(copy) { write in try FileChunks.read(first, write) }
            }
        }
    }

    private func writeFile(_ url: URL, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create", url: url) }
        defer { close(descriptor) }
        try produce { chunk in
            var offset = 0
            while offset < chunk.count {
                let written = Foundation.write(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
                guard written > 0 else { throw GalleryError.system("cannot write", url: url) }
                offset += written
            }
        }
    }
}
