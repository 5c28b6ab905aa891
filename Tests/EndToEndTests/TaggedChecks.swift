import Foundation
import Testing

/// The structure tree of a PDF as an independent reader shows it: `qpdf --json=2
/// --json-stream-data=inline --decode-level=generalized` (objects and decoded page
/// content), walked here without pdfedit's code. Used by the lossless structure
/// tests and the corpus sweep.
struct TaggedStructure {
    /// Pages in order (qpdf's page list) and the objects whose /Type is /Page.
    var pages: [String] = []
    var pageObjects = 0
    /// Every element reached from /StructTreeRoot /K, in tree order: its /S.
    var elementTypes: [String] = []
    var elements: Int { elementTypes.count }
    /// The root's direct kids (their /S).
    var topLevel: [String] = []
    var roleMap: [String: String] = [:]
    var classMapKeys: [String] = []
    /// The /IDTree names.
    var ids: [String] = []
    var marked = false
    var hasTree = false
    /// /MCID operands in the pages' content streams, and how many of them resolve
    /// through the parent tree to an element that claims that MCID on that page.
    var contentMCIDs = 0
    var resolvedMCIDs = 0
    /// Annotations with /StructParent, and how many resolve to an element with an
    /// OBJR to that very annotation.
    var numberedAnnotations = 0
    var resolvedAnnotations = 0
    /// /MCID operands in form XObjects that have /StructParents, and how many resolve
    /// to an element with a marked-content reference (/Stm) to that very XObject.
    var formMCIDs = 0
    var resolvedFormMCIDs = 0
    /// Objects whose /Type is /StructElem that the tree does not reach (a copy of a
    /// source's tree pulled in by something else).
    var strayElements = 0
    /// Links whose structure destination (/A /SD) names an element of the tree.
    var structureDestinations = 0
    /// What is wrong: a reference to an object that is not a page of the output, an
    /// element whose /P is not its parent, a number that resolves to something else.
    var problems: [String] = []
    /// MCR/OBJR/marked-content kids per element /ID ("span" -> 2 content items).
    var contentItemsByID: [String: Int] = [:]
    /// /Lang of each top-level element ("" none).
    var topLevelLanguages: [String] = []
    /// Elements whose MCID or MCR points at page N (1-based), by /S.
    var typesByPage: [Int: [String]] = [:]

    private var objects: [String: Any] = [:]
    /// The elements the tree reaches (their references).
    private var reached = Set<String>()

    init(_ file: String) throws {
        let result = try run(
            "qpdf", ["--json=2", "--json-key=qpdf", "--json-key=pages", "--json-stream-data=inline", "--decode-level=generalized", file])
        guard result.status == 0 || result.status == 3,
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let qpdf = json["qpdf"] as? [Any], qpdf.count == 2, let table = qpdf[1] as? [String: Any]
        else {
            throw QPDFJSONUnreadable(file: file, status: result.status, stderr: result.stderr)
        }
        objects = table
        pages = (json["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
        for (key, object) in table where key.hasPrefix("obj:") {
            if dictionary(ofObject: object)?["/Type"] as? String == "/Page" { pageObjects += 1 }
        }
        let trailer = (table["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let root = dictionary(trailer?["/Root"]) ?? [:]
        marked = dictionary(root["/MarkInfo"])?["/Marked"] as? Bool == true
        guard let tree = dictionary(root["/StructTreeRoot"]) else { return }
        hasTree = true
        for (key, value) in dictionary(tree["/RoleMap"]) ?? [:] { roleMap[key] = resolve(value) as? String }
        classMapKeys = (dictionary(tree["/ClassMap"]) ?? [:]).keys.sorted()
        ids = nameTreeKeys(tree["/IDTree"])
        walk(tree)
        let numbers = numberTree(tree["/ParentTree"])
        checkContent(numbers)
        checkAnnotations(numbers)
        checkForms(numbers)
        checkStrays()
    }

    // MARK: The tree

    private mutating func walk(_ root: [String: Any]) {
        let pageSet = Set(pages)
        var seen = Set<String>()
        // (the element or its reference, its expected /P, whether it is a child of the root)
        var stack: [(Any, String?, Bool)] = kids(root["/K"]).reversed().map { ($0, rootReference(), true) }
        while let (kid, parent, top) = stack.popLast() {
            guard let element = dictionary(kid), element["/S"] != nil else { continue }
            if let reference = kid as? String, !seen.insert(reference).inserted {
                problems.append("element \(reference) reached twice")
                continue
            }
            if let reference = kid as? String { reached.insert(reference) }
            let type = resolve(element["/S"]) as? String ?? "?"
            elementTypes.append(type)
            if top {
                topLevel.append(type)
                topLevelLanguages.append(text(element["/Lang"]) ?? "")
            }
            if let parent, (element["/P"] as? String) != parent {
                problems.append("element \(kid) (\(type)): /P is \(element["/P"] ?? "none"), not \(parent)")
            }
            if let page = element["/Pg"] as? String, !pageSet.contains(page) {
                problems.append("element \(kid) (\(type)): /Pg \(page) is not a page of the output")
            }
            var content = 0
            var children: [(Any, String?, Bool)] = []
            for item in kids(element["/K"]) {
                if item is Int {
                    content += 1
                    if let page = element["/Pg"] as? String, let index = pages.firstIndex(of: page) {
                        typesByPage[index + 1, default: []].append(type)
                    }
                    continue
                }
                guard let entry = dictionary(item) else { continue }
                let itemType = entry["/Type"] as? String
                if itemType == "/MCR" || itemType == "/OBJR" {
                    content += 1
                    let page = entry["/Pg"] as? String ?? element["/Pg"] as? String
                    if let page, !pageSet.contains(page) {
                        problems.append("element \(kid) (\(type)): \(itemType ?? "") /Pg \(page) is not a page of the output")
                    } else if let page, let index = pages.firstIndex(of: page) {
                        typesByPage[index + 1, default: []].append(type)
                    }
                    if itemType == "/OBJR", dictionary(entry["/Obj"]) == nil && (entry["/Obj"] as? String).flatMap({ objects["obj:\($0)"] }) == nil {
                        problems.append("element \(kid) (\(type)): /OBJR /Obj \(entry["/Obj"] ?? "none") does not exist")
                    }
                    continue
                }
                children.append((item, kid as? String, false))
            }
            stack += children.reversed()
            if let id = text(element["/ID"]) { contentItemsByID[id] = content }
        }
    }

    private func rootReference() -> String? {
        let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        return (dictionary(trailer?["/Root"]))?["/StructTreeRoot"] as? String
    }

    // MARK: Numbers

    /// Whether element `reference` claims MCID `mcid` on page `page`.
    private func claims(_ reference: Any?, mcid: Int, page: String) -> Bool {
        guard let element = dictionary(reference) else { return false }
        for item in kids(element["/K"]) {
            if let number = item as? Int, number == mcid, element["/Pg"] as? String == page { return true }
            if let entry = dictionary(item), entry["/Type"] as? String == "/MCR", entry["/MCID"] as? Int == mcid,
                (entry["/Pg"] as? String ?? element["/Pg"] as? String) == page, entry["/Stm"] == nil
            {
                return true
            }
        }
        return false
    }

    private mutating func checkContent(_ numbers: [Int: Any]) {
        for (index, page) in pages.enumerated() {
            guard let dict = dictionary(page) else { continue }
            var text = ""
            let contents = resolve(dict["/Contents"])
            for stream in (contents as? [Any]) ?? [dict["/Contents"] as Any] {
                guard let reference = stream as? String, let object = objects["obj:\(reference)"] as? [String: Any],
                    let data = (object["stream"] as? [String: Any])?["data"] as? String, let bytes = Data(base64Encoded: data)
                else { continue }
                text += String(decoding: bytes, as: UTF8.self) + "\n"
            }
            let array = (dict["/StructParents"] as? Int).flatMap { numbers[$0] }.flatMap { resolve($0) as? [Any] }
            for mcid in Self.mcids(in: text) {
                contentMCIDs += 1
                guard let array, mcid >= 0, mcid < array.count else {
                    problems.append("page \(index + 1): MCID \(mcid) has no parent-tree entry")
                    continue
                }
                if claims(array[mcid], mcid: mcid, page: page) {
                    resolvedMCIDs += 1
                } else {
                    problems.append("page \(index + 1): MCID \(mcid) resolves to \(array[mcid]), which does not claim it")
                }
            }
        }
    }

    private mutating func checkForms(_ numbers: [Int: Any]) {
        for (key, object) in objects where key.hasPrefix("obj:") {
            guard let stream = (object as? [String: Any])?["stream"] as? [String: Any],
                let dict = stream["dict"] as? [String: Any], dict["/Subtype"] as? String == "/Form",
                let number = dict["/StructParents"] as? Int
            else { continue }
            let reference = String(key.dropFirst(4))
            let text = (stream["data"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let array = resolve(numbers[number]) as? [Any] ?? []
            for mcid in Self.mcids(in: text) {
                formMCIDs += 1
                let element = mcid < array.count ? dictionary(array[mcid]) : nil
                let claimed = kids(element?["/K"]).contains { item in
                    let entry = dictionary(item)
                    return entry?["/Type"] as? String == "/MCR" && entry?["/MCID"] as? Int == mcid && entry?["/Stm"] as? String == reference
                }
                if claimed {
                    resolvedFormMCIDs += 1
                } else {
                    problems.append("form XObject \(reference): MCID \(mcid) does not resolve through /StructParents \(number)")
                }
            }
        }
    }

    private mutating func checkStrays() {
        for (key, object) in objects where key.hasPrefix("obj:") {
            if dictionary(ofObject: object)?["/Type"] as? String == "/StructElem", !reached.contains(String(key.dropFirst(4))) {
                strayElements += 1
            }
        }
        for page in pages {
            for annotation in (resolve(dictionary(page)?["/Annots"]) as? [Any]) ?? [] {
                guard let destination = resolve(dictionary(dictionary(annotation)?["/A"])?["/SD"]) as? [Any] else { continue }
                if let target = destination.first as? String, reached.contains(target) {
                    structureDestinations += 1
                } else {
                    problems.append("annotation \(annotation): /SD \(destination) names no element of the tree")
                }
            }
        }
    }

    /// The /MCID operands of a content stream.
    static func mcids(in text: String) -> [Int] {
        let pattern = try! NSRegularExpression(pattern: "/MCID\\s+(\\d+)")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            Int((text as NSString).substring(with: $0.range(at: 1))) ?? -1
        }
    }

    private mutating func checkAnnotations(_ numbers: [Int: Any]) {
        for page in pages {
            for annotation in (resolve(dictionary(page)?["/Annots"]) as? [Any]) ?? [] {
                guard let reference = annotation as? String, let dict = dictionary(reference),
                    let number = dict["/StructParent"] as? Int
                else { continue }
                numberedAnnotations += 1
                let element = dictionary(numbers[number])
                let pointsBack = kids(element?["/K"]).contains { item in
                    let entry = dictionary(item)
                    return entry?["/Type"] as? String == "/OBJR" && entry?["/Obj"] as? String == reference
                }
                if pointsBack {
                    resolvedAnnotations += 1
                } else {
                    problems.append("annotation \(reference): /StructParent \(number) resolves to \(numbers[number] ?? "nothing")")
                }
            }
        }
    }

    private func numberTree(_ node: Any?) -> [Int: Any] {
        var result: [Int: Any] = [:]
        var pending: [Any] = node.map { [$0] } ?? []
        var seen = Set<String>()
        while let next = pending.popLast() {
            if let reference = next as? String, !seen.insert(reference).inserted { continue }
            guard let dict = dictionary(next) else { continue }
            let nums = resolve(dict["/Nums"]) as? [Any] ?? []
            for index in stride(from: 0, to: nums.count - 1, by: 2) {
                if let key = nums[index] as? Int { result[key] = nums[index + 1] }
            }
            pending += resolve(dict["/Kids"]) as? [Any] ?? []
        }
        return result
    }

    private func nameTreeKeys(_ node: Any?) -> [String] {
        guard let dict = dictionary(node) else { return [] }
        let names = resolve(dict["/Names"]) as? [Any] ?? []
        var keys = stride(from: 0, to: names.count - 1, by: 2).compactMap { text(names[$0]) }
        for kid in resolve(dict["/Kids"]) as? [Any] ?? [] { keys += nameTreeKeys(kid) }
        return keys
    }

    // MARK: JSON values

    private func kids(_ value: Any?) -> [Any] {
        let resolved = resolve(value)
        if let array = resolved as? [Any] { return array }
        if let value { return [value] }
        return []
    }

    private func dictionary(ofObject object: Any) -> [String: Any]? {
        let entry = object as? [String: Any]
        return entry?["value"] as? [String: Any] ?? (entry?["stream"] as? [String: Any])?["dict"] as? [String: Any]
    }

    private func resolve(_ value: Any?) -> Any? {
        guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
        let object = objects["obj:\(reference)"] as? [String: Any]
        return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
    }

    private func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

    /// A qpdf JSON v2 string ("u:text", "b:hex") as text.
    private func text(_ value: Any?) -> String? {
        guard let string = resolve(value) as? String else { return nil }
        if string.hasPrefix("u:") { return String(string.dropFirst(2)) }
        if string.hasPrefix("b:") {
            let hex = Array(string.dropFirst(2))
            let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(hex[$0...$0 + 1]), radix: 16) }
            return String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }
}
