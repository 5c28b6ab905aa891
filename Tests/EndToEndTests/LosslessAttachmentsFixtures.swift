import Foundation

/// PDFs with embedded and associated files, output intents and PDF/A and PDF/UA
/// claims, written as text and given a cross-reference table by `qpdf`.
enum AttachmentFixtures {
    /// The bytes of every embedded file of the fixtures, by the file name it has in its source.
    static let contents: [String: String] = [
        "a.txt": "attachment a of source A\n",
        "shared.txt@a": "shared.txt as in source A\n",
        "page2.txt": "associated with page A2\n",
        "shared.txt@b": "shared.txt as in source B, different\n",
        "annot.txt": "attached to an annotation of B1\n",
        "data.csv": "x,y\n1,2\n",
        "one.txt": "portfolio one\n",
        "two.txt": "portfolio two\n",
    ]

    /// Writes `name` (one of "a.pdf", "b.pdf", "claims.pdf", "plain.pdf", "cmyk.pdf",
    /// "folio1.pdf", "folio2.pdf") into `directory` and returns its path.
    ///
    /// - a.pdf: 2 pages (text "Page A1", "Page A2"); /EmbeddedFiles a.txt and
    ///   shared.txt; catalog /AF [a.txt]; page 2 /AF [page2.txt]; /OutputIntents
    ///   (one, sRGB); XMP claiming PDF/A-2B with a creator, a creator tool and a
    ///   create date; document information (title, producer, modification date).
    /// - b.pdf: 1 page ("Page B1"); /EmbeddedFiles shared.txt (other bytes); a
    ///   file attachment annotation holding annot.txt; no XMP.
    /// - claims.pdf: 2 pages; /EmbeddedFiles data.csv; document JavaScript (which
    ///   an export drops); XMP claiming PDF/A-2B and PDF/UA-1; /OutputIntents.
    /// - plain.pdf: 2 pages, XMP claiming PDF/A-2B and document information, nothing else.
    /// - cmyk.pdf: 1 page ("Print 1"), XMP claiming PDF/A-2B, an output intent
    ///   with another profile (FOGRA39) than a.pdf's.
    /// - folio1.pdf, folio2.pdf: 1 page each, a portfolio (/Collection) of one file.
    @discardableResult
    static func write(_ name: String, in directory: URL) throws -> String {
        let raw = directory.appendingPathComponent("raw-\(name)")
        let path = directory.appendingPathComponent(name).path
        try pdf(objects(name), info: name == "a.pdf" || name == "plain.pdf").write(to: raw)
        let rebuilt = try run("qpdf", [raw.path, path])
        guard rebuilt.status == 0 || rebuilt.status == 3 else {
            throw SetupStepFailed(command: "qpdf \(raw.path) \(path): \(rebuilt.stderr)", status: rebuilt.status)
        }
        try FileManager.default.removeItem(at: raw)
        return path
    }

    static func objects(_ name: String) -> [String] {
        switch name {
        case "a.pdf":
            // 1 catalog, 2 pages, 3/4 page 1, 5/6 page 2, 7/8 a.txt, 9/10 shared.txt,
            // 11/12 page2.txt, 13 XMP, 14 ICC profile
            return [
                "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(a.txt) 7 0 R (shared.txt) 9 0 R] >> >> "
                    + "/AF [7 0 R] /Metadata 13 0 R /OutputIntents [\(intent(14))] >>",
                "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
                page(contents: 4), text("Page A1"),
                page(contents: 6, extra: "/AF [11 0 R]"), text("Page A2"),
                fileSpec("a.txt", file: 8, extra: "/AFRelationship /Source"), embedded(contents["a.txt"]!),
                fileSpec("shared.txt", file: 10), embedded(contents["shared.txt@a"]!),
                fileSpec("page2.txt", file: 12, extra: "/AFRelationship /Data"), embedded(contents["page2.txt"]!),
                stream("/Type /Metadata /Subtype /XML", xmp(claims: "<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>")),
                stream("/N 3", "not really an ICC profile"),
            ]
        case "b.pdf":
            // 1 catalog, 2 pages, 3/4 page, 5/6 shared.txt, 7/8 annot.txt
            return [
                "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(shared.txt) 5 0 R] >> >> >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page(
                    contents: 4,
                    extra: "/Annots [<< /Type /Annot /Subtype /FileAttachment /Rect [10 10 30 30] /Contents (note) /FS 7 0 R >>]"),
                text("Page B1"),
                fileSpec("shared.txt", file: 6), embedded(contents["shared.txt@b"]!),
                fileSpec("annot.txt", file: 8), embedded(contents["annot.txt"]!),
            ]
        case "claims.pdf":
            // 1 catalog, 2 pages, 3/4 and 5/6 pages, 7/8 data.csv, 9 XMP, 10 ICC, 11 script
            return [
                "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(data.csv) 7 0 R] >> "
                    + "/JavaScript << /Names [(hello) << /S /JavaScript /JS 11 0 R >>] >> >> "
                    + "/Metadata 9 0 R /OutputIntents [\(intent(10))] >>",
                "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
                page(contents: 4), text("Page C1"),
                page(contents: 6), text("Page C2"),
                fileSpec("data.csv", file: 8), embedded(contents["data.csv"]!),
                stream(
                    "/Type /Metadata /Subtype /XML",
                    xmp(claims: "<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance><pdfuaid:part>1</pdfuaid:part>")),
                stream("/N 3", "not really an ICC profile"),
                stream("", "app.alert('hello');"),
            ]
        case "plain.pdf":
            // 1 catalog, 2 pages, 3/4 and 5/6 pages, 7 XMP: nothing but XMP, so an
            // export rearranges it in place (InPlace.cpp) rather than copying it.
            return [
                "<< /Type /Catalog /Pages 2 0 R /Metadata 7 0 R >>",
                "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
                page(contents: 4), text("Plain 1"),
                page(contents: 6), text("Plain 2"),
                stream("/Type /Metadata /Subtype /XML", xmp(claims: "<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>")),
            ]
        case "cmyk.pdf":
            // 1 catalog, 2 pages, 3/4 page, 5 XMP, 6 ICC: a PDF/A-2B file whose output
            // intent is another profile than a.pdf's.
            return [
                "<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R /OutputIntents [\(intent(6, condition: "FOGRA39"))] >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page(contents: 4), text("Print 1"),
                stream("/Type /Metadata /Subtype /XML", xmp(claims: "<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>")),
                stream("/N 4", "not really a CMYK profile"),
            ]
        default:
            // folio1.pdf / folio2.pdf: 1 catalog, 2 pages, 3/4 page, 5/6 the file
            let one = name == "folio1.pdf"
            let file = one ? "one.txt" : "two.txt"
            return [
                "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(\(file)) 5 0 R] >> >> "
                    + "/Collection << /Type /Collection /View /\(one ? "D" : "T") >> /PageMode /UseAttachments >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page(contents: 4), text(one ? "Folio one" : "Folio two"),
                fileSpec(file, file: 6), embedded(contents[file]!),
            ]
        }
    }

    /// With `info`: one more object, the document information, named in the trailer.
    static func pdf(_ objects: [String], info: Bool) -> Data {
        let all = objects + (info ? ["<< /Title (Fixture A) /Producer (Old Producer) /ModDate (D:20200101000000Z) >>"] : [])
        var out = Data("%PDF-1.7\n".utf8)
        for (index, object) in all.enumerated() {
            out.append(Data("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8))
        }
        let infoEntry = info ? " /Info \(all.count) 0 R" : ""
        out.append(Data("trailer\n<< /Root 1 0 R /Size \(all.count + 1)\(infoEntry) >>\n%%EOF\n".utf8))
        return out
    }

    static func stream(_ dictionary: String, _ data: String) -> String {
        "<< \(dictionary) /Length \(data.utf8.count) >>\nstream\n\(data)\nendstream"
    }

    static func page(contents: Int, extra: String = "") -> String {
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents \(contents) 0 R "
            + "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> \(extra) >>"
    }

    static func text(_ words: String) -> String { stream("", "BT /F1 24 Tf 20 100 Td (\(words)) Tj ET") }

    static func fileSpec(_ name: String, file: Int, extra: String = "") -> String {
        "<< /Type /Filespec /F (\(name)) /UF (\(name)) /EF << /F \(file) 0 R >> \(extra) >>"
    }

    static func embedded(_ data: String) -> String { stream("/Type /EmbeddedFile", data) }

    static func intent(_ profile: Int, condition: String = "sRGB") -> String {
        "<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (\(condition)) /DestOutputProfile \(profile) 0 R >>"
    }

    static func xmp(claims: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">\(claims)</rdf:Description>
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmp:CreatorTool="Fixture Maker" xmp:ModifyDate="2020-01-01T00:00:00Z"><pdf:Producer>Old Producer</pdf:Producer><xmp:CreateDate>2020-01-01T00:00:00Z</xmp:CreateDate></rdf:Description>
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Jane Fixture</rdf:li></rdf:Seq></dc:creator></rdf:Description>
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }
}
