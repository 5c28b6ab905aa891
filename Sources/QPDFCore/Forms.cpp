// One working /AcroForm for the output, rebuilt from the widgets that were copied
// with their pages.
//
// Each source's field tree is read once (nodes reachable from /AcroForm /Fields).
// A widget copied for the k-th time (a page exported twice, or a widget a source
// shares between pages) belongs to instance k of its source's tree; instance 0
// uses qpdf's copies of the fields, later instances shallow copies of those. In
// every instance only the fields with a copied widget below them survive: /Kids
// and /Parent are rewritten, so fields of pages that are not exported are gone.
// Root fields of an instance whose name an earlier instance (or another source)
// already uses are renamed "name_2", "name_3", ...: every field keeps a distinct
// fully qualified name, while fields that share a name within one instance keep
// sharing it. The /AcroForm holds the roots in source order; /DR is the union of
// the sources' resources (a font name that two sources use for different fonts is
// renamed in the later source's /DA strings); /DA and /Q come from the first
// source that has them and are set on the roots of later sources that differ;
// /NeedAppearances is true when any source says so; /SigFlags and /CO are merged.
// Not handled: /XFA (dropped, reported by Document.cpp); appearance streams that
// rely on /DR instead of their own resources keep the font names they had.
#include "Export.hh"

#include <algorithm>

namespace pe {

namespace {

// Deeper field trees are cut there (and cycles never followed).
constexpr int max_field_depth = 32;

int add_field(FieldTree &tree, QPDFObjectHandle object, int parent, int depth)
{
    if (depth > max_field_depth || !object.isIndirect() || !object.isDictionary()) {
        return -1;
    }
    int node = static_cast<int>(tree.nodes.size());
    if (!tree.index.emplace(object.getObjGen(), node).second) {
        return -1; // seen already: a node has one place in the tree
    }
    tree.nodes.push_back(FieldTree::Node{object, parent, {}});
    QPDFObjectHandle kids = object.getKey("/Kids");
    if (kids.isArray()) {
        for (QPDFObjectHandle &kid : kids.getArrayAsVector()) {
            int added = add_field(tree, kid, node, depth + 1);
            if (added >= 0) {
                tree.nodes[static_cast<size_t>(node)].kids.push_back(added);
            }
        }
    }
    return node;
}

// Whether two objects of the output are the same resource: the same object, or
// equal values (streams only when they are the same object).
bool same_value(QPDFObjectHandle a, QPDFObjectHandle b, int depth = 0)
{
    if (a.isIndirect() && b.isIndirect() && a.getObjGen() == b.getObjGen()) {
        return true;
    }
    if (depth > 6 || a.isStream() || b.isStream() || a.getTypeCode() != b.getTypeCode()) {
        return false;
    }
    if (a.isArray()) {
        int count = a.getArrayNItems();
        if (count != b.getArrayNItems()) {
            return false;
        }
        for (int i = 0; i < count; ++i) {
            if (!same_value(a.getArrayItem(i), b.getArrayItem(i), depth + 1)) {
                return false;
            }
        }
        return true;
    }
    if (a.isDictionary()) {
        std::map<std::string, QPDFObjectHandle> left = a.getDictAsMap();
        std::map<std::string, QPDFObjectHandle> right = b.getDictAsMap();
        if (left.size() != right.size()) {
            return false;
        }
        for (auto const &entry : left) {
            auto other = right.find(entry.first);
            if (other == right.end() || !same_value(entry.second, other->second, depth + 1)) {
                return false;
            }
        }
        return true;
    }
    if (a.isString()) {
        return a.getStringValue() == b.getStringValue();
    }
    return a.unparse() == b.unparse();
}

bool is_name_delimiter(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\0' ||
        c == '/' || c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' ||
        c == '{' || c == '}' || c == '%';
}

// A /DA string with the font names in `renames` (without slashes) replaced.
std::string renamed_fonts(std::string const &da, std::map<std::string, std::string> const &renames)
{
    if (renames.empty()) {
        return da;
    }
    std::string result;
    size_t i = 0;
    while (i < da.size()) {
        if (da[i] != '/') {
            result += da[i++];
            continue;
        }
        size_t end = i + 1;
        while (end < da.size() && !is_name_delimiter(da[end])) {
            ++end;
        }
        std::string name = da.substr(i + 1, end - i - 1);
        auto renamed = renames.find(name);
        result += "/" + (renamed == renames.end() ? name : renamed->second);
        i = end;
    }
    return result;
}

// The form of one source in the output.
struct SourceForm {
    int source = -1;
    int instances = 0;
    std::map<int, int> occurrences;                          // node -> widgets copied so far
    std::map<std::pair<int, int>, QPDFObjectHandle> objects; // (instance, node) -> output object
    std::set<std::pair<int, int>> ancestors;                 // live (instance, node) above widgets
    std::map<std::string, std::string> font_renames;         // /DR font names, without slashes
    std::vector<QPDFObjectHandle> roots;                     // output roots, all instances
};

class FormBuilder {
  public:
    FormBuilder(QPDF &output, std::vector<Source> &all, Where &progress) :
        out(output), sources(all), where(progress)
    {
    }

    void add_widget(CopiedAnnotation const &widget, int source)
    {
        FieldTree const &tree = sources[static_cast<size_t>(source)].fields();
        auto found = tree.index.find(widget.original);
        if (found == tree.index.end()) {
            return; // a widget of no field of its source's form: left as it is
        }
        SourceForm &form = form_of(source);
        int node = found->second;
        int instance = form.occurrences[node]++;
        form.instances = std::max(form.instances, instance + 1);
        form.objects[{instance, node}] = widget.copy;
        for (int up = tree.nodes[static_cast<size_t>(node)].parent; up >= 0;
             up = tree.nodes[static_cast<size_t>(up)].parent) {
            if (!form.ancestors.insert({instance, up}).second) {
                break;
            }
        }
    }

    void build()
    {
        if (forms.empty()) {
            return;
        }
        for (SourceForm &form : forms) {
            where = Where{form.source, 0};
            make_fields(form);
            link_fields(form);
        }
        rename_roots();
        write_acroform();
        where = Where{};
    }

  private:
    QPDF &out;
    std::vector<Source> &sources;
    Where &where;
    std::vector<SourceForm> forms; // in order of first widget

    SourceForm &form_of(int source)
    {
        for (SourceForm &form : forms) {
            if (form.source == source) {
                return form;
            }
        }
        forms.push_back(SourceForm{});
        forms.back().source = source;
        return forms.back();
    }

    FieldTree const &tree_of(SourceForm const &form)
    {
        return sources[static_cast<size_t>(form.source)].fields();
    }

    // The output objects of the fields above copied widgets: qpdf's copies for
    // instance 0, copies of those for later instances (std::set order puts
    // instance 0 of a node before its later instances).
    void make_fields(SourceForm &form)
    {
        FieldTree const &tree = tree_of(form);
        for (auto const &key : form.ancestors) {
            if (form.objects.count(key) != 0) {
                continue; // a widget that is also a field with kids
            }
            QPDFObjectHandle made;
            if (key.first == 0) {
                made = copy_foreign(out, tree.nodes[static_cast<size_t>(key.second)].object);
            } else {
                made = out.makeIndirectObject(form.objects.at({0, key.second}).shallowCopy());
            }
            form.objects[key] = made;
        }
    }

    // /Kids and /Parent of every surviving node point within its instance.
    void link_fields(SourceForm &form)
    {
        FieldTree const &tree = tree_of(form);
        for (auto &entry : form.objects) {
            int instance = entry.first.first;
            FieldTree::Node const &node = tree.nodes[static_cast<size_t>(entry.first.second)];
            QPDFObjectHandle object = entry.second;
            if (!node.kids.empty()) {
                std::vector<QPDFObjectHandle> kids;
                for (int kid : node.kids) {
                    auto found = form.objects.find({instance, kid});
                    if (found != form.objects.end()) {
                        kids.push_back(found->second);
                    }
                }
                if (kids.empty()) {
                    object.removeKey("/Kids");
                } else {
                    object.replaceKey("/Kids", QPDFObjectHandle::newArray(kids));
                }
            }
            if (node.parent >= 0) {
                object.replaceKey("/Parent", form.objects.at({instance, node.parent}));
            } else {
                object.removeKey("/Parent");
            }
        }
        for (int instance = 0; instance < form.instances; ++instance) {
            for (int root : tree.roots) {
                auto found = form.objects.find({instance, root});
                if (found != form.objects.end()) {
                    form.roots.push_back(found->second);
                }
            }
        }
    }

    static std::string partial_name(QPDFObjectHandle field)
    {
        QPDFObjectHandle name = field.getKey("/T");
        return name.isString() ? name.getUTF8Value() : std::string();
    }

    // Gives the roots of each (source, instance) group names no earlier group
    // uses: field names stay unique across sources and copies.
    void rename_roots()
    {
        std::set<std::string> names; // every root name, original or given
        for (SourceForm const &form : forms) {
            for (QPDFObjectHandle const &root : form.roots) {
                names.insert(partial_name(root));
            }
        }
        std::set<std::string> taken; // by earlier groups
        for (SourceForm &form : forms) {
            FieldTree const &tree = tree_of(form);
            size_t next = 0;
            for (int instance = 0; instance < form.instances; ++instance) {
                std::map<std::string, std::string> renames;
                std::set<std::string> group;
                for (int root : tree.roots) {
                    if (form.objects.count({instance, root}) == 0) {
                        continue;
                    }
                    QPDFObjectHandle field = form.roots[next++];
                    std::string name = partial_name(field);
                    if (name.empty()) {
                        continue;
                    }
                    if (taken.count(name) != 0) {
                        auto known = renames.find(name);
                        if (known == renames.end()) {
                            std::string fresh = unique_name(
                                name, false, [&names](std::string const &n) { return names.count(n) != 0; });
                            names.insert(fresh);
                            known = renames.emplace(name, fresh).first;
                        }
                        name = known->second;
                        field.replaceKey("/T", QPDFObjectHandle::newUnicodeString(name));
                    }
                    group.insert(name);
                }
                taken.insert(group.begin(), group.end());
            }
        }
    }

    // Adds a source's /DR to the output's, renaming fonts whose name is taken by a
    // different font.
    void merge_resources(SourceForm &form, QPDFObjectHandle resources)
    {
        QPDFObjectHandle from = dict_key(tree_of(form).acroform, "/DR");
        if (!from.isDictionary()) {
            return;
        }
        for (auto &category : from.getDictAsMap()) {
            if (!category.second.isDictionary()) {
                continue;
            }
            QPDFObjectHandle into = resources.getKey(category.first);
            if (!into.isDictionary()) {
                into = QPDFObjectHandle::newDictionary();
                resources.replaceKey(category.first, into);
            }
            std::map<std::string, QPDFObjectHandle> entries = category.second.getDictAsMap();
            for (auto &entry : entries) {
                QPDFObjectHandle value = import_value(out, entry.second);
                if (!into.hasKey(entry.first)) {
                    into.replaceKey(entry.first, value);
                } else if (!same_value(into.getKey(entry.first), value) &&
                           category.first == "/Font") {
                    std::string name = unique_name(entry.first, false, [&](std::string const &n) {
                        return into.hasKey(n) || entries.count(n) != 0;
                    });
                    into.replaceKey(name, value);
                    form.font_renames[entry.first.substr(1)] = name.substr(1);
                }
                // Other resources of the same name: the first source's stays.
            }
        }
    }

    void write_acroform()
    {
        QPDFObjectHandle resources = QPDFObjectHandle::newDictionary();
        std::vector<QPDFObjectHandle> fields;
        std::vector<QPDFObjectHandle> order;
        QPDFObjectHandle da;
        QPDFObjectHandle quadding;
        bool need_appearances = false;
        long long sig_flags = 0;
        for (SourceForm &form : forms) {
            where = Where{form.source, 0};
            FieldTree const &tree = tree_of(form);
            QPDFObjectHandle acroform = tree.acroform;
            merge_resources(form, resources);
            fields.insert(fields.end(), form.roots.begin(), form.roots.end());
            // Own /DA and /Q for the roots of a source whose defaults differ from
            // the output's (the first ones found).
            QPDFObjectHandle own_da = acroform.getKey("/DA");
            if (own_da.isString()) {
                std::string text = renamed_fonts(own_da.getStringValue(), form.font_renames);
                if (!da.isInitialized()) {
                    da = QPDFObjectHandle::newString(text);
                } else if (da.getStringValue() != text) {
                    set_on_roots(form, "/DA", QPDFObjectHandle::newString(text));
                }
            }
            QPDFObjectHandle own_q = acroform.getKey("/Q");
            long long q = own_q.isInteger() ? own_q.getIntValue() : 0;
            if (!quadding.isInitialized()) {
                quadding = QPDFObjectHandle::newInteger(q);
            } else if (quadding.getIntValue() != q) {
                set_on_roots(form, "/Q", QPDFObjectHandle::newInteger(q));
            }
            QPDFObjectHandle need = acroform.getKey("/NeedAppearances");
            need_appearances = need_appearances || (need.isBool() && need.getBoolValue());
            QPDFObjectHandle sig = acroform.getKey("/SigFlags");
            if (sig.isInteger()) {
                sig_flags |= sig.getIntValue();
            }
            QPDFObjectHandle calculation = acroform.getKey("/CO");
            if (calculation.isArray()) {
                for (QPDFObjectHandle &field : calculation.getArrayAsVector()) {
                    auto node = field.isIndirect() ? tree.index.find(field.getObjGen()) : tree.index.end();
                    if (node == tree.index.end()) {
                        continue;
                    }
                    for (int instance = 0; instance < form.instances; ++instance) {
                        auto found = form.objects.find({instance, node->second});
                        if (found != form.objects.end()) {
                            order.push_back(found->second);
                        }
                    }
                }
            }
            rename_fonts_in_fields(form);
        }
        QPDFObjectHandle acroform = QPDFObjectHandle::newDictionary();
        acroform.replaceKey("/Fields", QPDFObjectHandle::newArray(fields));
        if (!resources.getKeys().empty()) {
            acroform.replaceKey("/DR", resources);
        }
        if (da.isInitialized()) {
            acroform.replaceKey("/DA", da);
        }
        if (quadding.isInitialized() && quadding.getIntValue() != 0) {
            acroform.replaceKey("/Q", quadding);
        }
        if (need_appearances) {
            acroform.replaceKey("/NeedAppearances", QPDFObjectHandle::newBool(true));
        }
        if (sig_flags != 0) {
            acroform.replaceKey("/SigFlags", QPDFObjectHandle::newInteger(sig_flags));
        }
        if (!order.empty()) {
            acroform.replaceKey("/CO", QPDFObjectHandle::newArray(order));
        }
        out.getRoot().replaceKey("/AcroForm", out.makeIndirectObject(acroform));
    }

    static void set_on_roots(SourceForm &form, std::string const &key, QPDFObjectHandle value)
    {
        for (QPDFObjectHandle &root : form.roots) {
            if (!root.hasKey(key)) {
                root.replaceKey(key, value.shallowCopy());
            }
        }
    }

    static void rename_fonts_in_fields(SourceForm &form)
    {
        if (form.font_renames.empty()) {
            return;
        }
        for (auto &entry : form.objects) {
            QPDFObjectHandle da = entry.second.getKey("/DA");
            if (!da.isString()) {
                continue;
            }
            std::string text = da.getStringValue();
            std::string renamed = renamed_fonts(text, form.font_renames);
            if (renamed != text) {
                entry.second.replaceKey("/DA", QPDFObjectHandle::newString(renamed));
            }
        }
    }
};

} // namespace

FieldTree const &Source::fields()
{
    if (!field_tree) {
        auto tree = std::make_unique<FieldTree>();
        tree->acroform = dict_key(pdf->getRoot(), "/AcroForm");
        QPDFObjectHandle roots = dict_key(tree->acroform, "/Fields");
        if (roots.isArray()) {
            for (QPDFObjectHandle &root : roots.getArrayAsVector()) {
                int added = add_field(*tree, root, -1, 0);
                if (added >= 0) {
                    tree->roots.push_back(added);
                }
            }
        }
        field_tree = std::move(tree);
    }
    return *field_tree;
}

void build_form(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<CopiedAnnotation> const &widgets,
    std::vector<PlacedPage> const &placed,
    Where &where)
{
    FormBuilder builder(out, sources, where);
    for (CopiedAnnotation const &widget : widgets) {
        PlacedPage const &page = placed[widget.placed];
        where = Where{page.source, page.page + 1};
        builder.add_widget(widget, page.source);
    }
    builder.build();
}

} // namespace pe
