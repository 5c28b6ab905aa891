import Foundation
import PageModel
import PropertyBased
import Testing

/// `edit`'s model (`Edit.rearrange`): the document becomes exactly the lines,
/// whatever they ask, and undo gives back exactly what was there.
@Suite struct RearrangeTests {
    @Test("any lines — kept, dropped, repeated, turned, new pages — give that document; undo gives back the first")
    func documentIsTheLines() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...25), Gen.int(in: 0...(1 << 30)).array(of: 0...40)
        ) { pages, draws in
            var session = try session(pages: pages)
            let before = session
            let ids = session.document(named: "main")!.items.map(\.id)
            // Each draw picks a line: mostly an item (turned or not), sometimes a blank or a placeholder.
            let lines: [ArrangedItem] = draws.map { draw in
                switch draw % 10 {
                case 0: .blank(nil)
                case 1: .placeholder(label: "slot \(draw % 7)", size: nil)
                default: .item(ids[(draw / 10) % ids.count], quarterTurns: (draw / 1000) % 4)
                }
            }
            try session.apply(.rearrange(lines), label: "edit", context: EditContext(pageSize: { _ in .letter }))
            let items = session.document(named: "main")!.items
            #expect(items.count == lines.count)
            var seen: Set<ItemID> = []
            for (item, line) in zip(items, lines) {
                switch line {
                case .item(let id, let turns):
                    let original = before.document(named: "main")!.items.first { $0.id == id }!
                    #expect(item.content == original.content)
                    #expect(item.rotation == (original.rotation + turns) % 4)
                    // The first line of an id keeps the item; later ones are copies with new ids.
                    if seen.insert(id).inserted { #expect(item.id == id) } else { #expect(!ids.contains(item.id)) }
                case .blank:
                    // The size of its neighbour as shown (turned or not), A4 alone.
                    #expect([.blank(.letter), .blank(.letter.swapped), .blank(.a4)].contains(item.content))
                case .placeholder(let label, _):
                    #expect(item.content.isPlaceholder)
                    if case .placeholder(_, let itemLabel) = item.content { #expect(itemLabel == label) }
                }
            }
            #expect(Set(items.map(\.id)).count == items.count)
            _ = try session.undo()
            #expect(session.document(named: "main") == before.document(named: "main"))
        }
    }

    @Test("a move of one page is one transfer; a reversal stays linear in its changes")
    func fewTransfers() throws {
        var session = try session(pages: 200)
        let ids = session.document(named: "main")!.items.map(\.id)
        // The first page to the end: the other 199 are already in order.
        let summary = try session.apply(
            .rearrange(ids.dropFirst().map { .item($0, quarterTurns: 0) } + [.item(ids[0], quarterTurns: 0)]),
            label: "edit")
        #expect(summary.description == "moved 1 page (now 200 pages)")
        let reversed = try session.apply(.rearrange(ids.reversed().map { .item($0, quarterTurns: 0) }), label: "edit")
        // From p2…p200,p1 to p200…p1: two lines (p200 and p1) stay in order.
        #expect(reversed.description == "moved 198 pages (now 200 pages)")
        #expect(session.document(named: "main")!.items.map(\.id) == ids.reversed())
    }

    @Test("an unknown id is refused and changes nothing")
    func unknownID() throws {
        var session = try session(pages: 3)
        let before = session
        #expect(throws: EditError.self) {
            try session.apply(.rearrange([.item(ItemID(number: 99), quarterTurns: 0)]), label: "edit")
        }
        #expect(session == before)
    }
}
