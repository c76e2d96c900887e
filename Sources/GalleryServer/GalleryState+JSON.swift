import Foundation
import GalleryKit

/// The state as JSON text, written directly: `JSONEncoder` took seconds for a gallery of
/// 100,000 images (every value through the `Encodable` machinery), this takes a fraction.
extension GalleryState {
    /// The JSON the page reads, through GalleryKit's JSON writer: frames in hundredths of a
    /// pixel, members that are absent left out.
    func json() -> [UInt8] {
        var out: [UInt8] = []
        out.appendJSON(literal: "{")
        out.appendJSONMember("name", first: true)
        out.appendJSON(name)
        out.appendJSONMember("title")
        out.appendJSON(title)
        out.appendJSONMember("columns")
        out.appendJSON(columns)
        out.appendJSONMember("columnRange")
        out.appendJSON(literal: "[")
        out.appendJSON(columnRange[0])
        out.appendJSON(literal: ",")
        out.appendJSON(columnRange[1])
        out.appendJSON(literal: "]")
        out.appendJSONMember("strip")
        out.appendJSON(literal: "{\"cell\":")
        out.appendJSON(strip["cell"] ?? 0, places: 2)
        out.appendJSON(literal: ",\"spacing\":")
        out.appendJSON(strip["spacing"] ?? 0, places: 2)
        out.appendJSON(literal: "}")
        out.appendJSONMember("renditions")
        out.appendJSON(literal: "[")
        for (index, edge) in renditions.enumerated() {
            if index > 0 { out.appendJSON(literal: ",") }
            out.appendJSON(edge)
        }
        out.appendJSON(literal: "]")
        out.appendJSONMember("thumbnailEdge")
        out.appendJSON(thumbnailEdge)
        out.appendJSONMember("canUndo")
        out.appendJSON(canUndo)
        out.appendJSONMember("canRedo")
        out.appendJSON(canRedo)
        out.appendJSONMember("version")
        out.appendJSON(version)
        out.appendJSONMember("count")
        out.appendJSON(count)
        if let arrivalFailure {
            out.appendJSONMember("arrivalFailure")
            out.appendJSON(arrivalFailure)
        }
        out.appendJSONMember("items")
        out.appendJSON(literal: "[")
        for (index, item) in items.enumerated() {
            if index > 0 { out.appendJSON(literal: ",") }
            item.write(to: &out)
        }
        out.appendJSON(literal: "]")
        out.appendJSONMember("layout")
        out.appendJSON(literal: "{\"style\":")
        out.appendJSON(layout.style.rawValue)
        out.appendJSON(literal: ",\"width\":")
        out.appendJSON(layout.width, places: 2)
        out.appendJSON(literal: ",\"height\":")
        out.appendJSON(layout.height, places: 2)
        out.appendJSON(literal: ",\"frames\":[")
        for (index, frame) in layout.frames.enumerated() {
            out.appendJSON(literal: index > 0 ? ",[" : "[")
            for (part, value) in frame.enumerated() {
                if part > 0 { out.appendJSON(literal: ",") }
                out.appendJSON(value, places: 2)
            }
            out.appendJSON(literal: "]")
        }
        out.appendJSON(literal: "]}}")
        return out
    }
}

extension GalleryState.Item {
    fileprivate func write(to out: inout [UInt8]) {
        out.appendJSON(literal: "{")
        out.appendJSONMember("id", first: true)
        out.appendJSON(id)
        out.appendJSONMember("status")
        out.appendJSON(status)
        out.appendJSONMember("url")
        out.appendJSON(url)
        if let caption {
            out.appendJSONMember("caption")
            out.appendJSON(caption)
        }
        if let credit {
            out.appendJSONMember("credit")
            out.appendJSON(credit)
        }
        if let error {
            out.appendJSONMember("error")
            out.appendJSON(error)
        }
        out.appendJSONMember("alt")
        out.appendJSON(alt)
        out.appendJSONMember("isCached")
        out.appendJSON(isCached)
        out.appendJSONMember("isPlaceholder")
        out.appendJSON(isPlaceholder)
        out.appendJSONMember("ratio")
        out.appendJSON(ratio, places: 4)
        if let edge {
            out.appendJSONMember("edge")
            out.appendJSON(edge)
        }
        out.appendJSON(literal: "}")
    }
}
