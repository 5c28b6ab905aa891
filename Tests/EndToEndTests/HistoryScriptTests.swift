import Foundation
import Testing

/// Issue 46, replayable history: `history --script` prints a session's steps as
/// a script `run` and `apply` take, so a month's fix-ups replay on next month's file.
@Suite struct HistoryScriptTests {
    @Test("the steps as script lines; an edit made in an editor as a comment; ids as text; replayed by apply")
    func replay() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        try pdfeditOK("move", "3..4", "--to", "1", in: dir)
        try pdfeditOK("remove", "@p7", in: dir)
        try pdfeditOK("edit", in: dir, environment: ["EDITOR": "sed -i -e 's/^p1 /r180 p1 /'", "VISUAL": ""])
        try pdfeditOK("blank", "--at", "1", in: dir)
        try pdfeditOK("undo", in: dir)

        let script = try pdfedit("history", "--script", in: dir)
        #expect(script.status == 0)
        #expect(script.stdout == """
            # pdfedit history --script: 4 steps; replay with pdfedit run or apply
            rotate 2 --by 90
            move 3..4 --to 1
            # step 3: @p7 written as text:alpha page 7 (the same pages in this session)
            remove "text:alpha page 7"
            # step 4 cannot be a script line: edit

            """, "\(script.stdout)")
        // No step is left naming an item by id.
        #expect(script.stderr == "")
        #expect(try pdfedit("history", "--script", "2..3", in: dir).stdout.contains("rotate") == false)

        // Replayed on next month's file (here the same pages again): the pages the
        // session exports, but for the step made in the editor.
        try script.stdout.write(to: dir.appendingPathComponent("fixes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("alpha.pdf"), to: dir.appendingPathComponent("next.pdf"))
        try pdfeditOK("apply", "fixes.txt", "next.pdf", "-o", "out/{name}", in: dir)
        let replayed = dir.appendingPathComponent("out/next.pdf").path
        #expect(try pageTokens(replayed) == ["ALPHA-P3", "ALPHA-P4", "ALPHA-P1", "ALPHA-P2", "ALPHA-P5", "ALPHA-P6"])
        #expect(try run("pdfinfo", ["-f", "4", "-l", "4", replayed]).stdout.contains("Page    4 rot:   90"))

        // Ranges: steps done only, within bounds.
        #expect(try pdfedit("history", "--script", "5", in: dir).status == 64)
        #expect(try pdfedit("history", "2..3", in: dir).status == 64)
        #expect(try pdfedit("run", "-", in: dir, stdin: "edit\n").stderr.contains("it cannot be a line of a script"))
    }
}
