// Document-level data of the output.
//
// - Document information (/Info) of the source of the first page; options->title
//   replaces its /Title. XMP metadata and output intents: Metadata.cpp (the XMP
//   dc:title is replaced when the packet has exactly one <dc:title> element,
//   added in a new rdf:Description when it has none; a packet with dc:title in
//   another form is left as it is); embedded files: EmbeddedFiles.cpp. Also /Lang,
//   /PageLayout, /ViewerPreferences and /PageMode (UseOutlines only when the output
//   has bookmarks, UseOC when it has layers; UseAttachments never), and
//   /OpenAction when it only shows one of the exported pages (retargeted to its
//   first copy).
// - The structure tree: the elements of the kept pages of every tagged source,
//   joined under one root (StructureTree.cpp).
// - Optional content: merged from every source by OptionalContent.cpp.
// - JavaScript, open actions other than destinations and document actions: kept
//   by Scripts.cpp with options->keep_scripts, else named in the Dropped line.
// - What cannot follow pages (XFA forms, a structure tree that cannot be read, the
//   portfolio of a second source, optional content configurations of several
//   sources, and scripts unless kept) is left out and named in the Dropped line. Open actions that
//   are destinations are not named: they only say where a viewer opens a document.
#include "Export.hh"
#include "Timing.hh"

#include <algorithm>

namespace pe {

namespace {

// The order kinds are listed in the warning line.
char const *const kind_order[] = {
    "structure tree",
    "portfolio",
    "optional content configurations",
    "JavaScript",
    "open action",
    "document actions",
    "XFA form",
    "XMP metadata",
};

size_t rank_of(std::string const &kind)
{
    size_t rank = 0;
    for (char const *known : kind_order) {
        if (kind == known) {
            return rank;
        }
        ++rank;
    }
    return rank;
}

class DocumentData {
  public:
    DocumentData(
        QPDF &output, std::vector<Source> &all, std::vector<int> page_order, std::vector<PlacedPage> const &pages,
        Where &progress) :
        out(output), sources(all), placed(pages), where(progress), order(std::move(page_order))
    {
    }

    void copy_info(MetadataFields const &fields)
    {
        QPDFObjectHandle info;
        if (!order.empty() && !fields.strip_sources) {
            where = Where{order.front(), 0};
            QPDF &pdf = first();
            QPDFObjectHandle theirs = pdf.getTrailer().getKey("/Info");
            if (theirs.isDictionary()) {
                // A direct /Info is rebuilt in the output, nothing made in the
                // source (once per part of a split).
                info = import_value(out, theirs);
            }
        }
        attach_info(out, info, fields);
        where = Where{};
    }

    // The first source's open action when it only shows one of the exported
    // pages (kept_open_destination).
    void copy_open_action()
    {
        if (order.empty()) {
            return;
        }
        where = Where{order.front(), 0};
        QPDFObjectHandle dest = kept_open_destination(first_source());
        if (!dest.isNull()) {
            out.getRoot().replaceKey("/OpenAction", dest);
        }
        where = Where{};
    }

    // `tagged`: false when the structure is stripped (no /MarkInfo).
    void copy_catalog_entries(bool has_outline, bool tagged)
    {
        if (order.empty()) {
            return;
        }
        where = Where{order.front(), 0};
        Source &source = first_source();
        QPDFObjectHandle out_root = out.getRoot();
        for (char const *key : {"/Lang", "/PageLayout"}) {
            QPDFObjectHandle value = source.catalog(key);
            if (value.isString() || value.isName()) {
                out_root.replaceKey(key, fresh_copy(value));
            }
        }
        QPDFObjectHandle preferences = source.catalog("/ViewerPreferences");
        if (preferences.isDictionary()) {
            out_root.replaceKey("/ViewerPreferences", import_value(out, preferences));
        }
        // /MarkInfo of a source without a structure tree (Word marks files so);
        // with a tree, the structure step writes it beside the tree it describes,
        // or drops both with a warning.
        QPDFObjectHandle mark_info = source.catalog("/MarkInfo");
        if (tagged && mark_info.isDictionary() && source.catalog("/StructTreeRoot").isNull()) {
            out_root.replaceKey("/MarkInfo", import_value(out, mark_info));
        }
        QPDFObjectHandle mode = source.catalog("/PageMode");
        if (mode.isName()) {
            std::string name = mode.getName();
            if (name == "/UseThumbs" || name == "/FullScreen" ||
                (name == "/UseOutlines" && has_outline)) {
                out_root.replaceKey("/PageMode", QPDFObjectHandle::newName(name));
            }
        }
        where = Where{};
    }

    // The structure tree of the tagged sources, pruned to the output's pages
    // (StructureTree.cpp).
    void settle_structure(std::vector<CopiedAnnotation> const &annotations, Dropped &dropped)
    {
        build_structure_tree(out, sources, order, placed, annotations, dropped, where);
    }

    // The layers of every source (OptionalContent.cpp); the first source's
    // /PageMode /UseOC when the output has layers to show.
    void merge_layers(Dropped &dropped)
    {
        if (!merge_optional_content(out, sources, order, dropped, where) || order.empty()) {
            return;
        }
        if (first_source().catalog("/PageMode").isNameAndEquals("/UseOC")) {
            out.getRoot().replaceKey("/PageMode", QPDFObjectHandle::newName("/UseOC"));
        }
    }

    // With keep_scripts: the sources' JavaScript and the first one's actions
    // (Scripts.cpp).
    void keep_scripts_if_asked(bool keep_scripts, Dropped &dropped)
    {
        if (keep_scripts && !order.empty()) {
            copy_scripts(out, sources, order, dropped, where);
        }
    }

    void note_dropped(bool keep_scripts, Dropped &dropped)
    {
        for (int s : order) {
            where = Where{s, 0};
            Source &source = sources[static_cast<size_t>(s)];
            QPDFObjectHandle names = source.catalog("/Names");
            if (!keep_scripts) { // else copy_scripts names what it leaves out
                if (dict_key(names, "/JavaScript").isDictionary()) {
                    dropped.add("JavaScript", s, source.label);
                }
                QPDFObjectHandle open = source.catalog("/OpenAction");
                if (!open.isNull() && !open.isArray() &&
                    !dict_key(open, "/S").isNameAndEquals("/GoTo")) {
                    // A destination only says where a viewer opens that document: the
                    // first source's is kept (copy_open_action), the others' need no word.
                    dropped.add("open action", s, source.label);
                }
                if (!source.catalog("/AA").isNull()) {
                    dropped.add("document actions", s, source.label);
                }
            }
            if (!dict_key(source.catalog("/AcroForm"), "/XFA").isNull()) {
                dropped.add("XFA form", s, source.label);
            }
        }
        where = Where{};
    }

    // The sources of the output's pages, in order of first appearance.
    std::vector<int> const &sources_in_order() const { return order; }

  private:
    QPDF &out;
    std::vector<Source> &sources;
    std::vector<PlacedPage> const &placed;
    Where &where;
    std::vector<int> order; // sources in order of first appearance

    Source &first_source() { return sources[static_cast<size_t>(order.front())]; }
    QPDF &first() { return *first_source().pdf; }
};

} // namespace

QPDFObjectHandle kept_open_destination(Source &source)
{
    QPDFObjectHandle open = source.catalog("/OpenAction");
    QPDFObjectHandle dest = open.isArray() ? open : QPDFObjectHandle::newNull();
    if (dict_key(open, "/S").isNameAndEquals("/GoTo")) {
        dest = open.getKey("/D");
    }
    QPDFObjectHandle resolved = explicit_destination(source, dest);
    if (!resolved.isArray() || resolved.getArrayNItems() == 0) {
        return QPDFObjectHandle::newNull();
    }
    std::vector<QPDFObjectHandle> parts = resolved.getArrayAsVector();
    int page = destination_page(source, parts[0]);
    if (page < 0) {
        return QPDFObjectHandle::newNull();
    }
    auto copy = source.first_copy.find(source.pages[static_cast<size_t>(page)].getObjGen());
    if (copy == source.first_copy.end()) {
        return QPDFObjectHandle::newNull();
    }
    parts[0] = copy->second;
    for (size_t i = 1; i < parts.size(); ++i) {
        parts[i] = fresh_copy(parts[i]);
    }
    return QPDFObjectHandle::newArray(parts);
}

MetadataFields MetadataFields::of(pe_export_options const *options)
{
    MetadataFields fields;
    if (options != nullptr) {
        fields.title = options->title;
        fields.author = options->author;
        fields.subject = options->subject;
        fields.keywords = options->keywords;
        fields.strip_sources = (options->strip & PE_STRIP_METADATA) != 0;
        fields.untagged = (options->strip & PE_STRIP_STRUCTURE) != 0;
    }
    return fields;
}

bool MetadataFields::any() const
{
    return title != nullptr || author != nullptr || subject != nullptr || keywords != nullptr;
}

void attach_info(QPDF &pdf, QPDFObjectHandle info, MetadataFields const &fields)
{
    std::pair<char const *, char const *> const given[] = {
        {"/Title", fields.title}, {"/Author", fields.author}, {"/Subject", fields.subject},
        {"/Keywords", fields.keywords}};
    for (auto const &[key, value] : given) {
        if (value == nullptr) {
            continue;
        }
        if (*value == '\0') {
            if (info.isInitialized()) {
                info.removeKey(key);
            }
            continue;
        }
        if (!info.isInitialized()) {
            info = make_indirect(pdf, QPDFObjectHandle::newDictionary());
        }
        info.replaceKey(key, QPDFObjectHandle::newUnicodeString(value));
    }
    if (info.isInitialized()) {
        pdf.getTrailer().replaceKey("/Info", info);
    }
}

void Dropped::merge(Dropped const &other)
{
    for (Noted const &entry : other.noted) {
        add(entry.what, entry.index, entry.source_name);
    }
}

void Dropped::add(std::string const &what, int index, std::string const &source_name)
{
    noted.push_back(Noted{what, index, source_name});
    if (single < 0) {
        single = index;
    } else if (single != index) {
        several = true;
    }
    for (auto &kind : kinds) {
        if (kind.first == what) {
            if (std::find(kind.second.begin(), kind.second.end(), source_name) == kind.second.end()) {
                kind.second.push_back(source_name);
            }
            return;
        }
    }
    kinds.emplace_back(what, std::vector<std::string>{source_name});
}

std::string capped_list(std::vector<std::string> const &items)
{
    size_t const limit = 10;
    std::string text;
    for (size_t i = 0; i < items.size() && i < limit; ++i) {
        text += (i == 0 ? "" : ", ") + items[i];
    }
    if (items.size() > limit) {
        text += " \xE2\x80\xA6 and " + std::to_string(items.size() - limit) + " more";
    }
    return text;
}

std::string Dropped::line() const
{
    auto sorted = kinds;
    std::sort(sorted.begin(), sorted.end(), [](auto const &a, auto const &b) {
        // Kinds not in kind_order ("PDF/A-2B claim") last, by name.
        return rank_of(a.first) != rank_of(b.first) ? rank_of(a.first) < rank_of(b.first) : a.first < b.first;
    });
    std::string text = "dropped document-level data that cannot follow pages: ";
    for (size_t i = 0; i < sorted.size(); ++i) {
        text += (i == 0 ? "" : ", ") + sorted[i].first + " (" + capped_list(sorted[i].second) + ")";
    }
    return text;
}

// A tagged source's page drawn as a sheet's cell or a resized page is drawn
// through a form XObject: its marked content no longer belongs to a page of the
// output, so its structure elements cannot follow (nup, booklet and resize on
// a tagged file lost the tree but kept the PDF/UA claim). Noted as dropped, so
// that the claims of the output are removed and the warning says why.
void note_unstructured_placements(std::vector<Source> &sources, pe_item const *items, int item_count, Dropped &dropped)
{
    auto note = [&](int s) {
        if (s < 0 || static_cast<size_t>(s) >= sources.size() || !sources[static_cast<size_t>(s)].pdf) {
            return;
        }
        Source &source = sources[static_cast<size_t>(s)];
        if (!source.catalog("/StructTreeRoot").isNull()) {
            dropped.add("structure of pages placed on sheets or resized", s, source.label);
        }
    };
    for (int i = 0; i < item_count; ++i) {
        pe_item const &item = items[i];
        if (item.kind == PE_ITEM_SHEET) {
            for (int c = 0; c < item.cell_count; ++c) {
                if (item.cells[c].kind == PE_ITEM_PAGE) {
                    note(item.cells[c].source);
                }
            }
        } else if (item.kind == PE_ITEM_PAGE && resize_of(item) != nullptr) {
            note(item.source);
        }
    }
}

void copy_document_data(
    QPDF &out,
    std::vector<Source> &sources,
    pe_item const *items,
    int first_item,
    int item_count,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &annotations,
    pe_export_options const *options,
    bool has_outline,
    Dropped &dropped,
    Where &where)
{
    PhaseClock document(Phase::document);
    MetadataFields fields = MetadataFields::of(options);
    DocumentData data(out, sources, page_sources(items, item_count), placed, where);
    data.copy_info(fields);
    int strip = options == nullptr ? 0 : options->strip;
    data.copy_catalog_entries(has_outline, (strip & PE_STRIP_STRUCTURE) == 0);
    data.copy_open_action();
    if ((strip & PE_STRIP_ATTACHMENTS) == 0) {
        copy_embedded_files(out, sources, data.sources_in_order(), options, first_item, item_count, dropped, where);
    }
    document.stop();
    PhaseClock structure(Phase::structure);
    if ((strip & PE_STRIP_STRUCTURE) == 0) {
        data.settle_structure(annotations, dropped);
        note_unstructured_placements(sources, items, item_count, dropped);
    }
    structure.stop();
    PhaseClock layers(Phase::layers);
    data.merge_layers(dropped);
    layers.stop();
    PhaseClock scripts(Phase::document);
    // Scripts the caller strips are not named as dropped: it asked for it.
    bool strip_scripts = (strip & PE_STRIP_JAVASCRIPT) != 0;
    bool keep_scripts = options != nullptr && options->keep_scripts != 0 && !strip_scripts;
    data.keep_scripts_if_asked(keep_scripts, dropped);
    data.note_dropped(keep_scripts || strip_scripts, dropped);
    scripts.stop();
    // Last: the PDF/A and PDF/UA claims depend on what the steps above dropped.
    PhaseClock metadata(Phase::metadata);
    copy_metadata(
        out, sources, data.sources_in_order(), fields, options == nullptr ? 0 : options->max_stream_bytes, dropped,
        where);
}

} // namespace pe
