// restrict_pointers and load_through_ldg: the rewrites driven by which pointer parameters the
// kernel only reads.
#include <algorithm>
#include <array>
#include <string>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool only_read(const source::KernelText& text, const source::KernelParameter& p,
               const std::set<std::string>& read_only) {
    return p.is_pointer && !p.name.empty() && read_only.contains(p.name) &&
           !text.written_parameters.contains(p.name);
}

// `const` on the pointee: in front for `float* x`, before the last '*' for `float** x`.
TextEdit pointee_const(std::string_view source, const source::KernelParameter& p) {
    const std::string_view declaration = std::string_view(source).substr(p.begin, p.end - p.begin);
    if (std::count(declaration.begin(), declaration.end(), '*') == 1) return {p.begin, 0, "const "};
    const bool blank_before = is_space(source[p.pointer_star - 1]);
    return {p.pointer_star, 0, blank_before ? "const " : " const"};
}

// The element types the CUDA headers declare an __ldg overload for.
bool ldg_loads(std::string_view type) {
    static constexpr std::array<std::string_view, 40> kTypes = {"char",
                                                                "signed char",
                                                                "unsigned char",
                                                                "short",
                                                                "short int",
                                                                "unsigned short",
                                                                "unsigned short int",
                                                                "int",
                                                                "signed",
                                                                "signed int",
                                                                "unsigned",
                                                                "unsigned int",
                                                                "long",
                                                                "long int",
                                                                "unsigned long",
                                                                "unsigned long int",
                                                                "long long",
                                                                "long long int",
                                                                "unsigned long long",
                                                                "unsigned long long int",
                                                                "float",
                                                                "double",
                                                                "char2",
                                                                "char4",
                                                                "uchar2",
                                                                "uchar4",
                                                                "short2",
                                                                "short4",
                                                                "ushort2",
                                                                "ushort4",
                                                                "int2",
                                                                "int4",
                                                                "uint2",
                                                                "uint4",
                                                                "longlong2",
                                                                "ulonglong2",
                                                                "float2",
                                                                "float4",
                                                                "double2",
                                                                "signed short"};
    return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
}

}  // namespace

std::optional<std::string> restrict_pointers(std::string_view source, std::string_view kernel,
                                             const std::set<std::string>& read_only) {
    const source::KernelText text = source::find_kernel(source, kernel);
    std::vector<TextEdit> edits;
    for (const source::KernelParameter& p : text.parameters) {
        if (!p.is_pointer) continue;
        if (!p.has_restrict) {
            const bool blank_after = is_space(source[p.pointer_star + 1]);
            edits.push_back(
                {p.pointer_star + 1, 0, blank_after ? " __restrict__" : " __restrict__ "});
        }
        if (!p.pointee_const && only_read(text, p, read_only)) {
            edits.push_back(pointee_const(source, p));
        }
    }
    if (edits.empty()) return std::nullopt;
    return apply_edits(source, std::move(edits));
}

std::optional<std::string> load_through_ldg(std::string_view source, std::string_view kernel,
                                            const std::set<std::string>& read_only) {
    const source::KernelText text = source::find_kernel(source, kernel);
    std::set<std::string> loaded;
    for (const source::KernelParameter& p : text.parameters) {
        if (only_read(text, p, read_only) && ldg_loads(pointee_type(source, p))) {
            loaded.insert(p.name);
        }
    }
    std::vector<source::Token> body;
    for (const source::Token& token : source::code_tokens(source)) {
        if (token.begin >= text.body_begin && token.end <= text.body_end) body.push_back(token);
    }
    std::vector<TextEdit> edits;
    for (std::size_t i = 0; i + 1 < body.size(); ++i) {
        if (body[i].kind != source::TokenKind::Identifier ||
            !loaded.contains(std::string(source::token_text(source, body[i]))) ||
            source::token_text(source, body[i + 1]) != "[") {
            continue;
        }
        const std::string_view before = i > 0 ? source::token_text(source, body[i - 1]) : "";
        if (before == "." || before == "->" || before == "::") continue;  // another's member
        if (before == "&" && source::is_prefix_operator(body, source, i - 1))
            continue;  // an address
        const std::size_t close = source::matching_bracket(body, source, i + 1);
        if (close >= body.size()) continue;
        edits.push_back({body[i].begin, 0, "__ldg(&"});
        edits.push_back({body[close].end, 0, ")"});
    }
    if (edits.empty()) return std::nullopt;
    return apply_edits(source, std::move(edits));
}

}  // namespace optiml::propose
