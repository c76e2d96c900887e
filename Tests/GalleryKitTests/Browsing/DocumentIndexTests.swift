import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// The browse index: what it re-reads, how it survives damage and company, and how it searches.
@Suite struct DocumentIndexTests {
    let folder = TemporaryFolder()
    let cache = TemporaryFolder()

    /// An index in the temporary cache folder that trusts a file's times as soon as the listing
    /// starts after them, so that tests need not wait for files to settle.
    var index: DocumentIndex {
        var index = DocumentIndex(at: cache.path("browse-index.sqlite"))
        index.settlingNanoseconds = 0
        return index
    }

    var browser: DocumentBrowser { DocumentBrowser(index: index) }

    /// A document of web images (nothing cached), written as GalleryKit saves it.
    @discardableResult
    func save(_ name: String, title: String, captions: [String?] = [], in subfolder: String? = nil) throws -> URL {
        var location = folder.url
        if let subfolder {
            location = location.appendingPathComponent(subfolder)
            try FileManager.default.createDirectory(at: location, withIntermediateDirectories: true)
        }
        let images = captions.enumerated().map { index, caption in
            GalleryImage(
                url: URL(string: "https://images.example.org/\(name.lowercased())/\(index).jpg")!, aspectRatio: 1.5, caption: caption)
        }
        let url = location.appendingPathComponent(name)
        var document = GalleryDocument(creating: url, gallery: Gallery(title: title, images: images))
        try document.save()
        return url
    }

    func listing(_ browser: DocumentBrowser? = nil, recursive: Bool = false, search: String? = nil) throws -> DocumentListing {
        let listing = try (browser ?? self.browser).listing(in: folder.url, recursive: recursive, search: search)
        // The index's last steps run in the background: the next listing finds the index as
        // this one leaves it.
        listing.finishing.wait()
        return listing
    }

    func titles(_ listing: DocumentListing) -> [String: String] {
        Dictionary(uniqueKeysWithValues: listing.documents.map { ($0.name, $0.title ?? "damaged: \($0.error?.reason ?? "")") })
    }

    /// The folder listed twice: the first listing reads `count` documents, the second reads
    /// none (all from the index), and both agree with each other and with a listing made
    /// without the index. Returns the second.
    func listedColdThenWarm(reading count: Int) throws -> DocumentListing {
        let cold = try listing()
        #expect(cold.isIndexed && cold.readCount == count)
        let warm = try listing()
        #expect(warm.isIndexed && warm.readCount == 0)
        #expect(warm.documents.sorted(by: .name) == cold.documents.sorted(by: .name))
        #expect(try unindexed() == warm.documents.sorted(by: .name))
        return warm
    }

    /// The same listing without the index, for comparison.
    func unindexed(recursive: Bool = false, search: String? = nil) throws -> [DocumentSummary] {
        try DocumentBrowser().documents(in: folder.url, recursive: recursive, search: search).sorted(by: .name)
    }

    // MARK: Invalidation

    /// Empty text is stored as empty text, not NULL (the index's text columns refuse NULL, and
    /// a title of "" must come back as "", not as a missing one).
    @Test func emptyTitlesAndCaptionsRoundTripThroughTheIndex() throws {
        try save("Empty.gallery", title: "", captions: ["", nil])
        try save("Plain.gallery", title: "Plain")
        let warm = try listedColdThenWarm(reading: 2)
        #expect(warm.documents.first { $0.name == "Empty" }?.title == "")
    }

    /// Texts are bound to the index's statements in place (`DirectStatement`): a text holding a
    /// NUL comes back whole, not cut at it, and texts longer than a block of bound bytes, and
    /// many of them, come back as they went in.
    @Test func textsHoldingANulAndLongTextsRoundTripThroughTheIndex() throws {
        let long = String(repeating: "harbour ", count: 5_000)
        try save("Nul.gallery", title: "Before\u{0}after", captions: ["Harbour\u{0}walk"])
        try save("Long.gallery", title: String(repeating: "L", count: 20_000), captions: [long, long])
        for number in 0..<40 { try save("Doc \(number).gallery", title: "Title \(number)", captions: ["Caption \(number)"]) }
        let warm = try listedColdThenWarm(reading: 42)
        #expect(warm.documents.first { $0.name == "Nul" }?.title == "Before\u{0}after")
        #expect(warm.documents.first { $0.name == "Long" }?.title?.count == 20_000)
        let found = try listing(search: "harbour")
        #expect(found.readCount == 0)
        #expect(Set(found.documents.map(\.name)) == ["Nul", "Long"])
        // After the NUL: the caption was not cut at it.
        #expect(try listing(search: "walk").documents.map(\.name) == ["Nul"])
        #expect(try listing(search: "caption 7").documents.map(\.name) == ["Doc 7"])
    }

    @Test func readsOnlyDocumentsThatAreNewOrChanged() throws {
        try save("a.gallery", title: "Alpha")
        try save("b.gallery", title: "Bravo")
        try Data("garbage".utf8).write(to: folder.path("broken.gallery"))
        let cold = try listing()
        #expect(cold.readCount == 3)
        #expect(cold.isIndexed)
        // A search builds the full-text index, which the listings below then keep in step.
        #expect(try browser.documents(in: folder.url, search: "alpha").map(\.name) == ["a"])

        let warm = try listing()
        #expect(warm.readCount == 0)
        #expect(warm.documents.sorted(by: .name) == cold.documents.sorted(by: .name))
        #expect(warm.documents.sorted(by: .name) == (try unindexed()))
        #expect(titles(warm)["broken"]?.hasPrefix("damaged: not a gallery document") == true)

        // Added.
        try save("c.gallery", title: "Charlie")
        let added = try listing()
        #expect(added.readCount == 1)
        #expect(titles(added)["c"] == "Charlie")

        // Edited: a save renames a new file into place.
        var document = try GalleryDocument(contentsOf: folder.path("a.gallery"))
        try document.edit { $0.title = "Alpha, edited" }
        try document.save()
        let edited = try listing()
        #expect(edited.readCount == 1)
        #expect(titles(edited)["a"] == "Alpha, edited")

        // Removed: gone from the listing and from the index.
        try FileManager.default.removeItem(at: folder.path("b.gallery"))
        let removed = try listing()
        #expect(removed.readCount == 0)
        #expect(titles(removed).keys.sorted() == ["a", "broken", "c"])
        #expect(try index.indexedPaths() == ["a", "broken", "c"].map { folder.path("\($0).gallery").path })
        // The full-text index holds exactly the rows' text, after additions, edits and removals.
        try sqlite(cache.path("browse-index.sqlite"), "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
        #expect(try browser.documents(in: folder.url, search: "alpha edited").map(\.name) == ["a"])
        #expect(try browser.documents(in: folder.url, search: "bravo").isEmpty)
    }

    /// The write-ahead log outlives the listing, emptied (a log left full would be read whole by
    /// every later listing), and a listing that writes nothing creates, deletes and changes no
    /// file of the index: no file churn, no `fdatasync`.
    @Test func aListingThatWritesNothingLeavesTheIndexFilesAsTheyAre() throws {
        try save("a.gallery", title: "Alpha")
        #expect(try listing().readCount == 1)
        // The first listing built the index aside; this one writes to it in place.
        try save("b.gallery", title: "Bravo")
        #expect(try listing().readCount == 1)
        func files() throws -> [String: [FileAttributeKey: Any]] {
            let names = try FileManager.default.contentsOfDirectory(atPath: cache.url.path)
            return try Dictionary(
                uniqueKeysWithValues: names.map { ($0, try FileManager.default.attributesOfItem(atPath: cache.path($0).path)) })
        }
        let before = try files()
        #expect(
            before.keys.sorted() == [
                "browse-index.sqlite", "browse-index.sqlite-shm", "browse-index.sqlite-wal", "browse-index.sqlite.lock",
            ])
        #expect(before["browse-index.sqlite-wal"]?[.size] as? Int == 0)
        #expect(try listing().readCount == 0)
        let after = try files()
        #expect(after.keys.sorted() == before.keys.sorted())
        for name in ["browse-index.sqlite", "browse-index.sqlite-wal"] {
            #expect(after[name]?[.systemFileNumber] as? Int == before[name]?[.systemFileNumber] as? Int, "\(name) was replaced")
            #expect(after[name]?[.modificationDate] as? Date == before[name]?[.modificationDate] as? Date, "\(name) was written")
            #expect(after[name]?[.size] as? Int == before[name]?[.size] as? Int)
        }
    }

    /// `withDocuments` hands the listing over sorted while the index's last steps run, and
    /// returns, or throws what its body threw, once they are done: the new index is in place,
    /// no aside file is left, and the next listing reads nothing.
    @Test func withDocumentsHandsTheListingOverSortedAndReturnsOnceTheIndexIsInPlace() throws {
        for name in ["b", "a", "c"] { try save("\(name).gallery", title: name.uppercased()) }
        let names = try browser.withDocuments(in: folder.url, sortedBy: .name, reverse: true) { $0.map(\.name) }
        #expect(names == ["c", "b", "a"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.url.path).sorted() == [
                "browse-index.sqlite", "browse-index.sqlite.lock",
            ])
        #expect(try listing().readCount == 0)

        try FileManager.default.removeItem(at: index.location)
        try save("d.gallery", title: "D")
        struct Stop: Error {}
        #expect(throws: Stop.self) { try browser.withDocuments(in: folder.url, sortedBy: .name) { _ in throw Stop() } }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.url.path).sorted() == [
                "browse-index.sqlite", "browse-index.sqlite.lock",
            ])
        #expect(try listing().readCount == 0)
    }

    /// The first listing builds the index in a file of its own and renames it into place whole:
    /// nothing else is left in the cache folder, the file is in write-ahead-log mode as every
    /// later connection opens it, and it holds every document with the stamp it was read with.
    @Test func theFirstListingBuildsTheIndexAsideAndPutsItInPlaceWhole() throws {
        for name in ["a", "b", "c"] { try save("\(name).gallery", title: name.uppercased(), captions: ["Harbour \(name)"]) }
        // What killed listings leave: an aside file, with a journal, and a log without its database.
        let database = cache.path("browse-index.sqlite")
        for leftover in ["browse-index.sqlite.new-1", "browse-index.sqlite.new-1-journal", "browse-index.sqlite-wal"] {
            try Data(repeating: 0x5A, count: 4096).write(to: cache.path(leftover))
        }
        let first = try listing()
        #expect(first.isIndexed && first.readCount == 3)
        #expect(titles(first) == ["a": "A", "b": "B", "c": "C"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.url.path).sorted() == [
                "browse-index.sqlite", "browse-index.sqlite.lock",
            ])
        let header = try Data(contentsOf: database).prefix(20)
        #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(Array(header.suffix(2)) == [2, 2], "not in write-ahead-log mode")
        #expect(Array(header[16..<18]) == [0x40, 0x00], "not in pages of 16 KiB")
        let warm = try listing()
        #expect(warm.isIndexed && warm.readCount == 0)
        #expect(titles(warm) == titles(first))
        #expect(try browser.documents(in: folder.url, search: "harbour b").map(\.name) == ["b"])
        try sqlite(database, "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
    }

    /// An aside index is not put over an index another listing put in place first (which may be
    /// in use): it is removed, and the index stays as it was.
    @Test func anAsideIndexIsNotPutOverOneThatCameFirst() throws {
        try save("a.gallery", title: "Alpha")
        #expect(try listing().readCount == 1)
        let database = cache.path("browse-index.sqlite")
        let before = try FileManager.default.attributesOfItem(atPath: database.path)
        let aside = cache.path("browse-index.sqlite.new-99999")
        try Data(repeating: 0x5A, count: 4096).write(to: aside)
        let lock = try #require(FileLock.sharingIndex(at: database))
        #expect(!index.install(aside, lock: lock))
        #expect(!FileManager.default.fileExists(atPath: aside.path))
        let after = try FileManager.default.attributesOfItem(atPath: database.path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(try listing().readCount == 0)
    }

    /// A listing that reads every document takes each one's stamp as it opens it: a file gone by
    /// then, or no longer a regular file, is not listed, and its row (from a listing that saw
    /// it) goes, its text with it.
    @Test func aDocumentGoneBeforeItIsReadIsNotListed() throws {
        let kept = try save("a.gallery", title: "Alpha", captions: ["Harbour"])
        let gone = try save("b.gallery", title: "Bravo", captions: ["Harbour"])
        let replaced = try save("c.gallery", title: "Charlie", captions: ["Harbour"])
        #expect(try listing().readCount == 3)
        try FileManager.default.removeItem(at: gone)
        try FileManager.default.removeItem(at: replaced)
        try FileManager.default.createSymbolicLink(at: replaced, withDestinationURL: kept)
        let files = [kept, gone, replaced].map { ListedFile(path: Data(FileLocation.bytes(of: $0)), stamp: nil) }
        let reader = DocumentReader(files: files, limits: .standard, settledBefore: .max)
        let listing = try #require(
            index.listing(
                of: files, in: ListingScope(folder: folder.url, isRecursive: false), matching: nil, reader: reader, aside: nil))
        listing.finishing.wait()
        #expect(titles(listing) == ["a": "Alpha"])
        let status = try #require(FileLocation.status(of: kept))
        #expect(listing.documents.first?.bytes == Int64(status.st_size))
        #expect(try index.indexedPaths() == [kept.path])
        #expect(try browser.documents(in: folder.url, search: "harbour").map(\.name) == ["a"])
        try sqlite(cache.path("browse-index.sqlite"), "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
    }

    /// Background workers read only what nobody has read: not a document the caller read, and
    /// let go of its text once stored, before the workers came to it (rewritten since here, so
    /// that a second reading would show).
    @Test func workersDoNotReadAgainWhatTheCallerReadAndLetGo() throws {
        let first = try save("a.gallery", title: "Alpha")
        let second = try save("b.gallery", title: "Bravo")
        let files = [first, second].map { ListedFile(path: Data(FileLocation.bytes(of: $0)), stamp: nil) }
        let reader = DocumentReader(files: files, limits: .standard, settledBefore: .max)
        #expect(reader.documents(at: [0, 1]).map(\.summary.title) == ["Alpha", "Bravo"])
        reader.keepOnlySummaries(at: [0, 1])
        try FileManager.default.removeItem(at: first)
        try save("a.gallery", title: "Rewritten")
        reader.startReading([0, 1])
        reader.waitForWorkers()
        #expect(reader.takeSummary(at: 0)?.title == "Alpha")
        // Its text asked for again, it is read again.
        #expect(reader.documents(at: [1]).map(\.summary.title) == ["Bravo"])
        #expect(reader.documents(at: [0]).map(\.summary.title) == ["Rewritten"])
    }

    @Test func aRenamedDocumentIsListedUnderItsNewName() throws {
        try save("Old name.gallery", title: "Kept")
        #expect(try listing().readCount == 1)
        try FileManager.default.moveItem(at: folder.path("Old name.gallery"), to: folder.path("New name.gallery"))
        let renamed = try listing()
        #expect(titles(renamed) == ["New name": "Kept"])
        #expect(renamed.readCount == 1)
        #expect(try index.indexedPaths() == [folder.path("New name.gallery").path])
        #expect(try browser.documents(in: folder.url, search: "old").isEmpty)
        #expect(try browser.documents(in: folder.url, search: "new").map(\.name) == ["New name"])
    }

    /// A document rewritten in place, to the same size and inode, its modification time either
    /// changed by a nanosecond or set back to what it was (`touch -d`): the status-change time,
    /// which no program can set back, still tells the versions apart.
    @Test(arguments: [false, true])
    func aDocumentRewrittenInPlaceWithTheSameSizeIsReadAgain(restoringTheModificationTime: Bool) throws {
        let url = folder.path("Same size.gallery")
        let alpha = cache.path("alpha.gallery"), omega = cache.path("omega.gallery")
        // Stored manifests: titles of the same length give archives of the same length.
        try RawZip.write(
            [TestManifest.mimetype, RawZip.Entry("manifest.json", TestManifest.data(TestManifest.object(title: "Alpha")))], to: alpha)
        try RawZip.write(
            [TestManifest.mimetype, RawZip.Entry("manifest.json", TestManifest.data(TestManifest.object(title: "Omega")))], to: omega)
        let replacement = try Data(contentsOf: omega)
        try FileManager.default.copyItem(at: alpha, to: url)
        try #require(try Data(contentsOf: url).count == replacement.count)
        #expect(titles(try listing()) == ["Same size": "Alpha"])

        let before = try #require(FileLocation.status(of: url))
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: replacement)
        try handle.close()
        var times = before.accessAndModificationTimes
        if !restoringTheModificationTime { times[1].tv_nsec = (times[1].tv_nsec + 1) % 1_000_000_000 }
        try #require(utimensat(AT_FDCWD, url.path, times, 0) == 0)
        let after = try #require(FileLocation.status(of: url))
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_size == before.st_size)
        #expect(after.modifiedNanoseconds == before.modifiedNanoseconds || !restoringTheModificationTime)

        let changed = try listing()
        #expect(changed.readCount == 1)
        #expect(titles(changed) == ["Same size": "Omega"])
    }

    @Test func aDocumentWrittenJustBeforeAListingIsReadAgainByTheNext() throws {
        // The default margin: a file written within two seconds of a listing could still be
        // rewritten within the same tick of the file system's clock, so its row is not trusted.
        let browser = DocumentBrowser(index: DocumentIndex(at: cache.path("browse-index.sqlite")))
        try save("Fresh.gallery", title: "Fresh")
        #expect(try listing(browser).readCount == 1)
        #expect(try listing(browser).readCount == 1)
        // Once settled (here: by a listing that trusts it), it is no longer read.
        #expect(try listing().readCount == 1)
        #expect(try listing().readCount == 0)
    }

    @Test func listsOnlyTheFolderAskedForAndKeepsOtherFoldersRows() throws {
        try save("top.gallery", title: "Top")
        try save("deep.gallery", title: "Deep", in: "nested")
        #expect(titles(try listing(recursive: true)) == ["top": "Top", "deep": "Deep"])
        // A flat listing of the parent does not drop the subfolder's rows.
        #expect(titles(try listing()) == ["top": "Top"])
        #expect(try listing(recursive: true).readCount == 0)
        // A document removed from a subfolder goes with a recursive listing.
        try FileManager.default.removeItem(at: folder.path("nested/deep.gallery"))
        #expect(titles(try listing(recursive: true)) == ["top": "Top"])
        #expect(try index.indexedPaths() == [folder.path("top.gallery").path])
    }

    // MARK: Damage and company

    /// Ways the index file can be found: each is rebuilt, and the listing is right all along.
    enum Damage: String, CaseIterable, Sendable {
        case garbage, truncated, emptyFile, foreignDatabase, newerSchema, wrongColumnType
    }

    @Test(arguments: Damage.allCases)
    func aDamagedOrForeignIndexIsRebuilt(damage: Damage) throws {
        try save("a.gallery", title: "Alpha")
        try save("b.gallery", title: "Bravo", captions: ["Harbour at dawn"])
        #expect(try listing().readCount == 2)
        let database = cache.path("browse-index.sqlite")
        switch damage {
        case .garbage:
            try removeSideFiles(of: database)
            try Data(repeating: 0xA5, count: 8192).write(to: database)
        case .truncated:
            try sqlite(database, "PRAGMA wal_checkpoint(TRUNCATE)")
            let bytes = try Data(contentsOf: database)
            try removeSideFiles(of: database)
            try bytes.prefix(bytes.count / 2).write(to: database)
        case .emptyFile:
            try removeSideFiles(of: database)
            try Data().write(to: database)
        case .foreignDatabase:
            try removeSideFiles(of: database)
            try FileManager.default.removeItem(at: database)
            try sqlite(database, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')")
        case .newerSchema:
            try sqlite(database, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')")
        case .wrongColumnType:
            try sqlite(database, "UPDATE document SET size = 'large'")
        }
        let repaired = try listing(search: damage == .emptyFile ? nil : "harbour")
        #expect(repaired.isIndexed)
        #expect(repaired.readCount == 2)
        if damage != .emptyFile { #expect(titles(repaired) == ["b": "Bravo"]) }
        let warm = try listing()
        #expect(warm.readCount == 0)
        #expect(titles(warm) == ["a": "Alpha", "b": "Bravo"])
    }

    /// A damaged document's row keeps the library's own words (`detail`) beside the reason. An
    /// index made before it did ("v4") reads its damaged documents again, and only those.
    @Test func aDamagedDocumentKeepsItsDetailAndAnOlderIndexReadsItAgain() throws {
        try save("a.gallery", title: "Alpha")
        try Data("garbage".utf8).write(to: folder.path("broken.gallery"))
        func broken(_ listing: DocumentListing) -> GalleryError? { listing.documents.first { $0.name == "broken" }?.error }
        let cold = try listing()
        #expect(broken(cold)?.reason == "not a gallery document (not a zip archive)")
        #expect(broken(cold)?.detail == "Unrecognized archive format")
        let warm = try listing()
        #expect(warm.readCount == 0 && broken(warm)?.detail == "Unrecognized archive format")
        let database = cache.path("browse-index.sqlite")
        try sqlite(
            database,
            """
            ALTER TABLE document DROP COLUMN errorDetail;
            UPDATE document SET errorReason = 'not a gallery document (not a readable zip archive: Unrecognized archive format)'
                WHERE errorCode IS NOT NULL;
            DELETE FROM grdb_migrations WHERE identifier = 'v4';
            """)
        let upgraded = try listing()
        #expect(upgraded.isIndexed && upgraded.readCount == 1)
        #expect(broken(upgraded)?.reason == "not a gallery document (not a zip archive)")
        #expect(broken(upgraded)?.detail == "Unrecognized archive format")
        #expect(titles(upgraded)["a"] == "Alpha")
    }

    /// The full-text table keeps no column sizes (only ranking reads them); an index made while
    /// it kept them is made so in place ("v2"): its rows stay, and it searches as before.
    @Test func anIndexWhoseFullTextTableKeptColumnSizesIsUpgradedInPlace() throws {
        try save("a.gallery", title: "Alpha")
        try save("b.gallery", title: "Bravo", captions: ["Harbour at dawn"])
        #expect(try listing().readCount == 2)
        let database = cache.path("browse-index.sqlite")
        let tables = "SELECT name FROM sqlite_master WHERE name LIKE 'documentText%' ORDER BY name"
        #expect(try query(database, tables) == ["documentText", "documentText_config", "documentText_data", "documentText_idx"])
        try sqlite(
            database,
            """
            DROP TABLE documentText;
            CREATE VIRTUAL TABLE documentText USING fts5(searchName, searchTitle, searchCaptions, searchURLs,
                tokenize = 'unicode61 remove_diacritics 2', content = 'document', content_rowid = 'id');
            INSERT INTO documentText (documentText) VALUES ('rebuild');
            DELETE FROM grdb_migrations WHERE identifier = 'v2';
            """)
        #expect(try query(database, tables).contains("documentText_docsize"))
        let search = try listing(search: "harbour")
        #expect(search.isIndexed && search.readCount == 0)
        #expect(titles(search) == ["b": "Bravo"])
        #expect(try query(database, tables) == ["documentText", "documentText_config", "documentText_data", "documentText_idx"])
        #expect(try query(database, "SELECT identifier FROM grdb_migrations ORDER BY identifier") == ["v1", "v2", "v3", "v4"])
        #expect(titles(try listing()) == ["a": "Alpha", "b": "Bravo"])
        // The rebuilt table forgets a rewritten document's old text ('delete' with the old values).
        try FileManager.default.removeItem(at: folder.path("b.gallery"))
        try save("b.gallery", title: "Bravo", captions: ["Market at noon"])
        #expect(titles(try listing(search: "market")) == ["b": "Bravo"])
        #expect(try listing(search: "harbour").documents.isEmpty)
        try sqlite(database, "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
    }

    /// A first listing stores its rows without the full-text index, and so do listings after it,
    /// until the first search builds it whole: the search finds what the documents say then
    /// (added and rewritten ones too, not their old text), and the index holds exactly the rows'
    /// text. A first listing that searches keeps it in step from the start.
    @Test func theFullTextIndexIsBuiltByTheFirstSearch() throws {
        try save("a.gallery", title: "Alpha", captions: ["Harbour at dawn"])
        try save("b.gallery", title: "Bravo", captions: ["Harbour at noon"])
        try save("d.gallery", title: "日出の旅")
        let database = cache.path("browse-index.sqlite")
        let state = "SELECT isInStep FROM fullTextState"
        let indexed = "SELECT count(*) FROM documentText WHERE documentText MATCH 'harbour'"
        #expect(try listing().readCount == 3)
        #expect(try query(database, state) == ["0"])
        #expect(try query(database, indexed) == ["0"])
        // Text written without spaces is found by substring: it builds nothing.
        #expect(titles(try listing(search: "日出")) == ["d": "日出の旅"])
        #expect(try query(database, state) == ["0"])
        try FileManager.default.removeItem(at: folder.path("b.gallery"))
        try save("b.gallery", title: "Bravo", captions: ["Market at noon"])
        try save("c.gallery", title: "Charlie", captions: ["Harbour at dusk"])
        #expect(try listing().readCount == 2)
        #expect(try query(database, state) == ["0"], "a listing keeps it behind")
        let search = try listing(search: "harbour")
        #expect(search.isIndexed && search.readCount == 0)
        #expect(titles(search) == ["a": "Alpha", "c": "Charlie"])
        #expect(try query(database, state) == ["1"])
        try sqlite(database, "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
        #expect(titles(try listing(search: "market")) == ["b": "Bravo"])

        index.removeDatabaseFiles()
        let first = try listing(search: "harbour")
        #expect(first.readCount == 4 && titles(first) == ["a": "Alpha", "c": "Charlie"])
        #expect(try query(database, state) == ["1"])
        try sqlite(database, "INSERT INTO documentText (documentText, rank) VALUES ('integrity-check', 1)")
    }

    /// A folder that cannot be listed leaves nothing in the cache: the first index is started
    /// only once the folder opens (and a listing that fails leaves no work of its own running,
    /// so what the cache holds when it has thrown is final).
    @Test(arguments: ["missing", "a file"])
    func aFolderThatCannotBeListedLeavesTheCacheAsItWas(kind: String) throws {
        let listed = folder.path("listed")
        if kind == "a file" { try Data("not a folder".utf8).write(to: listed) }
        let index = DocumentIndex(at: cache.path("gallery/browse-index.sqlite"))
        #expect(throws: GalleryError.self) { try DocumentBrowser(index: index).documents(in: listed) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.url.path).isEmpty)
    }

    /// A cache folder that cannot be created or written: the listing is made without the index.
    @Test(arguments: ["below a regular file", "read-only folder"])
    func anUnusableCacheFolderListsWithoutTheIndex(kind: String) throws {
        try save("a.gallery", title: "Alpha")
        var location = cache.path("file/gallery/browse-index.sqlite")
        if kind == "read-only folder" && geteuid() != 0 {
            // Root ignores permissions; it gets the impossible folder instead.
            let readOnly = cache.path("read-only")
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
            try #require(chmod(readOnly.path, 0o500) == 0)
            location = readOnly.appendingPathComponent("gallery/browse-index.sqlite")
        } else {
            try Data("a file where a folder should be".utf8).write(to: cache.path("file"))
        }
        defer { chmod(cache.path("read-only").path, 0o700) }
        var index = DocumentIndex(at: location)
        index.settlingNanoseconds = 0
        let browser = DocumentBrowser(index: index)
        for _ in 0..<2 {
            let listing = try listing(browser)
            #expect(!listing.isIndexed)
            #expect(titles(listing) == ["a": "Alpha"])
        }
        #expect(try browser.documents(in: folder.url, search: "alp").map(\.name) == ["a"])
    }

    @Test func concurrentListingsDuringEditsStayRight() throws {
        for number in 0..<12 { try save("doc-\(number).gallery", title: "Version 0 of \(number)") }
        let failures = ResultCollector()
        // Four listings at a time while another thread saves new versions of the documents.
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            do {
                if worker == 0 {
                    for version in 1...3 {
                        for number in 0..<12 {
                            var document = try GalleryDocument(contentsOf: folder.path("doc-\(number).gallery"))
                            try document.edit { $0.title = "Version \(version) of \(number)" }
                            try document.save()
                        }
                    }
                } else {
                    for _ in 0..<6 {
                        let listing = try listing()
                        // Every document is listed, in one of its versions, never damaged.
                        guard listing.documents.count == 12,
                            listing.documents.allSatisfy({ $0.error == nil && $0.title?.hasPrefix("Version ") == true })
                        else { throw GalleryError(.damagedDocument, "listing went wrong: \(titles(listing))") }
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.values.isEmpty)
        let final = try listing()
        #expect(final.documents.sorted(by: .name) == (try unindexed()))
        #expect(final.documents.allSatisfy { $0.title?.hasPrefix("Version 3") == true })
    }

    /// Another process holds the write lock longer than the busy timeout: the listing is right
    /// all the same (what it read searched in memory; every document read when the full-text
    /// index, left to the first search, cannot be built), and the next one brings the index up
    /// to date.
    @Test(arguments: [true, false])
    func aListingWaitingTooLongForTheWriteLockListsWithoutWriting(isFullTextBuilt: Bool) throws {
        try save("a.gallery", title: "Alpha harbour")
        try save("b.gallery", title: "Bravo")
        _ = try listing(search: isFullTextBuilt ? "alpha" : nil)
        try save("c.gallery", title: "Charlie harbour")
        let holder = Process()
        holder.executableURL = Command.which("python3")
        holder.arguments = [
            "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            sys.stdin.readline()
            c.execute('ROLLBACK')
            """, cache.path("browse-index.sqlite").path,
        ]
        // Released when told (a line on its stdin), not after a time the listings must beat.
        let output = Pipe(), release = Pipe()
        holder.standardOutput = output
        holder.standardInput = release
        try holder.run()
        defer {
            try? release.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        try #require(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))

        var impatient = index
        impatient.busyTimeout = 0.2
        let browser = DocumentBrowser(index: impatient)
        let blocked = try listing(browser, search: "harb")
        #expect(!blocked.isIndexed)
        #expect(blocked.readCount == (isFullTextBuilt ? 1 : 3))
        #expect(titles(blocked) == ["a": "Alpha harbour", "c": "Charlie harbour"])
        #expect(titles(try listing(browser)) == ["a": "Alpha harbour", "b": "Bravo", "c": "Charlie harbour"])

        release.fileHandleForWriting.write(Data("release\n".utf8))
        holder.waitUntilExit()
        let after = try listing(browser, search: "charlie")
        #expect(after.isIndexed)
        #expect(after.readCount == 1)
        #expect(titles(after) == ["c": "Charlie harbour"])
        #expect(try listing(browser).readCount == 0)
    }

    // MARK: Search

    func saveSearchFixtures() throws {
        try save("Harbour walk.gallery", title: "Harbour walk", captions: ["Boats at dawn", nil])
        try save("Paris.gallery", title: "Café de Flore", captions: ["Crème brûlée"])
        try save("Athens.gallery", title: "Αθήνα", captions: ["Ακρόπολη"])
        try save("Sunrise.gallery", title: "日出の旅", captions: ["富士山の朝"])
        try save("Journey.gallery", title: "旅の日出")
        try save("Seoul.gallery", title: "서울에서 보낸 하루")
        try save("Zoo.gallery", title: "Zoo", captions: ["ＦＵＬＬＷＩＤＴＨ lions"])
        try Data("garbage".utf8).write(to: folder.path("Broken harbour.gallery"))
    }

    static let searches: [(String, [String])] = [
        ("harb", ["Broken harbour", "Harbour walk"]),
        ("HARBOUR", ["Broken harbour", "Harbour walk"]),
        ("harbour walk", ["Harbour walk"]),
        ("walk harbour", ["Harbour walk"]),
        ("harbour zoo", []),
        ("boats", ["Harbour walk"]),
        ("dawn", ["Harbour walk"]),
        ("arbour", []),
        ("cafe", ["Paris"]),
        ("CAFÉ", ["Paris"]),
        ("creme brulee", ["Paris"]),
        ("flore café", ["Paris"]),
        ("αθηνα", ["Athens"]),
        ("ΑΘΉΝΑ", ["Athens"]),
        ("ακροπ", ["Athens"]),
        ("日出", ["Journey", "Sunrise"]),
        ("旅", ["Journey", "Sunrise"]),
        ("日出の旅", ["Sunrise"]),
        ("富士山", ["Sunrise"]),
        ("日出 富士", ["Sunrise"]),
        ("日出 harbour", []),
        ("서울", ["Seoul"]),
        ("하루", ["Seoul"]),
        ("fullwidth", ["Zoo"]),
        ("ｌｉｏｎ", ["Zoo"]),
        ("images.example", ["Athens", "Harbour walk", "Paris", "Sunrise", "Zoo"]),
        ("example.org/paris", ["Paris"]),
        ("broken", ["Broken harbour"]),
        ("garbage", []),
        ("sun", ["Sunrise"]),
        // Nothing to search for: all; no letter or digit: none; FTS5 syntax is only text.
        ("", ["Athens", "Broken harbour", "Harbour walk", "Journey", "Paris", "Seoul", "Sunrise", "Zoo"]),
        ("   ", ["Athens", "Broken harbour", "Harbour walk", "Journey", "Paris", "Seoul", "Sunrise", "Zoo"]),
        ("***", []),
        ("\"", []),
        ("AND", []),
        ("harbour OR zoo", []),
        ("NEAR(harbour walk)", []),
        ("searchTitle:harbour", []),
        ("harbour*", ["Broken harbour", "Harbour walk"]),
        ("-zoo", ["Zoo"]),
        ("^harbour", ["Broken harbour", "Harbour walk"]),
        ("walk\" OR \"zoo", []),
    ]

    @Test(arguments: searches)
    func searchesWordPrefixesAndTextWithoutSpaces(search: String, expected: [String]) throws {
        try saveSearchFixtures()
        let indexed = try browser.documents(in: folder.url, search: search).map(\.name).sorted()
        #expect(indexed == expected)
        // The same answer from the warm index and without the index.
        #expect(try browser.documents(in: folder.url, search: search).map(\.name).sorted() == expected)
        #expect(try unindexed(search: search).map(\.name).sorted() == expected)
    }

    @Test func searchReadsNoManifestOnceIndexed() throws {
        try saveSearchFixtures()
        _ = try listing()
        let search = try listing(search: "日出")
        #expect(search.readCount == 0)
        #expect(search.isIndexed)
        #expect(search.documents.map(\.name).sorted() == ["Journey", "Sunrise"])
        #expect(try listing(search: "cafe").readCount == 0)
    }

    // MARK: Helpers

    /// Runs SQL on a database with Python's sqlite3 module (the tests do not link SQLite).
    func sqlite(_ database: URL, _ sql: String) throws {
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.close()"
        let result = try Command.run(try #require(Command.which("python3")), ["-c", script, database.path, sql], in: cache.url)
        try #require(result.status == 0, "\(result)")
    }

    /// The first column of each row `sql` selects, as text, read with Python's sqlite3 module.
    func query(_ database: URL, _ sql: String) throws -> [String] {
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); [print(row[0]) for row in c.execute(sys.argv[2])]; c.close()"
        let result = try Command.run(try #require(Command.which("python3")), ["-c", script, database.path, sql], in: cache.url)
        try #require(result.status == 0, "\(result)")
        return result.output.split(separator: "\n").map(String.init)
    }

    func removeSideFiles(of database: URL) throws {
        try sqlite(database, "PRAGMA wal_checkpoint(TRUNCATE)")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
    }
}

/// Messages from concurrent workers.
final class ResultCollector: @unchecked Sendable {
    private var messages: [String] = []
    private let lock = NSLock()

    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var values: [String] { lock.withLock { messages } }
}
