// An output made by rearranging its only source in place (see InPlace.hh):
// whether the file was opened (for_file), the new page tree and
// catalog with the links, bookmarks and open action copying would keep (build), and
// the document data a copy would get (settle_in_place).
#include "InPlace.hh"
#include "Timing.hh"

#include "Encryption.hh"
#include "Geometry.hh"
#include "Limits.hh"
#include "Writer.hh"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <set>

namespace pe {
namespace {

// Cuts, in everything `trailer` reaches, each reference to a page or page tree
// node that is not in the output's page tree (`kept`): the copier's rule
// (copy_foreign), for the file's own objects, which the in-place rewrite
// writes as they are. A kept link's action or border, a page's private key,
// /Info, a thumbnail, a metadata stream's dictionary pointing at a page left
// out would otherwise carry that page, its content and the old page tree into
// the output. An array gets a null, a dictionary loses the key (as copying).
// Without recursion; each indirect object walked once.
void cut_left_out_pages(QPDFObjectHandle trailer, std::set<QPDFObjGen> const &kept)
{
    std::set<QPDFObjGen> seen;
    std::vector<QPDFObjectHandle> pending{trailer};
    auto left_out = [&kept](QPDFObjectHandle value) {
        return is_page_tree_object(value) && kept.count(value.getObjGen()) == 0;
    };
    auto visit = [&seen, &pending](QPDFObjectHandle value) {
        if (value.isIndirect()) {
            if (!seen.insert(value.getObjGen()).second) {
                return;
            }
        }
        if (value.isArray() || value.isDictionary() || value.isStream()) {
            pending.push_back(value);
        }
    };
    while (!pending.empty()) {
        QPDFObjectHandle node = pending.back();
        pending.pop_back();
        if (node.isStream()) {
            node = node.getDict();
        }
        if (node.isArray()) {
            int count = node.getArrayNItems();
            for (int i = 0; i < count; ++i) {
                QPDFObjectHandle item = node.getArrayItem(i);
                if (left_out(item)) {
                    node.setArrayItem(i, QPDFObjectHandle::newNull());
                } else {
                    visit(item);
                }
            }
        } else if (node.isDictionary()) {
            for (std::string const &key : node.getKeys()) {
                QPDFObjectHandle item = node.getKey(key);
                if (left_out(item)) {
                    node.removeKey(key);
                } else {
                    visit(item);
                }
            }
        }
    }
}

// For an output that is its source rearranged in place, with `pdf.getRoot()`
// already the new catalog: the document information (old_info, from the old
// trailer), XMP and catalog entries of `old_root`, as copy_document_data gives
// them to a copy (options->title included; `modified`: the date for the XMP;
// `has_outline`: the output has bookmarks).
void settle_in_place(
    QPDF &pdf,
    QPDFObjectHandle old_root,
    QPDFObjectHandle old_info,
    pe_export_options const *options,
    long long modified,
    bool has_outline)
{
    QPDFObjectHandle root = pdf.getRoot();
    settle_metadata(pdf, old_root.getKey("/Metadata"), old_info, options, modified);
    // As DocumentData::copy_catalog_entries, for an output without bookmarks.
    for (char const *key : {"/Lang", "/PageLayout"}) {
        QPDFObjectHandle value = old_root.getKey(key);
        if (value.isString() || value.isName()) {
            root.replaceKey(key, fresh_copy(value));
        }
    }
    QPDFObjectHandle preferences = old_root.getKey("/ViewerPreferences");
    if (preferences.isDictionary()) {
        // Indirect, as copying's import_value makes a direct one.
        root.replaceKey(
            "/ViewerPreferences", preferences.isIndirect() ? preferences : make_indirect(pdf, preferences.shallowCopy()));
    }
    QPDFObjectHandle mode = old_root.getKey("/PageMode");
    if (mode.isName()) {
        std::string name = mode.getName();
        if (name == "/UseThumbs" || name == "/FullScreen" || (name == "/UseOutlines" && has_outline)) {
            root.replaceKey("/PageMode", QPDFObjectHandle::newName(name));
        }
    }
    // A source rearranged in place has no structure tree (ExportStrategy: other contents).
    QPDFObjectHandle mark_info = old_root.getKey("/MarkInfo");
    if (mark_info.isDictionary()) {
        root.replaceKey("/MarkInfo", mark_info.isIndirect() ? mark_info : make_indirect(pdf, mark_info.shallowCopy()));
    }
}

} // namespace

BeforeChange BeforeChange::read(Inputs &inputs, Source &source)
{
    pe_item const *items = inputs.request.items;
    int count = inputs.request.item_count;
    pe_export_options const *options = inputs.request.options;
    BeforeChange before;
    before.labelled =
        label_numbers(inputs.sources, items, count, options == nullptr ? PE_LABELS_KEEP : options->labels,
            options == nullptr ? nullptr : options->page_labels, before.nums);
    before.rotations.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        before.rotations[static_cast<size_t>(i)] =
            page_rotation(source.pages[static_cast<size_t>(items[i].page)], source.inherited(items[i].page));
    }
    return before;
}

void BeforeChange::set_page_labels(QPDFObjectHandle root) const
{
    if (!labelled) {
        root.removeKey("/PageLabels");
        return;
    }
    QPDFObjectHandle labels = QPDFObjectHandle::newDictionary();
    labels.replaceKey("/Nums", QPDFObjectHandle::newArray(nums));
    root.replaceKey("/PageLabels", labels);
}

QPDFObjectHandle one_node_page_tree(QPDF &pdf, std::vector<QPDFObjectHandle> &kids)
{
    QPDFObjectHandle tree = QPDFObjectHandle::newDictionary();
    tree.replaceKey("/Type", QPDFObjectHandle::newName("/Pages"));
    tree.replaceKey("/Kids", QPDFObjectHandle::newArray(kids));
    tree.replaceKey("/Count", QPDFObjectHandle::newInteger(static_cast<long long>(kids.size())));
    tree = make_indirect(pdf, tree);
    for (QPDFObjectHandle &kid : kids) {
        kid.replaceKey("/Parent", tree);
    }
    return tree;
}

void settle_metadata(
    QPDF &pdf, QPDFObjectHandle metadata, QPDFObjectHandle old_info, pe_export_options const *options, long long modified)
{
    MetadataFields fields = MetadataFields::of(options);
    // As DocumentData::copy_info.
    QPDFObjectHandle info;
    if (old_info.isDictionary()) {
        info = old_info.isIndirect() ? old_info : make_indirect(pdf, old_info.shallowCopy());
    }
    attach_info(pdf, info, fields);
    // As copy_metadata (Metadata.cpp): one source, nothing dropped, so its
    // claims stay.
    update_info(pdf, modified);
    if (!metadata.isStream() && fields.any()) {
        metadata = new_xmp_stream(pdf);
    }
    if (metadata.isStream()) {
        std::string xmp;
        bool readable = decode_bounded(
            metadata, options == nullptr ? 0 : options->max_stream_bytes, "the XMP metadata stream", &xmp);
        if (readable && update_xmp(xmp, XmpUpdate{fields, modified, false, false})) {
            metadata.replaceStreamData(xmp, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
        }
        pdf.getRoot().replaceKey("/Metadata", metadata);
    }
}

void inherit_in_place(QPDF &pdf, QPDFObjectHandle page, InheritedFrame const *inherited, SharedInherited &shared)
{
    inherit_attributes(page, page, inherited, shared, [&pdf](QPDFObjectHandle value) {
        if (value.isIndirect()) {
            return value;
        }
        if (value.isArray() || value.isDictionary()) {
            return make_indirect(pdf, value.shallowCopy());
        }
        return fresh_copy(value);
    });
}

InPlace::InPlace(Inputs &opened, int s) :
    inputs(opened), source(opened.sources[static_cast<size_t>(s)]), where(opened.where)
{
}

int InPlace::for_file(Inputs &inputs)
{
    int s = inputs.request.items[0].source;
    return inputs.sources[static_cast<size_t>(s)].pdf ? s : -1;
}

void InPlace::build(Dropped &dropped)
{
    PhaseClock clock(Phase::pages);
    QPDF &pdf = *source.pdf;
    // Not qpdf's makeIndirectObject, whose first call on a file read from disk
    // resolves every object of it (getObjectCount -> fixDanglingReferences): a
    // quarter of the time of rearranging a 14-page paper. Past what qpdf made
    // when it repaired the file at open (a page listed twice became a copy
    // numbered past the table, which the first new object replaced).
    NewNumbers numbers(pdf, first_free_number(pdf, source.xref.object_bound));
    pe_item const *items = inputs.request.items;
    int count = inputs.request.item_count;
    pe_export_options const *options = inputs.request.options;
    where = Where{items[0].source, 0};
    BeforeChange before = BeforeChange::read(inputs, source);
    std::vector<int> const &rotations = before.rotations;
    QPDFObjectHandle old_root = pdf.getRoot();
    QPDFObjectHandle trailer = pdf.getTrailer();
    QPDFObjectHandle old_info = trailer.getKey("/Info");

    std::vector<QPDFObjectHandle> kids;
    kids.reserve(static_cast<size_t>(count));
    std::vector<PlacedPage> placed;
    placed.reserve(static_cast<size_t>(count));
    std::map<QPDFObjGen, QPDFObjectHandle> &first = source.first_copy; // every page its own first copy
    first.clear();
    SharedInherited shared;
    for (int i = 0; i < count; ++i) {
        where = Where{items[i].source, items[i].page + 1};
        QPDFObjectHandle from = source.pages[static_cast<size_t>(items[i].page)];
        QPDFObjGen og = from.getObjGen();
        auto known = first.find(og);
        QPDFObjectHandle to;
        bool first_use = known == first.end();
        if (first_use) {
            to = from;
            inherit_in_place(pdf, to, source.inherited(items[i].page), shared);
            first.emplace(og, to);
        } else {
            to = make_indirect(pdf, known->second.shallowCopy());
        }
        set_rotation(to, rotations[static_cast<size_t>(i)], items[i].quarter_turns);
        kids.push_back(to);
        placed.push_back(PlacedPage{items[i].source, items[i].page, from, to, first_use});
    }
    where = Where{items[0].source, 0};
    // What copying carries of the links, bookmarks and open action, read while the old catalog is
    // the file's (named destinations, bookmarks): links to pages left out
    // leave the pages, named destinations become explicit (the old catalog's
    // /Dests and /Names are not written), the outline is written new, pruned
    // to the output's pages.
    std::deque<OutlineEntry> given; // the entries of a given outline
    std::vector<OutlineNode> outline = keep_links_and_outline(pdf, inputs, placed, given, where);
    QPDFObjectHandle open = kept_open_destination(source);
    where = Where{items[0].source, 0};
    QPDFObjectHandle root = QPDFObjectHandle::newDictionary();
    root.replaceKey("/Type", QPDFObjectHandle::newName("/Catalog"));
    root.replaceKey("/Pages", one_node_page_tree(pdf, kids));
    root = make_indirect(pdf, root);
    // The trailer of a new file: /Root (and /Info, below); no /ID, so that the
    // deterministic /ID is all new, as a copy's. An encryption the output keeps
    // needs the source's /Encrypt and first /ID (see set_encryption).
    bool keeps_encryption = kept_encryption(inputs) == &pdf;
    for (std::string const &key : trailer.getKeys()) {
        if (key != "/Size" && !(keeps_encryption && (key == "/Encrypt" || key == "/ID"))) {
            trailer.removeKey(key);
        }
    }
    trailer.replaceKey("/Root", root);
    pdf.updateAllPagesCache();
    before.set_page_labels(root);
    PhaseClock outlines(Phase::outlines);
    bool keep_scripts =
        options != nullptr && options->keep_scripts != 0 && (options->strip & PE_STRIP_JAVASCRIPT) == 0;
    write_outline(pdf, outline, placed, keep_scripts, dropped);
    outlines.stop();
    if (!open.isNull()) {
        root.replaceKey("/OpenAction", open);
    }
    settle_in_place(pdf, old_root, old_info, options, source.modified, !outline.empty());
    std::set<QPDFObjGen> kept{root.getKey("/Pages").getObjGen()};
    for (QPDFObjectHandle const &kid : kids) {
        kept.insert(kid.getObjGen());
    }
    cut_left_out_pages(pdf.getTrailer(), kept);
    page_count = static_cast<size_t>(count);
    where = Where{};
}

std::vector<OutlineNode> keep_links_and_outline(
    QPDF &pdf, Inputs &inputs, std::vector<PlacedPage> &placed, std::deque<OutlineEntry> &given, Where &where)
{
    pe_export_options const *options = inputs.request.options;
    int count = inputs.request.item_count;
    PhaseClock links(Phase::links);
    keep_annotations(pdf, inputs.sources, placed, where);
    links.stop();
    PhaseClock arranging(Phase::outlines);
    return options != nullptr && options->outline_given != 0
        ? given_outline(options->outline, options->outline_count, count, given)
        : arrange_outline(inputs.sources, inputs.request.sources, inputs.request.items, count);
}

void InPlace::write(char const *out_path, bool &started)
{
    where = Where{};
    write_source_output(inputs, source, page_count, out_path, started);
}

void write_source_output(Inputs &inputs, Source &source, size_t page_count, char const *out_path, bool &started)
{
    PDFVersion minimum(1, 3);
    minimum.updateIfGreater(source.version);
    write_output(
        *source.pdf,
        out_path,
        minimum,
        page_count,
        source.object_streams,
        inputs.request.options,
        started,
        true,
        true,
        kept_encryption(inputs));
    inputs.forward_all_warnings();
}

} // namespace pe
