import Foundation
import Testing

/// Issue 40 item 12: /MarkInfo is kept on every export path — an appended update
/// (reverse), a copy (remove), in-place rearrangement, split parts, direct mode
/// and a session export — for a tagged file with /MarkInfo << /Marked true >>
/// and for a file marked so without a structure tree (as Word marks some).
/// Read back with qpdf's JSON (`TaggedStructure`), never with pdfedit.
@Suite struct MarkInfoTests {
    /// A three-page file as Word writes one: /MarkInfo << /Marked true >>, /Lang,
    /// and (unless `structure` is false) a /Document > /P tree with each page's
    /// text marked by an MCID and a parent tree.
    static func wordLike(_ path: String, structure: Bool) throws {
        let script = #"""
            import sys
            import pdfbytes
            n = 3
            structure = sys.argv[2] == "1"
            objs = {}
            objs[1] = "<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> " + ("/StructTreeRoot 3 0 R " if structure else "") + "/Lang (en-GB) >>"
            objs[5] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            kids = []; elements = []; nums = []
            for i in range(n):
                page = 10 + 4 * i; content = page + 1; element = page + 2
                kids.append("%d 0 R" % page)
                text = "/P << /MCID 0 >> BDC BT /F1 24 Tf 72 700 Td (Tagged page %d) Tj ET EMC" % (i + 1)
                objs[page] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R /Resources << /Font << /F1 5 0 R >> >> /StructParents %d /Tabs /S >>" % (content, i)
                objs[content] = "<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text)
                if structure:
                    objs[element] = "<< /Type /StructElem /S /P /P 4 0 R /Pg %d 0 R /K [0] >>" % page
                    elements.append("%d 0 R" % element); nums.append("%d [%d 0 R]" % (i, element))
            objs[2] = "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join(kids), n)
            if structure:
                objs[3] = "<< /Type /StructTreeRoot /K [4 0 R] /ParentTree 6 0 R /ParentTreeNextKey %d /RoleMap << /Normal /P >> >>" % n
                objs[4] = "<< /Type /StructElem /S /Document /P 3 0 R /K [%s] >>" % " ".join(elements)
                objs[6] = "<< /Nums [%s] >>" % " ".join(nums)
            open(sys.argv[1], "wb").write(pdfbytes.pdf(objs, header=b"%PDF-1.7\n"))
            """#
        let made = try python(script, [path, structure ? "1" : "0"])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// Whether the file's catalog says /MarkInfo << /Marked true >>, with qpdf --check clean.
    static func marked(_ file: String) throws -> (marked: Bool, tagged: Bool) {
        let check = try qpdfCheck(file)
        #expect(check.status == 0, "\(file): \(check.stdout)")
        let structure = try TaggedStructure(file)
        return (structure.marked, structure.hasTree)
    }

    @Test(arguments: [true, false])
    func everyPathKeepsMarkInfo(structure: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("word.pdf").path
        try Self.wordLike(source, structure: structure)
        #expect(try Self.marked(source) == (true, structure))

        var outputs: [String: String] = [:]
        func direct(_ name: String, _ arguments: String...) throws {
            try pdfeditOK(args: arguments + ["word.pdf", "-o", name], in: dir)
            outputs[arguments.joined(separator: " ")] = dir.appendingPathComponent(name).path
        }
        try direct("reversed.pdf", "reverse", "all")  // every page kept: an appended update
        try direct("removed.pdf", "remove", "1")  // a copy, or the source rearranged in place
        try direct("moved.pdf", "move", "3", "--to", "1")
        try direct("rotated.pdf", "rotate", "2", "--by", "90")
        try pdfeditOK("export", "--split", "parts", "--from", "word.pdf", in: dir)
        for part in 1...3 { outputs["split part \(part)"] = dir.appendingPathComponent("parts/word-\(part).pdf").path }
        try pdfeditOK("export", "range.pdf", "2..3", "--from", "word.pdf", in: dir)
        outputs["export --from"] = dir.appendingPathComponent("range.pdf").path

        try pdfeditOK("open", "word.pdf", in: dir)
        try pdfeditOK("reverse", in: dir)
        try pdfeditOK("export", "session-reversed.pdf", in: dir)
        outputs["session reverse"] = dir.appendingPathComponent("session-reversed.pdf").path
        try pdfeditOK("remove", "1", in: dir)
        try pdfeditOK("export", "session-removed.pdf", in: dir)
        outputs["session remove"] = dir.appendingPathComponent("session-removed.pdf").path
        try pdfeditOK("insert", "word.pdf", in: dir)
        try pdfeditOK("export", "session-merged.pdf", in: dir)
        outputs["session merge"] = dir.appendingPathComponent("session-merged.pdf").path
        try pdfeditOK("export", "--split", "session-parts", in: dir)
        outputs["session split"] = dir.appendingPathComponent("session-parts/word-1.pdf").path

        for (what, file) in outputs.sorted(by: { $0.key < $1.key }) {
            let (marked, tagged) = try Self.marked(file)
            #expect(marked, "\(what): /MarkInfo lost (structure: \(structure))")
            #expect(tagged == structure, "\(what): structure tree \(tagged ? "invented" : "lost")")
        }
    }
}
