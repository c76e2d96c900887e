import Foundation
import Testing
@testable import GalleryKit

/// Edits that name images by id, as `gallery serve`'s pages make them, and the text limit every
/// front end shares.
@Suite struct GalleryEditingByIDTests {
    func id(_ name: Character, in subject: Gallery) -> UUID {
        subject.images.first { $0.url.lastPathComponent == String(name) }!.id
    }

    @Test(
        arguments: [
            // (items, moved, before, expected): the moved images keep their gallery order.
            ("abcde", "db", "a", "bdace"),
            ("abcde", "a", nil, "bcdea"),
            ("abcde", "ce", "b", "acebd"),
            ("abcde", "e", "e", nil),  // before itself
        ] as [(String, String, Character?, String?)])
    func movesImagesBeforeAnother(items: String, moved: String, before: Character?, expected: String?) throws {
        var subject = gallery(items)
        let ids = moved.map { id($0, in: subject) }
        let target = before.map { id($0, in: subject) }
        guard let expected else {
            #expect(throws: GalleryError.self) { try subject.moveImages(withIDs: ids, before: target) }
            #expect(subject.names == items)
            return
        }
        try subject.moveImages(withIDs: ids, before: target)
        #expect(subject.names == expected)
    }

    @Test func anImageGoneOrGivenTwiceChangesNothing() throws {
        var subject = gallery("abc")
        let a = id("a", in: subject)
        let gone = #expect(throws: GalleryError.self) { try subject.removeImages(withIDs: [a, UUID()]) }
        #expect(gone?.code == .documentChanged)
        let twice = #expect(throws: GalleryError.self) { try subject.removeImages(withIDs: [a, a]) }
        #expect(twice?.code == .invalidArgument)
        let target = #expect(throws: GalleryError.self) { try subject.moveImages(withIDs: [a], before: UUID()) }
        #expect(target?.code == .documentChanged)
        #expect(subject.names == "abc")
        try subject.removeImages(withIDs: [id("c", in: subject), a])
        #expect(subject.names == "b")
    }

    @Test func captionsByIDAndTheTextLimit() throws {
        var subject = gallery("ab")
        let b = id("b", in: subject)
        try subject.setCaption("Harbour", ofImageWithID: b)
        #expect(subject.images[1].caption == "Harbour")
        let limit = String(repeating: "é", count: Gallery.maximumTextLength)
        try subject.setCaption(limit, ofImageWithID: b)
        try subject.setTitle(limit)
        let tooLong = #expect(throws: GalleryError.self) { try subject.setTitle(limit + "x") }
        #expect(tooLong?.code == .invalidArgument && tooLong?.reason.contains("10001 characters") == true)
        #expect(throws: GalleryError.self) { try subject.setCaption(limit + "x", at: 0) }
        #expect(subject.title == limit && subject.images[0].caption == nil)
    }
}
