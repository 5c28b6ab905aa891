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
// - Attachments the caller adds (`pdfedit attach add`, pe_attachment) come after
//   the sources' files, named by the same rule; the sources' files the caller
//   removes (pe_removed_attachment) are left out of the tree and of /AF before
//   anything is named, so the rule sees only what the output holds. A
//   document-level one is also put in the catalog's /AF (PDF/A-3, Factur-X); a
//   page-level one becomes a FileAttachment annotation on its page.
//
// plan_embedded_files is the one naming rule: the export and `attach list`
// (pe_documents_read_attachments) both ask it.
//
// A split part is a document of its own: each part gets all of this, as a copy
// of the whole document would.
#include "Export.hh"
#include "Inputs.hh"
#include "Limits.hh"

#include <qpdf/QPDFCryptoProvider.hh>
#include <qpdf/QPDFEFStreamObjectHelper.hh>
#include <qpdf/QPDFFileSpecObjectHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QUtil.hh>

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

std::string text_of(char const *text)
{
    return text == nullptr ? std::string() : std::string(text);
}

// The file specification of an added attachment, in `out`: an embedded file
// stream with its MIME type, dates, size and MD5 checksum (/Params, as the
// specification asks), /F and /UF its name, /Desc, /AFRelationship.
QPDFObjectHandle attachment_spec(QPDF &out, pe_attachment const &file, std::string const &name)
{
    std::string bytes;
    if (file.data != nullptr && file.size > 0) {
        bytes.assign(reinterpret_cast<char const *>(file.data), static_cast<size_t>(file.size));
    }
    QPDFEFStreamObjectHelper stream = QPDFEFStreamObjectHelper::createEFStream(out, bytes);
    if (file.mime_type != nullptr && file.mime_type[0] != '\0') {
        stream.setSubtype(file.mime_type);
    }
    if (file.date != nullptr && file.date[0] != '\0') {
        stream.setCreationDate(file.date).setModDate(file.date);
    }
    // Written here rather than trusted to qpdf's helper: the specification's MD5
    // of the bytes, and their count.
    // MD5 through qpdf's crypto provider, as Hash.cpp's SHA-256.
    std::shared_ptr<QPDFCryptoImpl> md5 = QPDFCryptoProvider::getImpl();
    md5->MD5_init();
    md5->MD5_update(reinterpret_cast<unsigned char const *>(bytes.data()), bytes.size());
    md5->MD5_finalize();
    unsigned char digest[16];
    md5->MD5_digest(digest);
    QPDFObjectHandle dict = stream.getObjectHandle().getDict();
    QPDFObjectHandle params = dict.getKey("/Params");
    if (!params.isDictionary()) {
        params = QPDFObjectHandle::newDictionary();
        dict.replaceKey("/Params", params);
    }
    params.replaceKey("/CheckSum", QPDFObjectHandle::newString(std::string(reinterpret_cast<char *>(digest), sizeof(digest))));
    params.replaceKey("/Size", QPDFObjectHandle::newInteger(static_cast<long long>(bytes.size())));
    QPDFFileSpecObjectHelper spec = QPDFFileSpecObjectHelper::createFileSpec(out, name, stream);
    spec.setFilename(name, name);
    if (file.description != nullptr && file.description[0] != '\0') {
        spec.setDescription(file.description);
    }
    QPDFObjectHandle dictionary = spec.getObjectHandle();
    if (file.relationship != nullptr && file.relationship[0] != '\0') {
        dictionary.replaceKey("/AFRelationship", QPDFObjectHandle::newName(std::string("/") + file.relationship));
    }
    return dictionary;
}

// A FileAttachment annotation showing `spec` on `page`: a push pin in the top
// left corner of its visible box, its text the description (else the name).
void annotate_page(QPDF &out, QPDFObjectHandle page, QPDFObjectHandle spec, pe_attachment const &file,
                   std::string const &name)
{
    QPDFPageObjectHelper helper(page);
    QPDFObjectHandle::Rectangle box = helper.getCropBox(false, true).getArrayAsRectangle();
    double left = std::min(box.llx, box.urx);
    double top = std::max(box.lly, box.ury);
    QPDFObjectHandle annotation = QPDFObjectHandle::newDictionary();
    annotation.replaceKey("/Type", QPDFObjectHandle::newName("/Annot"));
    annotation.replaceKey("/Subtype", QPDFObjectHandle::newName("/FileAttachment"));
    annotation.replaceKey(
        "/Rect", QPDFObjectHandle::newArray(QPDFObjectHandle::Rectangle(left + 12, top - 36, left + 36, top - 12)));
    annotation.replaceKey("/FS", spec);
    std::string shown = file.description != nullptr && file.description[0] != '\0' ? file.description : name;
    annotation.replaceKey("/Contents", QPDFObjectHandle::newUnicodeString(shown));
    annotation.replaceKey("/Name", QPDFObjectHandle::newName("/PushPin"));
    annotation.replaceKey("/F", QPDFObjectHandle::newInteger(4)); // Print, as viewers make them
    annotation.replaceKey("/P", page);
    QPDFObjectHandle made = make_indirect(out, annotation);
    // A new array: a copied page may share its /Annots with another copy.
    std::vector<QPDFObjectHandle> annotations;
    QPDFObjectHandle old = page.getKey("/Annots");
    if (old.isArray()) {
        annotations = old.getArrayAsVector();
    }
    annotations.push_back(made);
    page.replaceKey("/Annots", QPDFObjectHandle::newArray(annotations));
}

} // namespace

std::vector<PlannedFile> plan_embedded_files(
    std::vector<std::pair<int, Source *>> const &in_order, std::set<std::pair<int, std::string>> const &removed,
    std::vector<std::string> const &added, Where &where)
{
    std::vector<PlannedFile> planned;
    std::set<std::string> taken;
    for (auto const &[index, source] : in_order) {
        where = Where{index, 0};
        QPDFObjectHandle tree = dict_key(source->catalog("/Names"), "/EmbeddedFiles");
        if (!tree.isDictionary()) {
            continue;
        }
        for (auto entry : name_tree_entries(tree)) {
            if (!entry.second.isDictionary() || removed.count({index, entry.first}) != 0) {
                continue;
            }
            std::string name = unique_name(entry.first, true, [&taken](std::string const &n) { return taken.count(n) != 0; });
            taken.insert(name);
            planned.push_back(PlannedFile{name, index, entry.first, -1, entry.second});
        }
    }
    where = Where{};
    for (size_t i = 0; i < added.size(); ++i) {
        std::string name = unique_name(added[i], true, [&taken](std::string const &n) { return taken.count(n) != 0; });
        taken.insert(name);
        planned.push_back(PlannedFile{name, -1, std::string(), static_cast<int>(i), QPDFObjectHandle()});
    }
    return planned;
}

void copy_embedded_files(
    QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, pe_export_options const *options,
    int first_item, int item_count, Dropped &dropped, Where &where)
{
    std::set<std::pair<int, std::string>> removed;
    std::vector<std::string> added;
    int attachment_count = options == nullptr || options->attachments == nullptr ? 0 : options->attachment_count;
    if (options != nullptr && options->removed_attachments != nullptr) {
        for (int i = 0; i < options->removed_attachment_count; ++i) {
            removed.emplace(options->removed_attachments[i].source, text_of(options->removed_attachments[i].name));
        }
    }
    for (int i = 0; i < attachment_count; ++i) {
        added.push_back(text_of(options->attachments[i].name));
    }
    std::vector<std::pair<int, Source *>> in_order;
    for (int s : order) {
        in_order.emplace_back(s, &sources[static_cast<size_t>(s)]);
    }
    std::vector<PlannedFile> planned = plan_embedded_files(in_order, removed, added, where);

    std::map<std::string, QPDFObjectHandle> files; // UTF-8 name -> file specification (output)
    std::vector<QPDFObjectHandle> associated;
    std::set<QPDFObjGen> removed_specs; // the removed entries' specifications, in their sources
    for (auto const &[index, name] : removed) {
        if (index < 0 || static_cast<size_t>(index) >= sources.size() || !sources[static_cast<size_t>(index)].pdf) {
            continue;
        }
        QPDFObjectHandle tree = dict_key(sources[static_cast<size_t>(index)].catalog("/Names"), "/EmbeddedFiles");
        for (auto entry : tree.isDictionary() ? name_tree_entries(tree)
                                              : std::vector<std::pair<std::string, QPDFObjectHandle>>{}) {
            if (entry.first == name && entry.second.isIndirect()) {
                removed_specs.insert(entry.second.getObjGen());
            }
        }
    }
    std::vector<QPDFObjectHandle> pages;
    QPDFObjectHandle collection;
    for (PlannedFile const &file : planned) {
        if (file.source < 0) {
            continue;
        }
        where = Where{file.source, 0};
        QPDFObjectHandle spec = import_value(out, file.spec);
        if (file.name != file.original) {
            rename_file(spec, file.original, file.name);
        }
        files.emplace(file.name, spec);
    }
    for (int s : order) {
        where = Where{s, 0};
        Source &source = sources[static_cast<size_t>(s)];
        QPDFObjectHandle af = source.catalog("/AF");
        if (af.isArray()) {
            for (QPDFObjectHandle spec : af.getArrayAsVector()) {
                if (spec.isDictionary() && !(spec.isIndirect() && removed_specs.count(spec.getObjGen()) != 0)) {
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
    for (PlannedFile const &file : planned) {
        if (file.added < 0) {
            continue;
        }
        pe_attachment const &given = options->attachments[file.added];
        QPDFObjectHandle spec = make_indirect(out, attachment_spec(out, given, file.name));
        if (given.item < 0) {
            files.emplace(file.name, spec);
            associated.push_back(spec);
        } else if (given.item >= first_item && given.item < first_item + item_count) {
            if (pages.empty()) {
                pages = out.getAllPages();
            }
            size_t at = static_cast<size_t>(given.item - first_item);
            if (at < pages.size()) {
                annotate_page(out, pages[at], spec, given, file.name);
            }
        }
    }
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

namespace {

// The text of a string or name value as UTF-8; empty when it is neither.
std::string value_text(QPDFObjectHandle value)
{
    if (value.isString()) {
        return value.getUTF8Value();
    }
    if (value.isName()) {
        std::string name = value.getName();
        return name.empty() ? name : name.substr(1);
    }
    return std::string();
}

} // namespace

extern "C" int pe_documents_read_attachments(
    pe_document *const *documents, int document_count, const pe_removed_attachment *removed, int removed_count,
    const char *const *added, int added_count, int with_data, long long max_stream_bytes, pe_attachment_fn each,
    void *context, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &where) {
        pe::require(each != nullptr && (documents != nullptr || document_count == 0),
                    "pe_documents_read_attachments: no documents or no receiver");
        std::vector<std::pair<int, pe::Source *>> in_order;
        for (int i = 0; i < document_count; ++i) {
            pe::require(documents[i] != nullptr && documents[i]->source.pdf,
                        "pe_documents_read_attachments: a document is missing");
            in_order.emplace_back(i, &documents[i]->source);
        }
        std::set<std::pair<int, std::string>> gone;
        for (int i = 0; removed != nullptr && i < removed_count; ++i) {
            gone.emplace(removed[i].source, pe::text_of(removed[i].name));
        }
        std::vector<std::string> names;
        for (int i = 0; added != nullptr && i < added_count; ++i) {
            names.push_back(pe::text_of(added[i]));
        }
        for (pe::PlannedFile const &file : pe::plan_embedded_files(in_order, gone, names, where)) {
            pe_listed_attachment entry{};
            entry.name = file.name.c_str();
            entry.source = file.source;
            entry.added = file.added;
            entry.size = -1;
            std::string description, mime, relationship, bytes;
            if (file.source >= 0) {
                where = pe::Where{file.source, 0};
                entry.original = file.original.c_str();
                QPDFObjectHandle spec = file.spec;
                description = value_text(spec.getKey("/Desc"));
                relationship = value_text(spec.getKey("/AFRelationship"));
                QPDFObjectHandle ef = pe::dict_key(spec, "/EF");
                QPDFObjectHandle stream = pe::dict_key(ef, "/UF");
                if (!stream.isStream()) {
                    stream = pe::dict_key(ef, "/F");
                }
                if (stream.isStream()) {
                    QPDFObjectHandle dict = stream.getDict();
                    mime = value_text(dict.getKey("/Subtype"));
                    QPDFObjectHandle size = pe::dict_key(dict.getKey("/Params"), "/Size");
                    if (size.isInteger() && size.getIntValue() >= 0) {
                        entry.size = size.getIntValue();
                    }
                    if (with_data != 0 && pe::decode_bounded(stream, max_stream_bytes, "embedded file " + file.original, &bytes)) {
                        entry.data = reinterpret_cast<unsigned char const *>(bytes.data());
                        entry.data_size = static_cast<long long>(bytes.size());
                    }
                }
            }
            entry.description = description.empty() ? nullptr : description.c_str();
            entry.mime_type = mime.empty() ? nullptr : mime.c_str();
            entry.relationship = relationship.empty() ? nullptr : relationship.c_str();
            each(context, &entry);
        }
        where = pe::Where{};
    });
}
