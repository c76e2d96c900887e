import Foundation
import GalleryTestSupport
import PropertyBased
import Testing
@testable import GalleryKit

/// Undo history as patches (spec §3.7): exact, small, and still able to read 0.1.0's revisions.
@Suite struct RevisionPatchTests {
    let folder = TemporaryFolder()

    @Test func aPatchTurnsOneRandomTreeIntoAnother() async {
        await propertyCheck(count: 300, input: zip(Gen.int(in: 0...Int.max), Gen.int(in: 0...Int.max))) { first, second in
            let newer = ManifestParserTests.randomTree(seed: UInt64(first))
            let older = ManifestParserTests.randomTree(seed: UInt64(second))
            let patch = RevisionPatch.difference(from: newer, to: older)
            #expect((try? RevisionPatch.apply(patch, to: newer)) == older)
            #expect(RevisionPatch.difference(from: newer, to: newer) == .array([]))
        }
    }

    /// Image arrays reordered, shrunk and grown at random, as moves, removals and insertions do.
    @Test func aPatchBetweenImageListsHoldsOnlyWhatMoved() async {
        let input = zip(Gen.int(in: 1...60), Gen.int(in: 0...Int.max))
        await propertyCheck(count: 300, input: input) { count, seed in
            var generator = SplitMix(seed: UInt64(seed))
            let images = (0..<count).map { index -> JSONValue in
                .object(["id": .string("id-\(index)"), "url": .string("https://example.com/\(index).jpg"), "caption": .null])
            }
            var edited = images.shuffled(using: &generator).filter { _ in generator.next() % 5 != 0 }
            edited.insert(
                .object(["id": .string("new"), "url": .string("https://example.com/new.jpg")]),
                at: Int(generator.next() % UInt64(edited.count + 1)))
            if !edited.isEmpty, case .object(var fields) = edited[0] {
                fields["caption"] = .string("changed")
                edited[0] = .object(fields)
            }
            let newer = JSONValue.object(["images": .array(images)])
            let older = JSONValue.object(["images": .array(edited)])
            #expect((try? RevisionPatch.apply(RevisionPatch.difference(from: newer, to: older), to: newer)) == older)
            #expect((try? RevisionPatch.apply(RevisionPatch.difference(from: older, to: newer), to: older)) == newer)
        }
    }

    @Test func movingOneImageOfThousandsStoresOneImage() throws {
        let images = (0..<5000).map { GalleryImage(url: URL(string: "https://example.com/photos/\($0).jpg")!, aspectRatio: 1.5) }
        var document = GalleryDocument(creating: folder.path("Big.gallery"), gallery: Gallery(title: "Big", images: images))
        try document.edit { try $0.move(fromOffsets: [4999], toOffset: 0) }
        guard case .patch(let patch)? = document.undoStack.first else { Issue.record("no patch"); return }
        let bytes = try Manifest.serialize(patch).count
        #expect(bytes < 600, "\(bytes) bytes")
        try document.undo()
        #expect(document.gallery.images == images)
    }

    @Test(arguments: 0..<8)
    func randomEditsUndoAndRedoExactlyThroughSaves(seed: Int) throws {
        var generator = SplitMix(seed: UInt64(seed))
        let url = folder.path("Edits-\(seed).gallery")
        let files = try folder.distinctImages(4, from: Repository.sampleImage(".jpg"))
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Start"))
        try document.insertImages(fromFiles: files, cache: true)
        document.clearHistory()
        try document.save()
        func same(_ a: Gallery, _ b: Gallery) -> Bool {
            var (a, b) = (a, b)
            (a.modified, a.generator, b.modified, b.generator) = (b.modified, b.generator, b.modified, b.generator)
            return a == b
        }
        var states = [try GalleryDocument(contentsOf: url).gallery]
        for step in 0..<12 {
            try GalleryDocument.modify(at: url) { document in
                try document.edit { gallery in
                    let count = gallery.images.count
                    switch generator.next() % 6 {
                    case 0 where count > 1: try gallery.move(fromOffsets: [Int(generator.next() % UInt64(count))], toOffset: 0)
                    case 1 where count > 0: _ = try gallery.remove(atOffsets: [Int(generator.next() % UInt64(count))])
                    case 2 where count > 0: try gallery.setCaption("caption \(step)", at: Int(generator.next() % UInt64(count)))
                    case 3: try gallery.setColumns(Int(generator.next() % 12) + 1)
                    case 4:
                        try gallery.insert(
                            contentsOf: [GalleryImage(url: URL(string: "https://example.com/\(step).png")!, aspectRatio: 2)], at: 0)
                    default: gallery.title = "Title \(step)"
                    }
                }
            }
            // An edit that changes nothing (the same caption again) takes no undo step.
            let state = try GalleryDocument(contentsOf: url).gallery
            if !same(state, states.last!) { states.append(state) }
        }
        let kept = min(states.count - 1, BundleLimits.standard.maximumRevisions)
        for back in 1...kept {
            try GalleryDocument.modify(at: url) { try $0.undo() }
            #expect(same(try GalleryDocument(contentsOf: url).gallery, states[states.count - 1 - back]), "undo \(back)")
        }
        _ = try BundleVerifier.verify(url)
        for forward in 1...kept {
            try GalleryDocument.modify(at: url) { try $0.redo() }
            #expect(same(try GalleryDocument(contentsOf: url).gallery, states[states.count - 1 - kept + forward]), "redo \(forward)")
        }
        #expect(try BundleVerifier.verify(url).cachedImages == (try GalleryDocument(contentsOf: url).gallery.images.count { $0.isCached }))
    }

    /// GalleryKit 0.1.0 stored whole manifests as revisions: they still undo, and verify.
    @Test func revisionsThatAreWholeManifestsStillUndo() throws {
        let url = folder.path("Old.gallery")
        let older = TestManifest.object(title: "Before", images: [TestManifest.image(index: 1)])
        let current = TestManifest.object(title: "After", images: [TestManifest.image(index: 1), TestManifest.image(index: 2)])
        try RawZip.write(
            TestManifest.entries(current, more: [RawZip.Entry("history/undo/01.json", TestManifest.data(older), deflated: true)]), to: url)
        #expect(try BundleVerifier.verify(url).revisions == 1)
        try GalleryDocument.modify(at: url) { try $0.undo() }
        let undone = try GalleryDocument(contentsOf: url).gallery
        #expect(undone.title == "Before")
        #expect(undone.images.count == 1)
        try GalleryDocument.modify(at: url) { try $0.redo() }
        #expect(try GalleryDocument(contentsOf: url).gallery.images.count == 2)
    }

    @Test(arguments: [
        #"[{"op":"move","from":"/title","path":"/x"}]"#, #"[{"op":"remove","path":"/nothing"}]"#,
        #"[{"op":"add","path":"/images/5","value":{}}]"#, #"[{"op":"replace","path":"title","value":"x"}]"#,
        #"[{"op":"add","path":"/images/01","value":{}}]"#, #"{"op":"add"}"#, #"[{"op":"remove","path":""}]"#,
    ])
    func refusesPatchesThatDoNotApply(patch: String) throws {
        let url = folder.path("Broken.gallery")
        try RawZip.write(TestManifest.entries(more: [RawZip.Entry("history/undo/01.json", patch, deflated: true)]), to: url)
        let verify = #expect(throws: GalleryError.self) { try BundleVerifier.verify(url) }
        #expect(verify?.code == .damagedDocument)
        #expect(verify?.reason.hasPrefix("revision history/undo/01.json is damaged") == true, "\(String(describing: verify))")
        let undo = #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.undo() } }
        #expect(undo?.code == .damagedDocument)
    }
}

/// A small seeded generator (SplitMix64), so each seed replays the same edits.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
