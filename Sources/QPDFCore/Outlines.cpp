// Bookmarks of the output, rebuilt from every source's outline.
//
// A source's outline is read once: titles, targets resolved to source page
// indices (explicit destinations, named ones through /Dests or the /Names /Dests
// tree, GoTo actions), view parameters, open state, colour and style. For an
// output it is pruned to the entries whose target page is exported (pointing at
// the page's first copy), the entries with surviving children (kept as
// headings without a destination) and the leaves that never had a target page
// in their source (kept as headings too); entries with actions that go elsewhere (URI,
// GoToR, named actions, ...) are kept when their source contributes anything.
// When only one source contributes bookmarks, its entries are the top level; when
// several do, each gets one top-level entry (its name, else its /Title, else its
// file name), in order of first appearance, pointing at its first output page,
// with its outline beneath. /Count is recomputed from the open states.
#include "Export.hh"

#include <deque>
#include <exception>
#include <set>
#include <stdexcept>
#include <strings.h>

namespace pe {

namespace {

// Deeper outlines are cut there.
constexpr int max_outline_depth = 64;

OutlineEntry read_entry(Source &source, QPDFObjectHandle item)
{
    OutlineEntry entry;
    QPDFObjectHandle title = item.getKey("/Title");
    if (title.isString()) {
        entry.title = title.getStringValue();
        entry.title_utf8 = title.getUTF8Value();
    }
    QPDFObjectHandle count = item.getKey("/Count");
    entry.open = count.isInteger() && count.getIntValue() > 0;
    QPDFObjectHandle color = item.getKey("/C");
    if (color.isArray()) {
        entry.color = fresh_copy(color);
    }
    QPDFObjectHandle flags = item.getKey("/F");
    if (flags.isInteger()) {
        entry.flags = fresh_copy(flags);
    }
    QPDFObjectHandle dest;
    if (item.hasKey("/Dest")) {
        dest = item.getKey("/Dest");
    } else {
        QPDFObjectHandle action = item.getKey("/A");
        if (dict_key(action, "/S").isNameAndEquals("/GoTo")) {
            dest = action.getKey("/D");
        } else if (action.isDictionary()) {
            entry.action = action.isIndirect()
                ? action
                : make_source_object(source, action.shallowCopy());
            QPDFObjectHandle uri = action.getKey("/URI");
            if (dict_key(action, "/S").isNameAndEquals("/URI") && uri.isString()) {
                entry.uri = uri.getStringValue();
            }
        }
    }
    if (!dest.isInitialized()) {
        return entry;
    }
    QPDFObjectHandle resolved = explicit_destination(source, dest);
    if (!resolved.isArray() || resolved.getArrayNItems() == 0) {
        return entry;
    }
    std::vector<QPDFObjectHandle> items = resolved.getArrayAsVector();
    entry.page = destination_page(source, items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
        entry.view.push_back(fresh_copy(items[i]));
    }
    return entry;
}

void read_entries(
    Source &source,
    QPDFObjectHandle first,
    int depth,
    std::set<QPDFObjGen> &seen,
    std::vector<OutlineEntry> &into)
{
    if (depth > max_outline_depth) {
        return;
    }
    for (QPDFObjectHandle item = first; item.isDictionary(); item = item.getKey("/Next")) {
        if (item.isIndirect() && !seen.insert(item.getObjGen()).second) {
            break; // a loop
        }
        OutlineEntry entry = read_entry(source, item);
        read_entries(source, item.getKey("/First"), depth + 1, seen, entry.kids);
        into.push_back(std::move(entry));
    }
}

// Where each page of one source first appears in the output.
using FirstItems = std::map<int, int>;

bool has_target(std::vector<OutlineEntry> const &entries, FirstItems const &first)
{
    for (OutlineEntry const &entry : entries) {
        if ((entry.page >= 0 && first.count(entry.page) != 0) || has_target(entry.kids, first)) {
            return true;
        }
    }
    return false;
}

std::vector<OutlineNode> prune(
    std::vector<OutlineEntry> const &entries, int source, FirstItems const &first)
{
    std::vector<OutlineNode> nodes;
    for (OutlineEntry const &entry : entries) {
        OutlineNode node;
        node.entry = &entry;
        node.source = source;
        node.title_utf8 = entry.title_utf8;
        if (entry.page >= 0) {
            auto found = first.find(entry.page);
            if (found != first.end()) {
                node.item = found->second;
            }
        }
        node.kids = prune(entry.kids, source, first);
        // A leaf that goes to no page of its source (no destination, or one to a
        // missing page) is kept as it was: a heading; no edit removed its target.
        bool targetless_leaf = entry.page < 0 && entry.kids.empty();
        if (node.item < 0 && node.kids.empty() && !entry.action.isInitialized() && !targetless_leaf) {
            continue;
        }
        node.first_item = node.item;
        for (OutlineNode const &kid : node.kids) {
            if (kid.first_item >= 0 && (node.first_item < 0 || kid.first_item < node.first_item)) {
                node.first_item = kid.first_item;
            }
        }
        nodes.push_back(std::move(node));
    }
    return nodes;
}

std::string title_of_source(pe_source const &arg, Source &source)
{
    if (arg.name != nullptr && arg.name[0] != '\0') {
        return arg.name;
    }
    QPDFObjectHandle title = dict_key(source.pdf->getTrailer().getKey("/Info"), "/Title");
    if (title.isString() && !title.getUTF8Value().empty()) {
        return title.getUTF8Value();
    }
    std::string name = file_name(arg.path);
    size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0 && strcasecmp(name.c_str() + dot, ".pdf") == 0) {
        name.erase(dot); // the file's stem
    }
    return name;
}

// How a bookmark's JavaScript is treated (see write_outline).
struct ScriptPolicy {
    bool keep;
    Dropped &dropped;
};

QPDFObjectHandle output_item(
    QPDF &out, OutlineNode const &node, std::vector<PlacedPage> const &placed, ScriptPolicy &scripts,
    CellPages const *cell_pages)
{
    QPDFObjectHandle item = QPDFObjectHandle::newDictionary();
    OutlineEntry const *entry = node.entry;
    if (entry == nullptr) {
        item.replaceKey("/Title", QPDFObjectHandle::newUnicodeString(node.title_utf8));
    } else {
        item.replaceKey("/Title", QPDFObjectHandle::newString(entry->title));
    }
    if (node.item >= 0) {
        std::vector<QPDFObjectHandle> dest{placed[static_cast<size_t>(node.item)].to};
        if (node.cell > 0 && cell_pages != nullptr) {
            auto cell = cell_pages->find(std::make_pair(node.item, node.cell));
            if (cell != cell_pages->end()) {
                dest[0] = cell->second;
            }
        }
        if (entry == nullptr) {
            dest.push_back(QPDFObjectHandle::newName("/Fit")); // a source's own entry
        } else if (entry->view.empty()) {
            dest.push_back(QPDFObjectHandle::newName("/XYZ"));
            dest.resize(5, QPDFObjectHandle::newNull());
        } else {
            for (QPDFObjectHandle const &value : entry->view) {
                dest.push_back(fresh_copy(value));
            }
        }
        item.replaceKey("/Dest", QPDFObjectHandle::newArray(dest));
    } else if (entry != nullptr && entry->action.isInitialized()) {
        if (!scripts.keep && runs_script(entry->action)) {
            scripts.dropped.add("JavaScript", node.source, "bookmark \u201c" + entry->title_utf8 + "\u201d");
        } else if (entry->action.isIndirect() && entry->action.getOwningQPDF() == &out) {
            // The source rearranged in place: its own action, a URI action of
            // scalars only (ExportStrategy allows no other), as new values.
            QPDFObjectHandle action = entry->action; // handles: a copy is cheap
            item.replaceKey("/A", make_indirect(out, fresh_copy(action.shallowCopy())));
        } else {
            // A source's own (indirect) action is copied with what it refers to;
            // a given entry's was parsed from its text and is already whole.
            item.replaceKey("/A", entry->action.isIndirect() ? copy_foreign(out, entry->action) : entry->action);
        }
    } else if (entry != nullptr && !entry->uri.empty()) {
        QPDFObjectHandle action = QPDFObjectHandle::newDictionary();
        action.replaceKey("/S", QPDFObjectHandle::newName("/URI"));
        action.replaceKey("/URI", QPDFObjectHandle::newString(entry->uri));
        item.replaceKey("/A", action);
    }
    if (entry != nullptr && entry->color.isInitialized()) {
        item.replaceKey("/C", fresh_copy(entry->color));
    }
    if (entry != nullptr && entry->flags.isInitialized()) {
        item.replaceKey("/F", fresh_copy(entry->flags));
    }
    return make_indirect(out, item);
}

// Makes `nodes` the children of `parent`; returns how many descendants of
// `parent` show when it is open.
long long link_children(
    QPDF &out,
    QPDFObjectHandle parent,
    std::vector<OutlineNode> const &nodes,
    std::vector<PlacedPage> const &placed,
    ScriptPolicy &scripts,
    CellPages const *cell_pages)
{
    long long visible = 0;
    QPDFObjectHandle previous;
    for (OutlineNode const &node : nodes) {
        QPDFObjectHandle item = output_item(out, node, placed, scripts, cell_pages);
        item.replaceKey("/Parent", parent);
        long long below = link_children(out, item, node.kids, placed, scripts, cell_pages);
        bool open = node.entry == nullptr || node.entry->open;
        if (below > 0) {
            item.replaceKey("/Count", QPDFObjectHandle::newInteger(open ? below : -below));
        }
        visible += 1 + (open ? below : 0);
        if (previous.isInitialized()) {
            previous.replaceKey("/Next", item);
            item.replaceKey("/Prev", previous);
        } else {
            parent.replaceKey("/First", item);
        }
        parent.replaceKey("/Last", item);
        previous = item;
    }
    return visible;
}

} // namespace

namespace {

// `value` written out with every reference resolved, into `text`; false when
// it cannot stand alone: a page object (a destination in its own file), a
// stream other than a JavaScript action's /JS (which becomes a string), a
// cycle, or more than the limits below.
bool write_portable(QPDFObjectHandle value, std::string const &key, int depth, std::set<QPDFObjGen> &open,
                    std::string &text)
{
    constexpr int max_depth = 16;
    constexpr size_t max_text = 1 << 20;
    if (depth > max_depth || text.size() > max_text) {
        return false;
    }
    QPDFObjGen id = value.getObjGen();
    if (value.isIndirect() && !open.insert(id).second) {
        return false; // a cycle (/Next chains that loop)
    }
    bool written = true;
    if (value.isStream()) {
        std::shared_ptr<Buffer> data;
        if (key != "/JS" || value.getDict().getKey("/Length").getIntValueAsInt() > static_cast<int>(max_text)) {
            written = false;
        } else {
            try {
                data = value.getStreamData(qpdf_dl_generalized);
                text += QPDFObjectHandle::newString(
                            std::string(reinterpret_cast<char const *>(data->getBuffer()), data->getSize()))
                            .unparse();
            } catch (std::exception const &) {
                written = false;
            }
        }
    } else if (value.isArray()) {
        text += "[";
        for (QPDFObjectHandle const &item : value.getArrayAsVector()) {
            if (!write_portable(item, "", depth + 1, open, text)) {
                written = false;
                break;
            }
            text += " ";
        }
        text += "]";
    } else if (value.isDictionary()) {
        QPDFObjectHandle type = value.getKey("/Type");
        if (type.isNameAndEquals("/Page") || type.isNameAndEquals("/Pages") || value.hasKey("/Contents")) {
            written = false;
        } else {
            text += "<<";
            for (auto const &entry : value.getDictAsMap()) {
                if (QPDFObjectHandle(entry.second).isNull()) {
                    continue;
                }
                text += QPDFObjectHandle::newName(entry.first).unparse() + " ";
                if (!write_portable(entry.second, entry.first, depth + 1, open, text)) {
                    written = false;
                    break;
                }
                text += " ";
            }
            text += ">>";
        }
    } else {
        text += value.unparseResolved();
    }
    if (value.isIndirect()) {
        open.erase(id);
    }
    return written && text.size() <= max_text;
}

} // namespace

std::string portable_action(QPDFObjectHandle action)
{
    if (!action.isDictionary()) {
        return "";
    }
    std::set<QPDFObjGen> open;
    std::string text;
    try {
        return write_portable(action, "", 0, open, text) ? text : "";
    } catch (std::exception const &) {
        return ""; // a damaged object on the way: the bookmark stays a heading
    }
}

bool runs_script(QPDFObjectHandle action)
{
    // The action and its /Next chain (an action or an array of them), each
    // object looked at once.
    std::vector<QPDFObjectHandle> pending{action};
    std::set<QPDFObjGen> seen;
    for (size_t looked = 0; !pending.empty() && looked < 10000; ++looked) {
        QPDFObjectHandle each = pending.back();
        pending.pop_back();
        if (each.isIndirect() && !seen.insert(each.getObjGen()).second) {
            continue;
        }
        if (each.isArray()) {
            for (QPDFObjectHandle const &item : each.getArrayAsVector()) {
                pending.push_back(item);
            }
        } else if (each.isDictionary()) {
            if (dict_key(each, "/S").isNameAndEquals("/JavaScript")) {
                return true;
            }
            pending.push_back(each.getKey("/Next"));
        }
    }
    return false;
}

std::vector<OutlineEntry> const &Source::outline()
{
    if (!outline_entries) {
        auto entries = std::make_unique<std::vector<OutlineEntry>>();
        QPDFObjectHandle root = dict_key(pdf->getRoot(), "/Outlines");
        std::set<QPDFObjGen> seen;
        read_entries(*this, dict_key(root, "/First"), 0, seen, *entries);
        outline_entries = std::move(entries);
    }
    return *outline_entries;
}

std::vector<OutlineNode> arrange_outline(
    std::vector<Source> &sources, pe_source const *args, pe_item const *items, int item_count)
{
    std::vector<int> order; // sources in order of first appearance
    std::vector<int> first_of_source(sources.size(), -1);
    for (int i = 0; i < item_count; ++i) {
        if (items[i].kind != PE_ITEM_PAGE) {
            continue;
        }
        size_t s = static_cast<size_t>(items[i].source);
        if (first_of_source[s] < 0) {
            first_of_source[s] = i;
            order.push_back(items[i].source);
        }
    }
    std::vector<std::pair<int, std::vector<OutlineNode>>> contributions;
    for (int s : order) {
        std::vector<OutlineEntry> const &entries = sources[static_cast<size_t>(s)].outline();
        if (entries.empty()) {
            continue;
        }
        FirstItems first;
        for (int i = first_of_source[static_cast<size_t>(s)]; i < item_count; ++i) {
            if (items[i].kind == PE_ITEM_PAGE && items[i].source == s) {
                first.emplace(items[i].page, i);
            }
        }
        if (!has_target(entries, first)) {
            continue;
        }
        contributions.emplace_back(s, prune(entries, s, first));
    }
    if (contributions.size() == 1) {
        return std::move(contributions.front().second);
    }
    std::vector<OutlineNode> top;
    for (auto &contribution : contributions) {
        int s = contribution.first;
        OutlineNode node;
        node.source = s;
        node.title_utf8 = title_of_source(args[s], sources[static_cast<size_t>(s)]);
        node.item = first_of_source[static_cast<size_t>(s)];
        node.first_item = node.item;
        node.kids = std::move(contribution.second);
        top.push_back(std::move(node));
    }
    return top;
}

namespace {

QPDFObjectHandle color_number(double value)
{
    if (value == static_cast<double>(static_cast<long long>(value)) && value >= -1e9 && value <= 1e9) {
        return QPDFObjectHandle::newInteger(static_cast<long long>(value));
    }
    return QPDFObjectHandle::newReal(value, 4, true);
}

// Entries of `given` from `next` on at `level` (and their children), as nodes.
std::vector<OutlineNode> given_level(
    pe_outline_item const *given, int count, int item_count, int level, int &next, std::deque<OutlineEntry> &storage)
{
    std::vector<OutlineNode> nodes;
    while (next < count && given[next].level == level) {
        pe_outline_item const &item = given[next++];
        OutlineEntry entry;
        entry.title_utf8 = item.title == nullptr ? "" : item.title;
        entry.title = QPDFObjectHandle::newUnicodeString(entry.title_utf8).getStringValue();
        entry.open = item.open != 0;
        if (item.view != nullptr) {
            std::string views = item.view;
            size_t start = 0;
            while (start <= views.size()) {
                size_t end = views.find('\n', start);
                std::string one = views.substr(start, end == std::string::npos ? std::string::npos : end - start);
                try {
                    entry.view.push_back(QPDFObjectHandle::parse(one));
                } catch (std::exception const &) {
                    entry.view.clear(); // not PDF syntax: the default view
                    break;
                }
                if (end == std::string::npos) {
                    break;
                }
                start = end + 1;
            }
        }
        if (item.has_color != 0) {
            entry.color = QPDFObjectHandle::newArray(
                {color_number(item.color[0]), color_number(item.color[1]), color_number(item.color[2])});
        }
        if (item.flags >= 0) {
            entry.flags = QPDFObjectHandle::newInteger(item.flags);
        }
        if (item.uri != nullptr) {
            entry.uri = item.uri;
        } else if (item.action != nullptr) {
            try {
                QPDFObjectHandle action = QPDFObjectHandle::parse(item.action);
                if (action.isDictionary()) {
                    entry.action = action;
                }
            } catch (std::exception const &) {
                // not PDF syntax: the bookmark stays a heading
            }
        }
        storage.push_back(std::move(entry));
        OutlineNode node;
        node.entry = &storage.back();
        node.title_utf8 = storage.back().title_utf8;
        node.item = item.page >= 0 && item.page < item_count ? item.page : -1;
        node.cell = node.item >= 0 && item.cell > 0 ? item.cell : 0;
        node.first_item = node.item;
        node.kids = given_level(given, count, item_count, level + 1, next, storage);
        nodes.push_back(std::move(node));
    }
    return nodes;
}

} // namespace

std::vector<OutlineNode> given_outline(
    pe_outline_item const *given, int count, int item_count, std::deque<OutlineEntry> &storage)
{
    int next = 0;
    std::vector<OutlineNode> nodes = given_level(given, count, item_count, 0, next, storage);
    if (next < count) { // an entry deeper than its parent's level + 1 (or a first one not at 0) stopped it
        throw std::invalid_argument("pe_export: an outline entry's level does not follow its parent's");
    }
    return nodes;
}

void write_outline(
    QPDF &out,
    std::vector<OutlineNode> const &nodes,
    std::vector<PlacedPage> const &placed,
    bool keep_scripts,
    Dropped &dropped,
    CellPages const *cell_pages)
{
    if (nodes.empty()) {
        return;
    }
    QPDFObjectHandle root = QPDFObjectHandle::newDictionary();
    root.replaceKey("/Type", QPDFObjectHandle::newName("/Outlines"));
    root = make_indirect(out, root);
    ScriptPolicy scripts{keep_scripts, dropped};
    long long visible = link_children(out, root, nodes, placed, scripts, cell_pages);
    root.replaceKey("/Count", QPDFObjectHandle::newInteger(visible));
    out.getRoot().replaceKey("/Outlines", root);
}

} // namespace pe
