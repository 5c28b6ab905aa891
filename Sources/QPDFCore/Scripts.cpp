// JavaScript and document actions of the output, when the caller asked to keep
// them (options->keep_scripts; else Document.cpp names them in the Dropped line).
//
// - The /Names /JavaScript name tree of every source of pages, merged in order of
//   first use: a name already taken by an earlier source gets " (2)", " (3)", ...
//   so that both scripts run.
// - /OpenAction (when it is an action other than showing a page: those are
//   Document.cpp's) and /AA of the first source; the other sources' are left out
//   and named in the Dropped line, as a document opens only once.
// Actions are copied with what they refer to; a reference to a page that is not
// in the output becomes null, as in any copied object.
#include "Export.hh"

#include <qpdf/QPDFNameTreeObjectHelper.hh>

#include <exception>
#include <set>

namespace pe {
namespace {

bool is_page_destination(QPDFObjectHandle open)
{
    return open.isArray() || dict_key(open, "/S").isNameAndEquals("/GoTo");
}

} // namespace

void copy_scripts(QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, Dropped &dropped, Where &where)
{
    std::set<std::string> taken;
    QPDFObjectHandle tree;
    for (int s : order) {
        where = Where{s, 0};
        Source &source = sources[static_cast<size_t>(s)];
        QPDFObjectHandle scripts = dict_key(source.catalog("/Names"), "/JavaScript");
        if (scripts.isDictionary()) {
            std::vector<std::pair<std::string, QPDFObjectHandle>> entries;
            try {
                entries = name_tree_entries(scripts);
            } catch (std::exception const &) {
                entries.clear(); // a damaged tree: none of it rather than part
                dropped.add("JavaScript", s, source.label);
            }
            for (auto const &entry : entries) {
                if (!tree.isInitialized()) {
                    tree = QPDFNameTreeObjectHelper::newEmpty(out, false).getObjectHandle();
                }
                std::string name =
                    unique_name(entry.first, true, [&taken](std::string const &n) { return taken.count(n) != 0; });
                taken.insert(name);
                QPDFNameTreeObjectHelper(tree, out, false).insert(name, import_value(out, entry.second));
            }
        }
        QPDFObjectHandle open = source.catalog("/OpenAction");
        bool action = open.isDictionary() && !is_page_destination(open);
        QPDFObjectHandle actions = source.catalog("/AA");
        if (s == order.front()) {
            if (action) {
                out.getRoot().replaceKey("/OpenAction", import_value(out, open));
            }
            if (actions.isDictionary()) {
                out.getRoot().replaceKey("/AA", import_value(out, actions));
            }
            continue;
        }
        if (action) {
            dropped.add("open action", s, source.label);
        }
        if (!actions.isNull()) {
            dropped.add("document actions", s, source.label);
        }
    }
    if (tree.isInitialized()) {
        QPDFObjectHandle names = out.getRoot().getKey("/Names");
        if (!names.isDictionary()) {
            names = out.makeIndirectObject(QPDFObjectHandle::newDictionary());
            out.getRoot().replaceKey("/Names", names);
        }
        names.replaceKey("/JavaScript", tree);
    }
    where = Where{};
}

} // namespace pe
