import Foundation

extension ExportStaging {
    /// Puts the bytes, thumbnails and renditions `materials` asks for of the images at `offsets`
    /// in the staging folder, and describes those images in `items` (one per image of the gallery).
    ///
    /// File names come only from the export's own numbering (`images/007.jpg`), never from entry
    /// names or URLs. Entries of the document are read in one pass, each checked as it is read:
    /// CRC-32, exact size, the inflation limit and, for cached bytes, their SHA-256. A
    /// document's own thumbnail is reused; an image without one is decoded once to make it.
    /// Renditions are made from the staged bytes, which stay only if `materials` has `.images`.
    /// - Throws: `.damagedDocument` (and the other reading errors) for a damaged entry.
    func gather(_ materials: ExportMaterials, of document: GalleryDocument, offsets: [Int], into items: inout [ExportItem]) throws {
        let digits = max(3, String(items.count).count)
        var wanted: [String: [String]] = [:]  // document entry → staging paths
        var thumbnailsToMake: [Int] = []
        for offset in offsets {
            let image = document.gallery.images[offset]
            items[offset] = ExportItem(number: offset + 1, image: image, attribution: document.gallery.attribution(ofImageAt: offset))
            guard !image.hasFailed, let cached = image.cached else {
                items[offset].failure = image.error ?? "the image could not be loaded"
                continue
            }
            let number = Self.numbered(offset + 1, digits: digits)
            let existingThumbnail = image.thumbnail.flatMap { document.source(ofEntry: $0) == nil ? nil : $0 }
            let wantsThumbnail = materials.contains(.thumbnails)
            if materials.contains(.images) || materials.contains(.renditions) || (wantsThumbnail && existingThumbnail == nil) {
                let path = "images/\(number).\(Self.safeExtension(of: cached.path))"
                wanted[cached.path, default: []].append(path)
                items[offset].imagePath = path
            }
            if wantsThumbnail {
                let path = "thumbnails/\(number).jpg"
                if let existingThumbnail {
                    wanted[existingThumbnail, default: []].append(path)
                    items[offset].thumbnailPath = path
                } else {
                    thumbnailsToMake.append(offset)
                }
            }
        }
        if !wanted.isEmpty {
            try makeFolders(for: wanted.values.joined())
            try copyEntries(wanted, of: document)
        }
        try makeThumbnails(for: thumbnailsToMake, in: &items)
        if materials.contains(.images) || materials.contains(.renditions) { readMissingSizes(of: &items, at: offsets) }
        if materials.contains(.renditions) { try makeRenditions(for: offsets, in: &items) }
        if !materials.contains(.images) { removeImages(at: offsets, in: &items, keepingAnimations: materials.contains(.renditions)) }
    }

    /// `7` as `007` with `digits` digits.
    static func numbered(_ number: Int, digits: Int) -> String {
        String(number).leftPadded(to: digits)
    }

    /// The extension of a cached entry's name, if it is a plain one (`images/<sha256>.jpg` → `jpg`).
    private static func safeExtension(of name: String) -> String {
        let candidate = (name as NSString).pathExtension.lowercased()
        let plain = !candidate.isEmpty && candidate.count <= 5 && candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return plain ? candidate : "img"
    }

    private func makeFolders(for paths: some Sequence<String>) throws {
        for folderName in Set(paths.map { ($0 as NSString).deletingLastPathComponent }) where !folderName.isEmpty {
            let url = folder.appendingPathComponent(folderName)
            try GalleryError.system("cannot create", url: url) { () throws(SystemError) in
                try FileLocation.makeDirectoryUnlessPresent(url, mode: 0o755)
            }
        }
    }

    /// Writes each wanted entry to its staging paths: entries of an archive in one pass over it,
    /// bytes cached since opening from where they are.
    private func copyEntries(_ wanted: [String: [String]], of document: GalleryDocument) throws {
        var archived: [URL: [String: [String]]] = [:]  // archive → stored name → staging paths
        for (name, paths) in wanted {
            switch document.source(ofEntry: name) {
            case .data(let data)?:
                for path in paths { try Self.createFile(at: folder.appendingPathComponent(path), contents: data) }
            case .file(let file, let identity)?:
                try writeFile(paths[0]) { write in try FileChunks.read(file, expecting: identity, write) }
                try duplicate(paths[0], to: paths.dropFirst())
            case .archived(let archive, let stored)?:
                archived[archive, default: [:]][stored, default: []] += paths
            case nil:
                throw GalleryError(.damagedDocument, url: document.url, "the bytes of \(name) are missing")
            }
        }
        let cached = document.gallery.cachedImagesByPath
        for (archive, entries) in archived {
            var remaining = Set(entries.keys)
            try BundleReader.visitEntries(named: remaining, of: archive, blockSize: 1 << 20) { entry, reader in
                let name = entry.name
                guard let paths = entries[name] else { return }
                remaining.remove(name)
                try writeFile(paths[0]) { write in
                    try BundleVerifier.readEntry(name, from: reader, expecting: cached[name], limits: document.limits, write)
                }
                try duplicate(paths[0], to: paths.dropFirst())
            }
            if let missing = remaining.first {
                throw GalleryError(.damagedDocument, url: archive, "entry \(missing) is missing from the document")
            }
        }
    }

    private func duplicate(_ path: String, to copies: some Sequence<String>) throws {
        for copy in copies {
            try writeFile(copy) { write in try FileChunks.read(folder.appendingPathComponent(path), write) }
        }
    }

    /// Thumbnails for the images at `offsets`, which have none in the document, made on all
    /// cores from their staged bytes. An image libvips cannot shrink simply has none.
    private func makeThumbnails(for offsets: [Int], in items: inout [ExportItem]) throws {
        guard !offsets.isEmpty else { return }
        let made = ResultSlots<Data>(count: offsets.count)
        let sources = offsets.map { items[$0].imagePath.map(folder.appendingPathComponent) }
        DispatchQueue.concurrentPerform(iterations: offsets.count) { index in
            guard let source = sources[index] else { return }
            made[index] = Result { try Thumbnailer.jpeg(forFileAt: source) }
        }
        try makeFolders(for: ["thumbnails/x"])
        for (index, offset) in offsets.enumerated() {
            if case .success(let jpeg)? = made[index] {
                let path = "thumbnails/\(Self.numbered(offset + 1, digits: max(3, String(items.count).count))).jpg"
                try Self.createFile(at: folder.appendingPathComponent(path), contents: jpeg)
                items[offset].thumbnailPath = path
            }
        }
    }

    /// The renditions (`Rendition.ladder`) of the images at `offsets`, each decoded once from its
    /// staged bytes, made on all cores, at `renditions/NNN-<long edge>.jpg`. Sizes that would
    /// come out alike (an image smaller than the ladder) are written once. A GIF has none: it
    /// stays itself, animation and all. An image libvips cannot read simply has none.
    private func makeRenditions(for offsets: [Int], in items: inout [ExportItem]) throws {
        let wanted = offsets.filter { items[$0].imagePath != nil && !items[$0].isAnimation }
        guard !wanted.isEmpty else { return }
        try makeFolders(for: ["renditions/x"])
        let digits = max(3, String(items.count).count)
        let jobs = wanted.map { offset in
            (
                source: folder.appendingPathComponent(items[offset].imagePath!),
                longEdge: items[offset].pixelSize.map { max($0.width, $0.height) },
                stem: "renditions/\(Self.numbered(offset + 1, digits: digits))"
            )
        }
        // Each worker writes its files as it makes them: only one image's renditions are in
        // memory per core, however large the gallery.
        let made = ResultSlots<[ExportRendition]>(count: jobs.count)
        let staging = folder
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index]
            made[index] = Result {
                var written: [ExportRendition] = []
                let renditions = try Rendition.make(fromFileAt: job.source, longEdges: Rendition.longEdges(forImageLongEdge: job.longEdge))
                for rendition in renditions where written.last?.longEdge != rendition.longEdge {
                    let path = "\(job.stem)-\(rendition.longEdge).jpg"
                    try Self.createFile(at: staging.appendingPathComponent(path), contents: rendition.jpeg)
                    written.append(ExportRendition(path: path, width: rendition.width, height: rendition.height))
                }
                return written
            }
        }
        for (index, offset) in wanted.enumerated() {
            switch made[index] {
            case .success(let renditions)?: items[offset].renditions = renditions
            // An image libvips cannot read simply has none; a file that cannot be written fails the export.
            case .failure(let error as GalleryError)? where error.code != .notAnImage: throw error
            default: continue
            }
        }
    }

    /// Removes the staged bytes of the images at `offsets` (staged to make thumbnails or
    /// renditions of, not asked for themselves), except, with `keepingAnimations`, a GIF's: it
    /// is its own display size.
    private func removeImages(at offsets: [Int], in items: inout [ExportItem], keepingAnimations: Bool) {
        for offset in offsets {
            guard let path = items[offset].imagePath, !(keepingAnimations && items[offset].isAnimation) else { continue }
            FileLocation.unlink(folder.appendingPathComponent(path))
            items[offset].imagePath = nil
        }
        // The folder goes too if nothing is left in it (rmdir refuses a folder that is not empty).
        _ = FileLocation.withPath(of: folder.appendingPathComponent("images")) { path in path.map { rmdir($0) } }
    }

    /// Reads the displayed size from the header of images whose manifest does not record it.
    private func readMissingSizes(of items: inout [ExportItem], at offsets: [Int]) {
        for index in offsets where items[index].pixelSize == nil {
            guard let path = items[index].imagePath,
                let info = try? ImageProbe.info(forFileAt: folder.appendingPathComponent(path))
            else { continue }
            items[index].image.width = info.width
            items[index].image.height = info.height
        }
    }

    /// Creates the file at `path` in the staging folder (it must not exist) and fills it.
    func writeFile(_ path: String, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try Self.createFile(at: folder.appendingPathComponent(path), produce)
    }

    /// Creates the file at `url` (it must not exist) and fills it with what `produce` hands over.
    /// - Parameter syncing: flush it to disk before returning (a single-file output, renamed into
    ///   place next: after a crash it is whole or absent).
    static func createFile(at url: URL, syncing: Bool = false, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let descriptor = FileLocation.open(url, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create", url: url) }
        defer { close(descriptor) }
        try produce { chunk in
            guard FileLocation.writeAll(chunk, to: descriptor) else { throw GalleryError.system("cannot write", url: url) }
        }
        if syncing, fsync(descriptor) != 0 { throw GalleryError.system("cannot write", url: url) }
    }

    /// Creates the file at `url` (it must not exist) holding `data`.
    static func createFile(at url: URL, contents data: Data, syncing: Bool = false) throws {
        try createFile(at: url, syncing: syncing) { write in try data.withUnsafeBytes { try write($0) } }
    }
}

extension String {
    /// The text with zeros in front, to be at least `length` characters long.
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
