// libFuzzer harness for the selection grammar: `PageSelection.parse` + `resolve`,
// and `Position.parse` + `resolve`/`index(in:)`, on any bytes.
//
// Compiled into the PageModel module itself (see scripts/fuzz.sh), so it reaches
// the same code the command line runs. A failed invariant calls `fatalError`,
// which libFuzzer reports as a crash and saves as a reproducer.
//
// Input: byte 0 is the document's page count (0…63); the rest, as UTF-8, is the
// text given to both parsers.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelection(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let pageCount = Int(data[0] % 64)
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    // Odd ids only, so that `@p2` names nothing and the id lookup is exercised both ways.
    let items = (0..<pageCount).map { index in
        PageItem(id: ItemID(number: 2 * index + 1), content: .blank(.a4), rotation: index % 4)
    }
    let document = Document(name: "fuzz", items: items)
    checkSelection(text, in: document)
    checkPosition(text, in: document)
    return 0
}

/// Error messages become one `pdfedit:` line each: never a line break inside.
private func requireOneLine(_ message: String, _ what: String) {
    guard !message.isEmpty, !message.contains(where: \.isNewline) else {
        fatalError("\(what): message is empty or spans lines: \(message.debugDescription)")
    }
}

private func checkSelection(_ text: String, in document: Document) {
    let selection: PageSelection
    do {
        selection = try PageSelection.parse(text)
    } catch {
        requireOneLine(error.description, "parse")
        requireOneLine(error.inDocument(pageCount: document.pageCount).description, "parse in document")
        return
    }
    // The canonical text reads back as the same selection.
    guard let again = try? PageSelection.parse(selection.description), again == selection else {
        fatalError("\(text.debugDescription) → \(selection.description.debugDescription) does not parse back")
    }
    let count = document.pageCount
    let lookup: (PageItem) -> String? = { item in item.id.number % 3 == 0 ? nil : "page \(item.id.number) Text" }
    do {
        let indices = try selection.resolve(in: document, text: lookup)
        guard !indices.isEmpty else { fatalError("resolved to nothing without an error") }
        for (a, b) in zip(indices, indices.dropFirst()) where a >= b {
            fatalError("indices not strictly ascending: \(indices)")
        }
        guard let first = indices.first, let last = indices.last, first >= 0, last < count else {
            fatalError("indices \(indices) outside 0..<\(count)")
        }
    } catch {
        requireOneLine(error.description, "resolve")
    }
    // Without a text lookup, `text:` tokens must fail cleanly too.
    do {
        _ = try selection.resolve(in: document)
    } catch {
        requireOneLine(error.description, "resolve without text")
    }
}

private func checkPosition(_ text: String, in document: Document) {
    let position: Position
    do {
        position = try Position.parse(text)
    } catch {
        requireOneLine(error.description, "position parse")
        return
    }
    guard (try? Position.parse(position.description)) == position else {
        fatalError("position \(text.debugDescription) → \(position.description) does not parse back")
    }
    for maxPosition in [0, 1, document.pageCount, document.pageCount + 1] {
        do {
            let resolved = try position.resolve(maxPosition: maxPosition)
            guard (1...max(1, maxPosition)).contains(resolved) else {
                fatalError("\(position) resolved to \(resolved) with maxPosition \(maxPosition)")
            }
        } catch {
            requireOneLine(error.description, "position resolve")
        }
    }
    do {
        let index = try position.index(in: document)
        guard document.items.indices.contains(index) else { fatalError("\(position) → index \(index)") }
    } catch {
        requireOneLine(error.description, "position index")
    }
}
