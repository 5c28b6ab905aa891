// Embedded and associated files of the output, merged from every source of its
// pages (in order of first appearance):
//
// - /Names /EmbeddedFiles: one name tree holding every source's entries, their
//   file specifications copied. A name already taken by an earlier source gets
//   " (2)", " (3)", ... (the first free one), so the first source keeps its
//   names and the result does not depend on anything but the order of the
//   sources. Names are written as text (qpdf reads them as UTF-8) and the tree
//   is one /Names array sorted by the bytes of the written strings, as a name
//   tree must be. A renamed entry's file specification gets the new name as its
//   file name too (/UF, /F, where they were the old name), as readers list and
//   save attachments by file name (pdfdetach -saveall would write one file over
//   the other).
// - /AF of the catalog (associated files): the sources' arrays joined in source
//   order; a file specification that is also in /EmbeddedFiles stays one object.
//   /AF of a page travels with its page (copied with it).
// - /Collection (a portfolio): the first source's that has one; another
//   source's is dropped (named in the Dropped line as "portfolio"), as one
//   portfolio view cannot show two sets of fields and sort orders.
//
// A split part is a document of its own: each part gets all of this, as a copy
// of the whole document would.
#include "Export.hh"

#include <qpdf/QPDFNameTreeObjectHelper.hh>

#include <map>

namespace pe {

namespace {

// Gives the copy of a file specification whose file name is `was` the name
// `now` (/UF and /F), so that readers listing or saving attachments by file name
// see two files, not one name twice.
void rename_file(QPDFObjectHandle spec, std::string const &was, std::string const &now)
{
    for (char const *key : {"/UF", "/F"}) {
        QPDFObjectHandle name = spec.getKey(key);
        if (name.isString() && name.getUTF8Value() == was) {
            spec.replaceKey(key, QPDFObjectHandle::newUnicodeString(now));
        }
    }
}

} // namespace

void copy_embedded_files(
    QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, Dropped &dropped, Where &where)
{
    std::map<std::string, QPDFObjectHandle> files; // UTF-8 name -> file specification (output)
    std::vector<QPDFObjectHandle> associated;
    QPDFObjectHandle collection;
    for (int s : order) {
        where = Where{s, 0};
        Source &source = sources[static_cast<size_t>(s)];
        QPDFObjectHandle tree = dict_key(source.catalog("/Names"), "/EmbeddedFiles");
        if (tree.isDictionary()) {
            for (auto entry : name_tree_entries(tree)) {
                if (!entry.second.isDictionary()) {
                    continue;
                }
                std::string name =
                    unique_name(entry.first, true, [&files](std::string const &n) { return files.count(n) != 0; });
                QPDFObjectHandle spec = import_value(out, entry.second);
                if (name != entry.first) {
                    rename_file(spec, entry.first, name);
                }
                files.emplace(name, spec);
            }
        }
        QPDFObjectHandle af = source.catalog("/AF");
        if (af.isArray()) {
            for (QPDFObjectHandle spec : af.getArrayAsVector()) {
                if (spec.isDictionary()) {
                    associated.push_back(import_value(out, spec));
                }
            }
        }
        QPDFObjectHandle portfolio = source.catalog("/Collection");
        if (portfolio.isDictionary()) {
            if (collection.isInitialized()) {
                dropped.add("portfolio", s, source.label);
            } else {
                collection = import_value(out, portfolio);
            }
        }
    }
    where = Where{};
    QPDFObjectHandle out_root = out.getRoot();
    if (!files.empty()) {
        std::map<std::string, QPDFObjectHandle> sorted; // written bytes -> (key, spec)
        std::map<std::string, QPDFObjectHandle> keys;
        for (auto const &entry : files) {
            QPDFObjectHandle key = QPDFObjectHandle::newUnicodeString(entry.first);
            std::string bytes = key.getStringValue();
            sorted.emplace(bytes, entry.second);
            keys.emplace(bytes, key);
        }
        std::vector<QPDFObjectHandle> pairs;
        for (auto const &entry : sorted) {
            pairs.push_back(keys[entry.first]);
            pairs.push_back(entry.second);
        }
        QPDFObjectHandle node = QPDFObjectHandle::newDictionary();
        node.replaceKey("/Names", QPDFObjectHandle::newArray(pairs));
        QPDFObjectHandle names = out_root.getKey("/Names");
        if (!names.isDictionary()) {
            names = QPDFObjectHandle::newDictionary();
            out_root.replaceKey("/Names", names);
        }
        names.replaceKey("/EmbeddedFiles", out.makeIndirectObject(node));
    }
    if (!associated.empty()) {
        out_root.replaceKey("/AF", QPDFObjectHandle::newArray(associated));
    }
    if (collection.isInitialized()) {
        out_root.replaceKey("/Collection", collection);
    }
}

} // namespace pe
