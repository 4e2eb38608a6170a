#include "driver/llm/guardrail.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::llm {
namespace {

using source::Token;
using source::TokenKind;

[[noreturn]] void refuse(const std::string& reason) {
    throw AnswerRejected("guardrail", reason);
}

// Directives whose name alone breaks the rules.
constexpr std::array<std::string_view, 5> kFileDirectives = {"include", "include_next", "import",
                                                             "embed", "line"};
// Calls only host code (or a process) makes. The CUDA runtime ("cuda" and a capital letter:
// cudaMalloc, cudaMemcpy, cudaLaunchKernel...) and the driver API's families are refused too.
constexpr std::array<std::string_view, 10> kHostCalls = {
    "main", "system", "popen", "fopen", "freopen", "fork", "execv", "execl", "execve", "dlopen"};
constexpr std::array<std::string_view, 10> kDriverApi = {
    "cuInit",   "cuCtx",    "cuDevice", "cuMem",   "cuModule",
    "cuLaunch", "cuStream", "cuEvent",  "cuGraph", "cuLibrary"};

void check_directives(std::string_view code) {
    for (const source::Token& token : source::lex(code)) {
        if (token.kind != source::TokenKind::Preprocessor) continue;
        const std::string_view text = source::token_text(code, token);
        // Its words as the preprocessor reads them: "# /* */ include" and "#\<newline>include"
        // are includes too.
        const source::DirectiveWords directive = source::directive_words(text);
        const std::string word(directive.word(0));
        const std::string where = " (line " + std::to_string(token.line) + " of the answer)";
        if (std::find(kFileDirectives.begin(), kFileDirectives.end(), word) !=
            kFileDirectives.end())
            refuse("the answer adds a #" + word + " directive" + where +
                   "; no directive may read or rename files");
        if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])))
            refuse("the answer adds a line marker" + where + "; no directive may rename files");
        if (word == "pragma" && directive.word(1) == "once")
            refuse("the answer adds #pragma once" + where);
        if (text.find("__has_include") != std::string_view::npos ||
            text.find("__has_embed") != std::string_view::npos)
            refuse("the answer probes files with __has_include" + where);
    }
}

bool is_host_call(std::string_view name) {
    if (std::find(kHostCalls.begin(), kHostCalls.end(), name) != kHostCalls.end()) return true;
    if (name.size() > 4 && name.substr(0, 4) == "cuda" &&
        std::isupper(static_cast<unsigned char>(name[4])))
        return true;
    return std::any_of(kDriverApi.begin(), kDriverApi.end(),
                       [&](std::string_view prefix) { return name.starts_with(prefix); });
}

// Host API calls and kernel launches anywhere in the answer.
void check_calls(std::string_view code, const std::vector<source::Token>& tokens) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view text = source::token_text(code, tokens[i]);
        const std::string line = " (line " + std::to_string(tokens[i].line) + " of the answer)";
        if (text == "<<" && i + 1 < tokens.size() &&
            source::token_text(code, tokens[i + 1]).substr(0, 1) == "<")
            refuse("the answer launches a kernel (<<<...>>>)" + line + ": no host code");
        if (tokens[i].kind == source::TokenKind::Identifier && i + 1 < tokens.size() &&
            source::token_text(code, tokens[i + 1]) == "(" && is_host_call(text))
            refuse("the answer calls " + std::string(text) + line + ": no host code");
    }
}

// The code tokens of [begin, end) of `source` with any __launch_bounds__(...) removed: the
// signature as compared.
std::vector<std::string> signature(std::string_view source, std::size_t begin, std::size_t end) {
    const std::vector<source::Token> tokens =
        source::code_tokens(source.substr(begin, end - begin));
    const std::string_view part = source.substr(begin, end - begin);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view text = source::token_text(part, tokens[i]);
        if (text == "__launch_bounds__" && i + 1 < tokens.size() &&
            source::token_text(part, tokens[i + 1]) == "(") {
            i = source::matching_bracket(tokens, part, i + 1);
            continue;
        }
        out.emplace_back(text);
    }
    return out;
}

std::string spelled(const std::vector<std::string>& tokens) {
    std::string out;
    for (const auto& t : tokens) out += (out.empty() ? "" : " ") + t;
    return out;
}

// Everything at namespace scope other than the kernel must be a __device__ function definition.
void check_namespace_scope(std::string_view code, const std::vector<source::Token>& tokens,
                           const source::KernelText& kernel, std::string_view name) {
    std::size_t item_begin = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view text = source::token_text(code, tokens[i]);
        if (tokens[i].begin >= kernel.declaration_begin && tokens[i].begin < kernel.body_end) {
            if (item_begin < i)
                refuse("the answer has an unterminated declaration at line " +
                       std::to_string(tokens[item_begin].line) + ", before the kernel");
            item_begin = i + 1;
            continue;
        }
        std::size_t end = i;
        if (text == "{")
            end = source::matching_bracket(tokens, code, i);
        else if (text != ";")
            continue;
        if (end >= tokens.size()) refuse("the answer's code does not close its braces");
        bool device = false, host = false, global = false, call = false;
        std::string named;
        for (std::size_t j = item_begin; j < i; ++j) {
            const std::string_view t = source::token_text(code, tokens[j]);
            device = device || t == "__device__";
            host = host || t == "__host__";
            global = global || t == "__global__";
            if (t == "(" && !call && j > item_begin &&
                tokens[j - 1].kind == source::TokenKind::Identifier) {
                call = true;
                named = std::string(source::token_text(code, tokens[j - 1]));
            }
        }
        const std::string where = " at line " + std::to_string(tokens[item_begin].line);
        if (global)
            refuse("the answer adds a second __global__ function" +
                   (named.empty() ? "" : " `" + named + "`") + where + "; only `" +
                   std::string(name) + "` may be defined");
        if (named == "main") refuse("the answer defines main" + where + ": no host code");
        if (text == ";" || !call)
            refuse("the answer adds a namespace-scope declaration" + where +
                   "; only __device__ helper functions may be added beside the kernel");
        if (host || !device)
            refuse("the answer adds a host function `" + named + "`" + where +
                   "; helpers must be __device__ only");
        i = end;
        item_begin = end + 1;
    }
    if (item_begin < tokens.size())
        refuse("the answer ends in an unterminated declaration at line " +
               std::to_string(tokens[item_begin].line));
}

int line_of(std::string_view text, std::size_t offset) {
    return 1 + static_cast<int>(
                   std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

}  // namespace

GuardedKernel guard_answer(std::string_view original, std::string_view name, const Answer& answer) {
    const source::KernelText before = source::find_kernel(original, name);
    const std::string_view code = answer.code;
    const std::vector<source::Token> tokens = source::code_tokens(code);
    const auto globals = std::count_if(tokens.begin(), tokens.end(), [&](const source::Token& t) {
        return source::token_text(code, t) == "__global__";
    });
    source::KernelText after;
    try {
        after = source::find_kernel(code, name);
    } catch (const source::RewriteError& e) {
        refuse("the answer has no single definition of the __global__ kernel `" +
               std::string(name) + "`: " + e.what());
    }
    if (globals > 1) check_namespace_scope(code, tokens, after, name);  // names the second one
    const auto was = signature(original, before.declaration_begin, before.body_begin);
    const auto now = signature(code, after.declaration_begin, after.body_begin);
    if (was != now)
        refuse("the kernel's signature changed: `" + spelled(now) + "` instead of `" +
               spelled(was) + "`; keep the name, qualifiers, parameter types and names");
    check_namespace_scope(code, tokens, after, name);
    check_calls(code, tokens);
    check_directives(code);
    for (std::size_t i = 0; i < answer.changes.size(); ++i)
        if (answer.changes[i].evidence.empty())
            refuse("change " + std::to_string(i + 1) + " (lines " +
                   std::to_string(answer.changes[i].first_line) + "-" +
                   std::to_string(answer.changes[i].last_line) +
                   ") cites no evidence; every change cites an evidence id");

    std::string block(code);
    while (!block.empty() && (block.back() == '\n' || block.back() == ' ')) block.pop_back();
    const std::size_t lead = block.find_first_not_of(" \t\r\n");
    block = lead == std::string::npos ? "" : block.substr(lead);
    GuardedKernel out;
    out.text = std::string(original.substr(0, before.declaration_begin)) + block +
               std::string(original.substr(before.body_end));
    if (out.text == original) refuse("the answer's kernel is the original, unchanged");
    out.first_line = line_of(original, before.declaration_begin);
    out.last_line = out.first_line + static_cast<int>(std::count(block.begin(), block.end(), '\n'));
    return out;
}

}  // namespace optiml::llm
