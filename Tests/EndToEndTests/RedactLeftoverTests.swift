import Foundation
import Testing

/// What a redaction by text leaves outside the pages' glyphs (issue 45's
/// known gaps): annotations' other strings and the text their appearances
/// draw, marked-content and structure replacement texts, the document
/// information, XMP and bookmarks. Checked in qpdf's QDF dump (every stream
/// decoded), pdfinfo and pixels.
@Suite(.serialized) struct RedactLeftoverTests {
    /// Object 11: a FreeText whose appearance draws "Secret plan" (and whose
    /// /Contents says so); 13: a Square whose author, subject and rich text
    /// hold it; 14: a launch action naming a secret file; 15: a FreeText
    /// whose appearance alone draws it (no /Contents); 17: an ordinary Square.
    static let annotations: [Int: RedactPDF.Object] = [
        11: .dictionary(
            "<< /Type /Annot /Subtype /FreeText /Rect [150 20 290 60] /Contents (Secret plan) /DA (/F1 12 Tf 0 g) /AP << /N 12 0 R >> >>"
        ),
        12: .stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 140 40] /Resources << /Font << /F1 10 0 R >> >>",
            Array("0 g 0 0 140 40 re f 1 g BT /F1 12 Tf 5 15 Td [(Sec) -10 (ret plan)] TJ ET".utf8)),
        13: .dictionary(
            "<< /Type /Annot /Subtype /Square /Rect [10 150 60 190] /T (Secret author) /Subj (about the secret) /C [1 0 0] >>"
        ),
        14: .dictionary(
            "<< /Type /Annot /Subtype /Link /Rect [70 150 120 190] /A << /S /Launch /F (secret.exe) /Win << /F (cmd.exe) /P (/c secret) >> >> >>"
        ),
        15: .dictionary("<< /Type /Annot /Subtype /FreeText /Rect [150 150 290 190] /DA (/F1 12 Tf 0 g) /AP << /N 16 0 R >> >>"),
        16: .stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 140 40] /Resources << /Font << /F1 10 0 R >> >>",
            Array("0 g 0 0 140 40 re f BT /F1 12 Tf 5 15 Td (the SECRET) Tj ET".utf8)),
        17: .dictionary(
            "<< /Type /Annot /Subtype /Square /Rect [10 20 60 60] /C [0 0 1] /RC (<body><p>a rich secret</p></body>) /Popup 18 0 R >>"
        ),
        18: .dictionary("<< /Type /Annot /Subtype /Popup /Rect [10 60 60 100] /Parent 17 0 R >>"),
        19: .dictionary("<< /Type /Annot /Subtype /Square /Rect [70 20 120 60] /C [0 1 0] /T (Reviewer) /Contents (fine) >>"),
    ]

    @Test func annotationStringsAndDrawnTextAreReportedAndScrubbed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET",
                    extra: "/Annots [11 0 R 13 0 R 14 0 R 15 0 R 17 0 R 18 0 R 19 0 R]")
            ],
            objects: Self.annotations)
        // The two FreeTexts draw dark boxes (x 150…290, y 20…60 and 150…190).
        let before = try RedactPDF.grey(path("in.pdf"))
        #expect(before.pixels[(200 - 40) * 300 + 220] < 50 && before.pixels[(200 - 170) * 300 + 220] < 50)

        let warned = try pdfeditOK("redact", "1", "--text", "secret", path("in.pdf"), "-o", path("warned.pdf"))
        for piece in [
            "the FreeText annotation on page 1 (its text)", "the FreeText annotation on page 1 (what its appearance draws)",
            "the Square annotation on page 1 (its rich text)", "an annotation's author on page 1",
            "an annotation's subject on page 1", "a launch action's file on page 1", "a launch action's command on page 1",
        ] {
            #expect(warned.stderr.contains(piece + " still holds"), "\(piece): \(warned.stderr)")
        }

        let scrubbed = try pdfeditOK("redact", "1", "--text", "secret", "--scrub", path("in.pdf"), "-o", path("out.pdf"))
        for piece in [
            "removed the FreeText annotation on page 1 (its text)",
            "removed the FreeText annotation on page 1 (what its appearance draws)",
            "removed the Square annotation on page 1 (its rich text)", "removed an annotation's author on page 1",
            "removed an annotation's subject on page 1", "removed a launch action's file on page 1",
        ] {
            #expect(scrubbed.stderr.contains(piece), "\(piece): \(scrubbed.stderr)")
        }
        let out = path("out.pdf")
        #expect(try qpdfCheck(out).status == 0)
        let decoded = try RedactPDF.decodedFile(out)
        #expect(!decoded.lowercased().contains("secret"), "a copy is left")
        // What stays: the red Square without its author and subject, the link
        // without its action, the green Square whose strings hold nothing.
        let annotations = try run("qpdf", ["--json", "--json-key=qpdf", out]).stdout
        #expect(!annotations.contains("/FreeText") && !annotations.contains("/Popup"))
        #expect(annotations.contains("/Link") && !annotations.contains("/Launch"))
        #expect(annotations.contains("Reviewer") && annotations.components(separatedBy: "\"/Square\"").count - 1 == 2)
        // The FreeTexts' boxes are no longer drawn.
        let after = try RedactPDF.grey(out)
        #expect(after.pixels[(200 - 40) * 300 + 220] == 255 && after.pixels[(200 - 170) * 300 + 220] == 255)
        #expect(try pageText(out, 1).contains("Alpha"))
    }

    /// Review: a Text note removed from /Annots was still written (a reply's
    /// /IRT pointed at it), and a form field's value, tooltip and appearance
    /// kept the text. Now the note's object is gone wherever it was pointed at,
    /// and the widget drawing the text goes with its field's /V and /TU.
    @Test func aRemovedNoteLeavesNoObjectAndFieldsAreScrubbed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: "BT /F1 12 Tf 20 100 Td (Hello Jane Doe here) Tj ET",
                    extra: "/Annots [11 0 R 12 0 R 13 0 R]")
            ],
            objects: [
                11: .dictionary("<< /Type /Annot /Subtype /Text /Rect [200 20 220 40] /Contents (Note about Jane Doe) >>"),
                12: .dictionary("<< /Type /Annot /Subtype /Text /Rect [240 20 260 40] /Contents (I agree) /IRT 11 0 R >>"),
                13: .dictionary(
                    "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /TU (Jane Doe tooltip) /V (Jane Doe) /Rect [20 150 200 180] /AP << /N 14 0 R >> >>"
                ),
                14: .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 180 30] /Resources << /Font << /F1 10 0 R >> >>",
                    Array("/Tx BMC BT /F1 12 Tf 2 10 Td (Jane Doe) Tj ET EMC".utf8)),
            ],
            catalog: "/AcroForm << /Fields [13 0 R] >>")
        let before = try RedactPDF.decodedFile(path("in.pdf"))
        #expect(before.components(separatedBy: "Jane Doe").count - 1 == 5)
        let scrubbed = try pdfeditOK(
            "redact", "1", "--text", "Jane Doe", "--scrub", path("in.pdf"), "-o", path("out.pdf"))
        #expect(scrubbed.stderr.contains("removed the Text annotation on page 1"), "\(scrubbed.stderr)")
        #expect(scrubbed.stderr.contains("removed the form field widget on page 1"), "\(scrubbed.stderr)")
        let out = path("out.pdf")
        #expect(try qpdfCheck(out).status == 0)
        #expect(!(try RedactPDF.decodedFile(out)).contains("Jane Doe"), "a copy is left")
        #expect(!(try run("pdftotext", [out, "-"]).stdout.contains("Jane")))
        // The reply stays, and the page's other words.
        #expect(try RedactPDF.decodedFile(out).contains("I agree"))
        #expect(try pageText(out, 1).contains("Hello"))
    }

    /// The document information, the XMP packet and bookmarks holding the
    /// text: reported, and with --scrub the information key and the packet
    /// go, a bookmark's title loses the text (the bookmark and its children stay).
    @Test func informationXMPAndBookmarksAreScrubbed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(path("in.pdf"), pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET")])
        try pdfeditOK("open", path("in.pdf"), in: directory)
        try pdfeditOK("meta", "--title", "The Secret report", "--keywords", "alpha, secret", "--author", "Ann Lee", in: directory)
        try pdfeditOK("outline", "add", "Secret chapter", "1", in: directory)
        try pdfeditOK("outline", "add", "Details", "1", "--parent", "Secret chapter", in: directory)
        try pdfeditOK("redact", "1", "--text", "secret", in: directory)

        let warned = try pdfeditOK("export", "warned.pdf", in: directory)
        for piece in [
            "the document's Title still holds", "the document's Keywords still holds", "the XMP metadata still holds",
            "the bookmark \"Secret chapter\" still holds",
        ] {
            #expect(warned.stderr.contains(piece), "\(piece): \(warned.stderr)")
        }
        #expect(try run("pdfinfo", [path("warned.pdf")]).stdout.contains("The Secret report"))

        let scrubbed = try pdfeditOK("export", "out.pdf", "--scrub", in: directory)
        for piece in ["removed the document's Title", "removed the document's Keywords", "removed the XMP metadata", "removed the bookmark"] {
            #expect(scrubbed.stderr.contains(piece), "\(piece): \(scrubbed.stderr)")
        }
        let out = path("out.pdf")
        #expect(try qpdfCheck(out).status == 0)
        let info = try run("pdfinfo", [out]).stdout
        #expect(!info.contains("Title:") && !info.contains("Keywords:") && info.contains("Ann Lee"), "\(info)")
        #expect(!(try RedactPDF.decodedFile(out)).lowercased().contains("secret"), "a copy is left")
        let outline = try run("qpdf", ["--json", "--json-key=outlines", out]).stdout
        #expect(outline.contains("\"title\": \" chapter\"") && outline.contains("\"title\": \"Details\""), "\(outline)")
        #expect(try pageText(out, 1).contains("Alpha"))
    }

    /// Marked-content spans (inline and named property lists) and structure
    /// elements whose replacement texts read the removed glyphs out: a span
    /// that loses glyphs loses its /ActualText, /Alt and /E; a structure
    /// element's that hold the text go. Others stay.
    @Test func replacementTextsOfRemovedGlyphsGo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let content = """
            BT /F1 12 Tf 20 100 Td (Alpha ) Tj /Span <</ActualText (Secret) /Lang (en)>> BDC (Secret) Tj EMC ( Omega) Tj ET
            BT /F1 12 Tf 20 60 Td /Span /MC1 BDC (Secret) Tj EMC ( two) Tj ET
            /Figure <</MCID 0>> BDC 0 g 200 20 40 40 re f EMC
            /P <</MCID 1>> BDC BT /F1 12 Tf 20 150 Td /Span <</ActualText (Kept words)>> BDC (Kept words) Tj EMC ET EMC
            """
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: content, resources: "/Font << /F1 10 0 R >> /Properties << /MC1 11 0 R >>",
                    extra: "/StructParents 0")
            ],
            objects: [
                11: .dictionary("<< /Alt (Secret alt) /E (Secret) /Lang (en) >>"),
                20: .dictionary("<< /Type /StructTreeRoot /K [21 0 R 23 0 R] /ParentTree 22 0 R >>"),
                21: .dictionary("<< /Type /StructElem /S /Figure /P 20 0 R /Pg 3 0 R /K 0 /Alt (A secret drawing) >>"),
                22: .dictionary("<< /Nums [0 [21 0 R 23 0 R]] >>"),
                23: .dictionary("<< /Type /StructElem /S /P /P 20 0 R /Pg 3 0 R /K 1 /ActualText (Kept words) >>"),
            ],
            catalog: "/MarkInfo << /Marked true >> /StructTreeRoot 20 0 R")
        let result = try pdfeditOK("redact", "1", "--text", "secret", path("in.pdf"), "-o", path("out.pdf"))
        #expect(result.stderr.contains("removed the alternate text of a structure element (/Figure)"), "\(result.stderr)")
        let out = path("out.pdf")
        #expect(try qpdfCheck(out).status == 0)
        let decoded = try RedactPDF.decodedFile(out)
        #expect(!decoded.lowercased().contains("secret"), "a copy is left")
        // What did not lose glyphs keeps its texts; the spans keep their other keys.
        #expect(decoded.contains("/ActualText (Kept words)") && decoded.components(separatedBy: "Kept words").count - 1 >= 3)
        #expect(decoded.contains("/Lang (en)") && decoded.contains("/Figure"))
        let text = try pageText(out, 1)
        #expect(text.contains("Alpha") && text.contains("Omega") && text.contains("two") && text.contains("Kept words"), "\(text)")

        // A region over a span's glyphs takes its replacement text too.
        let rect = try pdfeditOK("redact", "1", "--rect", "15,145,150,20", path("in.pdf"), "-o", path("rect.pdf"))
        #expect(rect.status == 0)
        let rectDecoded = try RedactPDF.decodedFile(path("rect.pdf"))
        // The structure element owning the span (MCID 1, through the page's
        // /StructParents) loses its replacement text as well; the /Figure's
        // (MCID 0, outside the region) and the untouched spans' stay.
        func count(_ text: String, _ in: String) -> Int { `in`.components(separatedBy: text).count - 1 }
        #expect(count("/ActualText (Kept words)", decoded) == 2 && count("Kept words)", rectDecoded) == 0)
        #expect(rectDecoded.contains("/ActualText (Secret)") && rectDecoded.contains("/Alt (A secret drawing)"))
        #expect(rectDecoded.contains("/StructTreeRoot") && rectDecoded.contains("/S /P"))
        #expect(try qpdfCheck(path("rect.pdf")).status == 0)
    }

    /// Review: a span's replacement text stayed when what the region removed
    /// was a path (text drawn as outlines) or an inline image, not glyphs.
    @Test func replacementTextsOfRemovedPathsAndImagesGo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: """
                        /Span <</ActualText (Outlined name)>> BDC 0 g 50 100 80 20 re f EMC
                        /Figure <</Alt (Pictured name)>> BDC q 20 0 0 20 50 40 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \u{0} EI Q EMC
                        /Span <</ActualText (Far away)>> BDC 0 g 200 150 20 20 re f EMC
                        """)
            ])
        let before = try RedactPDF.decodedFile(path("in.pdf"))
        #expect(before.contains("(Outlined name)") && before.contains("(Pictured name)"))
        try pdfeditOK("redact", "1", "--rect", "40,30,120,100", path("in.pdf"), "-o", path("out.pdf"))
        let decoded = try RedactPDF.decodedFile(path("out.pdf"))
        #expect(!decoded.contains("Outlined name") && !decoded.contains("Pictured name"), "a replacement text is left")
        #expect(decoded.contains("/ActualText (Far away)"), "a span outside the region lost its text")
        #expect(try qpdfCheck(path("out.pdf")).status == 0)
    }

    /// A region matched to the structure tree: the element owning a span that
    /// lost glyphs (a named property list's /MCID here) and the elements above
    /// it lose their replacement texts; an element whose content was not cut
    /// keeps its own.
    @Test func aRegionTakesTheReplacementTextsOfTheElementsAboveItsSpans() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: """
                        /Span /MC0 BDC BT /F1 12 Tf 20 100 Td (Hidden name) Tj ET EMC
                        /P <</MCID 1>> BDC BT /F1 12 Tf 20 40 Td (Far words) Tj ET EMC
                        """,
                    resources: "/Font << /F1 10 0 R >> /Properties << /MC0 << /MCID 0 >> >>",
                    extra: "/StructParents 0")
            ],
            objects: [
                20: .dictionary("<< /Type /StructTreeRoot /K [21 0 R 23 0 R] /ParentTree 22 0 R >>"),
                21: .dictionary("<< /Type /StructElem /S /Figure /P 20 0 R /Pg 3 0 R /K [24 0 R] /Alt (Portrait of the name) >>"),
                24: .dictionary("<< /Type /StructElem /S /Span /P 21 0 R /Pg 3 0 R /K 0 /ActualText (Hidden name) /E (HN) >>"),
                22: .dictionary("<< /Nums [0 [24 0 R 23 0 R]] >>"),
                23: .dictionary("<< /Type /StructElem /S /P /P 20 0 R /Pg 3 0 R /K 1 /ActualText (Far words) >>"),
            ],
            catalog: "/MarkInfo << /Marked true >> /StructTreeRoot 20 0 R")
        let before = try RedactPDF.decodedFile(path("in.pdf"))
        #expect(before.contains("(Portrait of the name)") && before.contains("/E (HN)"))
        try pdfeditOK("redact", "1", "--rect", "15,95,120,20", path("in.pdf"), "-o", path("out.pdf"))
        let decoded = try RedactPDF.decodedFile(path("out.pdf"))
        #expect(!decoded.contains("Hidden name") && !decoded.contains("Portrait of") && !decoded.contains("(HN)"), "\(decoded)")
        #expect(decoded.contains("/ActualText (Far words)") && decoded.contains("/S /Figure") && decoded.contains("/S /Span"))
        #expect(try pageText(path("out.pdf"), 1).contains("Far words"))
        #expect(try qpdfCheck(path("out.pdf")).status == 0)
    }


    /// Appearance text in a CID font (two-byte codes, Identity-H) is read
    /// through the font's /ToUnicode map (bfrange and bfchar entries): a
    /// FreeText drawing the redacted words that way is reported, and scrubbed.
    @Test func appearanceTextInACIDFontIsReadThroughItsToUnicodeMap() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // Codes 0x0100 + the character: A–Z and a–z by two ranges, the space by one code.
        let codes = "Secret plan".unicodeScalars.map { String(format: "%04X", 0x100 + Int($0.value)) }.joined()
        let map = """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CMapName /Adobe-Identity-UCS def /CMapType 2 def
            1 begincodespacerange <0000> <FFFF> endcodespacerange
            2 beginbfrange <0141> <015A> <0041> <0161> <017A> [<0061> <0062> <0063> <0064> <0065> <0066> <0067> <0068> <0069> <006A> <006B> <006C> <006D> <006E> <006F> <0070> <0071> <0072> <0073> <0074> <0075> <0076> <0077> <0078> <0079> <007A>] endbfrange
            1 beginbfchar <0120> <0020> endbfchar
            endcmap CMapName currentdict /CMap defineresource pop end end
            """
        try Self.writeFreeText(
            path("in.pdf"), font: "/Subtype /Type0 /BaseFont /ArialMT /Encoding /Identity-H /DescendantFonts [33 0 R]",
            shown: "<\(codes)>", map: map)
        // poppler reads the appearance's words (what a reader extracts).
        #expect(try run("pdftotext", [path("in.pdf"), "-"]).stdout.contains("Secret plan"))
        let warned = try pdfeditOK("redact", "1", "--text", "secret", path("in.pdf"), "-o", path("warned.pdf"))
        #expect(warned.stderr.contains("the FreeText annotation on page 1 (what its appearance draws) still holds"), "\(warned.stderr)")
        let scrubbed = try pdfeditOK("redact", "1", "--text", "secret", "--scrub", path("in.pdf"), "-o", path("out.pdf"))
        #expect(scrubbed.stderr.contains("removed the FreeText annotation on page 1 (what its appearance draws)"), "\(scrubbed.stderr)")
        #expect(try qpdfCheck(path("out.pdf")).status == 0)
        let text = try run("pdftotext", [path("out.pdf"), "-"]).stdout
        #expect(!text.lowercased().contains("secret") && !text.contains("plan") && text.contains("Alpha"), "\(text)")
    }

    /// Review: a split's leftover lines named the folder, once per part, so
    /// that two parts' lines read the same. Each now names its part's file.
    @Test func aSplitsLeftoversNameTheirPart() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("two.pdf"),
            pages: [
                .init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret) Tj ET", extra: "/Annots [30 0 R]"),
                .init(content: "BT /F1 12 Tf 20 100 Td (Beta Secret) Tj ET", extra: "/Annots [31 0 R]"),
            ],
            objects: [
                30: .dictionary("<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (http://secret.example/1) >> >>"),
                31: .dictionary("<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (http://secret.example/2) >> >>"),
            ])
        try pdfeditOK("open", "two.pdf", in: directory)
        try pdfeditOK("redact", "all", "--text", "Secret", in: directory)
        let split = try pdfeditOK("export", "--split", "--every", "1", "parts/", in: directory)
        for part in ["parts/two-1.pdf", "parts/two-2.pdf"] {
            #expect(
                split.stderr.contains("pdfedit: warning: \(part): a link's address on page 1 still holds \"Secret\""),
                "\(split.stderr)")
        }
        #expect(!split.stderr.contains("parts/: a link"), "\(split.stderr)")
        let scrubbed = try pdfeditOK("export", "--split", "--every", "1", "--scrub", "clean/", in: directory)
        #expect(scrubbed.stderr.contains("pdfedit: warning: clean/two-2.pdf: removed a link's address on page 1"), "\(scrubbed.stderr)")
        #expect(try !RedactPDF.decodedFile(path("clean/two-2.pdf")).lowercased().contains("secret"))
    }


    /// Review: an annotation a region removed was still in the file through a
    /// structure element's /OBJR, and the unredacted original of a form the
    /// page drew through a marked-content reference's /Stm. The annotation's
    /// object is now null, the reference points at the page's redacted copy,
    /// and both elements lose their replacement texts.
    @Test func nothingRedactedStaysReachableThroughTheStructureTree() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try RedactPDF.write(
            path("in.pdf"),
            pages: [
                .init(
                    content: "/Span <</MCID 0>> BDC BT /F1 12 Tf 20 150 Td (Public words) Tj ET EMC q /Fm1 Do Q",
                    resources: "/Font << /F1 10 0 R >> /XObject << /Fm1 30 0 R >>",
                    extra: "/StructParents 0 /Annots [31 0 R]")
            ],
            objects: [
                30: .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 300 200] /Resources << /Font << /F1 10 0 R >> >> /StructParents 1",
                    Array("/P <</MCID 0>> BDC BT /F1 12 Tf 20 100 Td (Secret words) Tj ET EMC".utf8)),
                31: .dictionary("<< /Type /Annot /Subtype /Text /Rect [30 95 50 115] /Contents (Secret note) /StructParent 2 >>"),
                20: .dictionary("<< /Type /StructTreeRoot /K [21 0 R] /ParentTree 22 0 R /ParentTreeNextKey 3 >>"),
                21: .dictionary("<< /Type /StructElem /S /Document /P 20 0 R /K [23 0 R 24 0 R 25 0 R] >>"),
                22: .dictionary("<< /Nums [0 [23 0 R] 1 [24 0 R] 2 25 0 R] >>"),
                23: .dictionary("<< /Type /StructElem /S /Span /P 21 0 R /Pg 3 0 R /K 0 /ActualText (Public words) >>"),
                24: .dictionary(
                    "<< /Type /StructElem /S /P /P 21 0 R /Pg 3 0 R /K << /Type /MCR /MCID 0 /Stm 30 0 R /Pg 3 0 R >> /ActualText (Secret form words) >>"),
                25: .dictionary(
                    "<< /Type /StructElem /S /Annot /P 21 0 R /Pg 3 0 R /K << /Type /OBJR /Obj 31 0 R /Pg 3 0 R >> /Alt (Secret note alt) >>"),
            ],
            catalog: "/MarkInfo << /Marked true >> /StructTreeRoot 20 0 R")
        #expect(try RedactPDF.decodedFile(path("in.pdf")).contains("(Secret words) Tj"))
        try pdfeditOK("redact", "1", "--rect", "15,90,150,30", path("in.pdf"), "-o", path("out.pdf"))
        let decoded = try RedactPDF.decodedFile(path("out.pdf"))
        #expect(!decoded.contains("Secret"), "\(decoded)")
        #expect(decoded.contains("/ActualText (Public words)") && decoded.contains("/Stm") && decoded.contains("/S /Annot"))
        #expect(try pageText(path("out.pdf"), 1).contains("Public words"))
        #expect(try qpdfCheck(path("out.pdf")).status == 0)
    }

    /// Review: three maps the first /ToUnicode reader misread, where poppler
    /// reads "Secret plan" — a single code inside a range of the same map; a
    /// simple font whose map lacks most of its codes (those read as
    /// PDFDocEncoding, as without a map); a simple font whose map declares a
    /// two-byte code space (a simple font's codes are one byte).
    @Test func appearanceMapsWithOverlapsGapsAndWideCodeSpacesAreReadAsPopplerReadsThem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let wide = "Secret plan".unicodeScalars.map { String(format: "%04X", 0x100 + Int($0.value)) }.joined()
        let cases: [(name: String, font: String, shown: String, map: String)] = [
            ("overlap", "/Subtype /Type0 /BaseFont /ArialMT /Encoding /Identity-H /DescendantFonts [33 0 R]", "<\(wide)>",
             "1 begincodespacerange <0000> <FFFF> endcodespacerange 3 beginbfrange <0141> <015A> <0041> <0161> <017A> <0061> <0120> <0120> <0020> endbfrange 1 beginbfchar <0153> <0053> endbfchar"),
            ("partial", "/Subtype /Type1 /BaseFont /Helvetica", "(Secret plan)",
             "1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <53> <0053> endbfchar"),
            ("wide", "/Subtype /Type1 /BaseFont /Helvetica", "(Secret plan)",
             "1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <20> <7E> <0020> endbfrange"),
        ]
        for (name, font, shown, map) in cases {
            try Self.writeFreeText(path("\(name).pdf"), font: font, shown: shown, map: "begincmap \(map) endcmap")
            #expect(try run("pdftotext", [path("\(name).pdf"), "-"]).stdout.contains("Secret plan"), "\(name)")
            let warned = try pdfeditOK("redact", "1", "--text", "secret", path("\(name).pdf"), "-o", path("\(name)-out.pdf"))
            #expect(
                warned.stderr.contains("the FreeText annotation on page 1 (what its appearance draws) still holds"),
                "\(name): \(warned.stderr)")
        }
    }


    /// One page drawing "Alpha Secret Omega" with a FreeText whose appearance
    /// shows `shown` in font 32 (`font`: its entries after /Type; 33 is a
    /// CIDFontType2 a Type0 can name) with `map` as its /ToUnicode.
    static func writeFreeText(_ path: String, font: String, shown: String, map: String) throws {
        try RedactPDF.write(
            path,
            pages: [.init(content: "BT /F1 12 Tf 20 100 Td (Alpha Secret Omega) Tj ET", extra: "/Annots [30 0 R]")],
            objects: [
                30: .dictionary(
                    "<< /Type /Annot /Subtype /FreeText /Rect [50 20 250 50] /Contents (a note) /DA (/Helv 12 Tf 0 g) /AP << /N 31 0 R >> >>"),
                31: .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 30] /Resources << /Font << /C1 32 0 R >> >>",
                    Array("BT /C1 12 Tf 5 5 Td \(shown) Tj ET".utf8)),
                32: .dictionary("<< /Type /Font \(font) /ToUnicode 34 0 R >>"),
                33: .dictionary(
                    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ArialMT /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 >>"),
                34: .stream("", Array(map.utf8)),
            ])
    }

}
