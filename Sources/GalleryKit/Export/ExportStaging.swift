import Foundation

/// The hidden folder an export is built in, beside its output, and the rename that makes it the
/// output. Until that rename nothing is visible at the output; if anything fails the folder is
/// removed, so a failed export leaves nothing behind.
///
/// An export killed part way leaves its staging folder; the next export to the same output
/// removes it. It must not remove a staging folder still in use, so each export holds a lock on
/// its own staging folder until it ends (the kernel releases it when the process dies), and a
/// folder is stale only if that lock can be taken. The output's folder is locked (its
/// `FileLock`, briefly) while stale folders are removed and a new one is made and locked,
/// and while an output is moved aside and replaced.
struct ExportStaging {
    let folder: URL
    let output: URL
    /// Held while the export runs: it tells other exports this folder is in use.
    private let inUse: FileLock
    /// How long to wait for the output folder's lock, when staging and when moving into place.
    private let lockTimeout: Duration

    /// Creates the staging folder beside `output`, removing those that killed exports left.
    /// - Throws: `.busy` if another process holds the output folder's lock for `lockTimeout`.
    init(for output: URL, lockTimeout: Duration = .seconds(5)) throws {
        self.output = output
        self.lockTimeout = lockTimeout
        let lock = try FileLock(forDocumentAt: output, timeout: lockTimeout)
        Self.removeStaleFolders(for: output)
        let folder = output.deletingLastPathComponent()
            .appendingPathComponent(AtomicFile.temporaryPrefix(for: output) + UUID().uuidString.prefix(12).lowercased())
        try GalleryError.system("cannot create the export next to it", url: output) { () throws(SystemError) in
            try FileLocation.makeDirectory(folder, mode: 0o755)
        }
        do {
            inUse = try FileLock(folder: folder, naming: output, timeout: .zero)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.folder = folder
        withExtendedLifetime(lock) {}
    }

    /// Removes what killed exports to `output` left beside it: staging folders nobody holds, and
    /// outputs moved aside for a replacement. Call holding the output folder's lock.
    private static func removeStaleFolders(for output: URL) {
        let parent = output.deletingLastPathComponent()
        let prefix = AtomicFile.temporaryPrefix(for: output)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let item = parent.appendingPathComponent(name)
            let isAside = name.dropFirst(prefix.count).hasPrefix(asidePrefix)
            // A folder whose lock is taken at once has no export left; the lock is let go after.
            let holder = isAside ? nil : try? FileLock(folder: item, naming: output, timeout: .zero)
            if isAside || holder != nil { try? FileManager.default.removeItem(at: item) }
        }
    }

    /// Between the temporary prefix and a random suffix: an output moved aside while replaced.
    private static let asidePrefix = "old-"

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
        do {
            // Locked while the old output is aside, which is when another export could take it for stale.
            let lock = try FileLock(forDocumentAt: target, timeout: lockTimeout)
            defer { withExtendedLifetime(lock) {} }
            if FileLocation.status(of: target) != nil {
                guard replacing else { throw GalleryError(.alreadyExists, url: target, "already exists (use --force to replace it)") }
                let aside = target.deletingLastPathComponent()
                    .appendingPathComponent(
                        AtomicFile.temporaryPrefix(for: target) + Self.asidePrefix + UUID().uuidString.prefix(8).lowercased())
                try GalleryError.system("cannot replace", url: target) { () throws(SystemError) in
                    try FileLocation.rename(target, to: aside)
                }
                previous = aside
            }
            do throws(SystemError) {
                try FileLocation.rename(item, to: target)
            } catch {
                if let previous { try? FileLocation.rename(previous, to: target) }
                throw GalleryError.system("cannot create", url: target, error)
            }
        }
        if let previous { try? FileManager.default.removeItem(at: previous) }
    }
}
