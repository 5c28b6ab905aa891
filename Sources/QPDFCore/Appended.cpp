// An output written as its only source's bytes plus an incremental update (see
// Appended.hh): whether the file can take one (Appended::for_file: the source,
// its catalog, the end of its file), the change of the source in memory (build)
// and the update's objects, cross-reference section and trailer (update_bytes).
#include "Appended.hh"

#include "CheckedFile.hh"
#include "Geometry.hh"
#include "InPlace.hh"
#include "StructureTree.hh"
#include "Timing.hh"

#include <qpdf/Pl_Flate.hh>
#include <qpdf/Pl_String.hh>
#include <qpdf/QPDFCryptoProvider.hh>
#include <qpdf/QPDFSystemError.hh>

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <set>
#include <unistd.h>

namespace pe {
namespace {

// A file descriptor closed when it goes out of scope.
struct OpenFile {
    int descriptor;
    explicit OpenFile(char const *path) : descriptor(::open(path, O_RDONLY | O_CLOEXEC)) {}
    ~OpenFile()
    {
        if (descriptor >= 0) {
            ::close(descriptor);
        }
    }
    OpenFile(OpenFile const &) = delete;
    OpenFile &operator=(OpenFile const &) = delete;
};

bool is_pdf_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
}

// The end of the file at `path`: where its last startxref points and what is
// there; false when the file does not start with a PDF header at offset 0 (qpdf
// then reads offsets shifted by the garbage before it) or its end is not a plain
// `startxref N %%EOF` pointing at a table or an object.
bool read_tail(char const *path, FileTail &tail)
{
    OpenFile file(path);
    if (file.descriptor < 0) {
        return false;
    }
    off_t size = ::lseek(file.descriptor, 0, SEEK_END);
    if (size < 32) {
        return false;
    }
    char header[5];
    if (::pread(file.descriptor, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header) ||
        std::memcmp(header, "%PDF-", 5) != 0) {
        return false;
    }
    size_t length = static_cast<size_t>(std::min<off_t>(size, 1024));
    std::string end(length, '\0');
    if (::pread(file.descriptor, end.data(), length, size - static_cast<off_t>(length)) !=
        static_cast<ssize_t>(length)) {
        return false;
    }
    size_t keyword = end.rfind("startxref");
    if (keyword == std::string::npos) {
        return false;
    }
    size_t at = keyword + 9;
    while (at < end.size() && is_pdf_space(end[at])) {
        ++at;
    }
    long long offset = 0;
    size_t digits = 0;
    while (at < end.size() && end[at] >= '0' && end[at] <= '9' && digits < 15) {
        offset = offset * 10 + (end[at] - '0');
        ++at;
        ++digits;
    }
    if (digits == 0 || offset <= 0 || offset >= size || end.find("%%EOF", at) == std::string::npos) {
        return false;
    }
    char section[32] = {};
    ssize_t got = ::pread(file.descriptor, section, sizeof section - 1, offset);
    if (got < 8) {
        return false;
    }
    if (std::strncmp(section, "xref", 4) == 0) {
        tail.xref_stream = false;
    } else if (section[0] >= '0' && section[0] <= '9') {
        tail.xref_stream = true; // "N G obj": a cross-reference stream (qpdf read it without a warning)
    } else {
        return false;
    }
    tail.size = size;
    tail.last_xref = offset;
    tail.ends_line = end.back() == '\n' || end.back() == '\r';
    return true;
}

// Whether the source's cross-reference table gives an object an offset outside
// its file (`size` bytes; 0 too, where the header is): damage qpdf meets only
// when it reads that object (qpdf --check does), which the update would keep
// while copying leaves the unused object out.
bool xref_points_nowhere(Source::XRefSummary const &xref, long long size)
{
    return xref.lowest_offset <= xref.highest_offset && (xref.lowest_offset <= 0 || xref.highest_offset >= size);
}

// The titles of the source's bookmarks (UTF-8), each as often as it occurs;
// the walk stops at a loop and at the depth limit of every tree.
std::multiset<std::string> outline_titles(QPDF &pdf)
{
    std::multiset<std::string> titles;
    std::set<QPDFObjGen> seen;
    std::vector<std::pair<QPDFObjectHandle, int>> pending{{dict_key(pdf.getRoot().getKey("/Outlines"), "/First"), 0}};
    while (!pending.empty()) {
        auto [entry, depth] = pending.back();
        pending.pop_back();
        while (entry.isDictionary() && depth < page_tree_maximum_depth() &&
               (!entry.isIndirect() || seen.insert(entry.getObjGen()).second)) {
            QPDFObjectHandle title = entry.getKey("/Title");
            if (title.isString()) {
                titles.insert(title.getUTF8Value());
            }
            pending.emplace_back(entry.getKey("/First"), depth + 1);
            entry = entry.getKey("/Next");
        }
    }
    return titles;
}

// Whether writing `given` instead of the source's bookmarks removes or renames
// one: its old title would stay readable in the file's bytes, so such an
// output is copied.
bool outline_loses_titles(QPDF &pdf, std::deque<OutlineEntry> const &given)
{
    std::multiset<std::string> titles = outline_titles(pdf);
    for (OutlineEntry const &entry : given) {
        auto found = titles.find(entry.title_utf8);
        if (found != titles.end()) {
            titles.erase(found);
        }
    }
    return !titles.empty();
}

// Whether the /Rotate `page` has (its own or the nearest of its /Pages nodes')
// is `degrees`, the rotation page_rotation read from it, as written (0: none).
bool rotation_as_written(QPDFObjectHandle page, int degrees)
{
    QPDFObjectHandle node = page;
    for (int depth = 0; node.isDictionary() && depth <= page_tree_maximum_depth(); ++depth) {
        QPDFObjectHandle rotate = node.getKey("/Rotate");
        if (!rotate.isNull()) {
            return rotate.isInteger() && rotate.getIntValue() == degrees;
        }
        node = node.getKey("/Parent");
    }
    return degrees == 0;
}

// The number of pages below the /Pages node `node` when every node's /Count
// says it right, else -1 (a tree kept as it is must not keep a false count).
long long counted_pages(QPDFObjectHandle node, int depth)
{
    if (depth > page_tree_maximum_depth() || !node.isDictionary()) {
        return -1;
    }
    if (!node.getKey("/Type").isNameAndEquals("/Pages")) {
        return 1;
    }
    long long total = 0;
    QPDFObjectHandle kids = node.getKey("/Kids");
    if (!kids.isArray()) {
        return -1;
    }
    for (QPDFObjectHandle const &kid : kids.getArrayAsVector()) {
        long long below = counted_pages(kid, depth + 1);
        if (below < 0) {
            return -1;
        }
        total += below;
    }
    QPDFObjectHandle count = node.getKey("/Count");
    return count.isInteger() && count.getIntValue() == total ? total : -1;
}

// A name as PDF syntax: as it is when every character is a regular one that
// needs no #-escape (nearly every key), else qpdf's escaping.
void append_name(std::string &text, std::string const &name)
{
    bool plain = name.size() > 1 && name[0] == '/';
    for (size_t i = 1; plain && i < name.size(); ++i) {
        char c = name[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
            c == '-' || c == '+' || c == '*' || c == ',' || c == ':' || c == ';' || c == '=' || c == '!';
    }
    text += plain ? name : QPDFObjectHandle::newName(name).unparse();
}

// A value as PDF syntax, references as "N G R" (`content`: an indirect object's
// own content instead). Not qpdf's unparse: a dictionary's unparse leaves out null
// values, and to know whether a reference is one it resolves the object referred
// to, which for the page objects of a 20,000-page file parsed every content
// stream's dictionary (a quarter of the time of moving pages). A reference to a
// null object means null anyway.
void append_syntax(std::string &text, QPDFObjectHandle value, bool content = false)
{
    if (!content && value.isIndirect()) {
        QPDFObjGen og = value.getObjGen();
        text += std::to_string(og.getObj());
        text += ' ';
        text += std::to_string(og.getGen());
        text += " R";
    } else if (value.isDictionary()) {
        text += "<< ";
        for (auto &[key, item] : value.getDictAsMap()) {
            if (!item.isIndirect() && item.isNull()) {
                continue;
            }
            append_name(text, key);
            text += ' ';
            append_syntax(text, item);
            text += ' ';
        }
        text += ">>";
    } else if (value.isArray()) {
        text += "[ ";
        for (QPDFObjectHandle const &item : value.getArrayAsVector()) {
            append_syntax(text, item);
            text += ' ';
        }
        text += ']';
    } else if (value.isName()) {
        append_name(text, value.getName());
    } else {
        text += value.unparse();
    }
}

// An indirect object as the update writes it, between "N G obj" and "endobj",
// appended to `text`.
void append_object(std::string &text, QPDFObjectHandle object)
{
    if (!object.isStream()) {
        append_syntax(text, object, true);
        return;
    }
    std::shared_ptr<Buffer> data = object.getRawStreamData();
    QPDFObjectHandle dictionary = object.getDict().unsafeShallowCopy(); // only /Length replaced
    dictionary.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(data->getSize())));
    append_syntax(text, dictionary);
    text += "\nstream\n";
    text.append(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
    text += "\nendstream";
}

// `data` compressed with zlib (/FlateDecode).
std::string deflated(std::string const &data)
{
    std::string out;
    Pl_String sink("object stream", nullptr, out);
    Pl_Flate flate("object stream", &sink, Pl_Flate::a_deflate);
    flate.write(reinterpret_cast<unsigned char const *>(data.data()), data.size());
    flate.finish();
    return out;
}

// An object the update writes, with its number.
struct UpdateObject {
    QPDFObjGen og;
    QPDFObjectHandle object;
};

// The objects of `roots` (the changed ones), of `settled` (new objects whose
// references lead nowhere new but to these) and every new object the roots
// reach, by number.
std::vector<UpdateObject> objects_to_write(
    std::vector<QPDFObjectHandle> const &roots, std::vector<QPDFObjectHandle> const &settled, int bound)
{
    std::set<QPDFObjGen> seen;
    std::vector<UpdateObject> result;
    std::vector<QPDFObjectHandle> pending;
    for (QPDFObjectHandle const &object : settled) {
        QPDFObjGen og = object.getObjGen();
        if (seen.insert(og).second) {
            result.push_back(UpdateObject{og, object});
        }
    }
    for (QPDFObjectHandle const &root : roots) {
        QPDFObjGen og = root.getObjGen();
        if (root.isIndirect() && seen.insert(og).second) {
            result.push_back(UpdateObject{og, root});
            pending.push_back(root);
        }
    }
    // Walk each written object's direct content; a reference to a new object
    // adds it (and its content) to the update.
    while (!pending.empty()) {
        QPDFObjectHandle object = pending.back();
        pending.pop_back();
        std::vector<QPDFObjectHandle> values{object.isStream() ? object.getDict() : object};
        bool top = true;
        while (!values.empty()) {
            QPDFObjectHandle value = values.back();
            values.pop_back();
            if (!top && value.isIndirect()) {
                QPDFObjGen og = value.getObjGen();
                if (og.getObj() >= bound && seen.insert(og).second) {
                    result.push_back(UpdateObject{og, value});
                    pending.push_back(value);
                }
                continue;
            }
            top = false;
            if (value.isArray()) {
                for (QPDFObjectHandle const &element : value.getArrayAsVector()) {
                    values.push_back(element);
                }
            } else if (value.isDictionary()) {
                for (auto const &entry : value.getDictAsMap()) {
                    values.push_back(entry.second);
                }
            }
        }
    }
    std::sort(result.begin(), result.end(), [](UpdateObject const &a, UpdateObject const &b) { return a.og < b.og; });
    return result;
}

// `value` as `width` big-endian bytes.
void append_big_endian(std::string &into, unsigned long long value, int width)
{
    for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) {
        into += static_cast<char>((value >> shift) & 0xff);
    }
}

std::string md5(std::string const &first, std::string const &second)
{
    std::shared_ptr<QPDFCryptoImpl> crypto = QPDFCryptoProvider::getImpl();
    crypto->MD5_init();
    crypto->MD5_update(reinterpret_cast<unsigned char const *>(first.data()), first.size());
    crypto->MD5_update(reinterpret_cast<unsigned char const *>(second.data()), second.size());
    crypto->MD5_finalize();
    QPDFCryptoImpl::MD5_Digest digest;
    crypto->MD5_digest(digest);
    return std::string(reinterpret_cast<char const *>(digest), sizeof digest);
}

} // namespace

std::unique_ptr<Appended> Appended::for_file(Inputs &inputs, std::string *why)
{
    auto refuse = [why](char const *reason) -> std::unique_ptr<Appended> {
        if (why != nullptr) {
            *why = reason;
        }
        return nullptr;
    };
    Request const &request = inputs.request;
    pe_export_options const *options = request.options;
    int s = request.items[0].source;
    Source &source = inputs.sources[static_cast<size_t>(s)];
    pe_source const &arg = request.sources[s];
    // Damage the update would point into, or an encryption it cannot add to.
    if (!source.pdf || !source.opened_clean) {
        return refuse("the file is damaged (qpdf repaired it while reading)");
    }
    if (source.pdf->isEncrypted()) {
        return refuse("the file is encrypted");
    }
    std::vector<int> uses(source.pages.size(), 0);
    for (int i = 0; i < request.item_count; ++i) {
        ++uses[static_cast<size_t>(request.items[i].page)];
    }
    // A page of the file the plan leaves out (a page count given for another
    // file) would stay readable in its bytes: copying leaves it out.
    if (std::find(uses.begin(), uses.end(), 0) != uses.end()) {
        return refuse("pages of the file are left out");
    }
    bool keep_scripts = options != nullptr && options->keep_scripts != 0;
    QPDFObjectHandle root = source.pdf->getRoot();
    // A page used again gets a twin (Appended::twin). What the file holds
    // (scripts, XFA, a portfolio, form fields on a page used again) Swift
    // judged (ExportStrategy: droppedContents, repeatedFields).
    bool repeated = std::find_if(uses.begin(), uses.end(), [](int used) { return used > 1; }) != uses.end();
    FileTail tail;
    if (!read_tail(arg.path, tail) || xref_points_nowhere(source.xref, tail.size)) {
        return refuse("the file does not end in a cross-reference section an update can follow");
    }
    // A tagged source's twins get the structure of their content cloned
    // (clone_structure), from the tree as copying reads it; one it cannot read
    // is copying's to report.
    std::shared_ptr<SourceStructure const> structure;
    long long first_structure_number = 0;
    if (repeated && root.hasKey("/StructTreeRoot")) {
        QPDFObjectHandle tree_root = root.getKey("/StructTreeRoot");
        if (!tree_root.isDictionary() || !tree_root.isIndirect()) {
            return refuse("the file's structure tree cannot be read");
        }
        first_structure_number = free_structure_numbers(tree_root);
        if (first_structure_number < 0) {
            return refuse("the file's structure tree cannot be read");
        }
        if (!source.structure) {
            PhaseClock clock(Phase::structure);
            source.structure = std::make_shared<SourceStructure const>(read_structure(source));
        }
        if (!source.structure->usable) {
            return refuse("the file's structure tree cannot be read");
        }
        structure = source.structure;
    }
    auto made = std::make_unique<Appended>(inputs, s, tail, source.xref.object_bound);
    made->structure = structure;
    made->first_structure_number = first_structure_number;
    made->uses = std::move(uses);
    if (options != nullptr && options->outline_given != 0) {
        made->outline_given = true;
        made->given_outline_nodes =
            given_outline(options->outline, options->outline_count, request.item_count, made->given_entries);
        // Bookmarks of the file the given outline removes or renames (their
        // titles would stay readable in its bytes), or a script of the file's
        // bookmarks the output drops (write_outline would; copying names it).
        if (outline_loses_titles(*source.pdf, made->given_entries)) {
            return refuse("the bookmarks given remove or rename the file's own");
        }
        if (!keep_scripts) {
            for (OutlineEntry const &entry : made->given_entries) {
                if (entry.action.isInitialized() && runs_script(entry.action)) {
                    return refuse("a bookmark runs a script the output drops");
                }
            }
        }
    }
    return made;
}

Appended::Appended(Inputs &opened, int s, FileTail const &end, int bound) :
    inputs(opened),
    source_index(s),
    source(opened.sources[static_cast<size_t>(s)]),
    where(opened.where),
    tail(end),
    original_objects(bound)
{
}

void Appended::build(Dropped &dropped)
{
    PhaseClock clock(Phase::pages);
    QPDF &pdf = *source.pdf;
    NewNumbers numbers(pdf, original_objects);
    pe_item const *items = inputs.request.items;
    int count = inputs.request.item_count;
    pe_export_options const *options = inputs.request.options;
    where = Where{source_index, 0};
    BeforeChange before = BeforeChange::read(inputs, source);
    std::vector<int> const &rotations = before.rotations;
    QPDFObjectHandle root = pdf.getRoot();
    QPDFObjectHandle old_info = pdf.getTrailer().getKey("/Info");

    std::vector<QPDFObjectHandle> kids;
    std::vector<PlacedPage> placed;
    kids.reserve(static_cast<size_t>(count));
    bool same_order = true;
    for (int i = 0; i < count; ++i) {
        same_order = same_order && items[i].page == i;
    }
    // Kept only when its counts are right (a false /Count is rebuilt, as copying does).
    same_order = same_order && counted_pages(root.getKey("/Pages"), 0) == count;
    SharedInherited shared;
    std::vector<int> placed_before(source.pages.size(), 0);
    for (int i = 0; i < count; ++i) {
        where = Where{source_index, items[i].page + 1};
        QPDFObjectHandle page = source.pages[static_cast<size_t>(items[i].page)];
        int &before_this = placed_before[static_cast<size_t>(items[i].page)];
        if (before_this > 0) {
            // Not the first placement: links, bookmarks and the structure aim at
            // the first, the page object itself (placed before this, so it holds
            // what it inherited).
            Twin &made = twins[std::make_pair(items[i].page, before_this++)];
            made = twin(page);
            set_rotation(made.page, rotations[static_cast<size_t>(i)], items[i].quarter_turns);
            placed.push_back(PlacedPage{source_index, items[i].page, page, made.page, false});
            kids.push_back(made.page);
            continue;
        }
        ++before_this;
        placed.push_back(PlacedPage{source_index, items[i].page, page, page, true});
        if (same_order) {
            // The page tree stays: only a turned page changes, given its
            // rotation explicitly (0 too: it may inherit another), and one whose
            // /Rotate is not what copying writes (135 becomes 0, as there).
            if (items[i].quarter_turns % 4 != 0 || !rotation_as_written(page, rotations[static_cast<size_t>(i)])) {
                page.replaceKey(
                    "/Rotate",
                    QPDFObjectHandle::newInteger(
                        turned_rotation(rotations[static_cast<size_t>(i)], items[i].quarter_turns)));
                kids.push_back(page);
            }
            continue;
        }
        inherit_in_place(pdf, page, source.inherited(items[i].page), shared);
        set_rotation(page, rotations[static_cast<size_t>(i)], items[i].quarter_turns);
        kids.push_back(page);
    }
    where = Where{source_index, 0};
    changed = kids;
    if (structure) {
        PhaseClock tree(Phase::structure);
        clone_structure();
    }
    if (!same_order) {
        // A new tree of one node: each page gets what it inherited (above).
        QPDFObjectHandle tree = one_node_page_tree(pdf, kids);
        root.replaceKey("/Pages", tree);
        changed.push_back(tree);
    }
    before.set_page_labels(root);
    if (outline_given) {
        // The document's bookmarks as the session has them; without, the
        // source's stay as they are (they aim at the same page objects).
        root.removeKey("/Outlines");
        write_outline(pdf, given_outline_nodes, placed, options->keep_scripts != 0, dropped);
        if (!root.hasKey("/Outlines") && root.getKey("/PageMode").isNameAndEquals("/UseOutlines")) {
            root.removeKey("/PageMode");
        }
    }
    // Usage rights signed over the original pages would no longer verify (the
    // copying export leaves them out too).
    root.removeKey("/Perms");
    settle_metadata(pdf, root.getKey("/Metadata"), old_info, options, source.modified);

    changed.push_back(root);
    QPDFObjectHandle info = pdf.getTrailer().getKey("/Info");
    if (info.isIndirect()) {
        changed.push_back(info);
    }
    QPDFObjectHandle metadata = root.getKey("/Metadata");
    if (metadata.isIndirect()) {
        changed.push_back(metadata);
    }
    where = Where{};
}

Appended::Twin Appended::twin(QPDFObjectHandle page)
{
    QPDF &pdf = *source.pdf;
    Twin made;
    // Top-level entries replaced only: values below are shared with the page.
    QPDFObjectHandle copy = make_indirect(pdf, page.unsafeShallowCopy());
    made.page = copy;
    QPDFObjectHandle annots = page.getKey("/Annots");
    if (!annots.isArray()) {
        copy.removeKey("/Annots");
        return made;
    }
    // Each annotation a new object on the copy, linked to its copied siblings.
    std::vector<QPDFObjectHandle> originals;
    std::vector<QPDFObjectHandle> copies;
    std::map<QPDFObjGen, QPDFObjectHandle> copy_of;
    for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
        if (!annot.isDictionary()) {
            continue;
        }
        QPDFObjectHandle annot_copy = make_indirect(pdf, annot.unsafeShallowCopy());
        annot_copy.replaceKey("/P", copy);
        if (annot.isIndirect()) {
            copy_of.emplace(annot.getObjGen(), annot_copy);
        }
        originals.push_back(annot);
        copies.push_back(annot_copy);
    }
    for (size_t i = 0; i < copies.size(); ++i) {
        for (char const *key : sibling_keys) {
            QPDFObjectHandle target = originals[i].getKey(key);
            auto mapped = target.isIndirect() ? copy_of.find(target.getObjGen()) : copy_of.end();
            if (mapped != copy_of.end()) {
                copies[i].replaceKey(key, mapped->second);
            }
        }
    }
    copy.replaceKey("/Annots", QPDFObjectHandle::newArray(copies));
    made.annotations = std::move(copy_of);
    return made;
}

std::string Appended::update_bytes()
{
    QPDF &pdf = *source.pdf;
    std::vector<UpdateObject> objects = objects_to_write(changed, settled, original_objects);
    std::string update = tail.ends_line ? "" : "\n";
    // A cross-reference entry: type 1 (field2 the offset, field3 the generation)
    // or 2 (field2 the object stream, field3 the index in it).
    struct Entry {
        int number;
        int type;
        long long field2;
        int field3;
    };
    std::vector<Entry> entries;
    int largest = original_objects - 1;
    for (UpdateObject const &written : objects) {
        largest = std::max(largest, written.og.getObj());
    }
    // After a cross-reference stream (PDF 1.5), objects other than streams go in
    // compressed object streams, as qpdf writes such a file: a tagged book's
    // cloned structure is most of an update, and written out loose it was
    // twice the size of the source.
    std::vector<UpdateObject> packed;
    for (UpdateObject const &written : objects) {
        QPDFObjGen og = written.og;
        QPDFObjectHandle object = written.object;
        if (tail.xref_stream && og.getGen() == 0 && !object.isStream()) {
            packed.push_back(written);
            continue;
        }
        entries.push_back(Entry{og.getObj(), 1, tail.size + static_cast<long long>(update.size()), og.getGen()});
        update += std::to_string(og.getObj()) + " " + std::to_string(og.getGen()) + " obj\n";
        append_object(update, object);
        update += "\nendobj\n";
    }
    constexpr size_t per_stream = 100;
    for (size_t first = 0; first < packed.size(); first += per_stream) {
        int number = ++largest;
        size_t end = std::min(packed.size(), first + per_stream);
        std::string header;
        std::string body;
        for (size_t i = first; i < end; ++i) {
            int packed_number = packed[i].og.getObj();
            header += std::to_string(packed_number) + " " + std::to_string(body.size()) + " ";
            append_object(body, packed[i].object);
            body += '\n';
            entries.push_back(Entry{packed_number, 2, number, static_cast<int>(i - first)});
        }
        std::string data = deflated(header + body);
        entries.push_back(Entry{number, 1, tail.size + static_cast<long long>(update.size()), 0});
        update += std::to_string(number) + " 0 obj\n<< /Type /ObjStm /N " + std::to_string(end - first) +
            " /First " + std::to_string(header.size()) + " /Filter /FlateDecode /Length " +
            std::to_string(data.size()) + " >>\nstream\n";
        update += data;
        update += "\nendstream\nendobj\n";
    }
    std::sort(entries.begin(), entries.end(), [](Entry const &a, Entry const &b) { return a.number < b.number; });
    // The trailer: the previous one's entries (7.5.6), with the new catalog,
    // information, size, identifier and /Prev.
    QPDFObjectHandle previous = pdf.getTrailer();
    QPDFObjectHandle trailer = QPDFObjectHandle::newDictionary();
    static char const *const left_out[] = {
        "/Prev", "/XRefStm", "/Size", "/Type", "/W", "/Index", "/Filter", "/DecodeParms", "/Length", "/DL",
        "/Encrypt", "/Root", "/Info", "/ID"};
    for (std::string const &key : previous.getKeys()) {
        if (std::none_of(std::begin(left_out), std::end(left_out), [&key](char const *k) { return key == k; })) {
            trailer.replaceKey(key, previous.getKey(key));
        }
    }
    trailer.replaceKey("/Root", pdf.getRoot());
    QPDFObjectHandle info = previous.getKey("/Info");
    if (info.isIndirect()) {
        trailer.replaceKey("/Info", info);
    }
    // The first identifier stays the file's (it names the document); the
    // second changes with the content, the same for the same update.
    QPDFObjectHandle id = previous.getKey("/ID");
    std::string permanent = id.isArray() && id.getArrayNItems() == 2 && id.getArrayItem(0).isString()
        ? id.getArrayItem(0).getStringValue()
        : std::string();
    std::string changing = md5(permanent, update);
    trailer.replaceKey(
        "/ID",
        QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
            QPDFObjectHandle::newString(permanent.empty() ? changing : permanent),
            QPDFObjectHandle::newString(changing)}));
    trailer.replaceKey("/Prev", QPDFObjectHandle::newInteger(tail.last_xref));
    long long section = tail.size + static_cast<long long>(update.size());
    if (!tail.xref_stream) {
        trailer.replaceKey("/Size", QPDFObjectHandle::newInteger(largest + 1));
        update += "xref\n";
        char entry[24];
        for (size_t i = 0; i < entries.size();) {
            size_t run = i + 1;
            while (run < entries.size() && entries[run].number == entries[run - 1].number + 1) {
                ++run;
            }
            update += std::to_string(entries[i].number) + " " + std::to_string(run - i) + "\n";
            for (; i < run; ++i) {
                std::snprintf(entry, sizeof entry, "%010lld %05d n\r\n", entries[i].field2, entries[i].field3);
                update += entry;
            }
        }
        update += "trailer\n" + trailer.unparse() + "\nstartxref\n" + std::to_string(section) + "\n%%EOF\n";
        return update;
    }
    // A cross-reference stream, itself the last object: /W [1 w 2].
    int self = largest + 1;
    entries.push_back(Entry{self, 1, section, 0});
    int width = 1;
    while (width < 8 && (std::max<long long>(section, self) >> (8 * width)) != 0) {
        ++width;
    }
    std::string data;
    std::vector<QPDFObjectHandle> index;
    for (size_t i = 0; i < entries.size();) {
        size_t run = i + 1;
        while (run < entries.size() && entries[run].number == entries[run - 1].number + 1) {
            ++run;
        }
        index.push_back(QPDFObjectHandle::newInteger(entries[i].number));
        index.push_back(QPDFObjectHandle::newInteger(static_cast<long long>(run - i)));
        for (; i < run; ++i) {
            data += static_cast<char>(entries[i].type);
            append_big_endian(data, static_cast<unsigned long long>(entries[i].field2), width);
            append_big_endian(data, static_cast<unsigned long long>(entries[i].field3), 2);
        }
    }
    trailer.replaceKey("/Type", QPDFObjectHandle::newName("/XRef"));
    trailer.replaceKey("/Size", QPDFObjectHandle::newInteger(self + 1));
    trailer.replaceKey("/Index", QPDFObjectHandle::newArray(index));
    trailer.replaceKey(
        "/W",
        QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
            QPDFObjectHandle::newInteger(1), QPDFObjectHandle::newInteger(width), QPDFObjectHandle::newInteger(2)}));
    trailer.replaceKey("/Length", QPDFObjectHandle::newInteger(static_cast<long long>(data.size())));
    update += std::to_string(self) + " 0 obj\n" + trailer.unparse() + "\nstream\n" + data + "\nendstream\nendobj\n";
    update += "startxref\n" + std::to_string(section) + "\n%%EOF\n";
    return update;
}

void Appended::write(char const *out_path, bool &started)
{
    PhaseClock clock(Phase::write);
    where = Where{};
    std::string update = update_bytes();
    char const *path = inputs.request.sources[source_index].path;
    OpenFile in(path);
    if (in.descriptor < 0) {
        throw QPDFSystemError(std::string("open ") + path, errno);
    }
    started = true;
    CheckedFile file(out_path, true);
    // Not zero-filled, and no larger than the source (a zeroed 1 MiB vector
    // was 256 page faults of a small file's edit).
    size_t const capacity = static_cast<size_t>(std::min<long long>(tail.size, 1 << 20));
    std::unique_ptr<unsigned char[]> buffer(new unsigned char[capacity]);
    long long copied = 0;
    while (copied < tail.size) {
        size_t want = static_cast<size_t>(std::min<long long>(tail.size - copied, static_cast<long long>(capacity)));
        ssize_t got = ::pread(in.descriptor, buffer.get(), want, copied);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            // The source changed under us (shorter than when it was read).
            throw QPDFSystemError(std::string("read ") + path, got < 0 ? errno : EIO);
        }
        file.write(buffer.get(), static_cast<size_t>(got));
        copied += got;
    }
    file.write(reinterpret_cast<unsigned char const *>(update.data()), update.size());
    file.close();
    pe_export_options const *options = inputs.request.options;
    if (options != nullptr && options->progress != nullptr) {
        options->progress(options->progress_context, 100, 100);
    }
    inputs.forward_all_warnings();
}

} // namespace pe
