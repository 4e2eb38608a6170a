// vectorize_loads: a unit-stride loop's float loads `p[base + k]` become one float4 (float2)
// load a pointer every 4 (2) iterations, where every such pointer is aligned at run time; the
// iterations keep their order, so the arithmetic is the original's, term for term.
#include <algorithm>
#include <map>
#include <string>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

// One vectorized stream: the loads `pointer[base + k]` of one pointer and one base.
struct Stream {
    std::string pointer;
    std::string base;  // the base's text as written, "" for `p[k]`
    bool through_ldg = false;
    std::string name;  // the vector variable
};

// Whether `s` indexes `k`, `base + k` or `k + base` with an invariant base; its base's text.
std::optional<std::string> unit_stride_base(const LoopAnalysis& a, const Subscript& s,
                                            const std::string& k) {
    const TokenRange index = s.index;
    const std::size_t n = index.end - index.first;
    if (n == 1) return a.text(index.first) == k ? std::optional<std::string>("") : std::nullopt;
    if (n < 3) return std::nullopt;
    if (a.text(index.end - 1) == k && a.text(index.end - 2) == "+") {
        const TokenRange base{index.first, index.end - 2};
        if (a.invariant(base)) return a.text(base);
    }
    if (a.text(index.first) == k && a.text(index.first + 1) == "+") {
        const TokenRange base{index.first + 2, index.end};
        if (a.invariant(base)) return a.text(base);
    }
    return std::nullopt;
}

std::string parenthesized(const std::string& expression, bool single_token) {
    return single_token ? expression : "(" + expression + ")";
}

}  // namespace

std::optional<std::string> vectorize_loads(std::string_view source, std::string_view kernel,
                                           int loop_line, int width) {
    if (width != 2 && width != 4) {
        throw source::RewriteError("vectorize_loads on '" + std::string(kernel) +
                                   "': the vector width must be 2 or 4");
    }
    const source::KernelText text = source::find_kernel(source, kernel);
    const source::KernelLoop* loop = loop_on_line(text, loop_line);
    if (!loop) return std::nullopt;
    const LoopAnalysis a(source, text, loop->keyword);
    const LoopShape& shape = a.shape();
    const std::string& k = shape.variable;
    if (!shape.counted || shape.type != "int" || shape.comparison != "<") return std::nullopt;
    const std::string step = a.spelling(shape.increment);
    if (step != "++ " + k && step != k + " ++" && step != k + " += 1") return std::nullopt;
    // Each lane runs the whole body: it must not leave the loop, write memory (a later lane's
    // early load would pass a store), or call what might do either.
    if (a.jumps() || a.stores_memory() || !a.pure_calls()) return std::nullopt;
    if (!a.invariant(shape.start) || !a.invariant(shape.bound)) return std::nullopt;

    std::map<std::string, const source::KernelParameter*> floats;
    for (const source::KernelParameter& p : text.parameters) {
        if (pointee_type(source, p) == "float" && !text.written_parameters.contains(p.name))
            floats[p.name] = &p;
    }
    std::vector<Stream> streams;
    std::map<std::size_t, std::size_t> stream_of;  // subscript -> stream
    std::set<std::string> names;
    const auto& subscripts = a.subscripts();
    for (std::size_t i = 0; i < subscripts.size(); ++i) {
        const Subscript& s = subscripts[i];
        if (s.whole.first < shape.body.first || !floats.contains(s.pointer)) continue;
        if (a.text(s.whole.first) == "&") continue;
        const auto base = unit_stride_base(a, s, k);
        if (!base) continue;
        std::size_t at = 0;
        while (at < streams.size() &&
               (streams[at].pointer != s.pointer || streams[at].base != *base))
            ++at;
        if (at == streams.size()) {
            const std::string name = fresh_name(source, s.pointer + "_vec", names);
            names.insert(name);
            streams.push_back({s.pointer, *base, s.through_ldg, name});
        }
        streams[at].through_ldg = streams[at].through_ldg || s.through_ldg;
        stream_of[i] = at;
    }
    if (streams.empty()) return std::nullopt;

    const LoopSpan span = loop_span(source, *loop, a);
    const std::string& in = span.indent;
    const std::string t1 = indent_step(in), t2 = t1 + t1, t3 = t2 + t1;
    const std::string vector = width == 4 ? "float4" : "float2";
    const std::string bytes = width == 4 ? "16" : "8";
    const auto address = [&](const Stream& s) {
        return s.pointer + " + " + (s.base.empty() ? "" : parenthesized(s.base, false) + " + ") + k;
    };
    const std::string bound =
        parenthesized(a.text(shape.bound), shape.bound.end == shape.bound.first + 1);

    std::string out = span.lead + "{\n";
    out += in + t1 + (shape.declared_in_header ? "int " : "") + k + " = " + a.text(shape.start) +
           ";\n";
    std::string aligned;
    for (const Stream& s : streams) {
        if (!aligned.empty()) aligned += " |\n" + in + t1 + "     ";
        aligned += "reinterpret_cast<unsigned long long>(" + address(s) + ")";
    }
    if (streams.size() > 1) aligned = "(" + aligned + ")";
    out += in + t1 + "if (" + aligned + " % " + bytes + " == 0) {\n";
    if (!span.pragma.empty()) out += in + t2 + span.pragma + "\n";
    out += in + t2 + "for (; " + k + " + " + std::to_string(width - 1) + " < " + bound + "; " + k +
           " += " + std::to_string(width) + ") {\n";
    for (const Stream& s : streams) {
        const std::string cast = "reinterpret_cast<const " + vector + "*>(" + address(s) + ")";
        out += in + t3 + "const " + vector + " " + s.name + " = " +
               (s.through_ldg ? "__ldg(" + cast + ")" : "*" + cast) + ";\n";
    }
    // Lane l: the body with each vectorized load its component l, every other k as (k + l).
    const std::size_t body_begin = a.code()[shape.body.first].begin;
    const std::size_t body_end = a.code()[shape.body.end - 1].end;
    for (int lane = 0; lane < width; ++lane) {
        std::vector<TextEdit> edits;
        for (std::size_t i = 0; i < subscripts.size(); ++i) {
            if (!stream_of.contains(i)) continue;
            const Subscript& s = subscripts[i];
            const std::size_t begin = a.code()[s.whole.first].begin;
            edits.push_back({begin, a.code()[s.whole.end - 1].end - begin,
                             streams[stream_of[i]].name + "." + "xyzw"[lane]});
        }
        if (lane > 0) {
            for (std::size_t t = shape.body.first; t < shape.body.end; ++t) {
                const bool replaced =
                    std::any_of(edits.begin(), edits.end(), [&](const TextEdit& e) {
                        return e.offset <= a.code()[t].begin &&
                               a.code()[t].end <= e.offset + e.length;
                    });
                if (replaced || a.text(t) != k || a.code()[t].kind != source::TokenKind::Identifier)
                    continue;
                if (t > 0 && (a.text(t - 1) == "." || a.text(t - 1) == "->")) continue;
                edits.push_back(
                    {a.code()[t].begin, k.size(), "(" + k + " + " + std::to_string(lane) + ")"});
            }
        }
        std::string lane_text = edited_text(source, body_begin, body_end, edits);
        if (!shape.braced) lane_text = "{ " + lane_text + " }";
        out += in + t3 + indent_following_lines(lane_text, t3) + "\n";
    }
    out += in + t2 + "}\n";
    out += in + t1 + "}\n";
    // The remainder, and the whole loop where a pointer is misaligned: the original body.
    const std::size_t close_end = a.code()[shape.close].end;
    out += in + t1 + "for (; " + k + " < " + a.text(shape.bound) + "; ++" + k + ")" +
           indent_following_lines(source.substr(close_end, body_end - close_end), t1) + "\n";
    out += in + "}";
    return apply_edits(source, {{span.begin, span.end - span.begin, out}});
}

}  // namespace optiml::propose
