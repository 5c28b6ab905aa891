internal import PDFEngine
import PageModel

/// The geometry of the source pages an export draws as forms (resized pages,
/// sheet cells, stamps and the pages they go on), which the model turns into
/// placements before the bridge is called: read by the bridge's one geometry reader (`pe_document_page_geometry`)
/// from the document direct mode already opened, the session's reader of the
/// source, or (an image's converted page) the converted file, each opened once.
struct PageFrames {
    let access: SourceAccess
    let preopened: [String: OpenedPDF]
    private var converted: [String: OpenedPDF] = [:]
    private var known: [String: [Int: PageFrame]] = [:]

    init(access: SourceAccess, preopened: [String: OpenedPDF]) {
        self.access = access
        self.preopened = preopened
    }

    /// The frame of page `page` (0-based) of `source`, the session's source `id`
    /// (nil for a converted image).
    mutating func frame(of source: ExportSource, id: SourceID?, page: Int) throws(PDFEditError) -> PageFrame {
        if let frame = known[source.path]?[page] { return frame }
        let document: OpenedPDF
        if let opened = source.document ?? preopened[source.path] {
            document = opened
        } else if let id {
            document = try access.document(id)
        } else if let opened = converted[source.path] {
            document = opened
        } else {
            do throws(EngineError) { document = try OpenedPDF(path: source.path, for: .reading) } catch {
                throw .engine(error)
            }
            converted[source.path] = document
        }
        let attributes: PageAttributes
        do throws(EngineError) { attributes = try document.attributes(ofPage: page) } catch { throw .engine(error) }
        let frame = PageFrame(
            mediaBox: attributes.mediaBox, visibleBox: attributes.cropBox, quarterTurns: attributes.rotation / 90,
            userUnit: attributes.userUnit)
        known[source.path, default: [:]][page] = frame
        return frame
    }
}
