// Stamps: a page of a source (or a generated text) drawn over (or under) output
// pages, a page as one form XObject per output shared by every page it is
// drawn on, at the matrix the caller gives (PageModel's StampPlacement.matrix,
// which composes both pages' /Rotate and /UserUnit with the stamp's placement).
#include "Geometry.hh"
#include "Placement.hh"
#include "Stamps.hh"

#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QUtil.hh>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

namespace pe {

namespace {

void check_text_stamp(pe_stamp const &stamp, std::string const &which)
{
    if (!std::isfinite(stamp.size) || stamp.size <= 0 || stamp.text_length < 0 || stamp.font < 0 || stamp.font > 2) {
        throw PlanError(which + ": invalid text");
    }
}

} // namespace

void check_stamps(StampList list, int source_count, int item_count)
{
    if (list.count < 0 || (list.count > 0 && list.stamps == nullptr)) {
        throw PlanError("invalid stamp list");
    }
    for (int i = 0; i < list.count; ++i) {
        pe_stamp const &stamp = list.stamps[i];
        std::string which = "stamp " + std::to_string(i + 1);
        if (stamp.item < 0 || stamp.item >= item_count) {
            throw PlanError(which + " names no item");
        }
        if (stamp.text != nullptr) {
            check_text_stamp(stamp, which);
        } else if (stamp.source < 0 || stamp.source >= source_count) {
            throw PlanError(which + " names no source");
        }
        for (double value : stamp.matrix) {
            if (!std::isfinite(value)) {
                throw PlanError(which + ": invalid placement");
            }
        }
        if (!(std::isfinite(stamp.opacity) && stamp.opacity > 0 && stamp.opacity <= 1)) {
            throw PlanError(which + ": opacity must be above 0 and at most 1");
        }
    }
}

void for_each_stamp(StampList list, int first, int count, std::function<void(pe_stamp const &)> const &use)
{
    for (int i = 0; i < list.count; ++i) {
        if (list.stamps[i].item >= first && list.stamps[i].item - first < count) {
            use(list.stamps[i]);
        }
    }
}

namespace {

// One kind of a page's resources (/XObject, /ExtGState, /Font) as a stamp
// extends it: the page's own entries kept, new ones under names it does not use.
class ResourceKind {
  public:
    ResourceKind(QPDFObjectHandle resources, std::string key) : kind(std::move(key))
    {
        own = resources.isDictionary() ? resources.getKey(kind) : QPDFObjectHandle();
        extended = own.isDictionary() ? own.shallowCopy() : QPDFObjectHandle::newDictionary();
    }

    // Adds `object` under `base`, or base_2, ... when the page uses it (a page
    // stamped by an earlier pdfedit already has /PdfeditStamp0); returns the name.
    std::string add(std::string const &base, QPDFObjectHandle object, std::string &added)
    {
        std::string name =
            unique_name(base, false, [this](std::string const &n) { return own.isDictionary() && own.hasKey(n); });
        extended.replaceKey(name, object);
        used = true;
        added += name + "=" + object.getObjGen().unparse(' ') + ";";
        return name;
    }

    void store(QPDFObjectHandle resources) const
    {
        if (used) {
            resources.replaceKey(kind, extended);
        }
    }

  private:
    std::string kind;
    QPDFObjectHandle own;
    QPDFObjectHandle extended;
    bool used = false;
};

std::string matrix_text(double const (&m)[6])
{
    return Matrix{m[0], m[1], m[2], m[3], m[4], m[5]}.operands();
}

// `shown` inside an /ActualText span when the stamp gives one.
std::string with_actual_text(pe_stamp const &stamp, std::string const &shown)
{
    if (stamp.actual_text == nullptr) {
        return shown;
    }
    std::string words = QUtil::utf8_to_utf16(stamp.actual_text);
    return "/Span <</ActualText <" + QUtil::hex_encode(words) + ">>> BDC\n" + shown + "EMC\n";
}

// The operator setting a fill (or stroke) colour of 3 (RGB) or 4 (CMYK) parts.
std::string colour_operator(int components, double const (&parts)[4], bool stroke)
{
    std::string text;
    for (int i = 0; i < components; ++i) {
        text += content_number(parts[i]) + " ";
    }
    if (components == 4) {
        return text + (stroke ? "K\n" : "k\n");
    }
    return text + (stroke ? "RG\n" : "rg\n");
}

// The text of a generated stamp at the origin of the current matrix (black, or
// its colour; its box filled and edged first when it has them), as a hex string
// (any byte is safe), inside an /ActualText span when one is given.
std::string text_operators(pe_stamp const &stamp, std::string const &font)
{
    std::string bytes(stamp.text, static_cast<size_t>(stamp.text_length));
    std::string box = content_number(stamp.box[0]) + " " + content_number(stamp.box[1]) + " " +
        content_number(stamp.box[2] - stamp.box[0]) + " " + content_number(stamp.box[3] - stamp.box[1]) + " re ";
    std::string shown;
    if (stamp.background_components == 3 || stamp.background_components == 4) {
        shown += colour_operator(stamp.background_components, stamp.background, false) + box + "f\n";
    }
    if (stamp.outline_components == 3 || stamp.outline_components == 4) {
        shown += colour_operator(stamp.outline_components, stamp.outline, true) + content_number(stamp.size / 20) +
            " w " + box + "S\n";
    }
    shown += stamp.color_components == 3 || stamp.color_components == 4
        ? colour_operator(stamp.color_components, stamp.color, false)
        : std::string("0 g\n");
    return with_actual_text(
        stamp,
        shown + "BT\n" + font + " " + content_number(stamp.size) + " Tf\n<" + QUtil::hex_encode(bytes) + "> Tj\nET\n");
}

// Draws the stamps of one output: forms, graphics states and content streams are
// made once and shared by every page that uses them.
class Stamper {
  public:
    Stamper(QPDF &output, std::vector<Source> &opened, Where &progress) :
        out(output), sources(opened), where(progress)
    {
    }

    void stamp(PlacedPage const &page, std::vector<pe_stamp const *> const &stamps)
    {
        QPDFObjectHandle to = page.to;
        QPDFObjectHandle resources = to.getKey("/Resources");
        ResourceKind xobjects(resources, "/XObject");
        ResourceKind states(resources, "/ExtGState");
        ResourceKind fonts(resources, "/Font");
        // What the new resources add, to share one dictionary between pages that
        // had the same indirect resources and got the same stamps.
        std::string added;

        std::vector<QPDFObjectHandle> under;
        std::vector<QPDFObjectHandle> over;
        for (size_t k = 0; k < stamps.size(); ++k) {
            pe_stamp const &stamp = *stamps[k];
            std::string text = "q\n";
            if (stamp.opacity < 1) {
                text += states.add("/PdfeditStampGS" + std::to_string(k), state_for(stamp.opacity), added) + " gs\n";
            }
            if (stamp.text != nullptr) {
                std::string font = fonts.add("/PdfeditFont" + std::to_string(stamp.font), font_for(stamp.font), added);
                text += matrix_text(stamp.matrix) + " cm\n" + text_operators(stamp, font);
            } else {
                std::string name = xobjects.add("/PdfeditStamp" + std::to_string(k), form_for(stamp), added);
                text += matrix_text(stamp.matrix) + " cm\n" + with_actual_text(stamp, name + " Do\n");
            }
            text += "Q\n";
            (stamp.under != 0 ? under : over).push_back(stream_for(text));
        }

        QPDFObjectHandle new_resources =
            resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary();
        xobjects.store(new_resources);
        states.store(new_resources);
        fonts.store(new_resources);
        if (resources.isIndirect()) {
            std::string key = resources.getObjGen().unparse(' ') + "|" + added;
            auto known = shared_resources.find(key);
            if (known == shared_resources.end()) {
                known = shared_resources.emplace(key, out.makeIndirectObject(new_resources)).first;
            }
            new_resources = known->second;
        }
        to.replaceKey("/Resources", new_resources);

        // A new array on this page only: other pages showing the same source page
        // keep the contents they had.
        std::vector<QPDFObjectHandle> contents = under;
        contents.push_back(stream_for("q\n"));
        QPDFObjectHandle old = to.getKey("/Contents");
        if (old.isArray()) {
            for (int i = 0; i < old.getArrayNItems(); ++i) {
                contents.push_back(old.getArrayItem(i));
            }
        } else if (old.isStream()) {
            contents.push_back(old);
        }
        contents.push_back(stream_for("Q\n"));
        contents.insert(contents.end(), over.begin(), over.end());
        to.replaceKey("/Contents", QPDFObjectHandle::newArray(contents));
    }

  private:
    QPDF &out;
    std::vector<Source> &sources;
    Where &where;
    std::map<std::pair<int, int>, QPDFObjectHandle> forms; // in the output
    std::map<double, QPDFObjectHandle> states;
    std::map<int, QPDFObjectHandle> fonts;
    std::map<std::string, QPDFObjectHandle> streams;
    std::map<std::string, QPDFObjectHandle> shared_resources;

    QPDFObjectHandle form_for(pe_stamp const &stamp)
    {
        auto key = std::make_pair(stamp.source, stamp.page);
        auto known = forms.find(key);
        if (known != forms.end()) {
            return known->second;
        }
        where = Where{stamp.source, stamp.page + 1};
        Source &source = sources[static_cast<size_t>(stamp.source)];
        source.push_inherited(stamp.page); // its visible box is read from the page
        QPDFObjectHandle page = source.pages[static_cast<size_t>(stamp.page)];
        // Made in the source (its content stream is piped from the page's contents
        // when the output is written), then copied; annotations do not come along.
        QPDFObjectHandle form = QPDFPageObjectHelper(page).getFormXObjectForPage(false);
        QPDFObjectHandle dictionary = form.getDict();
        dictionary.replaceKey("/BBox", rect_array(own_page_geometry(page).visible));
        // A group is painted as a whole with the opacity in force where it is drawn,
        // also when the stamp sets its own /ca inside.
        if (!dictionary.getKey("/Group").isDictionary()) {
            QPDFObjectHandle group = QPDFObjectHandle::newDictionary();
            group.replaceKey("/Type", QPDFObjectHandle::newName("/Group"));
            group.replaceKey("/S", QPDFObjectHandle::newName("/Transparency"));
            dictionary.replaceKey("/Group", group);
        }
        QPDFObjectHandle copy = copy_foreign(out, form);
        where = Where{};
        return forms.emplace(key, copy).first->second;
    }

    QPDFObjectHandle state_for(double opacity)
    {
        auto known = states.find(opacity);
        if (known != states.end()) {
            return known->second;
        }
        QPDFObjectHandle state = QPDFObjectHandle::newDictionary();
        state.replaceKey("/Type", QPDFObjectHandle::newName("/ExtGState"));
        state.replaceKey("/CA", QPDFObjectHandle::newReal(opacity, 4, true));
        state.replaceKey("/ca", QPDFObjectHandle::newReal(opacity, 4, true));
        return states.emplace(opacity, out.makeIndirectObject(state)).first->second;
    }

    // One font dictionary per standard font in the output.
    QPDFObjectHandle font_for(int font)
    {
        auto known = fonts.find(font);
        if (known != fonts.end()) {
            return known->second;
        }
        static char const *const names[] = {"/Helvetica", "/Times-Roman", "/Courier"};
        QPDFObjectHandle dictionary = QPDFObjectHandle::newDictionary();
        dictionary.replaceKey("/Type", QPDFObjectHandle::newName("/Font"));
        dictionary.replaceKey("/Subtype", QPDFObjectHandle::newName("/Type1"));
        dictionary.replaceKey("/BaseFont", QPDFObjectHandle::newName(names[font]));
        dictionary.replaceKey("/Encoding", QPDFObjectHandle::newName("/WinAnsiEncoding"));
        return fonts.emplace(font, out.makeIndirectObject(dictionary)).first->second;
    }

    QPDFObjectHandle stream_for(std::string const &text)
    {
        auto known = streams.find(text);
        if (known != streams.end()) {
            return known->second;
        }
        return streams.emplace(text, QPDFObjectHandle::newStream(&out, text)).first->second;
    }
};

} // namespace

void apply_stamps(
    QPDF &out,
    std::vector<Source> &sources,
    StampList list,
    int first,
    std::vector<PlacedPage> const &placed,
    Where &where)
{
    if (list.count == 0) {
        return;
    }
    std::vector<std::vector<pe_stamp const *>> on_page(placed.size());
    for_each_stamp(list, first, static_cast<int>(placed.size()), [&](pe_stamp const &stamp) {
        on_page[static_cast<size_t>(stamp.item - first)].push_back(&stamp);
    });
    Stamper stamper(out, sources, where);
    for (size_t i = 0; i < placed.size(); ++i) {
        if (!on_page[i].empty()) {
            stamper.stamp(placed[i], on_page[i]);
        }
    }
    where = Where{};
}

void stamp_page(
    QPDF &out,
    std::vector<Source> &sources,
    PlacedPage const &page,
    std::vector<pe_stamp const *> const &stamps,
    Where &where)
{
    Stamper stamper(out, sources, where);
    stamper.stamp(page, stamps);
    where = Where{};
}

} // namespace pe
