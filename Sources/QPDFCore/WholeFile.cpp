// An output that is its only source written whole (see WholeFile.hh): the
// catalog as copying would write it for every page of the file in its order
// (settle_catalog), the links, bookmarks, open action, document information,
// XMP packet and page labels as the in-place rewrite settles them, a new file's trailer, then the writing
// (with --compress, the same pass over the file's streams as a copy's).
//
// What copying does with each catalog entry of such a file, and what is done
// here:
//   /Pages                 one node, inherited attributes pushed onto the
//                          pages | the same (inherit_in_place)
//   /PageLabels            written from the items | the same (label_numbers)
//   /Metadata, trailer /Info  updated (producer, dates, given fields) | the same
//                          (settle_metadata)
//   /Lang, /PageLayout     kept when a string or name | the same
//   /ViewerPreferences, /MarkInfo  kept when a dictionary | the same
//   /PageMode              UseThumbs, FullScreen, UseOutlines with bookmarks,
//                          UseOC with layers; others left out | the same
//   /OpenAction            a destination of an output page, made explicit;
//                          another action kept with keep_scripts | the same
//   /AA, /Names /JavaScript  kept with keep_scripts | the same
//   /Outlines              written new (the session's given outline, or the
//                          file's arranged) | the same (write_outline)
//   /Dests, /Names /Dests  left out, links made explicit | the same
//                          (keep_annotations: each annotation stays itself)
//   /Names /EmbeddedFiles, /AF, /Collection, /OutputIntents  kept | kept
//   other /Names entries   left out | left out
//   /AcroForm              rebuilt when it has fields, else left out | kept
//                          when it has fields, else left out
//   /StructTreeRoot        rebuilt, content items in their elements (a tree
//                          too deep dropped with a warning: such a file is
//                          copied) | kept, content items moved into their
//                          elements (inline_content_items)
//   /OCProperties          rebuilt from the layers used (such a file is
//                          copied) | kept
//   /Version, /Extensions  left out (the writer writes the header's version)
//                          | the same
//   anything else          left out | left out
#include "WholeFile.hh"

#include "Encryption.hh"
#include "Geometry.hh"
#include "InPlace.hh"
#include "Timing.hh"

#include <deque>
#include <set>
#include <string>
#include <vector>

namespace pe {
namespace {

// The entries of the catalog's /Names dictionary copying writes.
bool copied_name_tree(std::string const &key, bool keep_scripts)
{
    return key == "/EmbeddedFiles" || (key == "/JavaScript" && keep_scripts);
}

// `root`, the source's catalog, made what copying writes of it (see the table
// above), but for /PageLabels, /Metadata and /OpenAction (settled by the
// caller). `has_outline`: the file has bookmarks.
void settle_catalog(QPDF &pdf, QPDFObjectHandle root, bool keep_scripts, bool has_outline)
{
    for (std::string const &key : root.getKeys()) {
        QPDFObjectHandle value = root.getKey(key);
        bool keep = false;
        if (key == "/Pages" || key == "/PageLabels" || key == "/Metadata" || key == "/OpenAction" ||
            key == "/AF" || key == "/Collection" || key == "/OutputIntents" ||
            key == "/OCProperties") {
            keep = true;
        } else if (key == "/Lang" || key == "/PageLayout") {
            keep = value.isString() || value.isName();
        } else if (key == "/ViewerPreferences" || key == "/MarkInfo" || key == "/StructTreeRoot" ||
                   key == "/Outlines") { // the caller writes the bookmarks new
            keep = value.isDictionary();
        } else if (key == "/AA") {
            keep = keep_scripts;
        } else if (key == "/PageMode") {
            std::string name = value.isName() ? value.getName() : "";
            keep = name == "/UseThumbs" || name == "/FullScreen" || (name == "/UseOutlines" && has_outline) ||
                (name == "/UseOC" && root.hasKey("/OCProperties"));
        } else if (key == "/AcroForm") {
            QPDFObjectHandle fields = dict_key(value, "/Fields");
            keep = fields.isArray() && fields.getArrayNItems() > 0;
        } else if (key == "/Names" && value.isDictionary()) {
            std::vector<std::string> left_out;
            for (std::string const &tree : value.getKeys()) {
                if (!copied_name_tree(tree, keep_scripts)) {
                    left_out.push_back(tree);
                }
            }
            keep = left_out.size() < value.getKeys().size();
            if (keep && !left_out.empty()) {
                // A new dictionary: whatever else refers to the old one keeps it whole.
                QPDFObjectHandle names = value.shallowCopy();
                for (std::string const &tree : left_out) {
                    names.removeKey(tree);
                }
                root.replaceKey(key, make_indirect(pdf, names));
            }
        }
        if (!keep) {
            root.removeKey(key);
        }
    }
    root.replaceKey("/Type", QPDFObjectHandle::newName("/Catalog"));
}

// The content items of the structure tree's elements (marked-content and
// object references, /Type /MCR and /OBJR) written in their element's /K, as
// copying writes them, where the file made each an object of its own (a
// tagged spreadsheet's 28 link references were 450 bytes of object-stream
// headers and cross-reference entries). Walked without recursion, each
// element once, no deeper than copying reads (structure_readability).
void inline_content_items(QPDFObjectHandle tree_root)
{
    if (!tree_root.isDictionary()) {
        return;
    }
    auto content_item = [](QPDFObjectHandle kid) {
        if (!kid.isIndirect() || !kid.isDictionary()) {
            return false;
        }
        QPDFObjectHandle type = kid.getKey("/Type");
        return type.isNameAndEquals("/MCR") || type.isNameAndEquals("/OBJR");
    };
    std::set<QPDFObjGen> seen;
    std::vector<std::pair<QPDFObjectHandle, int>> pending{{tree_root, 0}};
    int limit = page_tree_maximum_depth();
    while (!pending.empty()) {
        auto [node, depth] = pending.back();
        pending.pop_back();
        if (depth > limit) {
            continue;
        }
        QPDFObjectHandle k = node.getKey("/K");
        std::vector<QPDFObjectHandle> kids = k.isArray() ? k.getArrayAsVector() : std::vector<QPDFObjectHandle>{k};
        for (size_t i = 0; i < kids.size(); ++i) {
            QPDFObjectHandle kid = kids[i];
            if (content_item(kid)) {
                if (k.isArray()) {
                    k.setArrayItem(static_cast<int>(i), kid.shallowCopy());
                } else {
                    node.replaceKey("/K", kid.shallowCopy());
                }
            } else if (kid.isDictionary() && !kid.getKey("/Type").isNameAndEquals("/MCR") &&
                       !kid.getKey("/Type").isNameAndEquals("/OBJR") &&
                       (!kid.isIndirect() || seen.insert(kid.getObjGen()).second)) {
                pending.emplace_back(kid, depth + 1);
            }
        }
    }
}

} // namespace

WholeFile::WholeFile(Inputs &opened, int s) :
    inputs(opened), source(opened.sources[static_cast<size_t>(s)]), where(opened.where)
{
}

void WholeFile::build(Dropped &dropped)
{
    PhaseClock clock(Phase::document);
    QPDF &pdf = *source.pdf;
    // New objects numbered past the file's, without qpdf resolving every
    // object of it first (see InPlace::build).
    NewNumbers numbers(pdf, first_free_number(pdf, source.xref.object_bound));
    pe_export_options const *options = inputs.request.options;
    pe_item const *items = inputs.request.items;
    int count = inputs.request.item_count;
    where = Where{items[0].source, 0};
    BeforeChange before = BeforeChange::read(inputs, source);
    QPDFObjectHandle root = pdf.getRoot();
    QPDFObjectHandle trailer = pdf.getTrailer();
    QPDFObjectHandle old_info = trailer.getKey("/Info");
    QPDFObjectHandle metadata = root.getKey("/Metadata");
    bool keep_scripts =
        options != nullptr && options->keep_scripts != 0 && (options->strip & PE_STRIP_JAVASCRIPT) == 0;
    // Every page its own first (and only) placement.
    std::map<QPDFObjGen, QPDFObjectHandle> &first = source.first_copy;
    first.clear();
    std::vector<PlacedPage> placed;
    placed.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        QPDFObjectHandle page = source.pages[static_cast<size_t>(i)];
        first.emplace(page.getObjGen(), page);
        placed.push_back(PlacedPage{items[i].source, i, page, page, true});
    }
    // Read while the catalog still has its named destinations: the links made
    // explicit (each annotation stays itself, given /P, as copying leaves its
    // copy), the bookmarks (given, or the file's) to write new, the open
    // action's destination. Then the names go, as copying leaves them out.
    std::deque<OutlineEntry> given; // the entries of a given outline
    std::vector<OutlineNode> outline = keep_links_and_outline(pdf, inputs, placed, given, where);
    where = Where{items[0].source, 0};
    QPDFObjectHandle open = root.getKey("/OpenAction");
    bool open_destination = open.isArray() || dict_key(open, "/S").isNameAndEquals("/GoTo");
    QPDFObjectHandle kept_open = open_destination ? kept_open_destination(source) : QPDFObjectHandle::newNull();
    settle_catalog(pdf, root, keep_scripts, !outline.empty());
    if (open_destination && kept_open.isNull()) {
        root.removeKey("/OpenAction"); // a destination to no page of the output, as copying
    } else if (open_destination) {
        root.replaceKey("/OpenAction", kept_open);
    } else if (!open.isNull() && !keep_scripts) {
        root.removeKey("/OpenAction");
    }
    root.removeKey("/Outlines");
    root.removeKey("/Metadata"); // settle_metadata gives it back, updated
    // One page tree node, each page given what it inherited, as copying
    // writes it (a nested tree's nodes were a quarter of a percent of a TeX
    // book's output). Nothing else of a page tree is kept: a link or bookmark
    // to a node was cut above, as copying cuts it.
    {
        PhaseClock pages(Phase::pages);
        SharedInherited shared;
        std::vector<QPDFObjectHandle> kids;
        kids.reserve(source.pages.size());
        for (size_t i = 0; i < source.pages.size(); ++i) {
            inherit_in_place(pdf, source.pages[i], source.inherited(static_cast<int>(i)), shared);
            set_rotation(source.pages[i], before.rotations[i], 0); // an inherited /Rotate made its own
            kids.push_back(source.pages[i]);
        }
        root.replaceKey("/Pages", one_node_page_tree(pdf, kids));
        pdf.updateAllPagesCache();
    }
    before.set_page_labels(root);
    // The trailer of a new file, as InPlace::build makes it.
    bool keeps_encryption = kept_encryption(inputs) == &pdf;
    for (std::string const &key : trailer.getKeys()) {
        if (key != "/Size" && !(keeps_encryption && (key == "/Encrypt" || key == "/ID"))) {
            trailer.removeKey(key);
        }
    }
    trailer.replaceKey("/Root", root);
    PhaseClock structure(Phase::structure);
    inline_content_items(root.getKey("/StructTreeRoot"));
    structure.stop();
    PhaseClock outlines(Phase::outlines);
    write_outline(pdf, outline, placed, keep_scripts, dropped);
    outlines.stop();
    settle_metadata(pdf, metadata, old_info, options, source.modified);
    where = Where{};
}

void WholeFile::write(char const *out_path, bool &started)
{
    where = Where{};
    write_source_output(inputs, source, source.pages.size(), out_path, started);
}

} // namespace pe
