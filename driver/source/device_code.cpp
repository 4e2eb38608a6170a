#include "driver/source/device_code.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <utility>

#include "driver/source/cuda_tokens.h"

namespace optiml::source {
namespace {

constexpr std::array<std::string_view, 3> kQualifiers = {"__global__", "__device__", "__host__"};
// Names in a declaration that make it device code, or code device code may call.
constexpr std::array<std::string_view, 4> kDeviceMarkers = {"__global__", "__device__", "constexpr",
                                                            "consteval"};
// Standard headers of host-only facilities (streams, containers, threads, clocks, random
// engines): device code cannot call what they declare, and parsing them is most of what nvcc
// spends on a small kernel's file.
constexpr std::array<std::string_view, 30> kHostOnlyHeaders = {
    "iostream", "istream",  "ostream", "fstream",    "sstream",       "iomanip",
    "vector",   "string",   "map",     "set",        "unordered_map", "unordered_set",
    "list",     "deque",    "queue",   "stack",      "random",        "chrono",
    "thread",   "mutex",    "future",  "functional", "memory",        "algorithm",
    "numeric",  "iterator", "regex",   "filesystem", "stdexcept",     "exception"};
// C headers whose device functions NVRTC declares itself (printf, assert), having no standard
// headers to open.
constexpr std::array<std::string_view, 4> kNvrtcBuiltinHeaders = {"cstdio", "stdio.h", "cassert",
                                                                  "assert.h"};
// Reserved names the toolkit and compilers document for host declarations: not unseen macros.
constexpr std::array<std::string_view, 11> kHostSpellings = {
    "__host__",      "__forceinline__", "__inline__", "__noinline__",  "__restrict__", "__restrict",
    "__attribute__", "__declspec",      "__inline",   "__extension__", "__cdecl"};

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
    for (const std::string_view candidate : names)
        if (candidate == name) return true;
    return false;
}

// A name the preprocessor may replace without our seeing its definition: reserved (the toolkit's
// _CCCL_DEVICE, __CUDA_HOSTDEVICE__) or written as macros are (CUB_RUNTIME_FUNCTION).
bool may_be_unseen_macro(std::string_view name) {
    if (one_of(name, kHostSpellings)) return false;
    if (name.size() >= 2 && name[0] == '_' &&
        (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1]))))
        return true;
    if (name.size() < 2) return false;  // T, N: template parameters more often than macros
    bool letter = false;
    for (const char c : name) {
        if (std::islower(static_cast<unsigned char>(c))) return false;
        if (std::isupper(static_cast<unsigned char>(c))) letter = true;
    }
    return letter;
}

// The identifier tokens of a directive's text after its '#' ("define NAME(a) a + 1").
std::vector<std::string> directive_identifiers(std::string_view directive) {
    const DirectiveWords d = directive_words(directive);
    std::vector<std::string> words;
    for (const Token& token : d.words)
        if (token.kind == TokenKind::Identifier) words.emplace_back(token_text(d.rest, token));
    return words;
}

struct MacroDefinitions {
    std::map<std::string, std::vector<std::string>> names_in_replacement;
};

MacroDefinitions macro_definitions(const std::vector<std::string_view>& sources) {
    MacroDefinitions macros;
    for (const std::string_view source : sources)
        for (const Token& token : lex(source)) {
            if (token.kind != TokenKind::Preprocessor) continue;
            std::vector<std::string> words = directive_identifiers(token_text(source, token));
            if (words.size() < 2 || words[0] != "define") continue;
            auto& names = macros.names_in_replacement[words[1]];
            names.insert(names.end(), words.begin() + 2, words.end());
        }
    return macros;
}

// One scan of a file's code tokens at namespace scope, splicing host-only bodies out.
class HostBodyElision {
  public:
    // keep_lines: an elided body leaves its lines blank, so every later line keeps its number.
    HostBodyElision(std::string_view source, const std::set<std::string>& qualifiers,
                    const std::set<std::string>& known_macros, bool keep_lines)
        : source_(source),
          qualifiers_(qualifiers),
          known_macros_(known_macros),
          keep_lines_(keep_lines),
          all_(lex(source)) {
        for (std::size_t i = 0; i < all_.size(); ++i)
            if (is_code(all_[i])) {
                code_.push_back(all_[i]);
                position_.push_back(i);
            }
    }

    std::string run() {
        std::string out;
        std::size_t copied = 0;     // bytes of source_ already in out
        std::size_t statement = 0;  // first code token of the current declaration
        for (std::size_t c = 0; c < code_.size(); ++c) {
            const std::string_view text = at(c);
            if (text == ";" || text == "}") {  // "}": a namespace or extern "C" block ends
                statement = c + 1;
            } else if (text == "(" || text == "[") {
                const std::size_t close = matching_bracket(code_, source_, c);
                if (close == code_.size()) break;
                c = close;
            } else if (text == "{") {
                if (opens_scope(statement, c)) {
                    statement = c + 1;
                    continue;
                }
                const std::size_t close = matching_bracket(code_, source_, c);
                if (close == code_.size()) break;
                if (is_function(statement, c) && host_only(statement, c, close)) {
                    // keep_lines_ (nvcc compiling without the host headers): the declaration
                    // goes too, since its types may be theirs (std::vector<float>&).
                    const std::size_t kept_end =
                        keep_lines_ ? code_[statement].begin : code_[c].end;
                    const std::size_t first = keep_lines_ ? position_[statement] : position_[c] + 1;
                    out.append(source_.substr(copied, kept_end - copied));
                    for (std::size_t i = first; i < position_[close]; ++i) elide(all_[i], out);
                    copied = keep_lines_ ? code_[close].end : code_[close].begin;
                    ++elided_;
                }
                c = close;
                statement = close + 1;
            }
        }
        out.append(source_.substr(copied));
        return out;
    }

    std::size_t elided() const { return elided_; }

  private:
    std::string_view at(std::size_t c) const { return token_text(source_, code_[c]); }

    // A token of an elided function: its directives stay, in order; with keep_lines_ so do its
    // line breaks, the directives taking their own lines' places.
    void elide(const Token& token, std::string& out) const {
        const std::string_view text = token_text(source_, token);
        if (token.kind == TokenKind::Preprocessor) {
            if (!keep_lines_) out.append("\n");
            out.append(text);
            if (!keep_lines_) out.append("\n");
        } else if (keep_lines_) {
            for (const char c : text)
                if (c == '\n') out.push_back('\n');
        }
    }

    // "namespace a {", "inline namespace v1 {", "extern "C" {": declarations continue inside.
    bool opens_scope(std::size_t first, std::size_t brace) const {
        for (std::size_t c = first; c < brace; ++c)
            if (at(c) == "namespace") return true;
        return brace == first + 2 && at(first) == "extern" &&
               code_[first + 1].kind == TokenKind::String;
    }

    // A declarator's ")" right before the body, with no "=" before the parameters (which would
    // make it an initializer: a lambda, a brace-initialized variable).
    bool is_function(std::size_t first, std::size_t brace) const {
        if (brace == first || at(brace - 1) != ")") return false;
        for (std::size_t c = first; c < brace && at(c) != "("; ++c)
            if (at(c) == "=") return false;
        return true;
    }

    bool host_only(std::size_t first, std::size_t brace, std::size_t close) const {
        for (std::size_t c = first; c < brace; ++c) {
            if (code_[c].kind != TokenKind::Identifier) continue;
            const std::string name(at(c));
            if (one_of(name, kDeviceMarkers) || qualifiers_.count(name)) return false;
            if (!known_macros_.count(name) && may_be_unseen_macro(name)) return false;
        }
        for (std::size_t c = brace + 1; c < close; ++c) {  // a __device__ lambda in a host body
            if (code_[c].kind != TokenKind::Identifier) continue;
            const std::string name(at(c));
            if (one_of(name, kDeviceMarkers) || qualifiers_.count(name)) return false;
        }
        return true;
    }

    std::string_view source_;
    const std::set<std::string>& qualifiers_;
    const std::set<std::string>& known_macros_;
    bool keep_lines_;
    std::size_t elided_ = 0;
    std::vector<Token> all_;
    std::vector<Token> code_;
    std::vector<std::size_t> position_;  // of each code token in all_
};

}  // namespace

SeenMacros seen_macros(const std::vector<std::string_view>& sources) {
    const MacroDefinitions macros = macro_definitions(sources);
    std::set<std::string> found;
    for (bool grew = true; grew;) {  // until no macro names a qualifier or a macro found so far
        grew = false;
        for (const auto& [name, names] : macros.names_in_replacement) {
            if (found.count(name)) continue;
            for (const std::string& used : names)
                if (one_of(used, kQualifiers) || found.count(used)) {
                    found.insert(name);
                    grew = true;
                    break;
                }
        }
    }
    SeenMacros seen{found, {}};
    for (const auto& entry : macros.names_in_replacement)
        if (!found.count(entry.first)) seen.others.insert(entry.first);
    return seen;
}

std::string device_relevant_text(std::string_view source, const SeenMacros& macros) {
    return HostBodyElision(source, macros.qualifiers, macros.others, false).run();
}

namespace {

// The file an #include directive names, as written ("vector", "helper_cuda.h"), and whether in
// <...>; nullopt for another directive.
std::optional<std::pair<std::string, bool>> included(const DirectiveWords& d) {
    if (d.word(0) != "include") return std::nullopt;
    const std::string_view first = d.word(1);
    if (first.size() >= 2 && first.front() == '"' && first.back() == '"')
        return std::pair{std::string(first.substr(1, first.size() - 2)), false};
    if (first != "<") return std::nullopt;
    std::string header;
    for (std::size_t w = 2; !d.word(w).empty() && d.word(w) != ">"; ++w) header += d.word(w);
    return std::pair{header, true};
}

// Leaves empty the #include lines of `text` whose file `leave_out(name, angled)` says (each keeps
// its line); returns the files left out, in order.
template <typename LeaveOut>
std::vector<std::string> blank_includes(std::string& text, const LeaveOut& leave_out) {
    std::vector<std::string> blanked;
    const std::vector<Token> tokens = lex(text);
    for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) {
        if (it->kind != TokenKind::Preprocessor) continue;
        const auto include = included(directive_words(token_text(text, *it)));
        if (!include || !leave_out(include->first, include->second)) continue;
        const std::string& header = include->first;
        blanked.insert(blanked.begin(), header);
        text.replace(it->begin, it->end - it->begin, "");
    }
    return blanked;
}

}  // namespace

DeviceOnlyText device_only_text(std::string_view source, const SeenMacros& macros) {
    HostBodyElision elision(source, macros.qualifiers, macros.others, true);
    DeviceOnlyText result{elision.run(), elision.elided(), {}};
    // Re-lexed: the elision moved offsets.
    result.headers = blank_includes(result.text, [](const std::string& header, bool angled) {
        return angled && one_of(header, kHostOnlyHeaders);
    });
    return result;
}

std::string nvrtc_device_text(std::string_view device_only, const std::vector<std::string>& also) {
    std::string text(device_only);
    blank_includes(text, [&also](const std::string& header, bool angled) {
        return (angled && one_of(header, kNvrtcBuiltinHeaders)) ||
               std::find(also.begin(), also.end(), header) != also.end();
    });
    return text;
}

std::vector<std::string> included_files(std::string_view text) {
    std::vector<std::string> files;
    for (const Token& token : lex(text))
        if (token.kind == TokenKind::Preprocessor)
            if (const auto include = included(directive_words(token_text(text, token))))
                files.push_back(include->first);
    return files;
}

std::set<std::string> named_identifiers(std::string_view text) {
    std::set<std::string> names;
    for (const Token& token : lex(text)) {
        if (token.kind == TokenKind::Identifier) names.emplace(token_text(text, token));
        if (token.kind != TokenKind::Preprocessor) continue;
        std::vector<std::string> words = directive_identifiers(token_text(text, token));
        if (!words.empty() && words[0] == "include") continue;  // a file's name, not a macro's
        for (std::string& word : words) names.insert(std::move(word));
    }
    return names;
}

}  // namespace optiml::source
