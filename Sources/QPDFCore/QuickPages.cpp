// list_pages_unparsed: a clean file's page list without parsing its pages.
//
// qpdf's getAllPages parses every kid of the page tree to learn whether it has
// /Kids (a node) or not (a page): about 6 microseconds a page, 118 ms of a
// 20,000-page file, more than mutool takes to extract 51 of its pages. Here each
// kid's bytes in the file are read instead: a kid whose object is plainly a
// dictionary with /Type /Page and no /Kids anywhere is a page that getAllPages
// would list as it is (no repair, no copy); one that is plainly a /Pages node
// (a /Kids array of references, none of the attributes pages inherit) is walked
// from those references, which qpdf's parser took 700 instructions a byte to
// read (a fifth of that extract). Objects stay unparsed until something reads
// them (a copy, a check of that page). Anything less plain is parsed by qpdf
// and judged by getAllPages' own rules (a node with /MediaBox, /CropBox,
// /Resources or /Rotate gives its pages those values); anything getAllPages
// would repair or warn about (a node without /Type /Pages, a page without /Type
// /Page, a kid used twice or given directly, a loop, a root /Pages with a
// /Parent, a kid in an object stream, a tree deeper than the limit) gives up,
// and the file is opened the usual way.
#include "PlainSyntax.hh"
#include "Source.hh"

#include <algorithm>
#include <climits>
#include <cstring>
#include <set>
#include <string>
#include <unordered_set>

namespace pe {
namespace {

// How much of a kid's object is read to judge it (page dictionaries are short),
// and how much of the file is read at once.
constexpr size_t kObjectWindow = 2048;
constexpr size_t kReadWindow = 65536;
// The longest page tree node read plainly (a flat tree's root lists every page,
// about 10 bytes each): longer ones are parsed by qpdf.
constexpr size_t kLargestNode = 16 << 20;

// Reads the plain PDF values of a kid's object: names, numbers, references,
// arrays, dictionaries, true, false and null. Anything else (strings, comments,
// names with # escapes, a /Kids name below the top level, a key given twice)
// makes it give up: the object is then left to qpdf's parser.
class PlainReader : public PlainLexer {
  public:
    using PlainLexer::PlainLexer;

    // Whether the bytes are object `og` holding a dictionary that getAllPages
    // takes as a page as it is: one /Type, /Page, at its top level, no /Kids
    // name anywhere, then endobj. False means "not known", never "not a page".
    bool plainly_a_page(QPDFObjGen og)
    {
        bool done = dictionary(og, [&](std::string const &key) {
            if (key == "/Type") {
                return type_is("/Page", page);
            }
            return key != "/Kids" && value(1);
        });
        return done && page;
    }

    // Whether plainly_a_page read /Type /Page before it stopped.
    bool typed_page() const { return page; }

    // Whether the bytes are object `og` holding a page tree node that
    // getAllPages walks as it is (/Type /Pages, a /Kids array of references
    // only, which are put in `kids`) and that holds none of the attributes pages
    // inherit (a node with one is parsed by qpdf, whose values its pages are
    // given). False means "not known".
    bool plainly_a_node(QPDFObjGen og, std::vector<QPDFObjGen> &kids)
    {
        bool pages = false;
        parent = false;
        bool listed = false;
        kids.clear();
        bool done = dictionary(og, [&](std::string const &key) {
            if (key == "/Type") {
                return type_is("/Pages", pages);
            }
            if (key == "/Kids") {
                listed = true;
                return references(kids);
            }
            if (key == "/Parent") {
                parent = true;
            }
            for (int k = 0; k < inheritable_count; ++k) {
                if (key == inheritable_keys[k]) {
                    return false;
                }
            }
            return value(1);
        });
        return done && pages && listed;
    }

    // Whether the node read had a /Parent (a tree's root must not).
    bool has_parent() const { return parent; }

  private:
    // `og`'s object header, a dictionary whose keys are each read by `entry`
    // (called with the reader at the key's value; false gives up), endobj.
    // A key given twice gives up (qpdf would warn and keep the last).
    template <typename Entry>
    bool dictionary(QPDFObjGen og, Entry entry)
    {
        if (!header(og)) {
            return false;
        }
        skip_space();
        if (!starts("<<")) {
            return false;
        }
        at += 2;
        std::vector<std::string> keys; // page and node dictionaries hold a handful
        for (;;) {
            if (closes(">>")) {
                break;
            }
            std::string key;
            if (!any_name(key) || std::find(keys.begin(), keys.end(), key) != keys.end()) {
                return false;
            }
            keys.push_back(key);
            skip_space();
            if (!entry(key)) {
                return false;
            }
        }
        skip_space();
        return word("endobj");
    }

    // An array of references (object, generation, R) only.
    bool references(std::vector<QPDFObjGen> &into)
    {
        if (at >= length || text[at] != '[') {
            return false;
        }
        ++at;
        for (;;) {
            if (closes("]")) {
                return true;
            }
            long long object = 0;
            long long generation = 0;
            if (!integer(object)) {
                return false;
            }
            skip_space();
            if (!integer(generation)) {
                return false;
            }
            skip_space();
            if (!word("R") || object > INT_MAX || generation > INT_MAX) {
                return false;
            }
            into.emplace_back(static_cast<int>(object), static_cast<int>(generation));
        }
    }

    // A /Type value, a name: `is` tells whether it is `wanted`.
    bool type_is(char const *wanted, bool &is)
    {
        std::string type;
        if (!name(type)) {
            return false;
        }
        is = type == wanted;
        return true;
    }

    // A name without escapes, not /Kids.
    bool name(std::string &into) { return any_name(into) && into != "/Kids"; }

    // A number: digits, one point at most, a sign first.
    bool real()
    {
        size_t start = at;
        if (at < length && (text[at] == '-' || text[at] == '+')) {
            ++at;
        }
        bool digits = false;
        bool point = false;
        while (at < length && !is_delimiter(text[at])) {
            char c = text[at];
            if (c >= '0' && c <= '9') {
                digits = true;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                return false;
            }
            ++at;
        }
        return digits && at < length && at > start;
    }

    // One value at `depth` (1: a value of the page dictionary).
    bool value(int depth)
    {
        if (depth > 32 || at >= length) {
            return false;
        }
        char c = text[at];
        if (c == '/') {
            std::string ignored;
            return name(ignored);
        }
        if (c == '[') {
            ++at;
            for (;;) {
                if (closes("]")) {
                    return true;
                }
                if (!value(depth + 1)) {
                    return false;
                }
            }
        }
        if (starts("<<")) {
            at += 2;
            for (;;) {
                if (closes(">>")) {
                    return true;
                }
                std::string key;
                if (!name(key)) {
                    return false;
                }
                skip_space();
                if (!value(depth + 1)) {
                    return false;
                }
            }
        }
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
            // A number, or a reference: object, generation, R.
            size_t start = at;
            long long object = 0;
            if (integer(object)) {
                size_t after = at;
                skip_space();
                long long generation = 0;
                if (integer(generation)) {
                    skip_space();
                    if (word("R")) {
                        return true;
                    }
                }
                at = after;
                return true;
            }
            at = start;
            return real();
        }
        return word("true") || word("false") || word("null");
    }

    bool parent = false;
    bool page = false;
};

} // namespace

bool list_pages_unparsed(
    QPDF &pdf,
    ReadInputSource &file,
    std::map<QPDFObjGen, QPDFXRefEntry> const &xref,
    std::vector<QPDFObjectHandle> &pages,
    std::vector<InheritedFrame> &frames,
    std::vector<int> &page_frame)
{
    if (pdf.anyWarnings() || pdf.isEncrypted()) {
        return false;
    }
    QPDFObjectHandle root = pdf.getRoot().getKey("/Pages");
    if (!root.isIndirect()) {
        return false;
    }
    std::vector<QPDFObjectHandle> listed;
    std::vector<InheritedFrame> found_frames(1);
    std::vector<int> listed_frame;
    std::unordered_set<int> used; // object numbers of nodes and pages seen
    size_t const limit = static_cast<size_t>(page_tree_maximum_depth());
    struct Node {
        std::vector<QPDFObjGen> kids;
        size_t next;
        int frame;
    };
    std::vector<Node> path;

    FileWindow window(kReadWindow);
    auto bytes_at = [&](qpdf_offset_t offset, size_t want, size_t &got) {
        return window.bytes_at(file, offset, want, got);
    };

    // Enters a node read plainly (no inherited attributes: its parent's frame).
    auto enter_plain = [&](QPDFObjGen og, std::vector<QPDFObjGen> &kids, int parent_frame) {
        if (!used.insert(og.getObj()).second || path.size() >= limit) {
            return false;
        }
        path.push_back(Node{std::move(kids), 0, parent_frame});
        return true;
    };
    // Enters a node parsed by qpdf: its inheritable attributes make a new frame.
    auto enter_parsed = [&](QPDFObjectHandle node, int parent_frame) {
        if (!node.isDictionaryOfType("/Pages") || !used.insert(node.getObjGen().getObj()).second ||
            path.size() >= limit) {
            return false;
        }
        QPDFObjectHandle array = node.getKey("/Kids");
        if (!array.isArray()) {
            return false;
        }
        std::vector<QPDFObjGen> kids;
        for (QPDFObjectHandle const &kid : array.getArrayAsVector()) {
            if (!kid.isIndirect()) {
                return false; // getAllPages would make a page given directly indirect
            }
            kids.push_back(kid.getObjGen());
        }
        path.push_back(Node{std::move(kids), 0, node_frame(node, parent_frame, found_frames)});
        return true;
    };
    // Reads object `og` as a page (listed) or a node (entered), plainly where its
    // bytes allow, else parsed and judged by getAllPages' rules. False gives up.
    std::vector<QPDFObjGen> kids;
    auto visit = [&](QPDFObjGen og, int frame, bool is_root) {
        auto entry = xref.find(og);
        if (entry == xref.end() || entry->second.getType() != 1) {
            return false; // in an object stream, or not in the table
        }
        qpdf_offset_t offset = entry->second.getOffset();
        size_t got = 0;
        char const *text = bytes_at(offset, kObjectWindow, got);
        PlainReader page(text, got);
        if (!is_root && page.plainly_a_page(og)) {
            if (!used.insert(og.getObj()).second) {
                return false; // used twice: getAllPages would copy it
            }
            listed.push_back(pdf.getObject(og));
            listed_frame.push_back(frame);
            return true;
        }
        // A node: as much of it as the window holds, then more while it runs on
        // (not tried for a page that holds something unplain: /Type /Page rules
        // out a plain node).
        for (size_t want = kReadWindow; want <= kLargestNode && !page.typed_page(); want *= 4) {
            text = bytes_at(offset, want, got);
            PlainReader reader(text, got);
            if (reader.plainly_a_node(og, kids)) {
                return !(is_root && reader.has_parent()) && enter_plain(og, kids, frame);
            }
            if (!reader.ran_out() || got < want) {
                break; // not plain, or the whole rest of the file was read
            }
        }
        QPDFObjectHandle kid = pdf.getObject(og);
        if (is_root) {
            return !kid.hasKey("/Parent") && enter_parsed(kid, frame);
        }
        if (kid.hasKey("/Kids")) {
            return enter_parsed(kid, frame);
        }
        if (!kid.isDictionaryOfType("/Page") || !used.insert(og.getObj()).second) {
            return false;
        }
        listed.push_back(kid);
        listed_frame.push_back(frame);
        return true;
    };
    if (!visit(root.getObjGen(), 0, true)) {
        return false;
    }
    while (!path.empty()) {
        Node &node = path.back();
        if (node.next == node.kids.size()) {
            path.pop_back();
            continue;
        }
        QPDFObjGen og = node.kids[node.next++];
        if (!visit(og, node.frame, false)) { // may push, which moves `node`: not used after
            return false;
        }
    }
    if (listed.empty() || pdf.anyWarnings()) {
        return false;
    }
    pages = std::move(listed);
    if (found_frames.size() == 1) {
        frames.clear(); // nothing to inherit
        page_frame.clear();
    } else {
        frames = std::move(found_frames);
        page_frame = std::move(listed_frame);
    }
    return true;
}

} // namespace pe
