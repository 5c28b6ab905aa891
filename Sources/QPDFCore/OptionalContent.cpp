// Optional content (layers) of the output, merged from every source that has
// /OCProperties.
//
// - Which layers: those the output uses. Every object the output holds so far
//   (pages, their resources and XObjects, annotations, the form, ...) is walked
//   once from its trailer; a source's optional content group (OCG) is kept when
//   its copy is among them, reached through /Properties of content resources, an
//   XObject's or annotation's /OC, or an optional content membership dictionary's
//   /OCGs and /VE. A group the output never reaches would only show an empty
//   switch in the viewer, and a split part gets the layers of its own pages. A
//   group whose children in the /Order tree are kept is kept too, as their
//   heading. Groups are the copies qpdf makes for each source: two sources never
//   share a group, whatever their names.
// - /OCGs: the kept groups, source by source in order of first use, each in its
//   source's /OCGs order.
// - /D, the default configuration: /Name, /Creator, /BaseState, /Intent and
//   /ListMode of the first source; /ON, /OFF, /Locked and /RBGroups filtered to
//   the kept groups and joined (a source whose /BaseState differs from the first
//   one's lists each of its groups explicitly in /ON or /OFF, so that every group
//   keeps its default state); /Order: each source's order, filtered (labels and
//   nesting kept, a label left with no group dropped), one after the other; /AS
//   entries filtered, joined by event and category.
// - /Configs (alternate configurations) are kept, filtered the same way, when a
//   single source has layers in the output; with several, a configuration of one
//   would switch the others' groups by its /BaseState, so they are dropped and
//   named in the Dropped line ("optional content configurations").
#include "Export.hh"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace pe {
namespace {

// How deeply /Order arrays nest before the rest is left out of the order (the
// groups themselves stay); real files nest a few levels.
constexpr int max_order_depth = 64;

// Every indirect object reachable from the output's trailer, walked without
// recursion.
std::set<QPDFObjGen> reachable_objects(QPDF &out)
{
    std::set<QPDFObjGen> seen;
    std::vector<QPDFObjectHandle> stack{out.getTrailer()};
    while (!stack.empty()) {
        QPDFObjectHandle object = stack.back();
        stack.pop_back();
        if (object.isIndirect() && !seen.insert(object.getObjGen()).second) {
            continue;
        }
        if (object.isStream()) {
            stack.push_back(object.getDict());
        } else if (object.isArray()) {
            for (QPDFObjectHandle item : object.getArrayAsVector()) {
                stack.push_back(item);
            }
        } else if (object.isDictionary()) {
            for (auto const &entry : object.getDictAsMap()) {
                stack.push_back(entry.second);
            }
        }
    }
    return seen;
}

std::vector<QPDFObjectHandle> items_of(QPDFObjectHandle dictionary, char const *key)
{
    QPDFObjectHandle list = dictionary.getKey(key);
    return list.isArray() ? list.getArrayAsVector() : std::vector<QPDFObjectHandle>{};
}

// Adds `more` at the end of the array under `key` (made when absent; nothing
// when `more` is empty).
void append(QPDFObjectHandle dictionary, char const *key, std::vector<QPDFObjectHandle> const &more)
{
    if (more.empty()) {
        return;
    }
    std::vector<QPDFObjectHandle> items = items_of(dictionary, key);
    items.insert(items.end(), more.begin(), more.end());
    dictionary.replaceKey(key, QPDFObjectHandle::newArray(items));
}

// One source's layers in the output.
struct SourceLayers {
    int source = -1;
    QPDFObjectHandle properties;                   // the source's /OCProperties
    std::vector<QPDFObjGen> groups;                // its /OCGs, in order
    std::map<QPDFObjGen, QPDFObjectHandle> copies; // source group -> its copy
    std::set<QPDFObjGen> kept;                     // source groups kept

    bool is_kept(QPDFObjectHandle group) const
    {
        return group.isIndirect() && kept.count(group.getObjGen()) > 0;
    }
    QPDFObjectHandle copy_of(QPDFObjectHandle group) const { return copies.at(group.getObjGen()); }

    // The kept groups of `list` (an array of groups), as output objects.
    std::vector<QPDFObjectHandle> filtered(QPDFObjectHandle list) const
    {
        std::vector<QPDFObjectHandle> result;
        if (!list.isArray()) {
            return result;
        }
        std::set<QPDFObjGen> listed;
        for (QPDFObjectHandle group : list.getArrayAsVector()) {
            if (is_kept(group) && listed.insert(group.getObjGen()).second) {
                result.push_back(copy_of(group));
            }
        }
        return result;
    }

    // Marks the groups /Order needs as headings of kept children as kept.
    // Returns whether `order` holds a kept group.
    bool keep_headings(QPDFObjectHandle order, int depth)
    {
        if (!order.isArray() || depth > max_order_depth) {
            return false;
        }
        std::vector<QPDFObjectHandle> items = order.getArrayAsVector();
        bool any = false;
        for (size_t i = 0; i < items.size(); ++i) {
            QPDFObjectHandle item = items[i];
            if (item.isArray()) {
                any = keep_headings(item, depth + 1) || any;
                continue;
            }
            if (!item.isIndirect() || copies.count(item.getObjGen()) == 0) {
                continue;
            }
            bool children = i + 1 < items.size() && items[i + 1].isArray() && keep_headings(items[i + 1], depth + 1);
            if (children) {
                kept.insert(item.getObjGen());
                ++i;
            }
            any = any || is_kept(item);
        }
        return any;
    }

    // `order` filtered to the kept groups; empty when none is left in it.
    std::vector<QPDFObjectHandle> filtered_order(QPDFObjectHandle order, int depth) const
    {
        std::vector<QPDFObjectHandle> result;
        if (!order.isArray() || depth > max_order_depth) {
            return result;
        }
        bool any = false;
        std::vector<QPDFObjectHandle> items = order.getArrayAsVector();
        for (size_t i = 0; i < items.size(); ++i) {
            QPDFObjectHandle item = items[i];
            if (item.isString() && i == 0) {
                result.push_back(fresh_copy(item));
            } else if (item.isArray()) {
                std::vector<QPDFObjectHandle> kids = filtered_order(item, depth + 1);
                if (!kids.empty()) {
                    result.push_back(QPDFObjectHandle::newArray(kids));
                    any = true;
                }
            } else if (is_kept(item)) {
                result.push_back(copy_of(item));
                any = true;
            }
        }
        if (!any) {
            result.clear();
        }
        return result;
    }

    // A configuration dictionary (/D or an entry of /Configs) for the kept groups.
    QPDFObjectHandle filtered_config(QPDFObjectHandle config) const
    {
        QPDFObjectHandle result = QPDFObjectHandle::newDictionary();
        for (char const *key : {"/Name", "/Creator", "/BaseState", "/Intent", "/ListMode"}) {
            QPDFObjectHandle value = dict_key(config, key);
            if (value.isString() || value.isName() || value.isArray()) {
                result.replaceKey(key, fresh_copy(value));
            }
        }
        for (char const *key : {"/ON", "/OFF", "/Locked"}) {
            append(result, key, filtered(dict_key(config, key)));
        }
        append(result, "/Order", filtered_order(dict_key(config, "/Order"), 0));
        std::vector<QPDFObjectHandle> radio;
        QPDFObjectHandle groups = dict_key(config, "/RBGroups");
        if (groups.isArray()) {
            for (QPDFObjectHandle group : groups.getArrayAsVector()) {
                std::vector<QPDFObjectHandle> members = filtered(group);
                if (!members.empty()) {
                    radio.push_back(QPDFObjectHandle::newArray(members));
                }
            }
        }
        append(result, "/RBGroups", radio);
        std::vector<QPDFObjectHandle> usage;
        QPDFObjectHandle applications = dict_key(config, "/AS");
        if (applications.isArray()) {
            for (QPDFObjectHandle application : applications.getArrayAsVector()) {
                std::vector<QPDFObjectHandle> members = filtered(dict_key(application, "/OCGs"));
                if (members.empty()) {
                    continue;
                }
                QPDFObjectHandle entry = QPDFObjectHandle::newDictionary();
                entry.replaceKey("/Event", fresh_copy(dict_key(application, "/Event")));
                entry.replaceKey("/Category", fresh_copy(dict_key(application, "/Category")));
                entry.replaceKey("/OCGs", QPDFObjectHandle::newArray(members));
                usage.push_back(entry);
            }
        }
        append(result, "/AS", usage);
        return result;
    }

    // Whether kept group `group` is on by default under configuration `config`
    // (a base state of /Unchanged counts as /ON, as it does for /D).
    static bool is_on(QPDFObjectHandle config, QPDFObjGen group)
    {
        auto listed = [&](char const *key) {
            QPDFObjectHandle list = dict_key(config, key);
            if (!list.isArray()) {
                return false;
            }
            for (QPDFObjectHandle item : list.getArrayAsVector()) {
                if (item.isIndirect() && item.getObjGen() == group) {
                    return true;
                }
            }
            return false;
        };
        if (dict_key(config, "/BaseState").isNameAndEquals("/OFF")) {
            return listed("/ON");
        }
        return !listed("/OFF");
    }
};

bool base_is_off(QPDFObjectHandle config)
{
    return dict_key(config, "/BaseState").isNameAndEquals("/OFF");
}

// Adds `more`'s /AS entries to `into`'s, joining the groups of entries with the
// same event and category.
void join_usage(QPDFObjectHandle into, QPDFObjectHandle more)
{
    std::vector<QPDFObjectHandle> entries = items_of(into, "/AS");
    for (QPDFObjectHandle entry : items_of(more, "/AS")) {
        std::string event = entry.getKey("/Event").unparse();
        std::string category = entry.getKey("/Category").unparse();
        auto same = std::find_if(entries.begin(), entries.end(), [&](QPDFObjectHandle known) {
            return known.getKey("/Event").unparse() == event && known.getKey("/Category").unparse() == category;
        });
        if (same == entries.end()) {
            entries.push_back(entry);
        } else {
            append(*same, "/OCGs", items_of(entry, "/OCGs"));
        }
    }
    if (!entries.empty()) {
        into.replaceKey("/AS", QPDFObjectHandle::newArray(entries));
    }
}

// Adds source `layers`' default configuration to the output's `into`.
void join_default(QPDFObjectHandle into, SourceLayers const &layers)
{
    QPDFObjectHandle theirs = dict_key(layers.properties, "/D");
    QPDFObjectHandle mine = layers.filtered_config(theirs);
    if (base_is_off(into) == base_is_off(theirs)) {
        append(into, "/ON", items_of(mine, "/ON"));
        append(into, "/OFF", items_of(mine, "/OFF"));
    } else {
        // Every group's state spelled out under the first source's base state.
        std::vector<QPDFObjectHandle> listed;
        for (QPDFObjGen const &group : layers.groups) {
            if (layers.kept.count(group) == 0) {
                continue;
            }
            bool on = SourceLayers::is_on(theirs, group);
            if (on == base_is_off(into)) {
                listed.push_back(layers.copies.at(group));
            }
        }
        append(into, base_is_off(into) ? "/ON" : "/OFF", listed);
    }
    for (char const *key : {"/Locked", "/RBGroups", "/Order"}) {
        append(into, key, items_of(mine, key));
    }
    join_usage(into, mine);
}

} // namespace

bool merge_optional_content(
    QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, Dropped &dropped, Where &where)
{
    std::vector<int> candidates = order;
    for (size_t s = 0; s < sources.size(); ++s) {
        if (sources[s].pdf && std::find(order.begin(), order.end(), static_cast<int>(s)) == order.end()) {
            candidates.push_back(static_cast<int>(s)); // stamps only
        }
    }
    std::vector<SourceLayers> contributing;
    std::set<QPDFObjGen> reached;
    bool walked = false;
    for (int s : candidates) {
        where = Where{s, 0};
        Source &source = sources[static_cast<size_t>(s)];
        QPDFObjectHandle properties = source.catalog("/OCProperties");
        QPDFObjectHandle groups = dict_key(properties, "/OCGs");
        if (!groups.isArray()) {
            continue;
        }
        if (!walked) {
            // What the output holds before any group is copied for it.
            reached = reachable_objects(out);
            walked = true;
        }
        SourceLayers layers;
        layers.source = s;
        layers.properties = properties;
        for (QPDFObjectHandle group : groups.getArrayAsVector()) {
            if (!group.isIndirect() || !group.isDictionary() || layers.copies.count(group.getObjGen()) > 0) {
                continue;
            }
            // qpdf hands back the copy the pages already use, or makes one that
            // nothing refers to (and which is then not written).
            QPDFObjectHandle copy = copy_foreign(out, group);
            if (copy.isNull()) {
                continue;
            }
            layers.groups.push_back(group.getObjGen());
            layers.copies.emplace(group.getObjGen(), copy);
            if (reached.count(copy.getObjGen()) > 0) {
                layers.kept.insert(group.getObjGen());
            }
        }
        QPDFObjectHandle configs = dict_key(properties, "/Configs");
        layers.keep_headings(dict_key(dict_key(properties, "/D"), "/Order"), 0);
        if (configs.isArray()) {
            for (QPDFObjectHandle config : configs.getArrayAsVector()) {
                layers.keep_headings(dict_key(config, "/Order"), 0);
            }
        }
        if (!layers.kept.empty()) {
            contributing.push_back(std::move(layers));
        }
    }
    if (contributing.empty()) {
        where = Where{};
        return false;
    }
    std::vector<QPDFObjectHandle> all;
    for (SourceLayers const &layers : contributing) {
        for (QPDFObjGen const &group : layers.groups) {
            if (layers.kept.count(group) > 0) {
                all.push_back(layers.copies.at(group));
            }
        }
    }
    SourceLayers const &first = contributing.front();
    where = Where{first.source, 0};
    QPDFObjectHandle defaults = first.filtered_config(dict_key(first.properties, "/D"));
    for (size_t i = 1; i < contributing.size(); ++i) {
        where = Where{contributing[i].source, 0};
        join_default(defaults, contributing[i]);
    }
    QPDFObjectHandle properties = QPDFObjectHandle::newDictionary();
    properties.replaceKey("/OCGs", QPDFObjectHandle::newArray(all));
    properties.replaceKey("/D", defaults);
    if (contributing.size() == 1) {
        QPDFObjectHandle configs = dict_key(first.properties, "/Configs");
        std::vector<QPDFObjectHandle> kept;
        if (configs.isArray()) {
            for (QPDFObjectHandle config : configs.getArrayAsVector()) {
                if (config.isDictionary()) {
                    kept.push_back(first.filtered_config(config));
                }
            }
        }
        if (!kept.empty()) {
            properties.replaceKey("/Configs", QPDFObjectHandle::newArray(kept));
        }
    } else {
        for (SourceLayers const &layers : contributing) {
            QPDFObjectHandle configs = dict_key(layers.properties, "/Configs");
            if (configs.isArray() && configs.getArrayNItems() > 0) {
                dropped.add(
                    "optional content configurations",
                    layers.source,
                    sources[static_cast<size_t>(layers.source)].label);
            }
        }
    }
    out.getRoot().replaceKey("/OCProperties", out.makeIndirectObject(properties));
    where = Where{};
    return true;
}

} // namespace pe
