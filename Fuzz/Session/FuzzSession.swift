// libFuzzer harness for the session-file loader: `Session.decode` on any bytes,
// and for every session it accepts, what later commands do with it.
//
// Compiled into the PageModel module itself (see scripts/fuzz.sh). A failed
// invariant calls `fatalError`, which libFuzzer reports as a crash.
//
// Invariants: decoding never traps; a decoded session encodes, and its bytes
// decode to the same session; undo and redo of every stored step either fail
// with an error or leave a consistent session that also round-trips; a few
// edits on the current document (among them crop, nup, booklet and text
// stamps, which make boxes, sheet cells and stamps) either fail or succeed, and an edit that
// succeeded is taken back exactly by one undo.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let session: Session
    do {
        session = try Session.decode(bytes)
    } catch {
        requireOneLine(error.description, "decode")
        return 0
    }
    requireRoundTrip(session, "decoded")
    replayHistory(session)
    editAndUndo(session)
    return 0
}

private func requireOneLine(_ message: String, _ what: String) {
    guard !message.isEmpty, !message.contains(where: \.isNewline) else {
        fatalError("\(what): message is empty or spans lines: \(message.debugDescription)")
    }
}

private func requireRoundTrip(_ session: Session, _ what: String) {
    if let problem = session.firstInconsistency() {
        fatalError("\(what) session is inconsistent: \(problem)")
    }
    let encoded: Data
    do {
        encoded = try session.encoded()
    } catch {
        fatalError("\(what) session cannot be encoded: \(error)")
    }
    do {
        let again = try Session.decode(encoded)
        guard again == session else { fatalError("\(what) session changes when written and read back") }
    } catch {
        fatalError("\(what) session's own file is refused: \(error.description)")
    }
}

private func replayHistory(_ session: Session) {
    var undone = session
    let undoable = session.history.undoableCount
    if undoable > 0 {
        do {
            _ = try undone.undo(undoable)
            requireRoundTrip(undone, "undone")
            var redone = undone
            _ = try redone.redo(undoable)
            requireRoundTrip(redone, "undone and redone")
        } catch {
            requireOneLine(error.description, "undo/redo")
        }
    }
    let redoable = session.history.redoableCount
    if redoable > 0 {
        var redone = session
        do {
            _ = try redone.redo(redoable)
            requireRoundTrip(redone, "redone")
        } catch {
            requireOneLine(error.description, "redo")
        }
    }
}

private func editAndUndo(_ session: Session) {
    let edits: [Edit] = [
        .reverse(.all),
        .duplicate(.all),
        .remove(PageSelection(positions: [1])),
        .move(.all, to: .position(.last)),
        .rotate(.all, quarterTurns: 1),
        .blank(at: .position(.number(1)), count: 2, size: nil),
        .placeholder(at: nil, count: 1, size: .fixed(.a5), label: "fuzz"),
        .newDocument(name: "fuzz-doc"),
        // Boxes, sheets and stamps: the numbers a damaged file most often breaks.
        .crop(.all, .margins(Margins(top: 5, right: -5, bottom: 10, left: 0))),
        .nup(.all, columns: 2, rows: 2, size: nil, order: .columns, gutter: 4),
        .booklet(.all, size: nil),
        .textStamp(.all, Stamp(text: TextMark(kind: .number, format: "{n}/{total}", size: 9), placement: StampPlacement())),
        .unstamp(.all),
    ]
    let frame = PageFrame(
        mediaBox: BoxRect(x0: 0, y0: 0, x1: 612, y1: 792), visibleBox: BoxRect(x0: 0, y0: 0, x1: 612, y1: 792),
        quarterTurns: 0)
    for edit in edits {
        var edited = session
        do {
            try edited.apply(
                edit, label: "fuzz", context: EditContext(pageSize: { _ in .letter }, pageFrame: { _ in frame }))
        } catch {
            requireOneLine(error.description, "edit \(edit)")
            continue
        }
        requireRoundTrip(edited, "edited (\(edit))")
        do {
            _ = try edited.undo(1)
        } catch {
            fatalError("undo of a fresh \(edit) failed: \(error.description)")
        }
        guard edited.documents == session.documents, edited.sources == session.sources,
            edited.current == session.current, edited.nextItemNumber == session.nextItemNumber,
            edited.nextSourceNumber == session.nextSourceNumber
        else { fatalError("undo of \(edit) does not give the session back") }
    }
}
