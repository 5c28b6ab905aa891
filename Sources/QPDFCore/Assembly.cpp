// An output assembled by copying: each item's page copied from its source (the
// first copy of a source page is qpdf's, later ones shallow copies of it) with
// the attributes it inherits and its rotation, or a blank page; then stamps,
// annotations, the form, bookmarks, labels and document data by their own steps,
// and the writing.
#include "Assembly.hh"

#include "Encryption.hh"
#include "Geometry.hh"
#include "Timing.hh"
#include "Writer.hh"

namespace pe {

Assembly::Assembly(Inputs &opened, int first, int count) :
    inputs(opened),
    sources(opened.sources),
    where(opened.where),
    items(opened.request.items + first),
    item_count(count)
{
    forms.set_stream_limit(opened.request.options == nullptr ? 0 : opened.request.options->max_stream_bytes);
}

void Assembly::build(Dropped &dropped)
{
    where = Where{};
    out.setSuppressWarnings(true);
    start_empty(out);
    for (Source &source : sources) {
        source.first_copy.clear();
        source.first_copy_boxes.clear();
        source.plain_copy.clear();
    }
    resized.clear();
    cells.clear();
    PhaseClock pages(Phase::pages);
    place_pages();
    RedactedPages redacted;
    if (pe_export_options const *asked = inputs.request.options; asked != nullptr && asked->redact != nullptr) {
        redacted = redact_pages(out, placed, asked->redact + (items - inputs.request.items), asked->max_stream_bytes, where);
    }
    pages.stop();
    PhaseClock stamps(Phase::stamps);
    apply_stamps(out, sources, inputs.request.stamps, static_cast<int>(items - inputs.request.items), placed, where);
    stamps.stop();
    PhaseClock links(Phase::links);
    std::vector<CopiedAnnotation> widgets;
    std::vector<CopiedAnnotation> annotations;
    copy_annotations(out, sources, placed, where, widgets, annotations);
    for (PlacedPage const &page : placed) {
        auto moved = page.to.isIndirect() ? resized.find(page.to.getObjGen()) : resized.end();
        if (moved != resized.end()) {
            place_annotations(page.to, page.to, moved->second, false, nullptr);
        }
    }
    place_cell_annotations();
    links.stop();
    PhaseClock fields(Phase::fields);
    build_form(out, sources, widgets, placed, where);
    fields.stop();
    PhaseClock outlines(Phase::outlines);
    pe_export_options const *options = inputs.request.options;
    std::deque<OutlineEntry> given; // the entries of a given outline
    std::vector<OutlineNode> outline;
    if (options != nullptr && options->outline_given != 0) {
        outline = part_outline_count >= 0
            ? given_outline(part_outline, part_outline_count, item_count, given)
            : given_outline(options->outline, options->outline_count, item_count, given);
    } else {
        outline = arrange_outline(sources, inputs.request.sources, items, item_count);
    }
    CellPages cell_pages;
    for (Cell const &cell : cells) {
        cell_pages.emplace(std::make_pair(cell.item, cell.cell), cell.page.to);
    }
    bool keep_scripts =
        options != nullptr && options->keep_scripts != 0 && (options->strip & PE_STRIP_JAVASCRIPT) == 0;
    write_outline(out, outline, placed, keep_scripts, dropped, &cell_pages);
    retarget_cell_destinations();
    outlines.stop();
    PhaseClock labels(Phase::labels);
    pe_page_label const *own = options == nullptr || options->page_labels == nullptr
        ? nullptr
        : options->page_labels + (items - inputs.request.items);
    write_labels(out, sources, items, item_count, options == nullptr ? PE_LABELS_KEEP : options->labels, own);
    labels.stop();
    copy_document_data(
        out, sources, items, static_cast<int>(items - inputs.request.items), item_count, placed, annotations, options, !outline.empty(), dropped, where);
    forget_cut_replacement_texts(out, redacted.cut, redacted.replaced);
    if (options != nullptr) {
        finish_pages(
            out, placed, options->finish == nullptr ? nullptr : options->finish + (items - inputs.request.items),
            options->strip, where,
            options->redact == nullptr ? nullptr : options->redact + (items - inputs.request.items));
        if (options->redacted_text_count > 0 && options->redacted_texts != nullptr) {
            std::vector<std::string> texts(options->redacted_texts, options->redacted_texts + options->redacted_text_count);
            for (std::string const &line : redaction_leftovers(out, texts, options->scrub != 0, options->max_stream_bytes)) {
                inputs.warn(-1, PE_REDACTED_LEFTOVER + line);
            }
        }
    }
    PhaseClock links_moved(Phase::links);
    transform_destinations(out, resized);
    where = Where{};
    inputs.forward_output_warnings(out);
}

void Assembly::release_sources()
{
    if (inputs.request.stamps.count > 0 || has_cell_stamps()) {
        // A stamp's form XObject is made in its source with qpdf's content
        // provider, which reads the source's page when the output is written.
        return;
    }
    version = output_version();
    versioned = true;
    placed.clear();
    QPDF const *kept = kept_encryption(inputs); // the writer copies its encryption
    for (size_t i = 0; i < sources.size(); ++i) {
        Source &source = sources[i];
        if (!source.pdf || source.pdf.get() == kept || reads_streams_of(out, *source.pdf)) {
            continue;
        }
        pe_source const &arg = inputs.request.sources[i];
        if (arg.document != nullptr) {
            if (arg.document_last_use == 0 || closed_documents_are_kept()) {
                // The caller uses it again, or it lives until the process
                // exits anyway: destroying its objects now would only cost
                // time (a tenth of extracting 51 pages of 20,000).
                continue;
            }
            arg.document->source = Source{};
        }
        source = Source{};
    }
}

void Assembly::write(char const *out_path, bool &started, bool sync, bool report)
{
    where = Where{};
    PDFVersion minimum = versioned ? version : output_version();
    write_output(
        out,
        out_path,
        minimum,
        placed_count,
        object_streams,
        inputs.request.options,
        started,
        sync,
        report,
        kept_encryption(inputs));
    inputs.forward_all_warnings();
    inputs.forward_output_warnings(out);
}

PDFVersion Assembly::output_version() const
{
    PDFVersion result(1, 3);
    for (Source const &source : sources) {
        if (source.pdf) {
            result.updateIfGreater(source.version);
        }
    }
    if (needs_user_unit) {
        result.updateIfGreater(PDFVersion(1, 6)); // /UserUnit is PDF 1.6
    }
    return result;
}

void Assembly::place_pages()
{
    placed.reserve(static_cast<size_t>(item_count));
    for (int i = 0; i < item_count; ++i) {
        pe_item const &item = items[i];
        QPDFObjectHandle page;
        if (item.kind == PE_ITEM_BLANK) {
            page = blank_page(item);
            placed.push_back(PlacedPage{-1, -1, QPDFObjectHandle(), page, true});
        } else if (item.kind == PE_ITEM_SHEET) {
            page = sheet_page(item);
            placed.push_back(PlacedPage{-1, -1, QPDFObjectHandle(), page, true});
        } else {
            page = copied_page(item);
        }
        out.addPage(page, false);
    }
    placed_count = placed.size();
    // From this output's own pages only (the same whichever thread writes a
    // part, whatever else that thread has opened).
    for (int i = 0; i < item_count && !object_streams; ++i) {
        object_streams =
            items[i].kind == PE_ITEM_PAGE && sources[static_cast<size_t>(items[i].source)].object_streams;
    }
    where = Where{};
}

QPDFObjectHandle Assembly::blank_page(pe_item const &item)
{
    where = Where{};
    QPDFObjectHandle page = QPDFObjectHandle::newDictionary();
    page.replaceKey("/Type", QPDFObjectHandle::newName("/Page"));
    if (set_page_box(page, item.width / item.user_unit, item.height / item.user_unit, item.user_unit)) {
        needs_user_unit = true;
    }
    page.replaceKey("/Resources", QPDFObjectHandle::newDictionary());
    set_rotation(page, 0, item.quarter_turns);
    set_item_boxes(page, item.boxes, user_unit(page.getKey("/UserUnit")));
    return out.makeIndirectObject(page);
}

// A copy of page `page` of `source` in the output, without its annotations
// (copied later, once every page exists): the page's first copy, qpdf's, so that
// references to the page resolve to it (inherited attributes made its own;
// `first` set), or a new page object sharing the first copy's content and
// resources (from the plain copy when there is one, so that stamps on the first
// copy stay off it), with the source's own boxes.
QPDFObjectHandle Assembly::page_copy(Source &source, int page, bool &first)
{
    QPDFObjectHandle from = source.pages[static_cast<size_t>(page)];
    QPDFObjGen og = from.getObjGen();
    auto known = source.first_copy.find(og);
    first = known == source.first_copy.end();
    if (first) {
        QPDFObjectHandle copy = copy_without_annotations(from);
        // An array or dictionary several pages inherit becomes one indirect
        // object of the output they share.
        inherit_attributes(copy, from, source.inherited(page), shared_values, [this](QPDFObjectHandle value) {
            return import_value(out, value);
        });
        source.first_copy.emplace(og, copy);
        return copy;
    }
    auto plain = source.plain_copy.find(og);
    QPDFObjectHandle copy =
        out.makeIndirectObject((plain != source.plain_copy.end() ? plain->second : known->second).shallowCopy());
    copy.removeKey("/Annots");
    restore_first_boxes(source, og, copy);
    return copy;
}

// Gives `page`, a later copy of source page `og`, the box keys its first copy
// had before an item's boxes changed them; nothing when they never changed.
void Assembly::restore_first_boxes(Source const &source, QPDFObjGen og, QPDFObjectHandle page)
{
    auto kept = source.first_copy_boxes.find(og);
    if (kept != source.first_copy_boxes.end()) {
        restore_box_keys(page, kept->second);
    }
}

QPDFObjectHandle Assembly::copied_page(pe_item const &item)
{
    Source &source = sources[static_cast<size_t>(item.source)];
    inputs.check_page(item.source, item.page);
    where = Where{item.source, item.page + 1};
    QPDFObjectHandle from = source.pages[static_cast<size_t>(item.page)];
    QPDFObjGen og = from.getObjGen();
    InheritedFrame const *inherited = source.inherited(item.page);
    bool first = false;
    QPDFObjectHandle to = page_copy(source, item.page, first);
    if (first && item.boxes != nullptr) {
        // The first copy's boxes are about to change: what they were is what
        // later copies of the page start from. Kept only then: a record for
        // every copied page was a twelfth of a merge's memory.
        source.first_copy_boxes.emplace(og, own_box_keys(to));
    }
    if (resize_of(item) != nullptr) {
        resize_page(to, plain_copy(source, og, to), item);
        set_rotation(to, 0, item.quarter_turns);
        set_item_boxes(to, item.boxes, user_unit(to.getKey("/UserUnit")));
    } else {
        set_rotation(to, page_rotation(from, inherited), item.quarter_turns);
        set_item_boxes(to, item.boxes, 1);
    }
    placed.push_back(PlacedPage{item.source, item.page, from, to, first});
    return to;
}

// The page a form of source page `og` is made from: a copy on no page list,
// taken from `copy` (a copy of the page as placed, before it is changed) the
// first time it is needed.
QPDFObjectHandle Assembly::plain_copy(Source &source, QPDFObjGen og, QPDFObjectHandle copy)
{
    auto known = source.plain_copy.find(og);
    if (known != source.plain_copy.end()) {
        return known->second;
    }
    QPDFObjectHandle plain = out.makeIndirectObject(copy.shallowCopy());
    plain.removeKey("/Annots");
    restore_first_boxes(source, og, plain);
    plain.removeKey("/Rotate");
    return source.plain_copy.emplace(og, plain).first->second;
}

// Makes `page` (a copy of a source page, the first one when links must reach it)
// the resized page: the item's new MediaBox showing the form of `plain` drawn
// at the item's placement (clipped to the crop it had when resized), nothing
// else of the source page's looks.
void Assembly::resize_page(QPDFObjectHandle page, QPDFObjectHandle plain, pe_item const &item)
{
    pe_resize const &resize = *resize_of(item);
    Form const &form = forms.form(std::make_pair(item.source, item.page), plain);
    Rect clip;
    bool clipped = false;
    Matrix m = placement_of(resize.placement, clip, clipped);
    for (char const *key : {"/Contents", "/Resources", "/MediaBox", "/CropBox", "/TrimBox", "/BleedBox", "/ArtBox",
                            "/Rotate", "/UserUnit", "/Group", "/Thumb", "/VP", "/Annots"}) {
        page.removeKey(key);
    }
    if (set_page_box(page, resize.width, resize.height, resize.user_unit)) {
        needs_user_unit = true;
    }
    QPDFObjectHandle xobjects = QPDFObjectHandle::newDictionary();
    xobjects.replaceKey("/PdfeditPage", form.object);
    QPDFObjectHandle resources = QPDFObjectHandle::newDictionary();
    resources.replaceKey("/XObject", xobjects);
    page.replaceKey("/Resources", resources);
    page.replaceKey(
        "/Contents", QPDFObjectHandle::newStream(&out, draw_form(m, "/PdfeditPage", clipped ? &clip : nullptr)));
    resized[page.getObjGen()] = m;
}

QPDFObjectHandle Assembly::copy_without_annotations(QPDFObjectHandle from)
{
    if (!from.hasKey("/Annots")) {
        return copy_foreign(out, from);
    }
    // Copying the page with its /Annots would copy the link targets too, and
    // qpdf maps a page it has not copied yet to null: detach them for now.
    QPDFObjectHandle annots = from.getKey("/Annots");
    from.removeKey("/Annots");
    try {
        QPDFObjectHandle to = copy_foreign(out, from);
        from.replaceKey("/Annots", annots);
        return to;
    } catch (...) {
        from.replaceKey("/Annots", annots);
        throw;
    }
}

} // namespace pe
