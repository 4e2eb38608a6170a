// Typed access to spec JSON with uniform error messages.
#include "driver/spec/detail/json_field.h"

#include <algorithm>
#include <limits>

#include "driver/spec/spec.h"

namespace optiml::spec::detail {
namespace {

// Edit distance, to suggest the field a typo meant.
std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string quote_truncated(const std::string& text) {
    constexpr std::size_t kLimit = 60;
    if (text.size() <= kLimit) return "\"" + text + "\"";
    return "\"" + text.substr(0, kLimit) + "...\"";
}

}  // namespace

void fail(const std::string& file, const std::string& field, const std::string& problem,
          const std::string& expected) {
    throw SpecError(file + ": " + field + ": " + problem + "; expected " + expected);
}

std::string describe(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::string:
            return "the string " + quote_truncated(value.get_ref<const std::string&>());
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float:
        case nlohmann::json::value_t::boolean:
        case nlohmann::json::value_t::null:
            return value.dump();
        case nlohmann::json::value_t::array:
            return "an array";
        case nlohmann::json::value_t::object:
            return "an object";
        default:
            break;
    }
    return "a value of another kind";
}

std::string join_or(const std::vector<std::string>& items, const std::string& none) {
    if (items.empty()) return none;
    std::string text = items.front();
    for (std::size_t i = 1; i < items.size(); ++i) {
        text += (i + 1 == items.size() ? " or " : ", ") + items[i];
    }
    return text;
}

void Field::fail(const std::string& problem, const std::string& expected) const {
    detail::fail(file(), path_, problem, expected);
}

void Field::fail_got(const std::string& expected) const {
    fail("got " + describe(json()), expected);
}

void Field::expect_object(const std::string& expected) const {
    if (!json().is_object()) fail_got(expected);
}

void Field::allow_only(const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : json().items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::vector<std::string> sorted = allowed;
        std::sort(sorted.begin(), sorted.end());
        std::string hint;
        const auto closest = std::min_element(
            sorted.begin(), sorted.end(),
            [&](const auto& a, const auto& b) { return distance(key, a) < distance(key, b); });
        // A hint only for near misses: "paramters" -> "parameters", not "mean" -> "max".
        if (closest != sorted.end() &&
            distance(key, *closest) <= std::max<std::size_t>(1, key.size() / 4))
            hint = " (did you mean '" + *closest + "'?)";
        std::string list;
        for (const std::string& name : sorted) list += (list.empty() ? "" : ", ") + name;
        child(key).fail("unknown field '" + key + "'" + hint, "one of " + list);
    }
}

bool Field::has(std::string_view key) const {
    return json().is_object() && json().contains(key);
}

std::optional<Field> Field::optional(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return child(key);
}

Field Field::required(std::string_view key, const std::string& expected) const {
    if (!has(key)) {
        const std::string child_path =
            path_.empty() ? std::string(key) : path_ + "." + std::string(key);
        detail::fail(file(), child_path, "missing", expected);
    }
    return child(key);
}

Field Field::child(std::string_view key) const {
    const std::string child_path =
        path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    return Field(json().find(key).value(), child_path, file());
}

std::vector<Field> Field::items(const std::string& expected) const {
    if (!json().is_array()) fail_got(expected);
    std::vector<Field> fields;
    for (std::size_t i = 0; i < json().size(); ++i) {
        fields.emplace_back(json()[i], path_ + "[" + std::to_string(i) + "]", file());
    }
    return fields;
}

std::string Field::string(const std::string& expected) const {
    if (!json().is_string()) fail_got(expected);
    return json().get_ref<const std::string&>();
}

bool Field::boolean(const std::string& expected) const {
    if (!json().is_boolean()) fail_got(expected);
    return json().get<bool>();
}

double Field::number(const std::string& expected) const {
    if (!json().is_number()) fail_got(expected);
    return json().get<double>();
}

std::int64_t Field::integer(const std::string& expected) const {
    if (json().is_number_unsigned()) {
        if (json().get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail_got(expected);
        }
        return static_cast<std::int64_t>(json().get<std::uint64_t>());
    }
    if (!json().is_number_integer()) fail_got(expected);
    return json().get<std::int64_t>();
}

std::uint64_t Field::unsigned_integer(const std::string& expected) const {
    // nlohmann stores non-negative integers from a parser as unsigned, from C++ code as signed.
    if (json().is_number_unsigned()) return json().get<std::uint64_t>();
    if (!json().is_number_integer() || json().get<std::int64_t>() < 0) fail_got(expected);
    return static_cast<std::uint64_t>(json().get<std::int64_t>());
}

expr::Expr Field::expression(const std::string& expected) const {
    if (json().is_string()) {
        const std::string& text = json().get_ref<const std::string&>();
        try {
            return expr::Expr::parse(text);
        } catch (const expr::ExprError& error) {
            // The parser's message already ends with "; expected ...".
            throw SpecError(file() + ": " + path_ + ": bad expression " + quote_truncated(text) +
                            ": " + error.what());
        }
    }
    if (json().is_number_integer() &&
        !(json().is_number_unsigned() &&
          json().get<std::uint64_t>() >
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
        return expr::Expr::literal(json().get<std::int64_t>());
    }
    fail_got(expected);
}

}  // namespace optiml::spec::detail
