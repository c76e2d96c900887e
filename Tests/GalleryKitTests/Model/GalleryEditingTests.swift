import Foundation
import PropertyBased
import Testing
@testable import GalleryKit

/// A gallery whose images are named by their URL's last path component, for readable expectations.
func gallery(_ names: String) -> Gallery {
    Gallery(images: names.map { GalleryImage(url: URL(string: "https://example.com/\($0)")!, aspectRatio: 1) })
}

extension Gallery {
    var names: String { images.map { $0.url.lastPathComponent }.joined() }
}

@Suite struct GalleryEditingTests {
    @Test(arguments: [
        // (items, offsets, toOffset, expected) — the cases of SwiftUI's move(fromOffsets:toOffset:)
        ("abcde", [0], 3, "bcade"),
        ("abcde", [4], 0, "eabcd"),
        ("abcde", [1, 3], 0, "bdace"),
        ("abcde", [1, 3], 5, "acebd"),
        ("abcde", [0, 4], 2, "baecd"),
        ("abcde", [2], 2, "abcde"),
        ("abcde", [2], 3, "abcde"),
    ])
    func movesLikeSwiftUI(items: String, offsets: [Int], destination: Int, expected: String) throws {
        var subject = gallery(items)
        try subject.move(fromOffsets: offsets, toOffset: destination)
        #expect(subject.names == expected)
    }

    @Test(arguments: [
        ("abcde", [0], 2, "bcade"),
        ("abcde", [3, 4], 0, "deabc"),
        ("abcde", [0, 1], 3, "cdeab"),
        ("abcde", [1, 3], 1, "abdce"),
    ])
    func movesToAFinalPosition(items: String, offsets: [Int], position: Int, expected: String) throws {
        var subject = gallery(items)
        try subject.move(fromOffsets: offsets, toPosition: position)
        #expect(subject.names == expected)
    }

    @Test func insertsSwapsAndRemoves() throws {
        var subject = gallery("abc")
        try subject.insert(contentsOf: gallery("xy").images, at: 1)
        #expect(subject.names == "axybc")
        try subject.swapAt(0, 4)
        #expect(subject.names == "cxyba")
        let removed = try subject.remove(atOffsets: [3, 1])
        #expect(removed.map { $0.url.lastPathComponent } == ["x", "b"])
        #expect(subject.names == "cya")
    }

    @Test func setsColumnsAndCaptions() throws {
        var subject = gallery("ab")
        try subject.setColumns(5)
        try subject.setCaption("Dawn", at: 1)
        #expect(subject.columns == 5)
        #expect(subject.images[1].caption == "Dawn")
        try subject.setCaption("", at: 1)
        #expect(subject.images[1].caption == nil)
    }

    @Test(arguments: [
        "insert at 4", "move 3", "move to 6", "swap 0 3", "remove -1", "remove twice", "remove none", "columns 0", "columns 13",
        "caption 3",
    ])
    func rejectsBadOffsetsAndLeavesTheGalleryAlone(edit: String) throws {
        var subject = gallery("abc")
        let original = subject
        let error = #expect(throws: GalleryError.self) {
            switch edit {
            case "insert at 4": try subject.insert(contentsOf: gallery("x").images, at: 4)
            case "move 3": try subject.move(fromOffsets: [3], toOffset: 0)
            case "move to 6": try subject.move(fromOffsets: [0], toOffset: 6)
            case "swap 0 3": try subject.swapAt(0, 3)
            case "remove -1": try subject.remove(atOffsets: [-1])
            case "remove twice": try subject.remove(atOffsets: [1, 1])
            case "remove none": try subject.remove(atOffsets: [])
            case "columns 0": try subject.setColumns(0)
            case "columns 13": try subject.setColumns(13)
            default: try subject.setCaption("x", at: 3)
            }
        }
        #expect(error?.code == .invalidArgument)
        #expect(subject == original)
    }

    /// Random moves against a plain-array model of the same semantics.
    @Test func movesMatchAnArrayModel() async {
        let input = zip(
            Gen.int(in: 1...12),
            Gen.int(in: 0...11).array(of: 1...6),
            Gen.int(in: 0...12)
        )
        await propertyCheck(count: 300, input: input) { count, rawOffsets, rawDestination in
            let offsets = Array(Set(rawOffsets.map { $0 % count })).sorted()
            let destination = rawDestination % (count + 1)
            var model = Array(0..<count)
            let moved = offsets.map { model[$0] }
            var rest = model.indices.filter { !offsets.contains($0) }.map { model[$0] }
            rest.insert(contentsOf: moved, at: destination - offsets.filter { $0 < destination }.count)
            model = rest

            var subject = Gallery(images: (0..<count).map { GalleryImage(url: URL(string: "https://example.com/\($0)")!, aspectRatio: 1) })
            try? subject.move(fromOffsets: offsets, toOffset: destination)
            #expect(subject.images.map { Int($0.url.lastPathComponent)! } == model)
        }
    }
}
