import Foundation

/// The hidden folder an export is built in, beside its output, and the rename that makes it the
/// output. Until that rename nothing is visible at the output; if anything fails the folder is
/// removed, so a failed export leaves nothing behind.
struct ExportStaging {
    let folder: URL
    let output: URL

    /// Creates the staging folder beside `output`.
    init(for output: URL) throws {
        self.output = output
        let parent = output.deletingLastPathComponent()
        AtomicFile.removeStaleTemporaryFiles(for: output)
        folder = parent.appendingPathComponent(AtomicFile.temporaryPrefix(for: output) + UUID().uuidString.prefix(12).lowercased())
        try GalleryError.system("cannot create the export next to it", url: output) { () throws(SystemError) in
            try FileLocation.makeDirectory(folder, mode: 0o755)
        }
    }

    /// Removes the staging folder and everything in it.
    func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Fails unless `output` is free, or may be replaced: with `replacing`, a file, or a folder
    /// holding only names `exporter` writes.
    static func checkOutput(_ output: URL, replacing: Bool, exporter: any DocumentExporter) throws {
        guard let status = FileLocation.status(of: output) else { return }
        guard replacing else { throw GalleryError(.alreadyExists, url: output, "already exists (use --force to replace it)") }
        guard status.st_mode & S_IFMT == S_IFDIR else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        if let foreign = names.first(where: { !exporter.writes(topLevelName: $0) }) {
            throw GalleryError(
                .alreadyExists, url: output,
                "is a folder holding \(foreign.debugDescription), which this export did not write; choose another output"
            )
        }
    }

    /// Makes the export visible at `output` (and `besideFolder` for a manifest beside its images).
    func place(_ placement: ExportPlacement, replacing: Bool) throws {
        switch placement {
        case .folder:
            try move(folder, to: output, replacing: replacing)
        case .file(let name):
            try move(folder.appendingPathComponent(name), to: output, replacing: replacing)
            discard()
        case .fileBesideFolder(let name):
            let companion = Self.companionFolder(of: output)
            try move(folder, to: companion, replacing: replacing)
            do {
                try move(companion.appendingPathComponent(name), to: output, replacing: replacing)
            } catch {
                try? FileManager.default.removeItem(at: companion)
                throw error
            }
        }
        AtomicFile.syncFolder(output.deletingLastPathComponent())
    }

    /// The folder beside a file output that holds what the file refers to: `Trip.json` → `Trip`.
    static func companionFolder(of output: URL) -> URL {
        output.deletingPathExtension()
    }

    /// Renames `item` to `target`. An existing target is moved aside first and removed only after
    /// the rename, so a failure leaves the old output as it was.
    private func move(_ item: URL, to target: URL, replacing: Bool) throws {
        var previous: URL?
        if FileLocation.status(of: target) != nil {
            guard replacing else { throw GalleryError(.alreadyExists, url: target, "already exists (use --force to replace it)") }
            let aside = target.deletingLastPathComponent()
                .appendingPathComponent(AtomicFile.temporaryPrefix(for: target) + "old-" + UUID().uuidString.prefix(8).lowercased())
            try GalleryError.system("cannot replace", url: target) { () throws(SystemError) in try FileLocation.rename(target, to: aside) }
            previous = aside
        }
        do throws(SystemError) {
            try FileLocation.rename(item, to: target)
        } catch {
            if let previous { try? FileLocation.rename(previous, to: target) }
            throw GalleryError.system("cannot create", url: target, error)
        }
        if let previous { try? FileManager.default.removeItem(at: previous) }
    }
}
