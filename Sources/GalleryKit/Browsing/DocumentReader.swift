import Foundation

/// Reads the documents of one listing on all cores, each at most once: a listing that gives up
/// on the index half way reuses what was read.
///
/// Reading can start in the background (`startReading`) while the caller takes the documents
/// in order as they come (`documents(at:)`), so that the index stores the first documents while
/// the next are read; a document not yet taken by a worker when it is asked for is read by the
/// caller itself.
final class DocumentReader: @unchecked Sendable {
    private let files: [ListedFile]
    private let limits: BundleLimits
    private let settledBefore: Int64
    /// Guards `slots`, `queued`, `nextQueued` and `workerCount`; broadcast whenever a document
    /// has been read, and whenever a worker stops.
    private let condition = NSCondition()
    private var slots: [Slot]
    /// The positions the background workers read, in order, and the next one to take.
    private var queued: [Int] = []
    private var nextQueued = 0
    /// How many background workers are reading.
    private var workerCount = 0

    /// Boxed documents: a listing that reads none of its documents (nothing changed) makes a
    /// slot for each all the same.
    private enum Slot {
        case unread
        case reading
        indirect case read(IndexedDocument)
        /// Read, and its text let go once the index has it: kept is what a listing shows.
        indirect case summarized(IndexedDocument)
        /// Read, and its summary handed over to the listing.
        case taken
    }

    /// - Parameter settledBefore: a document whose file was last written before this time
    ///   (in nanoseconds since 1970) is settled (`FileStamp.isSettled(before:)`).
    init(files: [ListedFile], limits: BundleLimits, settledBefore: Int64) {
        self.files = files
        self.limits = limits
        self.settledBefore = settledBefore
        slots = Array(repeating: .unread, count: files.count)
    }

    /// How many documents were read from their files.
    var readCount: Int {
        condition.withLock {
            slots.count { slot in
                switch slot {
                case .read, .summarized, .taken: true
                case .unread, .reading: false
                }
            }
        }
    }

    /// Starts reading the documents at these positions of the listing, in this order, on every
    /// core, in the background.
    /// Those already read, or being read, are not read again.
    func startReading(_ positions: [Int]) {
        let newWorkers = condition.withLock {
            queued = positions
            nextQueued = 0
            let count = max(0, min(ProcessorCount.active, positions.count) - workerCount)
            workerCount += count
            return count
        }
        for _ in 0..<newWorkers {
            DispatchQueue.global().async { self.readQueued() }
        }
    }

    /// The documents at these positions of the listing, with their text, read now unless read
    /// already (a document whose text was let go is read again).
    func documents(at positions: [Int]) -> [IndexedDocument] {
        // What nobody reads yet is read here, then what workers read is awaited. On this thread
        // alone while background workers read (they keep every core busy: helpers on more
        // threads than cores made a first listing of 2,000 documents 0.6 to 3 ms slower), and on
        // every core once none does.
        var next = positions.startIndex
        while next < positions.endIndex, let isOurs = takeWhileWorkersRead(positions[next]) {
            if isOurs { finish(read(files[positions[next]]), at: positions[next]) }
            next += 1
        }
        let rest = positions[next...]
        DispatchQueue.concurrentPerform(iterations: rest.count) { index in
            let position = rest[rest.startIndex + index]
            if take(position) { finish(read(files[position]), at: position) }
        }
        return positions.map { document(at: $0) }
    }

    /// The summary of the document at `position`, read now unless read already, handed over:
    /// the reader keeps nothing of it (a long listing would otherwise hold each twice). Nil if
    /// the file was gone (`IndexedDocument.isGone`).
    func takeSummary(at position: Int) -> DocumentSummary? {
        let document = document(at: position, keepingText: false)
        condition.withLock { slots[position] = .taken }
        return document.isGone ? nil : document.summary
    }

    /// Lets go of the text of the documents at these positions, keeping their summaries: once
    /// the index holds it, a listing that shows every document needs nothing else (and a
    /// listing of 20,000 documents would otherwise hold all of their text).
    func keepOnlySummaries(at positions: [Int]) {
        condition.withLock {
            for position in positions {
                guard case .read(var document) = slots[position] else { continue }
                document.text = .empty
                slots[position] = .summarized(document)
            }
        }
    }

    private func readQueued() {
        while let position = takeQueued() {
            finish(read(files[position]), at: position)
        }
    }

    /// The next queued position that nobody has read or reads, marked as being read; `nil` (and
    /// one worker fewer) when there is none left.
    ///
    /// A document whose text was let go (`keepOnlySummaries`) counts as read: it is read again
    /// only when its text is asked for. Workers held up while the caller read a chunk of their
    /// queue and stored it read it all again (64 documents in a first listing of 2,000 under
    /// callgrind).
    private func takeQueued() -> Int? {
        condition.withLock {
            while nextQueued < queued.count {
                let position = queued[nextQueued]
                nextQueued += 1
                if case .unread = slots[position] {
                    slots[position] = .reading
                    return position
                }
            }
            workerCount -= 1
            condition.broadcast()
            return nil
        }
    }

    /// Waits until no background worker reads (for tests).
    func waitForWorkers() {
        condition.withLock {
            while workerCount > 0 { condition.wait() }
        }
    }

    /// Marks the document at `position` as being read, unless it is read or being read with its
    /// text (one whose text was let go, or whose summary was taken, is read again): `true` if the
    /// caller is to read it.
    private func take(_ position: Int) -> Bool {
        condition.withLock { takeLocked(position) }
    }

    /// `take(position)` while background workers read; nil once none does.
    private func takeWhileWorkersRead(_ position: Int) -> Bool? {
        condition.withLock { workerCount > 0 ? takeLocked(position) : nil }
    }

    private func takeLocked(_ position: Int) -> Bool {
        switch slots[position] {
        case .unread, .summarized, .taken:
            slots[position] = .reading
            return true
        case .reading, .read:
            return false
        }
    }

    private func finish(_ document: IndexedDocument, at position: Int) {
        condition.withLock {
            slots[position] = .read(document)
            condition.broadcast()
        }
    }

    /// The document at `position`, waiting while a worker reads it; read here if it is not
    /// read yet, or if its text was let go and `keepingText`.
    private func document(at position: Int, keepingText: Bool = true) -> IndexedDocument {
        condition.lock()
        while true {
            switch slots[position] {
            case .read(let document):
                condition.unlock()
                return document
            case .summarized(let document) where !keepingText:
                condition.unlock()
                return document
            case .reading:
                condition.wait()
            case .unread, .summarized, .taken:
                _ = takeLocked(position)
                condition.unlock()
                let document = read(files[position])
                finish(document, at: position)
                return document
            }
        }
    }

    private func read(_ file: ListedFile) -> IndexedDocument {
        let name = file.name
        guard let (stamp, read) = gallery(in: file) else {
            return IndexedDocument(
                stamp: FileStamp(stat()), isSettled: false, summary: DocumentSummary(path: file.path, name: name, bytes: 0),
                text: .empty, isGone: true)
        }
        var summary = DocumentSummary(path: file.path, name: name, bytes: stamp.size)
        let text: SearchableText
        do {
            let gallery = try read.get()
            summary.title = gallery.title
            summary.imageCount = gallery.images.count
            summary.cachedImageCount = gallery.images.count { $0.isCached }
            summary.modified = gallery.modified
            summary.created = gallery.created
            text = SearchableText(
                name: name, title: gallery.title, captions: gallery.images.compactMap(\.caption),
                urls: gallery.images.map(\.url.absoluteString)
            )
        } catch {
            let url = file.url
            summary.error = (error as? GalleryError)?.about(url) ?? GalleryError(.ioFailure, url: url, "\(error)")
            // A damaged document is found by its name only.
            text = SearchableText(name: name)
        }
        return IndexedDocument(stamp: stamp, isSettled: stamp.isSettled(before: settledBefore), summary: summary, text: text)
    }

    /// The file's stamp, and its gallery as `BundleReader.summary` reads it; nil if the file is
    /// gone. Without a stamp from the listing, the stamp is the `fstat` of the descriptor the
    /// file is read through (the very file that is read), or where it cannot be opened, its
    /// `lstat`; a file that is no longer there or no longer a regular file is gone.
    private func gallery(in file: ListedFile) -> (stamp: FileStamp, gallery: Result<Gallery, any Error>)? {
        if let stamp = file.stamp { return (stamp, Result { try BundleReader.summary(atPath: file.path, limits: limits) }) }
        var status = stat()
        let descriptor = FileLocation.open(path: file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let failure = errno
            guard failure != ENOENT, failure != ELOOP, let status = FileLocation.linkStatus(of: file.url),
                status.st_mode & S_IFMT == S_IFREG
            else { return nil }
            return (FileStamp(status), .failure(GalleryError.system("cannot open", url: file.url, errno: failure)))
        }
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return (FileStamp(status), Result { try BundleReader.summary(readingFrom: descriptor, path: file.path, limits: limits) })
    }
}
