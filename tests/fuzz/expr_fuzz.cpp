// The spec's expression language: the bytes as an expression, parsed, then (when it parses)
// evaluated with a few names bound to edge values (0, -1, the int64 extremes), printed as C++ and
// its names listed. Bad syntax, an unknown name, a division by zero and an overflow must each be
// one expr::ExprError; anything else (another exception, a crash, undefined behaviour that
// UBSan reports, a hang on deep nesting) is a finding.
#include "driver/spec/expr.h"
#include "fuzz_support.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace {

const optiml::expr::Env& environment() {
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
    static const optiml::expr::Env env = {
        {"N", 4096},
        {"n", 1000},
        {"a", 3},
        {"b", -7},
        {"x", 0},
        {"one", 1},
        {"minus_one", -1},
        {"big", max},
        {"small", min},
        {"block_size_x", 32},
        {"block_size_y", 8},
        {"tile_size_x", 4},
        {"tile_size_y", 2},
        {"tile_k", 16},
        {"use_shared_mem", 1},
    };
    return env;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace optiml;
    const std::string text(fuzz::as_text(data, size));
    expr::Expr parsed;
    try {
        parsed = expr::Expr::parse(text);
    } catch (const expr::ExprError&) {
        return 0;
    }
    if (parsed.text() != text) fuzz::finding("the parsed expression's text is not its source");

    const expr::Env& env = environment();
    const std::vector<std::string> names = parsed.names();
    if (!std::is_sorted(names.begin(), names.end()) ||
        std::adjacent_find(names.begin(), names.end()) != names.end())
        fuzz::finding("names() is not sorted and unique");
    try {
        parsed.eval(env);
    } catch (const expr::ExprError& error) {
        // An unknown name must be named; the other errors quote the expression's text.
        const std::string message = error.what();
        if (message.starts_with("unknown name '")) {
            const bool named = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
                return !env.contains(n) && message == "unknown name '" + n + "'";
            });
            if (!named)
                fuzz::finding("an unknown-name error for a name it does not hold: " + message);
        }
    }

    // Printing: every name resolved, then none (the first name must be reported).
    try {
        const std::string cpp =
            parsed.to_cpp([](std::string_view name) { return std::optional<std::string>(name); });
        if (cpp.empty()) fuzz::finding("an empty C++ rendering of '" + text + "'");
    } catch (const expr::ExprError& error) {
        fuzz::finding(std::string("to_cpp failed with every name resolved: ") + error.what());
    }
    if (!names.empty()) {
        try {
            parsed.to_cpp([](std::string_view) { return std::optional<std::string>(); });
            fuzz::finding("to_cpp resolved names that the resolver refused");
        } catch (const expr::ExprError& error) {
            if (!std::string(error.what()).starts_with("unknown name '"))
                fuzz::finding(std::string("to_cpp: an unexpected error: ") + error.what());
        }
    }
    return 0;
}
