import PageModel
import PropertyBased
import Testing

/// Random outlines under random edit sequences: every entry keeps pointing at
/// an item of its own document or is a heading with children, targets only
/// ever disappear (never move to another item), and undo/redo restore the
/// outlines exactly.
@Suite struct OutlinePropertyTests {
    /// A random source outline over pages 1…`pages`, from a list of numbers.
    static func sourceOutline(_ numbers: [Int], pages: Int) -> [SourceOutlineEntry] {
        var top: [SourceOutlineEntry] = []
        for (index, n) in numbers.enumerated() {
            let entry = SourceOutlineEntry(title: "e\(index)", page: n % pages + 1, isOpen: n % 3 == 0)
            if n % 4 == 0 || top.isEmpty {
                top.append(entry)
            } else if n % 4 == 1, !top[top.count - 1].children.isEmpty {
                top[top.count - 1].children[top[top.count - 1].children.count - 1].children.append(entry)
            } else {
                top[top.count - 1].children.append(entry)
            }
        }
        return top
    }

    /// Every entry that is not a heading points at an item of the document; a heading has children.
    static func problems(_ session: Session) -> [String] {
        var found: [String] = []
        for document in session.documents {
            let ids = Set(document.items.map(\.id))
            func check(_ entries: [OutlineEntry]) {
                for entry in entries {
                    if let target = entry.target {
                        if !ids.contains(target) { found.append("\(document.name): \(entry.title) → \(target)") }
                    } else if entry.children.isEmpty {
                        found.append("\(document.name): heading \(entry.title) without children")
                    }
                    check(entry.children)
                }
            }
            check(document.outline ?? [])
        }
        return found
    }

    /// title → target of every entry of every document.
    static func targets(_ session: Session) -> [String: ItemID] {
        var map: [String: ItemID] = [:]
        for document in session.documents {
            func walk(_ entries: [OutlineEntry]) {
                for entry in entries {
                    if let target = entry.target { map[document.name + "/" + entry.title] = target }
                    walk(entry.children)
                }
            }
            walk(document.outline ?? [])
        }
        return map
    }

    @Test func randomEditsKeepOutlinesRightAndUndoRestoresThem() async {
        await propertyCheck(
            count: 150, input: Gen.int(in: 1...10), Gen.int(in: 0...1000).array(of: 0...12),
            Gen.int(in: 0...(1 << 30)).array(of: 4).array(of: 1...25)
        ) { pages, outlineNumbers, script in
            try Self.run(pages: pages, outlineNumbers: outlineNumbers, script: script)
        }
    }

    static func run(pages: Int, outlineNumbers: [Int], script: [[Int]]) throws {
        var session = try Session.opening([
            OpenedFile(
                documentName: "main", source: pdfSource("main.pdf", pages: pages),
                outline: sourceOutline(outlineNumbers, pages: pages)),
            OpenedFile(
                documentName: "other", source: pdfSource("other.pdf", pages: 3),
                outline: [SourceOutlineEntry(title: "o", page: 2)]),
        ])
        #expect(problems(session).isEmpty)
        var states: [[Document]] = [session.documents]
        var added = 0
        for v in script {
            let name = v[1] % 2 == 0 ? "main" : "other"
            let count = session.document(named: name)?.pageCount ?? 0
            let position = Position.number(count == 0 ? 1 : v[2] % count + 1)
            let selected = count == 0 ? "1" : "\(v[2] % count + 1)..\(max(v[2] % count + 1, v[3] % count + 1))"
            let sel = try PageSelection.parse(selected)
            let paths = (session.document(named: name)?.outline ?? []).map { OutlinePath.escaped($0.title) }
            let path = paths.isEmpty ? "none" : paths[v[3] % paths.count]
            let edit: Edit
            switch v[0] % 11 {
            case 0: edit = .move(sel, to: .position(.number(1)))
            case 1: edit = .move(sel, to: .position(.last), into: name == "main" ? "other" : "main")
            case 2: edit = .remove(sel)
            case 3: edit = .duplicate(sel)
            case 4: edit = .copy(sel, to: .position(.number(1)), into: name == "main" ? "other" : "main")
            case 5: edit = .reverse(.all)
            case 6: edit = .interleave(other: name == "main" ? "other" : "main", reversed: v[3] % 2 == 0)
            case 7:
                added += 1
                edit = .outline(.add(title: "new\(added)", at: position, parent: v[3] % 2 == 0 ? nil : path))
            case 8: edit = .outline(.remove(path: path))
            case 9:
                added += 1
                edit = .outline(.rename(path: path, title: "r\(added)"))
            default: edit = .blank(at: .position(position), count: 1, size: .fixed(.a4))
            }
            let before = targets(session)
            do {
                try session.apply(edit, doc: name, label: "step")
            } catch {
                continue  // an edit that does not fit (empty document, missing or ambiguous path)
            }
            #expect(problems(session).isEmpty, "after \(edit)")
            if case .outline = edit {} else {
                // Entries never change target: they keep theirs or lose it.
                for (key, target) in targets(session) {
                    #expect(before[key] == target, "\(key) after \(edit)")
                }
            }
            states.append(session.documents)
        }
        let steps = states.count - 1
        for back in 0..<steps {
            _ = try session.undo()
            #expect(session.documents == states[steps - 1 - back])
        }
        if steps > 0 {
            _ = try session.redo(steps)
            #expect(session.documents == states[steps])
        }
        #expect(try Session.decode(session.encoded()) == session)
    }
}
