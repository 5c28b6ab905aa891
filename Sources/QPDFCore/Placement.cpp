// Pages drawn onto other pages as form XObjects at a matrix, with their
// annotations and the destinations that aim at them moved by the same matrix
// (see Placement.hh). The matrices are given (PageModel computes them).
#include "Placement.hh"
#include "Limits.hh"

#include "Export.hh"

#include <qpdf/QPDFPageObjectHelper.hh>

#include <algorithm>
#include <cmath>
#include <locale>
#include <set>
#include <sstream>

namespace pe {

std::string content_number(double value)
{
    if (std::fabs(value) < 5e-7) {
        return "0";
    }
    std::ostringstream text;
    text.imbue(std::locale::classic());
    text.setf(std::ios::fixed);
    text.precision(6);
    text << value;
    std::string result = text.str();
    if (result.find('.') != std::string::npos) {
        result.erase(result.find_last_not_of('0') + 1);
        if (result.back() == '.') {
            result.pop_back();
        }
    }
    return result == "-0" ? "0" : result;
}

namespace {

QPDFObjectHandle real(double value)
{
    return QPDFObjectHandle::newReal(std::fabs(value) < 5e-7 ? 0 : value, 4, true);
}

} // namespace

QPDFObjectHandle rect_array(Rect const &rect)
{
    return QPDFObjectHandle::newArray(
        std::vector<QPDFObjectHandle>{real(rect.llx), real(rect.lly), real(rect.urx), real(rect.ury)});
}

namespace {

bool read_matrix(QPDFObjectHandle value, Matrix &m)
{
    if (!value.isArray() || value.getArrayNItems() != 6) {
        return false;
    }
    double n[6];
    for (int i = 0; i < 6; ++i) {
        QPDFObjectHandle item = value.getArrayItem(i);
        if (!item.isNumber() || !std::isfinite(item.getNumericValue())) {
            return false;
        }
        n[i] = item.getNumericValue();
    }
    m = Matrix{n[0], n[1], n[2], n[3], n[4], n[5]};
    return true;
}

// An array of numbers read as x, y pairs, transformed (null when it is not one).
QPDFObjectHandle transform_points(QPDFObjectHandle value, Matrix const &m)
{
    if (!value.isArray() || value.getArrayNItems() % 2 != 0) {
        return QPDFObjectHandle::newNull();
    }
    std::vector<QPDFObjectHandle> items = value.getArrayAsVector();
    for (QPDFObjectHandle item : items) {
        if (!item.isNumber()) {
            return QPDFObjectHandle::newNull();
        }
    }
    std::vector<QPDFObjectHandle> moved;
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
        double x = 0;
        double y = 0;
        m.apply(items[i].getNumericValue(), items[i + 1].getNumericValue(), x, y);
        moved.push_back(real(x));
        moved.push_back(real(y));
    }
    return QPDFObjectHandle::newArray(moved);
}

void replace_points(QPDFObjectHandle annot, char const *key, Matrix const &m)
{
    QPDFObjectHandle moved = transform_points(dict_key(annot, key), m);
    if (!moved.isNull()) {
        annot.replaceKey(key, moved);
    }
}

// A copy of appearance stream `stream` drawn turned by `turn` after its own /Matrix.
QPDFObjectHandle turned_appearance(QPDFObjectHandle stream, Matrix const &turn)
{
    QPDFObjectHandle copy = stream.copyStream();
    Matrix own;
    read_matrix(copy.getDict().getKey("/Matrix"), own);
    Matrix turned = turn.after(own);
    copy.getDict().replaceKey(
        "/Matrix",
        QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{
            real(turned.a), real(turned.b), real(turned.c), real(turned.d), real(turned.e), real(turned.f)}));
    return copy;
}

void turn_appearances(QPDFObjectHandle annot, Matrix const &turn)
{
    QPDFObjectHandle ap = dict_key(annot, "/AP");
    if (!ap.isDictionary()) {
        return;
    }
    QPDFObjectHandle new_ap = ap.shallowCopy();
    for (char const *kind : {"/N", "/R", "/D"}) {
        QPDFObjectHandle value = new_ap.getKey(kind);
        if (value.isStream()) {
            new_ap.replaceKey(kind, turned_appearance(value, turn));
        } else if (value.isDictionary()) {
            QPDFObjectHandle states = value.shallowCopy();
            for (auto const &key : states.getKeys()) {
                QPDFObjectHandle state = states.getKey(key);
                if (state.isStream()) {
                    states.replaceKey(key, turned_appearance(state, turn));
                }
            }
            new_ap.replaceKey(kind, states);
        }
    }
    annot.replaceKey("/AP", new_ap);
}

// One view parameter moved: the output coordinate (x when `want_x`) from the input
// coordinate it depends on under a quarter-turn matrix. Null stays null.
QPDFObjectHandle moved_coordinate(QPDFObjectHandle x, QPDFObjectHandle y, Matrix const &m, bool want_x)
{
    bool from_x = want_x ? std::fabs(m.a) > 1e-9 : std::fabs(m.b) > 1e-9;
    QPDFObjectHandle input = from_x ? x : y;
    if (!input.isInitialized() || !input.isNumber()) {
        return QPDFObjectHandle::newNull();
    }
    double v = input.getNumericValue();
    if (want_x) {
        return real(from_x ? m.a * v + m.e : m.c * v + m.e);
    }
    return real(from_x ? m.b * v + m.f : m.d * v + m.f);
}

} // namespace

Matrix Matrix::after(Matrix const &first) const
{
    // Row vectors: p * first * this.
    return Matrix{
        first.a * a + first.b * c,
        first.a * b + first.b * d,
        first.c * a + first.d * c,
        first.c * b + first.d * d,
        first.e * a + first.f * c + e,
        first.e * b + first.f * d + f};
}

int Matrix::quarter_turns() const
{
    if (std::fabs(b) < 1e-9 && std::fabs(c) < 1e-9) {
        return a >= 0 ? 0 : 2;
    }
    return b > 0 ? 1 : 3;
}

Matrix Matrix::turn() const
{
    switch (quarter_turns()) {
    case 1: return Matrix{0, 1, -1, 0, 0, 0};
    case 2: return Matrix{-1, 0, 0, -1, 0, 0};
    case 3: return Matrix{0, -1, 1, 0, 0, 0};
    default: return Matrix{};
    }
}

std::string Matrix::operands() const
{
    return content_number(a) + " " + content_number(b) + " " + content_number(c) + " " + content_number(d) + " " + content_number(e) + " " + content_number(f);
}

Matrix placement_of(pe_placement const &placement, Rect &clip, bool &clipped)
{
    double const *n = placement.matrix;
    clipped = placement.clip != 0;
    if (clipped) {
        clip = Rect{std::min(placement.clip_box[0], placement.clip_box[2]), std::min(placement.clip_box[1], placement.clip_box[3]),
                    std::max(placement.clip_box[0], placement.clip_box[2]), std::max(placement.clip_box[1], placement.clip_box[3])};
    }
    return Matrix{n[0], n[1], n[2], n[3], n[4], n[5]};
}

bool is_finite(pe_placement const &placement)
{
    for (double value : placement.matrix) {
        if (!std::isfinite(value)) {
            return false;
        }
    }
    for (double value : placement.clip_box) {
        if (placement.clip != 0 && !std::isfinite(value)) {
            return false;
        }
    }
    return true;
}

Rect transform_rect(Rect const &rect, Matrix const &m)
{
    double xs[4];
    double ys[4];
    m.apply(rect.llx, rect.lly, xs[0], ys[0]);
    m.apply(rect.urx, rect.lly, xs[1], ys[1]);
    m.apply(rect.urx, rect.ury, xs[2], ys[2]);
    m.apply(rect.llx, rect.ury, xs[3], ys[3]);
    return Rect{
        *std::min_element(xs, xs + 4), *std::min_element(ys, ys + 4), *std::max_element(xs, xs + 4),
        *std::max_element(ys, ys + 4)};
}

Form const &PageForms::form(std::pair<int, int> key, QPDFObjectHandle page)
{
    auto known = forms.find(key);
    if (known != forms.end()) {
        return known->second;
    }
    PageGeometry geometry = own_page_geometry(page);
    // Its content is read from the page's /Contents when the output is written,
    // inflated and concatenated in memory: bounded first, as every path that
    // decodes a stream is (resize, nup and booklet took a 2 GiB bomb through).
    check_page_contents(page, stream_limit);
    QPDFObjectHandle object = QPDFPageObjectHelper(page).getFormXObjectForPage(false);
    object.getDict().replaceKey("/BBox", rect_array(geometry.visible));
    object.getDict().removeKey("/Matrix");
    return forms.emplace(key, Form{object, geometry.visible, geometry.rotation}).first->second;
}

std::string draw_form(Matrix const &m, std::string const &name, Rect const *clip)
{
    std::string text = "q\n" + m.operands() + " cm\n";
    if (clip != nullptr) {
        text += content_number(clip->llx) + " " + content_number(clip->lly) + " " + content_number(clip->width()) + " " +
            content_number(clip->height()) + " re W n\n";
    }
    return text + name + " Do\nQ\n";
}

void transform_annotation(QPDFObjectHandle annot, Matrix const &m)
{
    if (!annot.isDictionary()) {
        return;
    }
    Rect rect;
    bool has_rect = read_rectangle(annot.getKey("/Rect"), rect);
    QPDFObjectHandle flags = annot.getKey("/F");
    int f = flags.isInteger() ? static_cast<int>(flags.getIntValue()) : 0;
    bool keeps_size = (f & (8 | 16)) != 0; // NoZoom, NoRotate
    if (has_rect) {
        if (keeps_size) {
            // Its top-left corner follows the page; the icon keeps its size.
            double x = 0;
            double y = 0;
            m.apply(rect.llx, rect.ury, x, y);
            annot.replaceKey("/Rect", rect_array(Rect{x, y - rect.height(), x + rect.width(), y}));
            return;
        }
        annot.replaceKey("/Rect", rect_array(transform_rect(rect, m)));
    }
    replace_points(annot, "/QuadPoints", m);
    replace_points(annot, "/Vertices", m);
    replace_points(annot, "/L", m);
    replace_points(annot, "/CL", m);
    QPDFObjectHandle ink = dict_key(annot, "/InkList");
    if (ink.isArray()) {
        std::vector<QPDFObjectHandle> paths;
        for (QPDFObjectHandle path : ink.getArrayAsVector()) {
            QPDFObjectHandle moved = transform_points(path, m);
            paths.push_back(moved.isNull() ? path : moved);
        }
        annot.replaceKey("/InkList", QPDFObjectHandle::newArray(paths));
    }
    int turns = m.quarter_turns();
    if (turns == 0) {
        return;
    }
    turn_appearances(annot, m.turn());
    QPDFObjectHandle mk = dict_key(annot, "/MK");
    if (mk.isDictionary()) {
        QPDFObjectHandle r = mk.getKey("/R");
        long long degrees = r.isInteger() ? r.getIntValue() : 0;
        QPDFObjectHandle new_mk = mk.shallowCopy();
        new_mk.replaceKey("/R", QPDFObjectHandle::newInteger(((degrees + 90LL * turns) % 360 + 360) % 360));
        annot.replaceKey("/MK", new_mk);
    }
}

std::string field_name(QPDFObjectHandle widget)
{
    std::string name;
    std::set<QPDFObjGen> seen;
    for (QPDFObjectHandle node = widget; node.isDictionary(); node = node.getKey("/Parent")) {
        if (node.isIndirect() && !seen.insert(node.getObjGen()).second) {
            break;
        }
        QPDFObjectHandle t = node.getKey("/T");
        if (t.isString()) {
            name = name.empty() ? t.getUTF8Value() : t.getUTF8Value() + "." + name;
        }
    }
    return name;
}

void place_annotations(
    QPDFObjectHandle from,
    QPDFObjectHandle to,
    Matrix const &m,
    bool drop_widgets,
    std::vector<std::string> *dropped)
{
    QPDFObjectHandle annots = dict_key(from, "/Annots");
    if (!annots.isArray()) {
        return;
    }
    bool same = from.isIndirect() && to.isIndirect() && from.getObjGen() == to.getObjGen();
    std::vector<QPDFObjectHandle> kept;
    QPDFObjectHandle existing = dict_key(to, "/Annots");
    if (!same && existing.isArray()) {
        kept = existing.getArrayAsVector();
    }
    for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
        if (!annot.isDictionary()) {
            continue;
        }
        if (drop_widgets && is_field_like(annot)) {
            if (dropped != nullptr) {
                dropped->push_back(field_name(annot));
            }
            continue;
        }
        transform_annotation(annot, m);
        annot.replaceKey("/P", to);
        kept.push_back(annot);
    }
    if (!same) {
        from.removeKey("/Annots");
    }
    to.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
}

QPDFObjectHandle transform_destination(QPDFObjectHandle dest, Matrix const &m)
{
    if (!dest.isArray() || dest.getArrayNItems() < 2 || !dest.getArrayItem(1).isName()) {
        return dest;
    }
    std::vector<QPDFObjectHandle> items = dest.getArrayAsVector();
    std::string kind = items[1].getName();
    auto item = [&](size_t i) { return i < items.size() ? items[i] : QPDFObjectHandle::newNull(); };
    bool sideways = m.quarter_turns() % 2 != 0;
    std::vector<QPDFObjectHandle> moved{items[0]};
    QPDFObjectHandle none = QPDFObjectHandle::newNull();
    if (kind == "/XYZ") {
        moved.push_back(items[1]);
        moved.push_back(moved_coordinate(item(2), item(3), m, true));
        moved.push_back(moved_coordinate(item(2), item(3), m, false));
        moved.push_back(item(4));
    } else if (kind == "/FitH" || kind == "/FitBH") {
        bool bounded = kind == "/FitBH";
        if (sideways) {
            moved.push_back(QPDFObjectHandle::newName(bounded ? "/FitBV" : "/FitV"));
            moved.push_back(moved_coordinate(none, item(2), m, true));
        } else {
            moved.push_back(items[1]);
            moved.push_back(moved_coordinate(none, item(2), m, false));
        }
    } else if (kind == "/FitV" || kind == "/FitBV") {
        bool bounded = kind == "/FitBV";
        if (sideways) {
            moved.push_back(QPDFObjectHandle::newName(bounded ? "/FitBH" : "/FitH"));
            moved.push_back(moved_coordinate(item(2), none, m, false));
        } else {
            moved.push_back(items[1]);
            moved.push_back(moved_coordinate(item(2), none, m, true));
        }
    } else if (kind == "/FitR" && items.size() >= 6) {
        Rect rect;
        if (!read_rectangle(
                QPDFObjectHandle::newArray(std::vector<QPDFObjectHandle>{items[2], items[3], items[4], items[5]}),
                rect)) {
            return dest;
        }
        Rect r = transform_rect(rect, m);
        moved.push_back(items[1]);
        for (double v : {r.llx, r.lly, r.urx, r.ury}) {
            moved.push_back(real(v));
        }
    } else {
        return dest; // /Fit, /FitB: nothing to move
    }
    return QPDFObjectHandle::newArray(moved);
}

namespace {

// The matrix of the page `dest` aims at, or nullptr.
Matrix const *aim(QPDFObjectHandle dest, std::map<QPDFObjGen, Matrix> const &moved)
{
    if (!dest.isArray() || dest.getArrayNItems() == 0) {
        return nullptr;
    }
    QPDFObjectHandle page = dest.getArrayItem(0);
    if (!page.isIndirect()) {
        return nullptr;
    }
    auto found = moved.find(page.getObjGen());
    return found == moved.end() ? nullptr : &found->second;
}

// A copy of `action` with its /D moved when it is a /GoTo action aiming at a
// moved page (actions may be shared); uninitialised otherwise.
QPDFObjectHandle moved_goto(QPDFObjectHandle action, std::map<QPDFObjGen, Matrix> const &moved)
{
    QPDFObjectHandle dest = dict_key(action, "/D");
    Matrix const *m = dict_key(action, "/S").isNameAndEquals("/GoTo") ? aim(dest, moved) : nullptr;
    if (m == nullptr) {
        return QPDFObjectHandle();
    }
    QPDFObjectHandle copy = action.shallowCopy();
    copy.replaceKey("/D", transform_destination(dest, *m));
    return copy;
}

// Moves the destination under `key` of `holder` (an annotation, outline item or
// the catalog) or, when that aims at no moved page, the /GoTo action under `action`.
void move_destination(
    QPDFObjectHandle holder, char const *key, char const *action, std::map<QPDFObjGen, Matrix> const &moved)
{
    QPDFObjectHandle dest = dict_key(holder, key);
    if (Matrix const *m = aim(dest, moved)) {
        holder.replaceKey(key, transform_destination(dest, *m));
    } else if (QPDFObjectHandle copy = moved_goto(dict_key(holder, action), moved); copy.isInitialized()) {
        holder.replaceKey(action, copy);
    }
}

} // namespace

void for_each_destination_holder(QPDF &out, std::function<void(QPDFObjectHandle)> const &visit)
{
    std::set<QPDFObjGen> seen;
    for (QPDFObjectHandle page : out.getAllPages()) {
        QPDFObjectHandle annots = dict_key(page, "/Annots");
        if (!annots.isArray()) {
            continue;
        }
        for (QPDFObjectHandle annot : annots.getArrayAsVector()) {
            if ((!annot.isIndirect() || seen.insert(annot.getObjGen()).second) &&
                dict_key(annot, "/Subtype").isNameAndEquals("/Link")) {
                visit(annot);
            }
        }
    }
    std::vector<QPDFObjectHandle> pending{dict_key(dict_key(out.getRoot(), "/Outlines"), "/First")};
    while (!pending.empty()) {
        QPDFObjectHandle item = pending.back();
        pending.pop_back();
        for (; item.isDictionary(); item = item.getKey("/Next")) {
            if (item.isIndirect() && !seen.insert(item.getObjGen()).second) {
                break; // a loop
            }
            visit(item);
            pending.push_back(item.getKey("/First"));
        }
    }
}

void transform_destinations(QPDF &out, std::map<QPDFObjGen, Matrix> const &moved)
{
    if (moved.empty()) {
        return;
    }
    for_each_destination_holder(
        out, [&moved](QPDFObjectHandle holder) { move_destination(holder, "/Dest", "/A", moved); });
    move_destination(out.getRoot(), "/OpenAction", "/OpenAction", moved); // a destination, or a /GoTo action
}

} // namespace pe
