// The sheets of `nup` and `booklet` (pe_item PE_ITEM_SHEET): a new page of the
// sheet's size on which each cell's source page is drawn as the one form
// XObject of that page in this output (Placement.cpp's PageForms), upright and
// scaled to fit its cell by the one placement matrix. A cell's page is first
// copied onto a page object of its own that is on no page list (the first copy
// of a source page when it is the first use, so that links aiming at it
// resolve to it); its annotations are copied there by copy_annotations, then
// moved onto the sheet with the cell's matrix (form fields dropped with one
// warning naming them), and destinations aiming at it are moved by the same
// matrix and pointed at the sheet.
#include "Assembly.hh"

#include "Geometry.hh"
#include "Stamps.hh"

#include <algorithm>
#include <set>
#include <string>

namespace pe {

void check_sheet_cells(pe_item const &item, int index, int source_count)
{
    std::string which = "item " + std::to_string(index + 1);
    if (item.cell_count < 0 || (item.cell_count > 0 && item.cells == nullptr)) {
        throw PlanError(which + ": a sheet without its cells");
    }
    for (int c = 0; c < item.cell_count; ++c) {
        pe_sheet_cell const &cell = item.cells[c];
        if (!is_finite(cell.placement)) {
            throw PlanError(which + ": cell " + std::to_string(c + 1) + " has no usable placement");
        }
        if (cell.kind == PE_ITEM_PAGE) {
            if (cell.source < 0 || cell.source >= source_count) {
                throw PlanError(which + ": cell " + std::to_string(c + 1) + " names no source");
            }
        } else if (cell.kind != PE_ITEM_BLANK) {
            throw PlanError(which + ": cell " + std::to_string(c + 1) + " has an unknown kind");
        }
        if (cell.stamp_count < 0 || (cell.stamp_count > 0 && cell.stamps == nullptr)) {
            throw PlanError(which + ": cell " + std::to_string(c + 1) + " without its stamps");
        }
        for (int k = 0; k < cell.stamp_count; ++k) {
            if (cell.stamps[k].item != index) {
                throw PlanError(which + ": a stamp of cell " + std::to_string(c + 1) + " names another item");
            }
        }
        check_stamps(StampList{cell.stamps, cell.stamp_count}, source_count, index + 1);
        if (cell.finish != nullptr &&
            (cell.finish->step_count < 0 || (cell.finish->step_count > 0 && cell.finish->steps == nullptr))) {
            throw PlanError(which + ": cell " + std::to_string(c + 1) + " without its finishing steps");
        }
    }
}

void Inputs::open_sheet_sources(pe_item const &item)
{
    for (int c = 0; c < item.cell_count; ++c) {
        pe_sheet_cell const &cell = item.cells[c];
        if (cell.kind != PE_ITEM_PAGE) {
            continue;
        }
        open_source(cell.source);
        for (int k = 0; k < cell.stamp_count; ++k) {
            open_source(cell.stamps[k].source);
            check_page(cell.stamps[k].source, cell.stamps[k].page);
        }
        check_page(cell.source, cell.page);
    }
}

// The sheet: a blank page of the item's size (its turns and boxes set as for a
// blank page) drawing its cells.
QPDFObjectHandle Assembly::sheet_page(pe_item const &item)
{
    QPDFObjectHandle sheet = blank_page(item);
    QPDFObjectHandle xobjects = QPDFObjectHandle::newDictionary();
    std::string content;
    for (int c = 0; c < item.cell_count; ++c) {
        pe_sheet_cell const &cell = item.cells[c];
        if (cell.kind != PE_ITEM_PAGE) {
            continue;
        }
        draw_cell(sheet, item, c, content, xobjects);
    }
    QPDFObjectHandle resources = QPDFObjectHandle::newDictionary();
    resources.replaceKey("/XObject", xobjects);
    sheet.replaceKey("/Resources", resources);
    sheet.replaceKey("/Contents", QPDFObjectHandle::newStream(&out, content));
    where = Where{};
    return sheet;
}

// Cell `index` of `item`: its page's form drawn at the cell's placement
// (appended to `content`, the form named in `xobjects`), its page copy kept in
// `cells`.
void Assembly::draw_cell(
    QPDFObjectHandle sheet, pe_item const &item, int index, std::string &content, QPDFObjectHandle xobjects)
{
    pe_sheet_cell const &cell = item.cells[index];
    Source &source = sources[static_cast<size_t>(cell.source)];
    where = Where{cell.source, cell.page + 1};
    QPDFObjectHandle from = source.pages[static_cast<size_t>(cell.page)];
    QPDFObjGen og = from.getObjGen();
    InheritedFrame const *inherited = source.inherited(cell.page);
    bool first = false;
    QPDFObjectHandle holder = page_copy(source, cell.page, first);
    QPDFObjectHandle plain = plain_copy(source, og, holder);
    std::pair<int, int> key(cell.source, cell.page);
    if (cell.stamp_count > 0) {
        // The stamps go on a page of this cell's own (turned and cropped as the
        // reader sees the item, so they are centred and upright as on a page),
        // which becomes its own form.
        QPDFObjectHandle stamped = out.makeIndirectObject(plain.shallowCopy());
        set_rotation(stamped, page_rotation(from, inherited), cell.quarter_turns);
        pe_box boxes[4]{};
        boxes[PE_BOX_CROP] = cell.crop;
        set_item_boxes(stamped, boxes, 1);
        std::vector<pe_stamp const *> stamps;
        for (int k = 0; k < cell.stamp_count; ++k) {
            stamps.push_back(&cell.stamps[k]);
        }
        stamp_page(out, sources, PlacedPage{cell.source, cell.page, from, stamped, false}, stamps, where);
        where = Where{cell.source, cell.page + 1};
        plain = stamped;
        key = std::make_pair(-2 - static_cast<int>(&item - items), index);
    }
    Form const &form = forms.form(key, plain);
    Rect clip;
    bool clipped = false;
    Matrix m = placement_of(cell.placement, clip, clipped);
    std::string name = "/PdfeditCell" + std::to_string(index + 1);
    xobjects.replaceKey(name, form.object);
    content += draw_form(m, name, clipped ? &clip : nullptr);
    cells.push_back(
        Cell{PlacedPage{cell.source, cell.page, from, holder, first}, m, sheet, static_cast<int>(&item - items),
             index + 1, form.box, clip, clipped});
}

// The cells' annotations, copied onto their page copies, moved onto the sheets;
// form fields cannot follow a page onto a sheet: dropped, one warning naming them.
void Assembly::place_cell_annotations()
{
    if (cells.empty()) {
        return;
    }
    std::vector<PlacedPage> pages;
    pages.reserve(cells.size());
    for (Cell const &cell : cells) {
        pages.push_back(cell.page);
    }
    std::vector<CopiedAnnotation> widgets;
    std::vector<CopiedAnnotation> all;
    copy_annotations(out, sources, pages, where, widgets, all);
    std::vector<std::string> dropped_fields;
    std::set<int> dropping_sources;
    for (Cell const &cell : cells) {
        pe_sheet_cell const &planned = items[cell.item].cells[cell.cell - 1];
        if (planned.finish != nullptr && planned.finish->step_count > 0) {
            where = Where{cell.page.source, cell.page.page + 1};
            draw_cell_finish(cell, *planned.finish);
        }
        size_t before = dropped_fields.size();
        place_annotations(cell.page.to, cell.sheet, cell.matrix, true, &dropped_fields);
        if (dropped_fields.size() > before) {
            dropping_sources.insert(cell.page.source);
        }
    }
    if (dropped_fields.empty()) {
        return;
    }
    std::vector<std::string> names;
    for (std::string const &field : dropped_fields) {
        std::string shown = field.empty() ? "(unnamed)" : field;
        if (std::find(names.begin(), names.end(), shown) == names.end()) {
            names.push_back(shown);
        }
    }
    inputs.warn(
        dropping_sources.size() == 1 ? *dropping_sources.begin() : -1,
        "form fields cannot go onto a sheet (nup, booklet) and were left out: " + capped_list(names));
}

// A cell's `flatten`/`strip` steps, run on its page copy (which holds the
// copied annotations): what they remove is not placed on the sheet, and what
// flattening draws becomes a form of its own drawn over the cell as the cell's
// page is drawn (same matrix, same clip), so the appearances sit where their
// annotations were.
void Assembly::draw_cell_finish(Cell const &cell, pe_item_finish const &finish)
{
    QPDFObjectHandle sheet = cell.sheet;
    std::string prefix = "/PdfeditCell" + std::to_string(cell.cell) + "Flat";
    Source const &source = sources[static_cast<size_t>(cell.page.source)];
    QPDFObjectHandle source_form =
        source.pdf ? source.pdf->getRoot().getKey("/AcroForm") : QPDFObjectHandle::newNull();
    FlattenedDrawing drawn = finish_cell_page(out, cell.page.to, finish, prefix, source_form);
    if (drawn.content.empty()) {
        return;
    }
    QPDFObjectHandle resources = QPDFObjectHandle::newDictionary();
    resources.replaceKey("/XObject", drawn.xobjects);
    QPDFObjectHandle form = QPDFObjectHandle::newStream(&out, drawn.content);
    QPDFObjectHandle dict = form.getDict();
    dict.replaceKey("/Type", QPDFObjectHandle::newName("/XObject"));
    dict.replaceKey("/Subtype", QPDFObjectHandle::newName("/Form"));
    dict.replaceKey("/BBox", rect_array(cell.box));
    dict.replaceKey("/Resources", resources);
    std::string name = prefix;
    QPDFObjectHandle sheet_resources = sheet.getKey("/Resources");
    QPDFObjectHandle xobjects = dict_key(sheet_resources, "/XObject");
    xobjects.replaceKey(name, form);
    std::vector<QPDFObjectHandle> streams;
    QPDFObjectHandle contents = sheet.getKey("/Contents");
    if (contents.isArray()) {
        streams = contents.getArrayAsVector();
    } else if (contents.isStream()) {
        streams.push_back(contents);
    }
    streams.push_back(QPDFObjectHandle::newStream(&out, draw_form(cell.matrix, name, cell.clipped ? &cell.clip : nullptr)));
    sheet.replaceKey("/Contents", QPDFObjectHandle::newArray(streams));
}

namespace {

// Points the explicit destination `dest` at `sheet` when it aims at one of the
// cells' page copies (`sheet_of`); the same array when it does not.
QPDFObjectHandle pointed(QPDFObjectHandle dest, std::map<QPDFObjGen, QPDFObjectHandle> const &sheet_of)
{
    if (!dest.isArray() || dest.getArrayNItems() == 0 || !dest.getArrayItem(0).isIndirect()) {
        return dest;
    }
    auto found = sheet_of.find(dest.getArrayItem(0).getObjGen());
    if (found == sheet_of.end()) {
        return dest;
    }
    QPDFObjectHandle copy = dest.shallowCopy();
    copy.setArrayItem(0, found->second);
    return copy;
}

void point(QPDFObjectHandle holder, std::map<QPDFObjGen, QPDFObjectHandle> const &sheet_of)
{
    QPDFObjectHandle dest = holder.isDictionary() ? holder.getKey("/Dest") : QPDFObjectHandle::newNull();
    if (dest.isArray()) {
        holder.replaceKey("/Dest", pointed(dest, sheet_of));
        return;
    }
    QPDFObjectHandle action = holder.isDictionary() ? holder.getKey("/A") : QPDFObjectHandle::newNull();
    if (!action.isDictionary() || !action.getKey("/S").isNameAndEquals("/GoTo") || !action.getKey("/D").isArray()) {
        return;
    }
    QPDFObjectHandle copy = action.shallowCopy();
    copy.replaceKey("/D", pointed(action.getKey("/D"), sheet_of));
    holder.replaceKey("/A", copy);
}

} // namespace

// Destinations aiming at a cell's page copy: moved by the cell's matrix, then
// pointed at its sheet.
void Assembly::retarget_cell_destinations()
{
    if (cells.empty()) {
        return;
    }
    std::map<QPDFObjGen, Matrix> moved;
    std::map<QPDFObjGen, QPDFObjectHandle> sheet_of;
    for (Cell const &cell : cells) {
        moved[cell.page.to.getObjGen()] = cell.matrix;
        sheet_of[cell.page.to.getObjGen()] = cell.sheet;
    }
    transform_destinations(out, moved);
    for_each_destination_holder(out, [&sheet_of](QPDFObjectHandle holder) { point(holder, sheet_of); });
}

// Whether a sheet's cell has stamps (whose forms read their sources when written).
bool Assembly::has_cell_stamps() const
{
    for (int i = 0; i < item_count; ++i) {
        for (int c = 0; items[i].kind == PE_ITEM_SHEET && c < items[i].cell_count; ++c) {
            if (items[i].cells[c].stamp_count > 0) {
                return true;
            }
        }
    }
    return false;
}

} // namespace pe
