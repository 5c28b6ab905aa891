// The digital signatures of an opened document (pe_document_read_signatures):
// the signed fields of its /AcroForm, what their signature dictionaries say
// about the bytes they cover, and the certification (DocMDP) permission. The
// signer's name inside the CMS blob is poppler's to read (PDFEngine), not ours.
#include "Geometry.hh"
#include "Inputs.hh"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pe {
namespace {

// Field trees deeper than this are cut there, and a node is visited once: the
// walk is bounded whatever the file holds.
constexpr int max_signature_field_depth = 32;
constexpr size_t max_signature_fields = 100000;

// The text of a PDF string as UTF-8, cut at a NUL character; empty for anything else.
std::string text_of(QPDFObjectHandle value)
{
    if (!value.isString()) {
        return "";
    }
    std::string text = value.getUTF8Value();
    return text.substr(0, text.find('\0'));
}

// The DocMDP permission a signature dictionary's /Reference carries (1, 2 or 3;
// /P absent means 2, PDF 32000-1 table 254), 0 when it has none.
int reference_permission(QPDFObjectHandle signature)
{
    QPDFObjectHandle references = present_value(signature, "/Reference");
    if (!references.isArray()) {
        return 0;
    }
    int count = references.getArrayNItems();
    for (int i = 0; i < count && i < 64; ++i) {
        QPDFObjectHandle reference = references.getArrayItem(i);
        QPDFObjectHandle method = present_value(reference, "/TransformMethod");
        if (!method.isName() || method.getName() != "/DocMDP") {
            continue;
        }
        QPDFObjectHandle given = present_value(present_value(reference, "/TransformParams"), "/P");
        if (given.isInteger() && given.getIntValue() >= 1 && given.getIntValue() <= 3) {
            return static_cast<int>(given.getIntValue());
        }
        return 2;
    }
    return 0;
}

struct FieldNode {
    QPDFObjectHandle object;
    std::string name;  // fully qualified
    bool signature;    // /FT /Sig, here or inherited
    QPDFObjectHandle value; // /V, here or inherited
    int depth;
};

} // namespace
} // namespace pe

extern "C" int pe_document_read_signatures(
    pe_document *document, long long file_size, pe_signature_fn each, void *context, pe_status *status)
{
    return pe::reading(status, [&](pe::Where &) {
        pe::require(document != nullptr && document->source.pdf && each != nullptr,
                    "pe_document_read_signatures: no document or no receiver");
        QPDF &pdf = *document->source.pdf;
        QPDFObjectHandle root = pdf.getRoot();
        QPDFObjectHandle fields = pe::present_value(pe::present_value(root, "/AcroForm"), "/Fields");
        if (!fields.isArray()) {
            return;
        }
        // The certification signature, named by the catalog's /Perms /DocMDP.
        QPDFObjectHandle certification = pe::present_value(pe::present_value(root, "/Perms"), "/DocMDP");
        std::set<QPDFObjGen> seen;
        std::vector<pe::FieldNode> pending;
        std::vector<QPDFObjectHandle> roots = fields.getArrayAsVector();
        for (auto it = roots.rbegin(); it != roots.rend(); ++it) {
            pending.push_back(pe::FieldNode{*it, "", false, QPDFObjectHandle::newNull(), 0});
        }
        while (!pending.empty() && seen.size() < pe::max_signature_fields) {
            pe::FieldNode node = std::move(pending.back());
            pending.pop_back();
            QPDFObjectHandle object = node.object;
            if (!object.isDictionary() || node.depth > pe::max_signature_field_depth) {
                continue;
            }
            if (object.isIndirect() && !seen.insert(object.getObjGen()).second) {
                continue; // a node has one place in the tree (and cycles end here)
            }
            std::string partial = pe::text_of(pe::present_value(object, "/T"));
            if (!partial.empty()) {
                node.name = node.name.empty() ? partial : node.name + "." + partial;
            }
            QPDFObjectHandle type = pe::present_value(object, "/FT");
            if (type.isName()) {
                node.signature = type.getName() == "/Sig";
            }
            QPDFObjectHandle value = pe::present_value(object, "/V");
            if (!value.isNull()) {
                node.value = value;
            }
            QPDFObjectHandle kids = pe::present_value(object, "/Kids");
            bool has_field_kids = false;
            if (kids.isArray()) {
                std::vector<QPDFObjectHandle> children = kids.getArrayAsVector();
                for (auto it = children.rbegin(); it != children.rend(); ++it) {
                    // A kid without /T is a widget of this field, not a field.
                    if (it->isDictionary() && it->hasKey("/T")) {
                        has_field_kids = true;
                        pending.push_back(pe::FieldNode{*it, node.name, node.signature, node.value, node.depth + 1});
                    }
                }
            }
            if (has_field_kids || !node.signature || !node.value.isDictionary()) {
                continue; // a signature field not signed yet has no /V
            }
            QPDFObjectHandle signature = node.value;
            pe_signature made{};
            made.field = node.name.c_str();
            std::string name = pe::text_of(pe::present_value(signature, "/Name"));
            made.name = name.empty() ? nullptr : name.c_str();
            std::string time = pe::text_of(pe::present_value(signature, "/M"));
            made.time = time.empty() ? nullptr : time.c_str();
            QPDFObjectHandle sub_filter = pe::present_value(signature, "/SubFilter");
            std::string filter = sub_filter.isName() ? sub_filter.getName().substr(1) : "";
            made.sub_filter = filter.empty() ? nullptr : filter.c_str();
            QPDFObjectHandle range = pe::present_value(signature, "/ByteRange");
            bool usable = range.isArray() && range.getArrayNItems() == 4;
            for (int i = 0; usable && i < 4; ++i) {
                QPDFObjectHandle part = range.getArrayItem(i);
                usable = part.isInteger() && part.getIntValue() >= 0;
                made.byte_range[i] = usable ? part.getIntValue() : 0;
            }
            long long const *r = made.byte_range;
            // Two ranges in order, the second ending inside the file (no overflow:
            // each part is at most LLONG_MAX, checked before adding).
            usable = usable && r[0] <= file_size && r[1] <= file_size - r[0] && r[2] >= r[0] + r[1] &&
                r[2] <= file_size && r[3] <= file_size - r[2];
            made.byte_range_valid = usable ? 1 : 0;
            made.covers_file = usable && r[0] == 0 && r[2] + r[3] == file_size ? 1 : 0;
            made.doc_mdp = pe::reference_permission(signature);
            if (made.doc_mdp == 0 && certification.isIndirect() && signature.isIndirect() &&
                certification.getObjGen() == signature.getObjGen()) {
                made.doc_mdp = 2; // named by /Perms without a /Reference: the default
            }
            made.certification = certification.isIndirect() && signature.isIndirect() &&
                    certification.getObjGen() == signature.getObjGen()
                ? 1
                : 0;
            each(context, &made);
        }
    });
}
