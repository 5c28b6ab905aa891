// Page labels of the output.
//
// PE_LABELS_KEEP: when no source of an output page has /PageLabels, the output has
// none either (whatever the order: a viewer numbers the pages 1..n as it did the
// sources). Otherwise each page keeps the label it had in its source (style,
// prefix and number, from QPDFPageLabelDocumentHelper); a page of a source without
// labels keeps the label a viewer gave it there, its page number in that source
// in decimal; a blank page
// continues the range of the page before it (same style and prefix, next number;
// decimal 1 at the start of the output). Consecutive pages that continue a range
// share one /Nums entry; labels equal to plain 1..n are still written when a
// source had /PageLabels (the output has them exactly when a source had them).
// PE_LABELS_RENUMBER: /PageLabels << /Nums [0 << /S /D >>] >>, plain 1..n said
// explicitly. PE_LABELS_NONE: no /PageLabels.
// A document with its own label ranges (`pdfedit labels`) passes each item's
// label (pe_export_options.page_labels): with PE_LABELS_KEEP those are written
// instead of the sources', consecutive pages of one range sharing one entry, a
// page before the first range an empty label (<< >>); none at all when every
// page's label is empty (`labels --clear`).
#include "Export.hh"

#include <qpdf/QPDFPageLabelDocumentHelper.hh>
#include <qpdf/QUtil.hh>

#include <algorithm>
#include <cstring>

namespace pe {

namespace {

struct Label {
    std::string style; // "/D", "/R", "/r", "/A", "/a"; empty: no number, prefix only
    bool has_prefix = false;
    std::string prefix;
    long long number = 1;

    // Whether `next` is the page after this one within the same range.
    bool continues_with(Label const &next) const
    {
        return next.style == style && next.has_prefix == has_prefix && next.prefix == prefix &&
            (style.empty() || next.number == number + 1);
    }
};

Label decimal(long long number)
{
    Label label;
    label.style = "/D";
    label.number = number;
    return label;
}

Label source_label(QPDFPageLabelDocumentHelper &helper, int page)
{
    QPDFObjectHandle found = helper.getLabelForPage(page);
    if (!found.isDictionary()) {
        return decimal(page + 1);
    }
    Label label;
    QPDFObjectHandle style = found.getKey("/S");
    if (style.isName()) {
        label.style = style.getName();
    }
    QPDFObjectHandle prefix = found.getKey("/P");
    if (prefix.isString()) {
        label.has_prefix = true;
        label.prefix = prefix.getStringValue();
    }
    long long start = 1;
    if (read_integer(found.getKey("/St"), 1, 2147483647, start)) {
        label.number = start;
    }
    return label;
}

QPDFObjectHandle label_dictionary(Label const &label)
{
    QPDFObjectHandle dict = QPDFObjectHandle::newDictionary();
    if (!label.style.empty()) {
        dict.replaceKey("/S", QPDFObjectHandle::newName(label.style));
        if (label.number != 1) {
            dict.replaceKey("/St", QPDFObjectHandle::newInteger(label.number));
        }
    }
    if (label.has_prefix) {
        dict.replaceKey("/P", QPDFObjectHandle::newString(label.prefix));
    }
    return dict;
}

Label own_label(pe_page_label const &given)
{
    Label label;
    if (given.style != '\0' && std::strchr("DrRaA", given.style) != nullptr) {
        label.style = std::string("/") + given.style;
    }
    std::string prefix = given.prefix == nullptr ? "" : given.prefix;
    label.has_prefix = !prefix.empty();
    // PDFDocEncoding when it can say the prefix, else UTF-16BE with its mark.
    if (!QUtil::utf8_to_pdf_doc(prefix, label.prefix)) {
        label.prefix = QUtil::utf8_to_utf16(prefix);
    }
    label.number = std::max(1LL, given.number);
    return label;
}

bool own_numbers(pe_page_label const *own, int item_count, std::vector<QPDFObjectHandle> &nums)
{
    bool any = false;
    Label previous;
    for (int i = 0; i < item_count; ++i) {
        Label label = own_label(own[i]);
        any = any || !label.style.empty() || label.has_prefix;
        if (i == 0 || !previous.continues_with(label)) {
            nums.push_back(QPDFObjectHandle::newInteger(i));
            nums.push_back(label_dictionary(label));
        }
        previous = label;
    }
    if (!any) {
        nums.clear();
    }
    return any;
}

void set_labels(QPDF &out, std::vector<QPDFObjectHandle> const &nums)
{
    QPDFObjectHandle labels = QPDFObjectHandle::newDictionary();
    labels.replaceKey("/Nums", QPDFObjectHandle::newArray(nums));
    out.getRoot().replaceKey("/PageLabels", labels);
}

} // namespace

bool label_numbers(
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    int mode,
    pe_page_label const *own,
    std::vector<QPDFObjectHandle> &nums)
{
    nums.clear();
    if (mode == PE_LABELS_NONE) {
        return false;
    }
    if (mode == PE_LABELS_RENUMBER) {
        nums = {QPDFObjectHandle::newInteger(0), label_dictionary(decimal(1))};
        return true;
    }
    if (own != nullptr) {
        return own_numbers(own, item_count, nums);
    }
    std::vector<std::unique_ptr<QPDFPageLabelDocumentHelper>> helpers(sources.size());
    auto helper_of = [&](size_t s) -> QPDFPageLabelDocumentHelper & {
        if (!helpers[s]) {
            helpers[s] = std::make_unique<QPDFPageLabelDocumentHelper>(*sources[s].pdf);
        }
        return *helpers[s];
    };
    bool any_labelled = false;
    for (int i = 0; i < item_count && !any_labelled; ++i) {
        any_labelled = items[i].kind == PE_ITEM_PAGE && helper_of(static_cast<size_t>(items[i].source)).hasPageLabels();
    }
    if (!any_labelled) {
        return false;
    }
    Label previous;
    for (int i = 0; i < item_count; ++i) {
        pe_item const &item = items[i];
        Label label;
        if (item.kind != PE_ITEM_PAGE) {
            label = decimal(1);
            if (i > 0) {
                label = previous;
                label.number = previous.number + 1;
            }
        } else {
            QPDFPageLabelDocumentHelper &helper = helper_of(static_cast<size_t>(item.source));
            label = helper.hasPageLabels() ? source_label(helper, item.page) : decimal(item.page + 1);
        }
        if (i == 0 || !previous.continues_with(label)) {
            nums.push_back(QPDFObjectHandle::newInteger(i));
            nums.push_back(label_dictionary(label));
        }
        previous = label;
    }
    return true;
}

void write_labels(
    QPDF &out,
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    int mode,
    pe_page_label const *own)
{
    std::vector<QPDFObjectHandle> nums;
    if (label_numbers(sources, items, item_count, mode, own, nums)) {
        set_labels(out, nums);
    }
}

} // namespace pe
