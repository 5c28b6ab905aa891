// Small helpers shared by the export steps: reading destinations, and moving
// values from a source into the output (qpdf refuses a source's objects, even
// direct ones, inside the output's).
#include "Export.hh"

#include <algorithm>

namespace pe {

QPDFObjectHandle dict_key(QPDFObjectHandle object, std::string const &key)
{
    return object.isDictionary() ? object.getKey(key) : QPDFObjectHandle::newNull();
}

namespace {

// Deep enough for any destination, colour or label dictionary; stops cycles.
constexpr int max_fresh_depth = 8;

QPDFObjectHandle fresh_copy_at(QPDFObjectHandle value, int depth)
{
    if (!value.isInitialized() || depth > max_fresh_depth) {
        return QPDFObjectHandle::newNull();
    }
    if (value.isBool()) {
        return QPDFObjectHandle::newBool(value.getBoolValue());
    }
    if (value.isInteger()) {
        return QPDFObjectHandle::newInteger(value.getIntValue());
    }
    if (value.isReal()) {
        return QPDFObjectHandle::newReal(value.getRealValue());
    }
    if (value.isName()) {
        return QPDFObjectHandle::newName(value.getName());
    }
    if (value.isString()) {
        return QPDFObjectHandle::newString(value.getStringValue());
    }
    if (value.isArray()) {
        std::vector<QPDFObjectHandle> items;
        for (QPDFObjectHandle &item : value.getArrayAsVector()) {
            items.push_back(fresh_copy_at(item, depth + 1));
        }
        return QPDFObjectHandle::newArray(items);
    }
    if (value.isDictionary()) {
        QPDFObjectHandle result = QPDFObjectHandle::newDictionary();
        for (auto &entry : value.getDictAsMap()) {
            result.replaceKey(entry.first, fresh_copy_at(entry.second, depth + 1));
        }
        return result;
    }
    return QPDFObjectHandle::newNull();
}

} // namespace

namespace {

// The QPDF whose new objects make_indirect numbers, and the next number.
struct Numbering {
    QPDF *pdf = nullptr;
    int next = 0;
};
thread_local Numbering numbering;

} // namespace

QPDFObjectHandle make_indirect(QPDF &pdf, QPDFObjectHandle direct)
{
    if (numbering.pdf != &pdf) {
        return pdf.makeIndirectObject(direct);
    }
    QPDFObjGen number(numbering.next++, 0);
    pdf.replaceObject(number, direct);
    return pdf.getObject(number);
}

void start_empty(QPDF &pdf)
{
    // A header, a cross-reference table of the free entry 0 alone, a trailer
    // without /Root: qpdf reads it without a warning.
    static char const no_objects[] = "%PDF-1.3\nxref\n0 1\n0000000000 65535 f \ntrailer<</Size 1>>\n"
                                     "startxref\n9\n%%EOF\n";
    pdf.processMemoryFile("empty PDF", no_objects, sizeof(no_objects) - 1);
    QPDFObjectHandle catalog = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
    QPDFObjectHandle pages = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
    pages.replaceKey("/Type", QPDFObjectHandle::newName("/Pages"));
    pages.replaceKey("/Kids", QPDFObjectHandle::newArray());
    pages.replaceKey("/Count", QPDFObjectHandle::newInteger(0));
    catalog.replaceKey("/Type", QPDFObjectHandle::newName("/Catalog"));
    catalog.replaceKey("/Pages", pages);
    pdf.getTrailer().replaceKey("/Root", catalog);
}

int first_free_number(QPDF &pdf, int from)
{
    while (!pdf.getObject(from, 0).isNull()) {
        ++from;
    }
    return from;
}

int object_number_bound(QPDF &pdf)
{
    std::map<QPDFObjGen, QPDFXRefEntry> const xref = pdf.getXRefTable();
    return object_number_bound(pdf, xref.empty() ? 0 : xref.rbegin()->first.getObj());
}

int object_number_bound(QPDF &pdf, int largest_listed)
{
    long long bound = std::max(1LL, static_cast<long long>(largest_listed) + 1);
    QPDFObjectHandle size = pdf.getTrailer().getKey("/Size");
    if (size.isInteger()) {
        bound = std::max(bound, size.getIntValue());
    }
    return static_cast<int>(std::min<long long>(bound, 1LL << 30));
}

QPDFObjectHandle make_source_object(Source &source, QPDFObjectHandle direct)
{
    QPDF &pdf = *source.pdf;
    if (source.made_objects_from == 0) {
        source.made_objects_from = source.xref.object_bound > 1 ? source.xref.object_bound : object_number_bound(pdf);
    }
    int number = first_free_number(pdf, source.made_objects_from);
    source.made_objects_from = number + 1; // never this number again
    QPDFObjGen og(number, 0);
    pdf.replaceObject(og, direct);
    return pdf.getObject(og);
}

NewNumbers::NewNumbers(QPDF &pdf, int first)
{
    numbering = Numbering{&pdf, first};
}

NewNumbers::~NewNumbers()
{
    numbering = Numbering{};
}

QPDFObjectHandle fresh_copy(QPDFObjectHandle value)
{
    return fresh_copy_at(value, 0);
}

QPDFObjectHandle import_value(QPDF &out, QPDFObjectHandle value)
{
    if (!value.isInitialized()) {
        return QPDFObjectHandle::newNull();
    }
    if (value.isIndirect()) {
        return copy_foreign_value(out, value);
    }
    if (value.isArray() || value.isDictionary()) {
        // Not through an indirect object made in the source: qpdf 11.3's
        // makeIndirectObject walks every object the source has read
        // (getObjectCount -> fixDanglingReferences), once per call, which was
        // half the time of splitting a tagged 206-page book.
        return out.makeIndirectObject(import_direct(out, value));
    }
    return fresh_copy(value);
}

std::vector<std::pair<std::string, QPDFObjectHandle>> name_tree_entries(QPDFObjectHandle tree)
{
    std::vector<std::pair<std::string, QPDFObjectHandle>> entries;
    std::set<QPDFObjGen> seen;
    // (node, depth), last in first out; kids pushed in reverse so that they are
    // met in /Kids order.
    std::vector<std::pair<QPDFObjectHandle, int>> pending{{tree, 1}};
    int const deepest = page_tree_maximum_depth();
    while (!pending.empty()) {
        auto [node, depth] = pending.back();
        pending.pop_back();
        if (!node.isDictionary() || depth > deepest) {
            continue;
        }
        if (node.isIndirect() && !seen.insert(node.getObjGen()).second) {
            continue;
        }
        QPDFObjectHandle names = node.getKey("/Names");
        if (names.isArray()) {
            int count = names.getArrayNItems();
            for (int i = 0; i + 1 < count; i += 2) {
                QPDFObjectHandle key = names.getArrayItem(i);
                if (key.isString()) {
                    entries.emplace_back(key.getUTF8Value(), names.getArrayItem(i + 1));
                }
            }
        }
        QPDFObjectHandle kids = node.getKey("/Kids");
        if (kids.isArray()) {
            for (int i = kids.getArrayNItems() - 1; i >= 0; --i) {
                pending.emplace_back(kids.getArrayItem(i), depth + 1);
            }
        }
    }
    return entries;
}

QPDFObjectHandle Source::named_destination(std::string const &name)
{
    if (!destination_names) {
        auto names = std::make_unique<std::map<std::string, QPDFObjectHandle>>();
        QPDFObjectHandle tree = dict_key(dict_key(pdf->getRoot(), "/Names"), "/Dests");
        for (auto const &entry : name_tree_entries(tree)) {
            names->emplace(entry.first, entry.second); // the first of duplicates
        }
        destination_names = std::move(names);
    }
    auto found = destination_names->find(name);
    return found == destination_names->end() ? QPDFObjectHandle() : found->second;
}

QPDFObjectHandle Source::catalog(char const *key)
{
    if (!catalog_keys) {
        // The keys as written, values unresolved: getKeys would resolve every
        // value to leave out nulls, parsing objects (and warning about damage in
        // them) that no export asks for. A key kept here whose value is null
        // gives null through getKey, as before.
        QPDFObjectHandle root = pdf->getRoot();
        auto keys = std::make_unique<std::set<std::string, std::less<>>>();
        if (root.isDictionary()) {
            for (auto const &entry : root.getDictAsMap()) {
                keys->insert(entry.first);
            }
        }
        catalog_keys = std::move(keys);
    }
    if (catalog_keys->find(std::string_view(key)) == catalog_keys->end()) {
        return QPDFObjectHandle::newNull();
    }
    return pdf->getRoot().getKey(key);
}

QPDFObjectHandle explicit_destination(Source &source, QPDFObjectHandle dest)
{
    if (dest.isArray()) {
        return dest;
    }
    QPDFObjectHandle found;
    if (dest.isName()) {
        found = dict_key(source.catalog("/Dests"), dest.getName());
    } else if (dest.isString()) {
        found = source.named_destination(dest.getUTF8Value());
        if (!found.isInitialized() || found.isNull()) {
            // Some producers use strings for entries of the old /Dests dictionary.
            found = dict_key(source.catalog("/Dests"), "/" + dest.getUTF8Value());
        }
    }
    if (found.isInitialized() && found.isDictionary()) {
        found = found.getKey("/D");
    }
    return found.isInitialized() && found.isArray() ? found : QPDFObjectHandle::newNull();
}

int destination_page(Source &source, QPDFObjectHandle target)
{
    if (!target.isInteger()) {
        return source.index_of_page(target);
    }
    long long index = -1;
    return read_integer(target, 0, static_cast<long long>(source.pages.size()) - 1, index) ? static_cast<int>(index) : -1;
}

std::vector<int> page_sources(pe_item const *items, int item_count)
{
    std::vector<int> order;
    std::set<int> seen;
    auto note = [&](int kind, int source) {
        if (kind == PE_ITEM_PAGE && seen.insert(source).second) {
            order.push_back(source);
        }
    };
    for (int i = 0; i < item_count; ++i) {
        note(items[i].kind, items[i].source);
        for (int c = 0; items[i].kind == PE_ITEM_SHEET && c < items[i].cell_count; ++c) {
            note(items[i].cells[c].kind, items[i].cells[c].source); // a sheet's pages (nup, booklet)
        }
    }
    return order;
}

std::string file_name(char const *path)
{
    std::string text = path == nullptr ? "" : path;
    size_t slash = text.find_last_of('/');
    return slash == std::string::npos ? text : text.substr(slash + 1);
}

QPDFObjectHandle import_direct(QPDF &out, QPDFObjectHandle value)
{
    if (value.isIndirect()) {
        return copy_foreign_value(out, value);
    }
    if (value.isArray()) {
        std::vector<QPDFObjectHandle> items;
        for (QPDFObjectHandle const &item : value.getArrayAsVector()) {
            items.push_back(import_direct(out, item));
        }
        return QPDFObjectHandle::newArray(items);
    }
    if (value.isDictionary()) {
        QPDFObjectHandle result = QPDFObjectHandle::newDictionary();
        for (std::string const &key : value.getKeys()) {
            result.replaceKey(key, import_direct(out, value.getKey(key)));
        }
        return result;
    }
    return fresh_copy(value);
}

void Source::find_inherited()
{
    bool walked = find_inherited_frames(pdf->getRoot().getKey("/Pages"), pages, frames, page_frame);
    if (!walked) {
        // Not the tree getAllPages reported: let qpdf push the attributes itself.
        frames.clear();
        page_frame.clear();
        pdf->pushInheritedAttributesToPage();
        pages = pdf->getAllPages();
        return;
    }
    if (frames.size() == 1) {
        frames.clear(); // nothing to inherit
        page_frame.clear();
    }
}

void Source::push_inherited(int index)
{
    InheritedFrame const *frame = inherited(index);
    if (frame != nullptr) {
        push_inherited_attributes(pages[static_cast<size_t>(index)], *frame);
    }
}

int Source::index_of_page(QPDFObjectHandle page)
{
    if (!page.isIndirect()) {
        return -1;
    }
    if (!page_index_built) {
        for (size_t i = 0; i < pages.size(); ++i) {
            page_index.emplace(pages[i].getObjGen(), static_cast<int>(i));
        }
        page_index_built = true;
    }
    auto found = page_index.find(page.getObjGen());
    return found == page_index.end() ? -1 : found->second;
}

} // namespace pe
