// privatize_atomics: a histogram's global atomics go to a per-block copy in shared memory, merged
// into the global array once per block.
#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {
namespace {

// Element types atomicAdd takes in shared memory as in global memory (sm_60 and later).
bool shared_atomic_add(std::string_view type) {
    static constexpr std::array<std::string_view, 7> kTypes = {
        "int",   "unsigned int", "unsigned", "unsigned long long", "unsigned long long int",
        "float", "double"};
    return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
}

std::size_t element_bytes(std::string_view type) {
    return type.find("long long") != std::string_view::npos || type == "double" ? 8 : 4;
}

// `atomicAdd(&p[index], value);` as a statement: where its parts are.
struct AtomicStatement {
    std::size_t begin = 0;  // `atomicAdd`
    std::size_t end = 0;    // one past its `;`
    std::string index;      // the subscript's text
    std::string value;      // the added value's text
};

class Privatizer {
  public:
    Privatizer(std::string_view source, const source::KernelText& kernel)
        : source_(source), kernel_(kernel) {
        for (const source::Token& token : source::code_tokens(source))
            if (token.begin > kernel.body_begin && token.end < kernel.body_end)
                body_.push_back(token);
    }

    // Every use of `name` in the body as `atomicAdd(&name[index], value);`, or nullopt when the
    // body uses it any other way (reads, stores, the atomic's old value) or never.
    std::optional<std::vector<AtomicStatement>> atomics_of(const std::string& name) const {
        std::vector<AtomicStatement> found;
        for (std::size_t i = 0; i < body_.size(); ++i) {
            if (text(i) != name) continue;
            auto statement = statement_around(i);
            if (!statement) return std::nullopt;
            found.push_back(std::move(statement->first));
            i = statement->second;
        }
        if (found.empty()) return std::nullopt;
        return found;
    }

    bool returns_early() const {
        return std::any_of(body_.begin(), body_.end(),
                           [&](const source::Token& t) { return token_text(t) == "return"; });
    }

  private:
    std::string_view token_text(const source::Token& t) const {
        return source_.substr(t.begin, t.end - t.begin);
    }
    std::string_view text(std::size_t i) const {
        return i < body_.size() ? token_text(body_[i]) : std::string_view();
    }

    // The statement `atomicAdd ( & name [ index ] , value ) ;` (or `& ( name [ index ] )`, as
    // CUDA by Example writes it) whose `name` is token i, and the index of its `;`.
    std::optional<std::pair<AtomicStatement, std::size_t>> statement_around(std::size_t i) const {
        const bool parenthesized = i >= 4 && text(i - 1) == "(";
        const std::size_t ampersand = parenthesized ? i - 2 : i - 1;
        if (ampersand < 2 || text(ampersand) != "&" || text(ampersand - 1) != "(" ||
            text(ampersand - 2) != "atomicAdd" || text(i + 1) != "[")
            return std::nullopt;
        const std::size_t call = ampersand - 2;
        if (call > 0) {  // an expression statement: nothing uses the old value
            const std::string_view before = text(call - 1);
            if (before != ";" && before != "{" && before != "}" && before != ")" &&
                before != "else")
                return std::nullopt;
        }
        const std::size_t close_index = source::matching_bracket(body_, source_, i + 1);
        const std::size_t comma = close_index + (parenthesized ? 2 : 1);
        if (close_index >= body_.size() || (parenthesized && text(close_index + 1) != ")") ||
            text(comma) != ",")
            return std::nullopt;
        const std::size_t close_call = source::matching_bracket(body_, source_, call + 1);
        if (close_call >= body_.size() || text(close_call + 1) != ";") return std::nullopt;
        AtomicStatement s;
        s.begin = body_[call].begin;
        s.end = body_[close_call + 1].end;
        s.index = std::string(span(i + 2, close_index));
        s.value = std::string(span(comma + 1, close_call));
        if (s.index.empty() || s.value.empty()) return std::nullopt;
        return std::pair{std::move(s), close_call + 1};
    }

    // The text from token `first` up to (not including) token `last`.
    std::string_view span(std::size_t first, std::size_t last) const {
        if (first >= last) return {};
        return source_.substr(body_[first].begin, body_[last - 1].end - body_[first].begin);
    }

    std::string_view source_;
    const source::KernelText& kernel_;
    std::vector<source::Token> body_;
};

}  // namespace

std::optional<std::string> privatize_atomics(std::string_view source, std::string_view kernel,
                                             const std::map<std::string, long>& counts) {
    const source::KernelText text = source::find_kernel(source, kernel);
    const Privatizer privatizer(source, text);
    std::vector<TextEdit> edits;
    std::string prologue, epilogue;
    std::set<std::string> taken;
    const std::string thread = fresh_name(source, "optiml_thread", taken);
    taken.insert(thread);
    const std::string threads = fresh_name(source, "optiml_threads", taken);
    taken.insert(threads);
    const std::string k = fresh_name(source, "optiml_k", taken);
    taken.insert(k);
    std::size_t shared_bytes = 0;
    for (const source::KernelParameter& p : text.parameters) {
        const auto count = counts.find(p.name);
        if (!p.is_pointer || p.name.empty() || count == counts.end() || count->second <= 0)
            continue;
        const std::string type = pointee_type(source, p);
        if (!shared_atomic_add(type)) continue;
        const std::size_t bytes = static_cast<std::size_t>(count->second) * element_bytes(type);
        if (shared_bytes + bytes > 32 * 1024) continue;  // room left for the kernel's own
        const auto atomics = privatizer.atomics_of(p.name);
        // Its merge is itself such an atomic: a second copy would only add a level.
        if (!atomics || source.find("optiml_private_" + p.name) != std::string_view::npos) continue;
        shared_bytes += bytes;
        const std::string copy = fresh_name(source, "optiml_private_" + p.name, taken);
        const std::string index = fresh_name(source, "optiml_index", taken);
        taken.insert(copy);
        const std::string size = std::to_string(count->second) + "u";
        // An index beyond the copy (the array larger at run time than at tuning) goes to the
        // global array as before.
        for (const AtomicStatement& a : *atomics)
            edits.push_back({a.begin, a.end - a.begin,
                             "{ const unsigned long long " + index + " = (" + a.index + "); if (" +
                                 index + " < " + size + ") atomicAdd(&" + copy + "[" + index +
                                 "], " + a.value + "); else atomicAdd(&" + p.name + "[" + index +
                                 "], " + a.value + "); }"});
        const std::string each = " for (unsigned " + k + " = " + thread + "; " + k + " < " + size +
                                 "; " + k + " += " + threads + ")";
        prologue += " __shared__ " + type + " " + copy + "[" + size + "];" + each + " " + copy +
                    "[" + k + "] = 0;";
        epilogue += each + " if (" + copy + "[" + k + "] != 0) atomicAdd(&" + p.name + "[" + k +
                    "], " + copy + "[" + k + "]);";
    }
    if (edits.empty()) return std::nullopt;
    // On the lines of the body's braces, so every line of the body keeps its number. A body that
    // returns early runs in a lambda, so that every thread reaches the merge's barriers.
    const bool wrap = privatizer.returns_early();
    const std::string head = " const unsigned " + thread +
                             " = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
                             "threadIdx.z); const unsigned " +
                             threads + " = blockDim.x * blockDim.y * blockDim.z;" + prologue +
                             " __syncthreads();" + (wrap ? " [&]() {" : "");
    edits.push_back({text.body_begin + 1, 0, head});
    edits.push_back({text.body_end - 1, 0,
                     std::string(wrap ? "}();" : "") + " __syncthreads();" + epilogue + " "});
    return apply_edits(source, std::move(edits));
}

}  // namespace optiml::propose
