#include "driver/base/json_field.h"

#include <algorithm>
#include <limits>

namespace optiml::base {
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

}  // namespace

std::string json_field_message(const std::string& file, const std::string& field,
                               const std::string& problem, const std::string& expected) {
    return file + ": " + field + ": " + problem + "; expected " + expected;
}

std::string quote_truncated(const std::string& text) {
    constexpr std::size_t kLimit = 60;
    if (text.size() <= kLimit) return "\"" + text + "\"";
    return "\"" + text.substr(0, kLimit) + "...\"";
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

JsonPath JsonPath::field(std::string_view key) const {
    return JsonPath(file_, path_.empty() ? std::string(key) : path_ + "." + std::string(key),
                    raise_);
}

JsonPath JsonPath::index(std::size_t i) const {
    return JsonPath(file_, path_ + "[" + std::to_string(i) + "]", raise_);
}

JsonPath JsonPath::key(std::string_view key) const {
    return JsonPath(file_, path_ + "[\"" + std::string(key) + "\"]", raise_);
}

void JsonPath::fail(const std::string& problem, const std::string& expected) const {
    const std::string message =
        json_field_message(file_, path_.empty() ? "(file)" : path_, problem, expected);
    if (raise_ != nullptr) raise_(message);
    throw JsonFieldError(message);
}

void JsonField::fail(const std::string& problem, const std::string& expected) const {
    where_.fail(problem, expected);
}

void JsonField::fail_got(const std::string& expected) const {
    fail("got " + describe(json()), expected);
}

void JsonField::expect_object(const std::string& expected) const {
    if (!json().is_object()) fail_got(expected);
}

void JsonField::allow_only(const std::vector<std::string>& allowed) const {
    for (const auto& item : json().items()) {
        // A named reference, not a structured binding: clang 14's lambdas cannot capture those.
        const std::string& key = item.key();
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

bool JsonField::has(std::string_view key) const {
    return json().is_object() && json().contains(key);
}

std::optional<JsonField> JsonField::optional(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return child(key);
}

JsonField JsonField::required(std::string_view key, const std::string& expected) const {
    if (!has(key)) where_.field(key).fail("missing", expected);
    return child(key);
}

JsonField JsonField::child(std::string_view key) const {
    return JsonField(json().find(key).value(), where_.field(key));
}

std::vector<JsonField> JsonField::items(const std::string& expected) const {
    if (!json().is_array()) fail_got(expected);
    std::vector<JsonField> fields;
    for (std::size_t i = 0; i < json().size(); ++i) fields.emplace_back(json()[i], where_.index(i));
    return fields;
}

std::string JsonField::string(const std::string& expected) const {
    if (!json().is_string()) fail_got(expected);
    return json().get_ref<const std::string&>();
}

bool JsonField::boolean(const std::string& expected) const {
    if (!json().is_boolean()) fail_got(expected);
    return json().get<bool>();
}

double JsonField::number(const std::string& expected) const {
    if (!json().is_number()) fail_got(expected);
    return json().get<double>();
}

std::int64_t JsonField::integer(const std::string& expected) const {
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

std::uint64_t JsonField::unsigned_integer(const std::string& expected) const {
    // nlohmann stores non-negative integers from a parser as unsigned, from C++ code as signed.
    if (json().is_number_unsigned()) return json().get<std::uint64_t>();
    if (!json().is_number_integer() || json().get<std::int64_t>() < 0) fail_got(expected);
    return static_cast<std::uint64_t>(json().get<std::int64_t>());
}

}  // namespace optiml::base
