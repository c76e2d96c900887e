import Foundation
internal import GRDB

/// The listing that makes the index: built aside, in a file of its own, and put in place whole.
///
/// Nobody else opens the file while it is built, so SQLite writes it as it goes: no rollback
/// journal, no write-ahead log, no `fdatasync` at every step. Made in place, through the log,
/// the first listing of 2,000 documents wrote every page twice (to the log, then to the
/// database when closing) and waited on eight `fdatasync`s: from its last row stored to the
/// database closed took 11 ms of a 70 ms listing, 5 ms here. The file is synced once, whole,
/// before it is renamed into place, so the index is either missing
/// or complete, whatever stops the listing; a listing killed half way leaves only its aside
/// file, which the next first listing removes.
extension DocumentIndex {
    /// What an aside file's name adds to the database's: `.new-`, then the building process's
    /// id and a random number (two hosts may share the cache folder, and their process ids).
    static let asideInfix = ".new-"

    /// Starts making the index aside, in the background: its lock taken, its file created
    /// with its tables. A first listing starts it once its folder opens, and scans the folder
    /// meanwhile: made after the scan, they took the core that then had documents to read.
    /// - Returns: what `firstListing` fills; nil if the lock could not be taken (the listing is
    ///   then made without the index).
    func makingAsideIndex() -> BackgroundWork<AsideIndex?> {
        let aside = URL(fileURLWithPath: location.path + Self.asideInfix + "\(getpid())-\(UInt32.random(in: .min ... .max))")
        return BackgroundWork { [self] in
            // Taken before the file is made: a listing putting its own index in place removes
            // the aside files of listings it takes for killed ones.
            guard let lock = FileLock.sharingIndex(at: location) else { return nil }
            do {
                return AsideIndex(lock: lock, database: try openDatabase(at: aside, isAside: true), location: aside)
            } catch {
                removeDatabaseFiles(at: aside)
                return AsideIndex(lock: lock, database: nil, location: aside)
            }
        }
    }

    /// Lists `files` as `listing(of:in:matching:reader:aside:)` does, into the index made aside,
    /// then put in place unless another listing's index came first (the listing then says it
    /// is not indexed). Committing, closing, syncing and putting it in place are the listing's
    /// last steps (`BackgroundWork`); if one of them fails, the aside files are removed and the
    /// listing is not indexed.
    /// - Returns: nil if the aside index could not be made or filled (its file could not be
    ///   created, say); the caller then makes the index in place, or lists without it. A failure
    ///   in the last steps (no room for its pages when they are committed, say) leaves this
    ///   listing without an index, and the next one tries again.
    func firstListing(
        of files: [ListedFile], in scope: ListingScope, matching search: DocumentSearch?, reader: DocumentReader,
        into aside: AsideIndex
    ) -> DocumentListing? {
        guard let database = aside.database else { return nil }
        do {
            return try listing(of: files, in: scope, matching: search, reader: reader, database: database, commitsLater: true) {
                [self] isIndexed in putInPlace(database, builtAt: aside.location, isComplete: isIndexed, lock: aside.lock)
            }
        } catch {
            try? database.close()
            removeDatabaseFiles(at: aside.location)
            return nil
        }
    }

    /// Commits and closes the aside index, makes it durable and puts it in place (`install`);
    /// removes it if the listing could not fill it (`isComplete`; only it opens the file, so
    /// only a fault keeps it out), or if it cannot be committed, closed or synced.
    /// - Returns: whether the aside index is now the index.
    private func putInPlace(_ database: DatabaseQueue, builtAt aside: URL, isComplete: Bool, lock: FileLock) -> Bool {
        guard isComplete else {
            removeDatabaseFiles(at: aside)
            return false
        }
        do {
            try database.writeWithoutTransaction { db in
                // Left open by the listing (none if it found no document).
                if db.isInsideTransaction { try db.commit() }
                // Every later connection opens it with the write-ahead log: the header says so
                // already, so that none of them has to write to switch it.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            try database.close()
            try Self.sync(aside)
        } catch {
            removeDatabaseFiles(at: aside)
            return false
        }
        return install(aside, lock: lock)
    }

    /// Renames the aside index into place, holding the lock alone, unless an index is there by
    /// then (it stays: another listing may be using it); otherwise removes the aside files.
    /// - Returns: whether the aside index is now the index.
    func install(_ aside: URL, lock: FileLock) -> Bool {
        SavePoint.indexInstalling.reached()
        var isInstalled = false
        _ = lock.whileExclusive {
            guard FileLocation.status(of: location) == nil else { return }
            // Nobody else is listing now. A log or shared-memory file without its database
            // would be replayed into the new one; other aside files are killed listings'.
            removeDatabaseFiles()
            removeAsideFiles(except: aside)
            isInstalled = (try? FileLocation.renameWithoutReplacing(aside, to: location)) != nil
        }
        if !isInstalled { removeDatabaseFiles(at: aside) }
        return isInstalled
    }

    /// Removes every aside file in the index's folder but `kept`'s.
    private func removeAsideFiles(except kept: URL) {
        let folder = location.deletingLastPathComponent()
        let prefix = location.lastPathComponent + Self.asideInfix
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let keptName = kept.lastPathComponent
        for name in names where name.hasPrefix(prefix) && name != keptName && !name.hasPrefix(keptName + "-") {
            FileLocation.unlink(folder.appendingPathComponent(name))
        }
    }

    /// Makes the file's content durable before it is renamed into place.
    private static func sync(_ file: URL) throws {
        let descriptor = FileLocation.open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.current }
        defer { close(descriptor) }
        guard fdatasync(descriptor) == 0 else { throw SystemError.current }
    }
}

/// A first listing's index, made aside (`DocumentIndex.makingAsideIndex()`).
struct AsideIndex: Sendable {
    /// The shared lock, held until the index is in place.
    var lock: FileLock
    /// The database, with its tables; nil if it could not be made.
    var database: DatabaseQueue?
    /// Its file.
    var location: URL
}
