import PageModel
import PropertyBased
import Testing

/// Random documents and random command sequences, checked step by step
/// against `Reference`.
@Suite struct PropertyTests {
    /// Writes a set of 0-based indices as selection text in a random spelling:
    /// ranges as `A..B`, `A-B` or `A..`, singles as `N` or `@ID`, tokens in a
    /// random order.
    static func selectionText(_ indices: [Int], document: [Reference.Item], style: Int) -> String {
        var runs: [ClosedRange<Int>] = []
        for index in indices {
            if let last = runs.last, last.upperBound + 1 == index {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        var tokens: [String] = runs.enumerated().map { offset, run in
            let a = run.lowerBound + 1
            let b = run.upperBound + 1
            let variant = (style >> (offset % 8)) & 3
            if a == b {
                return variant == 1
                    ? "@p\(document[run.lowerBound].id)" : (b == document.count && variant == 2 ? "last" : "\(a)")
            }
            switch variant {
            case 0: return "\(a)..\(b)"
            case 1: return "\(a)-\(b)"
            case 2:
                return b == document.count ? "\(a).." : " \(a) .. \(b) ".replacingOccurrences(of: " .. ", with: "..")
            default: return a == 1 ? "..\(b)" : "\(a)..\(b)"
            }
        }
        if style % 3 == 0 { tokens.reverse() }
        if style % 5 == 0 { tokens.shuffle() }
        return tokens.joined(separator: style % 7 == 0 ? " , " : ",")
    }

    /// Picks a non-empty subset of 0..<count from bits.
    static func subset(count: Int, bits: Int) -> [Int] {
        let chosen = (0..<count).filter { (bits >> ($0 % 24)) & 1 == 1 }
        return chosen.isEmpty ? [bits % max(count, 1)] : chosen
    }

    static func initialSession(mainPages: Int, otherPages: Int) throws -> Session {
        try Session.opening([
            OpenedFile(documentName: "main", source: pdfSource("main.pdf", pages: mainPages)),
            OpenedFile(documentName: "other", source: pdfSource("other.pdf", pages: otherPages)),
        ])
    }

    @Test func editsAgreeWithTheNaiveReference() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...12), Gen.int(in: 1...6),
            Gen.int(in: 0...(1 << 30)).array(of: 5).array(of: 1...30)
        ) { mainPages, otherPages, script in
            try Self.run(mainPages: mainPages, otherPages: otherPages, script: script)
        }
    }

    static func run(mainPages: Int, otherPages: Int, script: [[Int]]) throws {
        var session = try initialSession(mainPages: mainPages, otherPages: otherPages)
        let initial = session
        var reference = Reference(session)
        var past: [Reference] = []
        var future: [Reference] = []

        for (step, v) in script.enumerated() {
            let name = v[1] % 2 == 0 ? "main" : "other"
            let otherName = name == "main" ? "other" : "main"
            let document = reference.documents[name] ?? []
            let count = document.count
            let selected = subset(count: count, bits: v[2])
            var text = count == 0 ? "1" : selectionText(selected, document: document, style: v[3])
            // Now and then a token twice: a duplicate is an error.
            let duplicated = count > 0 && v[3] % 11 == 0
            if duplicated { text += "," + (text.split(separator: ",").first.map(String.init) ?? "1") }
            let sel = try PageSelection.parse(text)
            let valid = count > 0 && !duplicated

            let op = v[0] % 13
            let into = v[3] % 3 == 0 ? otherName : nil
            let target = reference.documents[into ?? name] ?? []
            let placeKind = v[4] % 3
            let placeNumber = (v[4] / 3) % (target.count + 3)
            let place: Reference.Place
            let destination: Destination
            switch placeKind {
            case 0:
                // A move within one document takes the block out first; a copy takes nothing out.
                let takenOut = into == nil && op < 2 && valid ? selected.count : 0
                let remaining = target.count - takenOut
                if v[4] % 7 == 0 {
                    place = .to(remaining + 1)
                    destination = .position(.last)
                } else {
                    place = .to(placeNumber)
                    destination = .position(.number(placeNumber))
                }
            case 1:
                place = .before(placeNumber)
                destination = .before(.number(placeNumber))
            default:
                place = .after(placeNumber)
                destination = .after(.number(placeNumber))
            }

            let edit: Edit?
            let expected: Reference?
            switch op {
            case 0, 1:
                edit = .move(sel, to: destination, into: into)
                expected = valid ? reference.move(selected, in: name, to: place, into: into) : nil
            case 2:
                edit = .copy(sel, to: destination, into: into)
                expected = valid ? reference.copy(selected, in: name, to: place, into: into) : nil
            case 3:
                edit = .remove(sel)
                expected = valid ? reference.remove(selected, in: name) : nil
            case 4:
                let turns = [1, 2, 3, -1][v[3] % 4]
                edit = .rotate(sel, quarterTurns: turns)
                expected = valid ? reference.rotate(selected, in: name, by: turns) : nil
            case 5:
                edit = .reverse(sel)
                expected = valid ? reference.reverse(selected, in: name) : nil
            case 6:
                edit = .duplicate(sel)
                expected = valid ? reference.duplicate(selected, in: name) : nil
            case 7:
                let reversed = v[3] % 2 == 1
                edit = .interleave(other: otherName, reversed: reversed)
                expected = reference.interleave(otherName, into: name, reversed: reversed)
            case 8, 9:
                edit = nil
                expected = nil
            case 11:
                let (stamp, newSources, text, possible) = Self.stamp(v, mainPages: mainPages, otherPages: otherPages)
                edit = .stamp(sel, stamp, newSources: newSources)
                expected = valid && possible ? reference.stamp(selected, in: name, stamp: text) : nil
            case 12:
                edit = .unstamp(sel)
                expected = valid ? reference.unstamp(selected, in: name) : nil
            default:
                let n = v[3] % (count + 2) + 1
                let blanks = v[4] % 2 + 1
                edit = .blank(at: .position(.number(n)), count: blanks, size: .fixed(.a5))
                expected = reference.blank(at: n, count: blanks, in: name)
            }

            let before = session
            if let edit {
                do {
                    try session.apply(edit, doc: name, label: "step \(step)")
                    guard let expected else {
                        Issue.record("step \(step): the model accepted \(edit) in \(name), the reference refuses it")
                        return
                    }
                    past.append(reference)
                    future = []
                    reference = expected
                } catch {
                    guard expected == nil else {
                        Issue.record("step \(step): the model refused \(edit) in \(name): \(error)")
                        return
                    }
                    #expect(session == before, "a refused edit changed the session")
                }
            } else {
                let k = v[3] % 3 + 1
                let isUndo = op == 8
                do {
                    _ = isUndo ? try session.undo(k) : try session.redo(k)
                    guard k <= (isUndo ? past.count : future.count) else {
                        Issue.record("step \(step): \(isUndo ? "undo" : "redo") \(k) should have failed")
                        return
                    }
                    for _ in 0..<k {
                        if isUndo {
                            future.append(reference)
                            reference = past.removeLast()
                        } else {
                            past.append(reference)
                            reference = future.removeLast()
                        }
                    }
                } catch {
                    #expect(k > (isUndo ? past.count : future.count), "step \(step): \(error)")
                    #expect(session == before)
                }
            }

            // Invariants after every step.
            try #require(Reference(session) == reference, "step \(step): the model and the reference differ")
            let allIDs = session.documents.flatMap(\.items).map(\.id)
            #expect(Set(allIDs).count == allIDs.count, "ids are not unique")
            #expect(allIDs.allSatisfy { $0.number < session.nextItemNumber })
            #expect(session.history.undoableCount == past.count)
            #expect(session.history.redoableCount == future.count)
            #expect(try Session.decode(session.encoded()) == session, "JSON round trip differs")
        }

        // Undo of every step restores the initial state exactly; redo replays them all.
        let final = session
        if past.count > 0 {
            _ = try session.undo(past.count)
        }
        #expect(SessionState(session) == SessionState(initial))
        if past.count > 0 {
            _ = try session.redo(past.count)
        }
        #expect(session == final)
    }

    /// A stamp drawn from `v`: a page of main.pdf (s1), of other.pdf (s2), or of a
    /// new file imported by the edit (once imported, later stamps share its source);
    /// sometimes a page out of range or an opacity of 0, which must be refused.
    static func stamp(
        _ v: [Int], mainPages: Int, otherPages: Int
    ) -> (stamp: Stamp, newSources: [Source], text: String, possible: Bool) {
        let under = v[4] % 2 == 1
        let fit = (v[4] / 2) % 2 == 1
        let opacity = [1, 0.5, 0.25, 1, 0][(v[4] / 4) % 5]
        let (file, source, page, pageCount, newSources): (String, Int, Int, Int, [Source])
        switch v[3] % 5 {
        case 0: (file, source, page, pageCount, newSources) = ("main.pdf", 1, v[2] % mainPages + 1, mainPages, [])
        case 1: (file, source, page, pageCount, newSources) = ("other.pdf", 2, v[2] % otherPages + 1, otherPages, [])
        case 2: (file, source, page, pageCount, newSources) = ("main.pdf", 1, mainPages + 1, mainPages, [])
        case 3:
            (file, source, page, pageCount, newSources) = ("stamp.pdf", 7, v[2] % 2 + 1, 2, [
                pdfSource("stamp.pdf", pages: 2, id: 7)
            ])
        default:
            (file, source, page, pageCount, newSources) = ("logo.png", 1, 1, 1, [imageSource("logo.png", id: 1)])
        }
        let stamp = Stamp(source: SourceID(number: source), page: page, under: under, fit: fit, opacity: opacity)
        let text = Reference.stampText(file: file, page: page, under: under, fit: fit, opacity: opacity)
        return (stamp, newSources, text, page <= pageCount && opacity > 0)
    }

    @Test func selectionsResolveToTheSetTheyName() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...30), Gen.int(in: 0...(1 << 30)), Gen.int(in: 0...(1 << 20))
        ) { pages, bits, style in
            let document = Document(
                name: "d",
                items: (1...pages).map { PageItem(id: ItemID(number: $0 * 3), content: .blank(.a4)) })
            let reference = Reference.items(of: document)
            let chosen = Self.subset(count: pages, bits: bits)
            let text = Self.selectionText(chosen, document: reference, style: style)
            let selection = try PageSelection.parse(text)
            #expect(try selection.resolve(in: document) == chosen, "\"\(text)\"")
            #expect(try PageSelection.parse(selection.description) == selection)
        }
    }
}
